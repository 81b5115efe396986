/*
 * Collectives on intercommunicators (MPI 4.1 6.2.2): barrier, broadcast, gather(v), scatter(v),
 * allgather(v), all-to-all (v, w), reduce, allreduce and reduce-scatter (block), in their blocking,
 * nonblocking and persistent forms (the front ends in each collective's file come here when the
 * communicator is an intercommunicator).
 *
 * Every process talks to the processes of the other group directly (point-to-point ranks address
 * the remote group), all messages in one schedule phase: linear algorithms, local x remote
 * messages for the all-to-all shaped ones, which suits the small groups intercommunicators join
 * (a client and its servers). A reduction combines the blocks received from the other group in its
 * rank order, so non-commutative operations get d0 op d1 op ... op dn-1.
 *
 * Roots: MPI_ROOT at the root, MPI_PROC_NULL at the other processes of its group (which take no
 * part), and the root's rank in its group at the processes of the other group. MPI_IN_PLACE has
 * no meaning here (MPI_ERR_ARG).
 */
#include "coll_sched.h"
#include "coll_inter.h"

/* The root argument's role at this process. */
enum role { ROOT, ROOT_GROUP, OTHER_GROUP };

static int root_role(int root, const MPIR_Comm *c, enum role *role)
{
    if (root == MPI_ROOT)
        *role = ROOT;
    else if (root == MPI_PROC_NULL)
        *role = ROOT_GROUP;
    else if (root >= 0 && root < c->remote_size)
        *role = OTHER_GROUP;
    else
        return MPIR_Err(MPI_ERR_ROOT, "invalid root %d on an intercommunicator (MPI_ROOT, MPI_PROC_NULL, or a rank "
                        "of the other group: 0 .. %d)", root, c->remote_size - 1);
    return MPI_SUCCESS;
}

static int no_in_place(const void *buf, const char *name)
{
    return buf == MPI_IN_PLACE ? MPIR_Err(MPI_ERR_ARG, "%s is MPI_IN_PLACE, which intercommunicators do not take",
                                          name) : MPI_SUCCESS;
}

/* Every process sends to every remote one block of send (the same one if same) and receives one
 * block of recv from each. */
static void exchange(MPIR_Sched *s, const MPIR_Blocks *send, bool same, const MPIR_Blocks *recv, MPIR_Comm *c)
{
    for (int r = 0; r < c->remote_size; r++) {
        int k = same ? 0 : r;
        MPIR_Sched_send(s, MPIR_Blocks_addr(send, k), MPIR_Blocks_count(send, k), MPIR_Blocks_type(send, k), r);
        MPIR_Sched_recv(s, MPIR_Blocks_addr(recv, r), MPIR_Blocks_count(recv, r), MPIR_Blocks_type(recv, r), r);
    }
}

/* Receives total elements from each remote process and combines the count of them from offset on
 * into recvbuf, in the remote ranks' order: the last one's go to recvbuf (straight there when they
 * are all it sends), each one before it is combined in front of what is there. */
static void reduce_from_remote(MPIR_Sched *s, void *recvbuf, MPI_Count count, MPI_Count total, MPI_Count offset,
                               MPI_Datatype type, MPI_Op op, MPIR_Comm *c)
{
    int n = c->remote_size;
    bool whole = total == count;
    MPI_Aint skip = offset * MPID_Datatype_get(type)->extent;
    void **tmp = MPIR_Sched_tmpbuf(s, (MPI_Count) n * (MPI_Count) sizeof *tmp, MPI_BYTE);
    for (int r = 0; r < n; r++) {
        void *into = whole && (r == n - 1 || count == 0) ? recvbuf
                     : tmp ? (tmp[r] = MPIR_Sched_tmpbuf(s, total, type)) : NULL;
        MPIR_Sched_recv(s, into, total, type, r);
    }
    MPIR_Sched_barrier(s);
    if (!tmp || count == 0)
        return;     /* failed (the schedule takes its part without data), or nothing to combine */
    if (!whole)
        MPIR_Sched_copy(s, MPIR_Coll_offset(tmp[n - 1], skip), count, type, recvbuf, count, type);
    for (int r = n - 2; r >= 0; r--)
        MPIR_Sched_reduce(s, MPIR_Coll_offset(tmp[r], skip), recvbuf, count, type, op);
}

/* ---- barrier, broadcast ---- */

int MPIR_Inter_barrier(MPIR_Comm *c, MPI_Request *request)
{
    MPIR_Blocks none = { .type = MPI_BYTE };
    MPIR_Sched *s = MPIR_Sched_for(c, MPIR_TAG_BARRIER, request);
    exchange(s, &none, true, &none, c);     /* each leaves once every remote process has arrived */
    return MPIR_Sched_finish(s, request);
}

int MPIR_Inter_bcast(void *buffer, MPI_Count count, MPI_Datatype type, int root, MPIR_Comm *c, MPI_Request *request)
{
    enum role role;
    int err = root_role(root, c, &role);
    if (err == MPI_SUCCESS && role != ROOT_GROUP)
        err = MPIR_Coll_check_data("buffer", buffer, "count", count, "datatype", type, -1);
    if (err)
        return err;
    MPIR_Sched *s = MPIR_Sched_for(c, MPIR_TAG_BCAST, request);
    for (int r = 0; role == ROOT && r < c->remote_size; r++)
        MPIR_Sched_send(s, buffer, count, type, r);
    if (role == OTHER_GROUP)
        MPIR_Sched_recv(s, buffer, count, type, root);
    return MPIR_Sched_finish(s, request);
}

/* ---- gather, scatter: the root's blocks, one per remote process ---- */

int MPIR_Inter_rooted(bool gather, const void *data, MPI_Count count, MPI_Datatype type, const MPIR_Blocks *blocks,
                      bool v, int root, MPIR_Comm *c, MPI_Request *request)
{
    enum role role;
    int err = root_role(root, c, &role);
    const char *name = gather ? "recvbuf" : "sendbuf";
    if (err == MPI_SUCCESS && role == ROOT && v && (!MPIR_Blocks_v(blocks) || MPIR_Aint_array_is_null(blocks->displs)))
        err = MPIR_Err(MPI_ERR_ARG, "%s is NULL", !MPIR_Blocks_v(blocks) ? (gather ? "recvcounts" : "sendcounts")
                       : "displs");
    if (err == MPI_SUCCESS && role == ROOT)
        err = no_in_place(blocks->buf, name);
    if (err == MPI_SUCCESS && role == ROOT)
        err = MPIR_Coll_check_blocks(name, blocks, c->remote_size, v ? (gather ? "recvcounts" : "sendcounts")
                                     : (gather ? "recvcount" : "sendcount"), gather ? "recvtype" : "sendtype");
    if (err == MPI_SUCCESS && role == OTHER_GROUP)
        err = no_in_place(data, gather ? "sendbuf" : "recvbuf");
    if (err == MPI_SUCCESS && role == OTHER_GROUP)
        err = MPIR_Coll_check_data(gather ? "sendbuf" : "recvbuf", data, gather ? "sendcount" : "recvcount", count,
                                   gather ? "sendtype" : "recvtype", type, -1);
    if (err)
        return err;
    MPIR_Sched *s = MPIR_Sched_for(c, gather ? MPIR_TAG_GATHER : MPIR_TAG_SCATTER, request);
    for (int r = 0; role == ROOT && r < c->remote_size; r++) {
        void *block = MPIR_Blocks_addr(blocks, r);
        if (gather)
            MPIR_Sched_recv(s, block, MPIR_Blocks_count(blocks, r), blocks->type, r);
        else
            MPIR_Sched_send(s, block, MPIR_Blocks_count(blocks, r), blocks->type, r);
    }
    if (role == OTHER_GROUP && gather)
        MPIR_Sched_send(s, data, count, type, root);
    else if (role == OTHER_GROUP)
        MPIR_Sched_recv(s, (void *) data, count, type, root);
    return MPIR_Sched_finish(s, request);
}

/* ---- allgather, all-to-all ---- */

int MPIR_Inter_exchange(const MPIR_Blocks *send, bool same, const MPIR_Blocks *recv, int kind, MPIR_Comm *c,
                        MPI_Request *request)
{
    int err = no_in_place(send->buf, "sendbuf");
    if (err == MPI_SUCCESS && same)
        err = MPIR_Coll_check_data("sendbuf", send->buf, "sendcount", send->count, "sendtype", send->type, -1);
    else if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_blocks("sendbuf", send, c->remote_size, MPIR_Blocks_v(send) ? "sendcounts" : "sendcount",
                                     send->types ? "sendtypes" : "sendtype");
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_blocks("recvbuf", recv, c->remote_size, MPIR_Blocks_v(recv) ? "recvcounts" : "recvcount",
                                     recv->types ? "recvtypes" : "recvtype");
    if (err)
        return err;
    MPIR_Sched *s = MPIR_Sched_for(c, kind, request);
    exchange(s, send, same, recv, c);
    return MPIR_Sched_finish(s, request);
}

/* ---- reductions ---- */

int MPIR_Inter_reduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPIR_Count_array counts, MPI_Datatype type,
                      MPI_Op op, int root, enum MPIR_Inter_reduction how, MPIR_Comm *c, MPI_Request *request)
{
    enum role role = OTHER_GROUP;
    int err = how == MPIR_INTER_REDUCE ? root_role(root, c, &role) : MPI_SUCCESS;
    bool sends = how != MPIR_INTER_REDUCE || role == OTHER_GROUP;
    bool receives = how != MPIR_INTER_REDUCE || role == ROOT;
    /* the vector every process gives (the same length in both groups), and this one's part */
    MPI_Count total = count, offset = 0, block = count;
    if (how == MPIR_INTER_REDUCE_SCATTER_BLOCK) {
        total = count * c->size;
        offset = count * c->rank;
        block = total / c->remote_size;     /* the other group's count */
        if (err == MPI_SUCCESS && total % c->remote_size)
            err = MPIR_Err(MPI_ERR_COUNT, "%lld elements cannot be split into equal blocks for the %d processes of "
                           "the other group", (long long) total, c->remote_size);
    } else if (how == MPIR_INTER_REDUCE_SCATTER) {
        if (MPIR_Count_array_is_null(counts))
            return MPIR_Err(MPI_ERR_ARG, "recvcounts is NULL");
        total = 0;
        for (int i = 0; i < c->size && err == MPI_SUCCESS; i++) {
            MPI_Count n = MPIR_Count_array_at(counts, i);
            err = MPIR_Coll_check_data("recvbuf", recvbuf, "recvcounts", n, "datatype", type, i);
            offset += i < c->rank ? n : 0;
            total += n;
        }
        count = MPIR_Count_array_at(counts, c->rank);
    }
    if (err == MPI_SUCCESS && sends)
        err = no_in_place(sendbuf, "sendbuf");
    if (err == MPI_SUCCESS && sends)
        err = MPIR_Coll_check_data("sendbuf", sendbuf, "count", total, "datatype", type, -1);
    if (err == MPI_SUCCESS && receives)
        err = MPIR_Coll_check_data("recvbuf", recvbuf, "count", count, "datatype", type, -1);
    if (err == MPI_SUCCESS)
        err = MPIR_Op_check(op, type);
    if (err)
        return err;
    MPIR_Sched *s = MPIR_Sched_for(c, how == MPIR_INTER_ALLREDUCE ? MPIR_TAG_ALLREDUCE : MPIR_TAG_REDUCE, request);
    MPI_Aint extent = MPID_Datatype_get(type)->extent;
    for (int r = 0; sends && r < c->remote_size; r++) {
        if (how == MPIR_INTER_REDUCE && r != root)
            continue;
        if (how == MPIR_INTER_REDUCE_SCATTER_BLOCK)     /* process r's block of the other group's split */
            MPIR_Sched_send(s, MPIR_Coll_offset(sendbuf, r * block * extent), block, type, r);
        else    /* the whole vector (reduce-scatter: the receiver knows its part, the sender does not) */
            MPIR_Sched_send(s, sendbuf, total, type, r);
    }
    if (receives && how == MPIR_INTER_REDUCE_SCATTER)
        reduce_from_remote(s, recvbuf, count, total, offset, type, op, c);
    else if (receives)
        reduce_from_remote(s, recvbuf, count, count, 0, type, op, c);
    return MPIR_Sched_finish(s, request);
}
