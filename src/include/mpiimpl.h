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
#include "mpir_status.h"
#include "mpir_info.h"
#include "mpir_win.h"
#include "mpir_request.h"
#include "mpid_device.h"
#include "mpir_op.h"
#include "mpir_coll.h"

/* Displacements and counts share the 64-bit integer arithmetic of the engine. */
_Static_assert(sizeof(MPI_Aint) == 8 && sizeof(MPI_Count) == 8 && sizeof(int64_t) == 8,
               "MPI_Aint and MPI_Count must be 64-bit");

/* Code added after the copy kernels were tuned goes in a section that the linker puts after all
 * other code, so that it moves none of the kernels measured where they sit: the same bytes of a
 * kernel a little further on run up to a third slower or faster on Zen 4 (copy_kernels.c). */
#define MPIR_LATE __attribute__((section("loom_late_text")))

/* Calls fn(arg) on a stack deep enough for a recursion depth levels deep (on the caller's own stack
 * below MPIR_DEEP_THRESHOLD levels). Fails only if no such stack can be had. */
#define MPIR_DEEP_THRESHOLD 256
int MPIR_Run_deep(int depth, void (*fn)(void *), void *arg);

/* The alignment of memory from MPI_Alloc_mem with info (its mpi_minimum_memory_alignment, at
 * least a cache line). */
size_t MPIR_Alloc_mem_alignment(MPI_Info info);

/* Object names (datatypes, communicators, windows): set truncates and drops trailing blanks; get
 * copies the name out and returns its length. */
void MPIR_Name_set(char *stored, const char *name);
int MPIR_Name_get(const char *stored, char *out);

/* Room for element n of a growable array of *cap elements of elem bytes: the array itself, or
 * when it is full a copy twice as large (16 at first; *cap updated); NULL if out of memory, with
 * the array unchanged. */
static inline void *MPIR_Array_reserve(void *array, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return array;
    size_t grown = *cap ? 2 * *cap : 16;
    void *p = grown <= SIZE_MAX / elem ? realloc(array, grown * elem) : NULL;
    if (p)
        *cap = grown;
    return p;
}

/* Copies n ints into a new array of MPI_Count (for the int bindings of large-count functions). */
int MPIR_Widen_ints(const int *src, MPI_Count n, MPI_Count **dst);

/* A user's array of counts or displacements as the binding got it: int elements (the classic
 * function) or MPI_Count ones (its _c twin); exactly one is set. Passed where the implementation
 * records the array anyway and can widen it on the way (gen_binding.py's count_arrays). */
typedef struct {
    const int *ints;
    const MPI_Count *counts;
} MPIR_Count_array;

/* The same for the displacements of the v/w collectives: int elements or MPI_Aint ones; both NULL
 * when the user's array is NULL or not significant. */
typedef struct {
    const int *ints;
    const MPI_Aint *aints;
} MPIR_Aint_array;

static inline bool MPIR_Count_array_is_null(MPIR_Count_array a) { return !a.ints && !a.counts; }
static inline bool MPIR_Aint_array_is_null(MPIR_Aint_array a) { return !a.ints && !a.aints; }
static inline MPI_Count MPIR_Count_array_at(MPIR_Count_array a, MPI_Count i) { return a.ints ? a.ints[i] : a.counts[i]; }
static inline MPI_Aint MPIR_Aint_array_at(MPIR_Aint_array a, MPI_Count i) { return a.ints ? a.ints[i] : a.aints[i]; }

/* Copies the first n elements of a into dst, widened. */
static inline void MPIR_Count_array_copy(int64_t *dst, MPIR_Count_array a, MPI_Count n)
{
    if (a.ints)
        for (MPI_Count i = 0; i < n; i++)
            dst[i] = a.ints[i];
    else if (n > 0)   /* the array may be NULL when empty */
        memcpy(dst, a.counts, (size_t) n * sizeof *dst);
}

/* Overflow-checked arithmetic on sizes and displacements: true when *r could not hold the result. */
#define MPIR_Mul_overflows(a, b, r) __builtin_mul_overflow((a), (b), (r))
#define MPIR_Add_overflows(a, b, r) __builtin_add_overflow((a), (b), (r))
#define MPIR_Sub_overflows(a, b, r) __builtin_sub_overflow((a), (b), (r))

#endif
