/*
 * Communicator names: MPI_Comm_set_name and MPI_Comm_get_name (seed 001: "Naming objects").
 *
 * The name lives in the record (MPI_MAX_OBJECT_NAME bytes). MPI_COMM_WORLD and MPI_COMM_SELF are
 * born with their own names; every other communicator starts unnamed (""), and MPI_Comm_dup does
 * not copy names. As for datatypes, too long a name is truncated and trailing blanks are dropped
 * (leading ones are significant). Names are local: no process learns another's.
 */
#include "comm.h"

int MPIR_Comm_set_name_impl(MPI_Comm comm, const char *comm_name)
{
    MPIR_Name_set(MPIR_Comm_lookup(comm)->name, comm_name);
    return MPI_SUCCESS;
}

int MPIR_Comm_get_name_impl(MPI_Comm comm, char *comm_name, int *resultlen)
{
    *resultlen = MPIR_Name_get(MPIR_Comm_lookup(comm)->name, comm_name);
    return MPI_SUCCESS;
}
