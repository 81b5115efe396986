/*
 * MPI_Reduce and MPI_Ireduce: a binomial tree. Rank r (renumbered from the tree's root)
 * accumulates the values of ranks [r, r + 2^k) for growing k: it receives the accumulation of
 * [r + 2^k, r + 2^(k+1)) from r + 2^k and combines "mine op theirs", until its lowest set bit sends
 * the result to its parent.
 *
 * For a commutative operation the tree is rooted at root. A non-commutative one must combine in
 * rank order (v0 op v1 op ... op vn-1), which the renumbering would break: its tree is rooted at
 * rank 0, whose result then goes to root.
 */
#include "coll_inter.h"
#include "mpir_impl_proto.h"

void MPIR_Sched_add_reduce(MPIR_Sched *s, const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype type,
                           MPI_Op op, int root, MPIR_Comm *c)
{
    const void *input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    if (c->size == 1) {
        if (input != recvbuf)
            MPIR_Sched_copy(s, input, count, type, recvbuf, count, type);
        return;
    }
    int n = c->size, tree_root = MPIR_Op_lookup(op)->commutative ? root : 0;
    int rel = (c->rank - tree_root + n) % n;
    void *acc = MPIR_Sched_tmpbuf(s, count, type), *tmp = MPIR_Sched_tmpbuf(s, count, type);
    MPIR_Sched_copy(s, input, count, type, acc, count, type);
    bool sent = false;
    for (int mask = 1; mask < n && !sent; mask <<= 1) {
        if (rel & mask) {
            MPIR_Sched_send(s, acc, count, type, (rel - mask + tree_root) % n);
            sent = true;
        } else if (rel + mask < n) {
            MPIR_Sched_recv(s, tmp, count, type, (rel + mask + tree_root) % n);
            MPIR_Sched_barrier(s);
            MPIR_Sched_reduce(s, acc, tmp, count, type, op);     /* tmp = acc op tmp: the new acc */
            void *t = acc;
            acc = tmp;
            tmp = t;
        }
    }
    if (!sent && tree_root == root)
        MPIR_Sched_copy(s, acc, count, type, recvbuf, count, type);
    else if (!sent)
        MPIR_Sched_send(s, acc, count, type, root);
    else if (c->rank == root)
        MPIR_Sched_recv(s, recvbuf, count, type, tree_root);
}

static int reduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                  MPI_Comm comm, MPI_Request *request)
{
    MPIR_Comm *c = MPIR_Coll_inter(comm);
    if (c)
        return MPIR_Inter_reduce(sendbuf, recvbuf, count, (MPIR_Count_array) { 0 }, datatype, op, root,
                                 MPIR_INTER_REDUCE, c, request);
    int err = MPIR_Coll_comm(comm, &c);
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_root(root, c);
    if (err)
        return err;
    bool at_root = c->rank == root;
    if (sendbuf == MPI_IN_PLACE && !at_root)
        return MPIR_Err(MPI_ERR_BUFFER, "MPI_IN_PLACE is only valid at the root (rank %d, root %d)", c->rank, root);
    if (sendbuf != MPI_IN_PLACE)
        err = MPIR_Coll_check_data("sendbuf", sendbuf, "count", count, "datatype", datatype, -1);
    if (err == MPI_SUCCESS && at_root)
        err = MPIR_Coll_check_data("recvbuf", recvbuf, "count", count, "datatype", datatype, -1);
    if (err == MPI_SUCCESS && at_root)
        err = MPIR_Coll_check_alias(sendbuf, count, recvbuf, count);
    if (err == MPI_SUCCESS)
        err = MPIR_Op_check(op, datatype);
    if (err || (count == 0 && !request))
        return err;
    MPIR_Sched *s = MPIR_Sched_for(c, MPIR_TAG_REDUCE, request);
    if (count > 0)
        MPIR_Sched_add_reduce(s, sendbuf, recvbuf, count, datatype, op, root, c);
    return MPIR_Sched_finish(s, request);
}

int MPIR_Reduce_impl(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     int root, MPI_Comm comm)
{
    return reduce(sendbuf, recvbuf, count, datatype, op, root, comm, NULL);
}

int MPIR_Ireduce_impl(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                      int root, MPI_Comm comm, MPI_Request *request)
{
    return reduce(sendbuf, recvbuf, count, datatype, op, root, comm, request);
}
