/*
 * MPI_Barrier: the dissemination algorithm. In round k every rank signals rank + 2^k and waits for
 * rank - 2^k (mod size); after ceil(log2 size) rounds each rank has heard, directly or through
 * others, from every rank, so none leaves before all have arrived.
 */
#include "coll_util.h"
#include "mpir_impl_proto.h"

int MPIR_Barrier_impl(MPI_Comm comm)
{
    MPIR_Comm *c;
    int err = MPIR_Coll_comm(comm, &c);
    for (int k = 1; err == MPI_SUCCESS && k < c->size; k <<= 1)
        err = MPIR_Coll_sendrecv(NULL, 0, MPI_BYTE, (c->rank + k) % c->size, NULL, 0, MPI_BYTE,
                                 (c->rank - k + c->size) % c->size, MPIR_TAG_BARRIER, c);
    return err;
}
