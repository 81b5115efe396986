/* Everything the library's own sources need. */
#ifndef MPIIMPL_H_INCLUDED
#define MPIIMPL_H_INCLUDED

#include "loom_config.h"
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "mpi.h"
#include "mpir_object.h"
#include "mpir_err.h"
#include "mpir_process.h"
#include "mpir_attr.h"
#include "mpid_datatype.h"

/* Copies n ints into a new array of MPI_Count (for the int bindings of large-count functions). */
int MPIR_Widen_ints(const int *src, MPI_Count n, MPI_Count **dst);

/* Overflow-checked arithmetic on sizes and displacements. */
static inline bool MPIR_Mul_overflows(int64_t a, int64_t b, int64_t *r) { return __builtin_mul_overflow(a, b, r); }
static inline bool MPIR_Add_overflows(int64_t a, int64_t b, int64_t *r) { return __builtin_add_overflow(a, b, r); }

#endif
