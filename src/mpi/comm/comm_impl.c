/*
 * The predefined communicators.
 *
 * Until the runtime issue brings real process groups, MPI_COMM_WORLD and MPI_COMM_SELF are two
 * static records that both hold just the calling process. Everything else reaches them through
 * MPIR_Comm_lookup, so replacing these records with pooled communicators changes only this file.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"

static MPIR_Comm comm_world = {
    .obj = { .handle = MPI_COMM_WORLD, .ref_count = 1 },
    .rank = 0, .size = 1,
    .errhandler = MPI_ERRORS_ARE_FATAL,
    .name = "MPI_COMM_WORLD",
};

static MPIR_Comm comm_self = {
    .obj = { .handle = MPI_COMM_SELF, .ref_count = 1 },
    .rank = 0, .size = 1,
    .errhandler = MPI_ERRORS_ARE_FATAL,
    .name = "MPI_COMM_SELF",
};

MPIR_Comm *MPIR_Comm_lookup(MPI_Comm comm)
{
    if (comm == MPI_COMM_WORLD)
        return &comm_world;
    if (comm == MPI_COMM_SELF)
        return &comm_self;
    return NULL;
}

int MPIR_Comm_rank_impl(MPI_Comm comm, int *rank)
{
    *rank = MPIR_Comm_lookup(comm)->rank;
    return MPI_SUCCESS;
}

int MPIR_Comm_size_impl(MPI_Comm comm, int *size)
{
    *size = MPIR_Comm_lookup(comm)->size;
    return MPI_SUCCESS;
}
