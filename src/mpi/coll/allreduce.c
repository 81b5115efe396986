/*
 * MPI_Allreduce: recursive doubling, in rank order so that non-commutative operations work.
 *
 *   1. With p the largest power of two <= size and r = size - p, the first 2r ranks pair up: each
 *      even rank sends its value to the odd rank above it, which combines "even op odd" and stands
 *      for both. The p remaining ranks each stand for a run of consecutive ranks, in order.
 *   2. Those p ranks exchange with the partner whose number differs in bit k, k = 0, 1, ...; the
 *      lower one's accumulation goes first in the combination. After log2 p rounds all hold the
 *      result.
 *   3. The odd ranks of step 1 send the result back to their even partners.
 */
#include "coll_util.h"
#include "mpir_impl_proto.h"

static int doubling(MPIR_Tmpbuf *acc, MPIR_Tmpbuf *tmp, MPI_Count count, MPI_Datatype type, MPI_Op op, MPIR_Comm *c)
{
    int n = c->size, rank = c->rank, p = 1, err = MPI_SUCCESS;
    while (p * 2 <= n)
        p *= 2;
    int r = n - p, newrank;

    /* step 1 */
    if (rank < 2 * r && rank % 2 == 0) {
        err = MPIR_Coll_send(acc->buf, count, type, rank + 1, MPIR_TAG_ALLREDUCE, c);
        newrank = -1;
    } else if (rank < 2 * r) {
        err = MPIR_Coll_recv(tmp->buf, count, type, rank - 1, MPIR_TAG_ALLREDUCE, c);
        if (err == MPI_SUCCESS)
            err = MPIR_Op_apply(tmp->buf, acc->buf, count, type, op);     /* acc = lower op acc */
        newrank = rank / 2;
    } else {
        newrank = rank - r;
    }

    /* step 2 */
    for (int mask = 1; err == MPI_SUCCESS && newrank >= 0 && mask < p; mask <<= 1) {
        int partner_new = newrank ^ mask;
        int partner = partner_new < r ? partner_new * 2 + 1 : partner_new + r;
        err = MPIR_Coll_sendrecv(acc->buf, count, type, partner, tmp->buf, count, type, partner,
                                 MPIR_TAG_ALLREDUCE, c);
        if (err)
            break;
        if (partner < rank) {
            err = MPIR_Op_apply(tmp->buf, acc->buf, count, type, op);     /* acc = theirs op acc */
        } else {
            err = MPIR_Op_apply(acc->buf, tmp->buf, count, type, op);     /* tmp = acc op theirs */
            MPIR_Tmpbuf_swap(acc, tmp);
        }
    }

    /* step 3 */
    if (err == MPI_SUCCESS && rank < 2 * r) {
        if (rank % 2)
            err = MPIR_Coll_send(acc->buf, count, type, rank - 1, MPIR_TAG_ALLREDUCE, c);
        else
            err = MPIR_Coll_recv(acc->buf, count, type, rank + 1, MPIR_TAG_ALLREDUCE, c);
    }
    return err;
}

int MPIR_Allreduce_impl(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm)
{
    MPIR_Comm *c;
    int err = MPIR_Coll_comm(comm, &c);
    if (err == MPI_SUCCESS && sendbuf != MPI_IN_PLACE)
        err = MPIR_Coll_check_data("sendbuf", sendbuf, "count", count, "datatype", datatype, -1);
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_data("recvbuf", recvbuf, "count", count, "datatype", datatype, -1);
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_alias(sendbuf, count, recvbuf, count);
    if (err == MPI_SUCCESS)
        err = MPIR_Op_check(op, datatype);
    if (err || count == 0)
        return err;

    const void *input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    if (c->size == 1)
        return input == recvbuf ? MPI_SUCCESS : MPIR_Localcopy(input, count, datatype, recvbuf, count, datatype);
    MPIR_Tmpbuf acc = { NULL, NULL }, tmp = { NULL, NULL };
    err = MPIR_Tmpbuf_alloc(&acc, count, datatype);
    if (err == MPI_SUCCESS)
        err = MPIR_Tmpbuf_alloc(&tmp, count, datatype);
    if (err == MPI_SUCCESS)
        err = MPIR_Localcopy(input, count, datatype, acc.buf, count, datatype);
    if (err == MPI_SUCCESS)
        err = doubling(&acc, &tmp, count, datatype, op, c);
    if (err == MPI_SUCCESS)
        err = MPIR_Localcopy(acc.buf, count, datatype, recvbuf, count, datatype);
    free(acc.base);
    free(tmp.base);
    return err;
}
