/*
 * MPI_Bcast: a binomial tree rooted at root. With ranks renumbered so that the root is 0, rank r
 * receives from r minus its lowest set bit and then sends to r + 2^k for every 2^k below that bit;
 * the data reaches all ranks in ceil(log2 size) rounds, straight into the user's typed buffer.
 */
#include "coll_util.h"
#include "mpir_impl_proto.h"

static int bcast(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPIR_Comm *c)
{
    int n = c->size, rel = (c->rank - root + n) % n, mask = 1, recv_err = MPI_SUCCESS, err = MPI_SUCCESS;
    for (; mask < n; mask <<= 1)
        if (rel & mask) {
            recv_err = MPIR_Coll_recv(buffer, count, datatype, (c->rank - mask + n) % n, MPIR_TAG_BCAST, c);
            break;
        }

    /* a receive that failed (truncated: the counts differ) still passes on what it got, so that
     * the ranks below report their own errors instead of waiting forever */
    MPIR_Request *reqs[32] = { NULL };      /* one per bit of an int rank */
    int nreq = 0;
    for (mask >>= 1; mask > 0 && err == MPI_SUCCESS; mask >>= 1)
        if (rel + mask < n)
            err = MPIR_Coll_isend(buffer, count, datatype, (c->rank + mask) % n, MPIR_TAG_BCAST, c,
                                  &reqs[nreq++]);
    int werr = MPIR_Coll_waitall(nreq, reqs);
    return recv_err ? recv_err : err ? err : werr;
}

int MPIR_Bcast_impl(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    MPIR_Comm *c;
    int err = MPIR_Coll_comm(comm, &c);
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_root(root, c);
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_data("buffer", buffer, "count", count, "datatype", datatype, -1);
    if (err || c->size == 1)
        return err;
    return bcast(buffer, count, datatype, root, c);
}
