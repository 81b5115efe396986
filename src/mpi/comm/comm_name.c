/*
 * Communicator names: MPI_Comm_set_name and MPI_Comm_get_name (seed 001: "Naming objects").
 *
 * The name lives in the record (MPI_MAX_OBJECT_NAME bytes). MPI_COMM_WORLD and MPI_COMM_SELF are
 * born with their own names; every other communicator starts unnamed (""), and MPI_Comm_dup does
 * not copy names. As for datatypes, too long a name is truncated and trailing blanks are dropped
 * (leading ones are significant). Names are local: no process learns another's.
 */
#include "comm.h"

static pthread_mutex_t name_lock = PTHREAD_MUTEX_INITIALIZER;

int MPIR_Comm_set_name_impl(MPI_Comm comm, const char *comm_name)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    size_t len = strnlen(comm_name, MPI_MAX_OBJECT_NAME - 1);
    while (len > 0 && comm_name[len - 1] == ' ')
        len--;
    pthread_mutex_lock(&name_lock);
    memcpy(c->name, comm_name, len);
    c->name[len] = '\0';
    pthread_mutex_unlock(&name_lock);
    return MPI_SUCCESS;
}

int MPIR_Comm_get_name_impl(MPI_Comm comm, char *comm_name, int *resultlen)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    pthread_mutex_lock(&name_lock);
    size_t len = strnlen(c->name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(comm_name, c->name, len);
    pthread_mutex_unlock(&name_lock);
    comm_name[len] = '\0';
    *resultlen = (int) len;
    return MPI_SUCCESS;
}
