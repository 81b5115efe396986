/*
 * MPI_Bcast and MPI_Ibcast: a binomial tree rooted at root. With ranks renumbered so that the root
 * is 0, rank r receives from r minus its lowest set bit and then sends to r + 2^k for every 2^k
 * below that bit; the data reaches all ranks in ceil(log2 size) rounds, straight into the user's
 * typed buffer. (A receive that fails, truncated because the counts differ, still passes on what
 * it got, so that the ranks below report their own errors instead of waiting forever.)
 */
#include "coll_inter.h"
#include "mpir_impl_proto.h"

static void build(MPIR_Sched *s, void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPIR_Comm *c)
{
    int n = c->size, rel = (c->rank - root + n) % n, mask = 1;
    for (; mask < n; mask <<= 1)
        if (rel & mask) {
            MPIR_Sched_recv(s, buffer, count, datatype, (c->rank - mask + n) % n);
            MPIR_Sched_barrier(s);
            break;
        }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rel + mask < n)
            MPIR_Sched_send(s, buffer, count, datatype, (c->rank + mask) % n);
}

static int bcast(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    MPIR_Comm *c = MPIR_Coll_inter(comm);
    if (c)
        return MPIR_Inter_bcast(buffer, count, datatype, root, c, request);
    int err = MPIR_Coll_comm(comm, &c);
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_root(root, c);
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_data("buffer", buffer, "count", count, "datatype", datatype, -1);
    if (err || (c->size == 1 && !request))
        return err;
    MPIR_Sched *s = MPIR_Sched_for(c, MPIR_TAG_BCAST, request);
    build(s, buffer, count, datatype, root, c);
    return MPIR_Sched_finish(s, request);
}

int MPIR_Bcast_impl(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return bcast(buffer, count, datatype, root, comm, NULL);
}

int MPIR_Ibcast_impl(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                     MPI_Request *request)
{
    return bcast(buffer, count, datatype, root, comm, request);
}
