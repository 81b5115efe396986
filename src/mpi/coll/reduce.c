/*
 * MPI_Reduce: a binomial tree. Rank r (renumbered from the tree's root) accumulates the values of
 * ranks [r, r + 2^k) for growing k: it receives the accumulation of [r + 2^k, r + 2^(k+1)) from
 * r + 2^k and combines "mine op theirs", until its lowest set bit sends the result to its parent.
 *
 * For a commutative operation the tree is rooted at root. A non-commutative one must combine in
 * rank order (v0 op v1 op ... op vn-1), which the renumbering would break: its tree is rooted at
 * rank 0, whose result then goes to root.
 */
#include "coll_util.h"
#include "mpir_impl_proto.h"

/* acc and tmp hold count elements of type each; acc starts with this rank's value. */
static int tree(MPIR_Tmpbuf *acc, MPIR_Tmpbuf *tmp, MPI_Count count, MPI_Datatype type, MPI_Op op,
                int tree_root, MPIR_Comm *c)
{
    int n = c->size, rel = (c->rank - tree_root + n) % n;
    for (int mask = 1; mask < n; mask <<= 1) {
        if (rel & mask)
            return MPIR_Coll_send(acc->buf, count, type, (rel - mask + tree_root) % n, MPIR_TAG_REDUCE, c);
        if (rel + mask >= n)
            continue;
        int err = MPIR_Coll_recv(tmp->buf, count, type, (rel + mask + tree_root) % n, MPIR_TAG_REDUCE, c);
        if (err == MPI_SUCCESS)
            err = MPIR_Op_apply(acc->buf, tmp->buf, count, type, op);     /* tmp = acc op tmp */
        if (err)
            return err;
        MPIR_Tmpbuf_swap(acc, tmp);
    }
    return MPI_SUCCESS;
}

int MPIR_Coll_reduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype type, MPI_Op op, int root,
                     MPIR_Comm *c)
{
    const void *input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    if (c->size == 1)
        return input == recvbuf ? MPI_SUCCESS : MPIR_Localcopy(input, count, type, recvbuf, count, type);

    int tree_root = MPIR_Op_lookup(op)->commutative ? root : 0;
    MPIR_Tmpbuf acc = { NULL, NULL }, tmp = { NULL, NULL };
    int err = MPIR_Tmpbuf_alloc(&acc, count, type);
    if (err == MPI_SUCCESS)
        err = MPIR_Tmpbuf_alloc(&tmp, count, type);
    if (err == MPI_SUCCESS)
        err = MPIR_Localcopy(input, count, type, acc.buf, count, type);
    if (err == MPI_SUCCESS)
        err = tree(&acc, &tmp, count, type, op, tree_root, c);
    if (err == MPI_SUCCESS && c->rank == tree_root) {
        if (tree_root == root)
            err = MPIR_Localcopy(acc.buf, count, type, recvbuf, count, type);
        else
            err = MPIR_Coll_send(acc.buf, count, type, root, MPIR_TAG_REDUCE, c);
    } else if (err == MPI_SUCCESS && c->rank == root && tree_root != root) {
        err = MPIR_Coll_recv(recvbuf, count, type, tree_root, MPIR_TAG_REDUCE, c);
    }
    free(acc.base);
    free(tmp.base);
    return err;
}

int MPIR_Reduce_impl(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     int root, MPI_Comm comm)
{
    MPIR_Comm *c;
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
    if (err || count == 0)
        return err;
    return MPIR_Coll_reduce(sendbuf, recvbuf, count, datatype, op, root, c);
}
