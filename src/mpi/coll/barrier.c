/*
 * MPI_Barrier and MPI_Ibarrier: the dissemination algorithm. In round k every rank signals
 * rank + 2^k and waits for rank - 2^k (mod size); after ceil(log2 size) rounds each rank has heard,
 * directly or through others, from every rank, so none leaves before all have arrived.
 */
#include "coll_inter.h"
#include "mpir_impl_proto.h"

static int barrier(MPI_Comm comm, MPI_Request *request)
{
    MPIR_Comm *c = MPIR_Coll_inter(comm);
    if (c)
        return MPIR_Inter_barrier(c, request);
    int err = MPIR_Coll_comm(comm, &c);
    if (err)
        return err;
    MPIR_Sched *s = MPIR_Sched_for(c, MPIR_TAG_BARRIER, request);
    for (int k = 1; k < c->size; k <<= 1) {
        MPIR_Sched_send(s, NULL, 0, MPI_BYTE, (c->rank + k) % c->size);
        MPIR_Sched_recv(s, NULL, 0, MPI_BYTE, (c->rank - k + c->size) % c->size);
        MPIR_Sched_barrier(s);
    }
    return MPIR_Sched_finish(s, request);
}

int MPIR_Barrier_impl(MPI_Comm comm)
{
    return barrier(comm, NULL);
}

int MPIR_Ibarrier_impl(MPI_Comm comm, MPI_Request *request)
{
    return barrier(comm, request);
}
