/*
 * Size, bounds and address queries. The bindings have validated the handles; MPI_Type_size of a
 * predefined type is answered from the handle alone.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"

int MPIR_Type_size_impl(MPI_Datatype datatype, MPI_Count *size)
{
    if (MPID_Datatype_is_builtin(datatype))
        *size = ((unsigned) datatype >> 8) & 0xff;
    else
        *size = MPID_Datatype_get(datatype)->size;
    return MPI_SUCCESS;
}

int MPIR_Type_get_extent_impl(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    const MPID_Datatype *dt = MPID_Datatype_get(datatype);
    *lb = dt->lb;
    *extent = dt->extent;
    return MPI_SUCCESS;
}

int MPIR_Type_get_true_extent_impl(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
    const MPID_Datatype *dt = MPID_Datatype_get(datatype);
    *true_lb = dt->true_lb;
    *true_extent = dt->true_ub - dt->true_lb;
    return MPI_SUCCESS;
}

/* The MPI-1 queries removed in MPI-3, kept for old programs. */
int MPIR_Type_extent_impl(MPI_Datatype datatype, MPI_Aint *extent)
{
    *extent = MPID_Datatype_get(datatype)->extent;
    return MPI_SUCCESS;
}

int MPIR_Type_lb_impl(MPI_Datatype datatype, MPI_Aint *displacement)
{
    *displacement = MPID_Datatype_get(datatype)->lb;
    return MPI_SUCCESS;
}

int MPIR_Type_ub_impl(MPI_Datatype datatype, MPI_Aint *displacement)
{
    *displacement = MPID_Datatype_get(datatype)->ub;
    return MPI_SUCCESS;
}

int MPIR_Get_address_impl(const void *location, MPI_Aint *address)
{
    *address = (MPI_Aint) (uintptr_t) location;
    return MPI_SUCCESS;
}

MPI_Aint MPIR_Aint_add_impl(MPI_Aint base, MPI_Aint disp)
{
    return (MPI_Aint) ((uintptr_t) base + (uintptr_t) disp);
}

MPI_Aint MPIR_Aint_diff_impl(MPI_Aint addr1, MPI_Aint addr2)
{
    return (MPI_Aint) ((uintptr_t) addr1 - (uintptr_t) addr2);
}
