/*
 * Info hints of communicators: MPI_Comm_set_info and MPI_Comm_get_info (MPI 4.1 7.4.4); the dup
 * calls (comm_create.c) copy them.
 *
 * No hint changes how a communicator behaves here, so every hint is accepted, kept in a private
 * info object of the communicator, and returned by MPI_Comm_get_info as it was set. MPI_Comm_set_info
 * updates the keys it names and leaves the others as they were, as the standard says.
 */
#include "comm.h"

/* Copies the value of key from src into dst. */
static int copy_key(MPI_Info src, MPI_Info dst, const char *key)
{
    int len = 0, flag = 0;
    int err = MPIR_Info_get_valuelen_impl(src, key, &len, &flag);
    if (err || !flag)
        return err;
    char *value = malloc((size_t) len + 1);
    MPIR_CHKMEM(value);
    err = MPIR_Info_get_impl(src, key, len, value, &flag);
    if (err == MPI_SUCCESS)
        err = MPIR_Info_set_impl(dst, key, value);
    free(value);
    return err;
}

int MPIR_Comm_info_merge(MPIR_Comm *comm, MPI_Info info)
{
    if (info == MPI_INFO_NULL)
        return MPI_SUCCESS;
    int nkeys, err = MPIR_Info_get_nkeys_impl(info, &nkeys);
    if (err || nkeys == 0)
        return err;
    if (comm->info == 0 && (err = MPIR_Info_create_impl(&comm->info)) != MPI_SUCCESS) {
        comm->info = 0;
        return err;
    }
    for (int i = 0; i < nkeys && err == MPI_SUCCESS; i++) {
        char key[MPI_MAX_INFO_KEY];
        err = MPIR_Info_get_nthkey_impl(info, i, key);
        if (err == MPI_SUCCESS)
            err = copy_key(info, comm->info, key);
    }
    return err;
}

void MPIR_Comm_info_free(MPIR_Comm *comm)
{
    if (comm->info)
        MPIR_Info_free_impl(&comm->info);
    comm->info = 0;
}

int MPIR_Comm_set_info_impl(MPI_Comm comm, MPI_Info info)
{
    return MPIR_Comm_info_merge(MPIR_Comm_lookup(comm), info);
}

/* A new info object the user owns, with every hint of comm (none: an empty one). */
int MPIR_Comm_get_info_impl(MPI_Comm comm, MPI_Info *info_used)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    return c->info ? MPIR_Info_dup_impl(c->info, info_used) : MPIR_Info_create_impl(info_used);
}
