/* The loops behind the predefined operations (op_kernels.c). */
#ifndef OP_KERNELS_H_INCLUDED
#define OP_KERNELS_H_INCLUDED

#include "mpi.h"

/* inout[i] = in[i] op inout[i] for n elements of one predefined type, in its C layout. */
typedef void MPIR_Op_kernel(const void *in, void *inout, MPI_Count n);

/* The kernel of a predefined operation (MPI_MAX .. MPI_MAXLOC) on a predefined type, or NULL
 * when MPI 4.1 section 6.9.2 does not define the operation on that type. */
MPIR_Op_kernel *MPIR_Op_kernel_for(MPI_Op op, MPI_Datatype type);

#endif
