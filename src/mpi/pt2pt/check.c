/*
 * The arguments of point-to-point calls that only a communicator can judge: ranks and tags.
 */
#include "pt2pt.h"

/* Point-to-point ranks address the remote group of an intercommunicator. */
static int peer_count(const MPIR_Comm *comm)
{
    return comm->is_inter ? comm->remote_size : comm->size;
}

static int check_rank(const MPIR_Comm *comm, int rank, const char *what, bool any_ok)
{
    if (rank == MPI_PROC_NULL || (any_ok && rank == MPI_ANY_SOURCE))
        return MPI_SUCCESS;
    int n = peer_count(comm);
    if (rank < 0 || rank >= n)
        return MPIR_Err(MPI_ERR_RANK, "invalid %s %d: the %scommunicator has %d process%s (ranks 0..%d)%s",
                        what, rank, comm->is_inter ? "remote group of the inter" : "", n, n == 1 ? "" : "es",
                        n - 1, any_ok ? ", or MPI_ANY_SOURCE or MPI_PROC_NULL" : ", or MPI_PROC_NULL");
    return MPI_SUCCESS;
}

int MPIR_Pt2pt_check_dest(const MPIR_Comm *comm, int dest)
{
    return check_rank(comm, dest, "destination rank", false);
}

int MPIR_Pt2pt_check_source(const MPIR_Comm *comm, int source)
{
    return check_rank(comm, source, "source rank", true);
}

int MPIR_Pt2pt_check_tag(int tag, bool is_recv)
{
    if ((tag >= 0 && tag <= MPIR_TAG_UB) || (is_recv && tag == MPI_ANY_TAG))
        return MPI_SUCCESS;
    return MPIR_Err(MPI_ERR_TAG, "invalid tag %d: must be in 0..%d (MPI_TAG_UB)%s", tag, MPIR_TAG_UB,
                    is_recv ? " or MPI_ANY_TAG" : "");
}
