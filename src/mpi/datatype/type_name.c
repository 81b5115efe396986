/*
 * Datatype names: MPI_Type_set_name and MPI_Type_get_name.
 *
 * The name lives in the record itself (MPID_Datatype.name, MPI_MAX_OBJECT_NAME bytes). Predefined
 * records get their standard names from MPID_Builtin_init; derived records start empty, and
 * MPI_Type_dup does not copy the name (the standard says names are not inherited). The user may
 * rename predefined types too: the standard allows it.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"

/* One lock for every name: names change rarely, and the lock keeps a reader from seeing half of a
 * name being written by another thread (a user race, but it must not give garbage). */

int MPIR_Type_set_name_impl(MPI_Datatype datatype, const char *type_name)
{
    MPIR_Name_set(MPID_Datatype_get(datatype)->name, type_name);
    return MPI_SUCCESS;
}

int MPIR_Type_get_name_impl(MPI_Datatype datatype, char *type_name, int *resultlen)
{
    /* The binding lets MPI_DATATYPE_NULL through: it has a name of its own, like every
     * predefined handle. */
    if (datatype == MPI_DATATYPE_NULL) {
        static const char null_name[] = "MPI_DATATYPE_NULL";
        memcpy(type_name, null_name, sizeof null_name);
        *resultlen = (int) sizeof null_name - 1;
        return MPI_SUCCESS;
    }

    *resultlen = MPIR_Name_get(MPID_Datatype_get(datatype)->name, type_name);
    return MPI_SUCCESS;
}
