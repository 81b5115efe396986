/*
 * Helpers shared by the collective algorithms (see coll_util.h).
 */
#include <stdio.h>
#include "coll_util.h"

/* ---- communication ---- */

int MPIR_Coll_isend(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPIR_Comm *comm,
                    MPIR_Request **req)
{
    return MPID_Isend(buf, count, type, dest, tag, comm, MPIR_CONTEXT_COLL_OFFSET, MPID_SEND_STANDARD, req);
}

int MPIR_Coll_irecv(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPIR_Comm *comm,
                    MPIR_Request **req)
{
    return MPID_Irecv(buf, count, type, source, tag, comm, MPIR_CONTEXT_COLL_OFFSET, req);
}

/* ---- argument checks ---- */

int MPIR_Coll_comm(MPI_Comm comm, MPIR_Comm **c)
{
    *c = MPIR_Comm_lookup(comm);
    if (!*c)
        return MPIR_Err(MPI_ERR_COMM, "invalid communicator");
    if ((*c)->is_inter)
        return MPIR_Err(MPI_ERR_COMM, "collectives on intercommunicators are not supported");
    return MPI_SUCCESS;
}

MPIR_Comm *MPIR_Coll_inter(MPI_Comm comm)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    return c && c->is_inter ? c : NULL;
}

int MPIR_Coll_check_root(int root, const MPIR_Comm *c)
{
    if (root < 0 || root >= c->size)
        return MPIR_Err(MPI_ERR_ROOT, "invalid root %d, must be in [0, %d)", root, c->size);
    return MPI_SUCCESS;
}

int MPIR_Coll_check_data(const char *buf_name, const void *buf, const char *count_name, MPI_Count count,
                         const char *type_name, MPI_Datatype type, long long index)
{
    char at[32] = "";
    if (index >= 0)
        snprintf(at, sizeof at, "[%lld]", index);
    if (count < 0)
        return MPIR_Err(MPI_ERR_COUNT, "invalid %s%s = %lld, must be non-negative", count_name, at,
                        (long long) count);
    const MPID_Datatype *dt = MPID_Datatype_lookup(type);
    if (!dt)
        return MPIR_Err_datatype(type_name, type, index);
    if (!dt->is_committed)
        return MPIR_Err(MPI_ERR_TYPE, "%s%s is not committed (call MPI_Type_commit first)", type_name, at);
    /* the same count checks as a send or receive: a rank with nothing to exchange still answers */
    MPI_Count bytes;
    int err = MPID_Stream_size(dt, count, &bytes);
    if (err)
        return err;
    /* a predefined type cannot address absolute memory from MPI_BOTTOM */
    if (buf == NULL && count > 0 && dt->size > 0 && MPID_Datatype_is_builtin(type))
        return MPIR_Err(MPI_ERR_BUFFER, "%s is NULL but %s%s = %lld elements of %s are to be transferred",
                        buf_name, count_name, at, (long long) count, dt->name);
    return MPI_SUCCESS;
}

int MPIR_Coll_check_blocks(const char *buf_name, const MPIR_Blocks *b, int n, const char *count_name,
                           const char *type_name)
{
    if (!MPIR_Blocks_v(b))  /* a uniform layout */
        return MPIR_Coll_check_data(buf_name, b->buf, count_name, b->count, type_name, b->type, -1);
    int err = MPI_SUCCESS;
    if (!b->types)      /* one type for every block: named without an index */
        err = MPIR_Coll_check_data(buf_name, b->buf, count_name, 0, type_name, b->type, -1);
    for (int i = 0; i < n && err == MPI_SUCCESS; i++)
        err = MPIR_Coll_check_data(buf_name, b->buf, count_name, MPIR_Blocks_count(b, i), type_name, MPIR_Blocks_type(b, i), i);
    return err;
}

int MPIR_Coll_check_alias(const void *sendbuf, MPI_Count sendcount, const void *recvbuf, MPI_Count recvcount)
{
    if (sendbuf == recvbuf && sendbuf != MPI_BOTTOM && sendcount > 0 && recvcount > 0)
        return MPIR_Err(MPI_ERR_BUFFER, "sendbuf and recvbuf are the same buffer (aliased); "
                        "use MPI_IN_PLACE to operate in place");
    return MPI_SUCCESS;
}

int MPIR_Coll_check_reduction(MPI_Comm comm, MPIR_Comm **c, const void *sendbuf, const void *recvbuf,
                              MPI_Count count, MPI_Datatype datatype, MPI_Op op)
{
    int err = MPIR_Coll_comm(comm, c);
    if (err == MPI_SUCCESS && sendbuf != MPI_IN_PLACE)
        err = MPIR_Coll_check_data("sendbuf", sendbuf, "count", count, "datatype", datatype, -1);
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_data("recvbuf", recvbuf, "count", count, "datatype", datatype, -1);
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_alias(sendbuf, count, recvbuf, count);
    if (err == MPI_SUCCESS)
        err = MPIR_Op_check(op, datatype);
    return err;
}

/* The names of one side's arguments, for the messages. */
typedef struct {
    const char *buf, *count, *counts, *type;
} Arg_names;

static const Arg_names send_names = { "sendbuf", "sendcount", "sendcounts", "sendtype" };
static const Arg_names recv_names = { "recvbuf", "recvcount", "recvcounts", "recvtype" };

int MPIR_Coll_check_rooted(bool gather, const void *data, MPI_Count count, MPI_Datatype type,
                           const MPIR_Blocks *blocks, bool v, int root, const MPIR_Comm *c)
{
    const Arg_names *own = gather ? &send_names : &recv_names, *all = gather ? &recv_names : &send_names;
    if (v && c->rank == root && !MPIR_Blocks_v(blocks))
        return MPIR_Err(MPI_ERR_ARG, "%s is NULL at the root", all->counts);
    int err = MPIR_Coll_check_root(root, c);
    if (err)
        return err;
    if (data == MPI_IN_PLACE && c->rank != root)
        return MPIR_Err(MPI_ERR_BUFFER, "MPI_IN_PLACE is only valid at the root (rank %d, root %d)", c->rank, root);
    if (data != MPI_IN_PLACE)
        err = MPIR_Coll_check_data(own->buf, data, own->count, count, own->type, type, -1);
    if (err || c->rank != root)
        return err;
    if (MPIR_Aint_array_is_null(blocks->displs) && MPIR_Blocks_v(blocks))
        return MPIR_Err(MPI_ERR_ARG, "displs is NULL at the root");
    err = MPIR_Coll_check_blocks(all->buf, blocks, c->size, MPIR_Blocks_v(blocks) ? all->counts : all->count, all->type);
    if (err == MPI_SUCCESS)     /* the check is the same with the buffers either way round */
        err = MPIR_Coll_check_alias(data, count, blocks->buf, 1);
    return err;
}

/* ---- temporary buffers ---- */

int MPIR_Typed_alloc(MPI_Count count, MPI_Datatype type, void **base, void **buf)
{
    const MPID_Datatype *dt = MPID_Datatype_get(type);
    /* instance i spans [i * extent + true_lb, i * extent + true_ub) */
    MPI_Aint span = count > 0 ? (count - 1) * dt->extent : 0;
    MPI_Aint lo = dt->true_lb + (span < 0 ? span : 0), hi = dt->true_ub + (span > 0 ? span : 0);
    size_t bytes = count > 0 && hi > lo ? (size_t) (hi - lo) : 1;
    *base = malloc(bytes);
    if (!*base)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory for a temporary buffer of %zu bytes", bytes);
    *buf = MPIR_Coll_offset(*base, -lo);
    return MPI_SUCCESS;
}
