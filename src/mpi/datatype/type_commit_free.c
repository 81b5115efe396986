/*
 * Commit and free. Commit builds the dataloop and marks the type usable for communication. Free
 * drops the user's handle; the record lives on while parents or pending operations hold references.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"
#include "mpid_dataloop.h"

int MPIR_Type_commit_impl(MPI_Datatype *datatype)
{
    MPID_Datatype *dt = MPID_Datatype_get(*datatype);
    int err;
    if (!MPID_Datatype_loop(dt, &err))
        return err;
    dt->is_committed = 1;
    return MPI_SUCCESS;
}

int MPIR_Type_free_impl(MPI_Datatype *datatype)
{
    int err = MPID_Datatype_user_free(MPID_Datatype_get(*datatype));
    if (err == MPI_SUCCESS)
        *datatype = MPI_DATATYPE_NULL;
    return err;
}
