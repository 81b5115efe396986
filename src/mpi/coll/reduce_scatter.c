/*
 * MPI_Reduce_scatter_block, MPI_Reduce_scatter and their nonblocking forms: a reduction of the whole vector to rank 0
 * (binomial, in rank order: see reduce.c), then a scatter of its blocks. With MPI_IN_PLACE the
 * input is the whole vector in recvbuf, and the result replaces its first block.
 */
#include "coll_inter.h"
#include "mpir_impl_proto.h"

static void build(MPIR_Sched *s, const void *sendbuf, void *recvbuf, const MPIR_Blocks *blocks, MPI_Count total,
                  MPI_Op op, MPIR_Comm *c)
{
    const void *input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    void *all = c->rank == 0 ? MPIR_Sched_tmpbuf(s, total, blocks->type) : NULL;
    MPIR_Sched_add_reduce(s, input, all, total, blocks->type, op, 0, c);
    MPIR_Sched_barrier(s);
    MPIR_Blocks from = *blocks;
    from.buf = all;
    MPIR_Sched_add_scatter(s, &from, recvbuf, MPIR_Blocks_count(blocks, c->rank), blocks->type, 0, c);
}

static int check(const void *sendbuf, void *recvbuf, MPI_Count total, MPI_Count mine, MPI_Datatype type, MPI_Op op)
{
    int err = MPI_SUCCESS;
    if (sendbuf != MPI_IN_PLACE)
        err = MPIR_Coll_check_data("sendbuf", sendbuf, "the count", total, "datatype", type, -1);
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_data("recvbuf", recvbuf, "the count", sendbuf == MPI_IN_PLACE ? total : mine, "datatype",
                                   type, -1);
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_alias(sendbuf, total, recvbuf, mine);
    if (err == MPI_SUCCESS)
        err = MPIR_Op_check(op, type);
    return err;
}

/* blocks: a uniform layout, or per-rank counts (displacements are computed here). */
static int reduce_scatter(const void *sendbuf, void *recvbuf, const MPIR_Blocks *blocks, MPI_Op op, MPI_Comm comm,
                          MPI_Request *request)
{
    MPIR_Comm *c = MPIR_Coll_inter(comm);
    if (c)
        return MPIR_Inter_reduce(sendbuf, recvbuf, blocks->count, blocks->counts, blocks->type, op, 0,
                                 MPIR_Blocks_v(blocks) ? MPIR_INTER_REDUCE_SCATTER : MPIR_INTER_REDUCE_SCATTER_BLOCK,
                                 c, request);
    int err = MPIR_Coll_comm(comm, &c);
    if (err)
        return err;
    MPI_Datatype type = blocks->type;
    MPI_Count total = blocks->count * c->size;
    if (MPIR_Blocks_v(blocks)) {
        total = 0;
        for (int i = 0; i < c->size && err == MPI_SUCCESS; i++) {
            MPI_Count n = MPIR_Count_array_at(blocks->counts, i);
            err = MPIR_Coll_check_data("recvbuf", recvbuf, "recvcounts", n, "datatype", type, i);
            total += n;
        }
    }
    if (err == MPI_SUCCESS)
        err = check(sendbuf, recvbuf, total, MPIR_Blocks_count(blocks, c->rank), type, op);
    if (err || (total == 0 && !request))
        return err;
    MPIR_Sched *s = MPIR_Sched_for(c, MPIR_TAG_REDUCE, request);
    MPIR_Blocks layout = *blocks;
    if (MPIR_Blocks_v(blocks)) {
        /* NULL: the schedule has failed, and takes its part without data (no address is used) */
        MPI_Aint *displs = MPIR_Sched_tmpbuf(s, c->size, MPI_AINT);
        for (int i = 0; displs && i < c->size; i++)
            displs[i] = i == 0 ? 0 : displs[i - 1] + MPIR_Count_array_at(blocks->counts, i - 1);
        layout.displs = (MPIR_Aint_array) { .aints = displs };
    }
    if (total > 0)
        build(s, sendbuf, recvbuf, &layout, total, op, c);
    return MPIR_Sched_finish(s, request);
}

int MPIR_Reduce_scatter_block_impl(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                   MPI_Op op, MPI_Comm comm)
{
    MPIR_Blocks blocks = { .count = recvcount, .type = datatype };
    return reduce_scatter(sendbuf, recvbuf, &blocks, op, comm, NULL);
}

int MPIR_Ireduce_scatter_block_impl(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                    MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    MPIR_Blocks blocks = { .count = recvcount, .type = datatype };
    return reduce_scatter(sendbuf, recvbuf, &blocks, op, comm, request);
}

int MPIR_Reduce_scatter_impl(const void *sendbuf, void *recvbuf, MPIR_Count_array recvcounts, MPI_Datatype datatype,
                             MPI_Op op, MPI_Comm comm)
{
    if (MPIR_Count_array_is_null(recvcounts))
        return MPIR_Err(MPI_ERR_ARG, "recvcounts is NULL");
    MPIR_Blocks blocks = { .counts = recvcounts, .type = datatype };
    return reduce_scatter(sendbuf, recvbuf, &blocks, op, comm, NULL);
}

int MPIR_Ireduce_scatter_impl(const void *sendbuf, void *recvbuf, MPIR_Count_array recvcounts, MPI_Datatype datatype,
                              MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    if (MPIR_Count_array_is_null(recvcounts))
        return MPIR_Err(MPI_ERR_ARG, "recvcounts is NULL");
    MPIR_Blocks blocks = { .counts = recvcounts, .type = datatype };
    return reduce_scatter(sendbuf, recvbuf, &blocks, op, comm, request);
}
