/*
 * MPI_Allreduce and MPI_Iallreduce: recursive doubling, in rank order so that non-commutative
 * operations work.
 *
 *   1. With p the largest power of two <= size and r = size - p, the first 2r ranks pair up: each
 *      even rank sends its value to the odd rank above it, which combines "even op odd" and stands
 *      for both. The p remaining ranks each stand for a run of consecutive ranks, in order.
 *   2. Those p ranks exchange with the partner whose number differs in bit k, k = 0, 1, ...; the
 *      lower one's accumulation goes first in the combination. After log2 p rounds all hold the
 *      result.
 *   3. The odd ranks of step 1 send the result back to their even partners.
 */
#include "coll_inter.h"
#include "mpir_impl_proto.h"

static void build(MPIR_Sched *s, const void *input, void *recvbuf, MPI_Count count, MPI_Datatype type, MPI_Op op,
                  MPIR_Comm *c)
{
    if (c->size == 1) {
        if (input != recvbuf)
            MPIR_Sched_copy(s, input, count, type, recvbuf, count, type);
        return;
    }
    int n = c->size, rank = c->rank, p = 1;
    while (p * 2 <= n)
        p *= 2;
    int r = n - p, newrank;
    void *acc = MPIR_Sched_tmpbuf(s, count, type), *tmp = MPIR_Sched_tmpbuf(s, count, type);
    MPIR_Sched_copy(s, input, count, type, acc, count, type);

    /* step 1 */
    if (rank < 2 * r && rank % 2 == 0) {
        MPIR_Sched_send(s, acc, count, type, rank + 1);
        newrank = -1;
    } else if (rank < 2 * r) {
        MPIR_Sched_recv(s, tmp, count, type, rank - 1);
        MPIR_Sched_barrier(s);
        MPIR_Sched_reduce(s, tmp, acc, count, type, op);     /* acc = lower op acc */
        newrank = rank / 2;
    } else {
        newrank = rank - r;
    }

    /* step 2 */
    for (int mask = 1; newrank >= 0 && mask < p; mask <<= 1) {
        int partner_new = newrank ^ mask;
        int partner = partner_new < r ? partner_new * 2 + 1 : partner_new + r;
        MPIR_Sched_send(s, acc, count, type, partner);
        MPIR_Sched_recv(s, tmp, count, type, partner);
        MPIR_Sched_barrier(s);
        if (partner < rank) {
            MPIR_Sched_reduce(s, tmp, acc, count, type, op);     /* acc = theirs op acc */
        } else {
            MPIR_Sched_reduce(s, acc, tmp, count, type, op);     /* tmp = acc op theirs */
            void *t = acc;
            acc = tmp;
            tmp = t;
        }
    }

    /* step 3 */
    MPIR_Sched_barrier(s);
    if (rank < 2 * r && rank % 2)
        MPIR_Sched_send(s, acc, count, type, rank - 1);
    else if (rank < 2 * r)
        MPIR_Sched_recv(s, acc, count, type, rank + 1);
    MPIR_Sched_barrier(s);
    MPIR_Sched_copy(s, acc, count, type, recvbuf, count, type);
}

static int allreduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm, MPI_Request *request)
{
    MPIR_Comm *c = MPIR_Coll_inter(comm);
    if (c)
        return MPIR_Inter_reduce(sendbuf, recvbuf, count, (MPIR_Count_array) { 0 }, datatype, op, 0,
                                 MPIR_INTER_ALLREDUCE, c, request);
    int err = MPIR_Coll_check_reduction(comm, &c, sendbuf, recvbuf, count, datatype, op);
    if (err || (count == 0 && !request))
        return err;
    MPIR_Sched *s = MPIR_Sched_for(c, MPIR_TAG_ALLREDUCE, request);
    if (count > 0)
        build(s, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf, count, datatype, op, c);
    return MPIR_Sched_finish(s, request);
}

int MPIR_Allreduce_without_data(MPI_Count count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, int errclass)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    MPIR_Sched *s = MPIR_Sched_for(c, MPIR_TAG_ALLREDUCE, NULL);
    MPIR_Sched_fail(s, errclass);
    if (count > 0)
        build(s, NULL, NULL, count, type, op, c);   /* a failed schedule uses no buffer */
    MPIR_Sched_run(s);
    return errclass;
}

int MPIR_Allreduce_impl(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm)
{
    return allreduce(sendbuf, recvbuf, count, datatype, op, comm, NULL);
}

int MPIR_Iallreduce_impl(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm, MPI_Request *request)
{
    return allreduce(sendbuf, recvbuf, count, datatype, op, comm, request);
}
