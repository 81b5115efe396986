/*
 * MPI_Reduce_scatter_block and MPI_Reduce_scatter: a reduction of the whole vector to rank 0
 * (binomial, in rank order: see reduce.c), then a scatter of its blocks. With MPI_IN_PLACE the
 * input is the whole vector in recvbuf, and the result replaces its first block.
 */
#include "coll_util.h"
#include "mpir_impl_proto.h"

static int reduce_scatter(const void *sendbuf, void *recvbuf, const MPIR_Blocks *blocks, MPI_Count total,
                          MPI_Op op, MPIR_Comm *c)
{
    const void *input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    MPIR_Tmpbuf all = { NULL, NULL };
    int err = c->rank == 0 ? MPIR_Tmpbuf_alloc(&all, total, blocks->type) : MPI_SUCCESS;
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_reduce(input, all.buf, total, blocks->type, op, 0, c);
    if (err == MPI_SUCCESS) {
        MPIR_Blocks from = *blocks;
        from.buf = all.buf;
        err = MPIR_Coll_scatter(&from, recvbuf, MPIR_Blocks_count(blocks, c->rank), blocks->type, 0, c);
    }
    free(all.base);
    return err;
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

int MPIR_Reduce_scatter_block_impl(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                   MPI_Op op, MPI_Comm comm)
{
    MPIR_Comm *c;
    int err = MPIR_Coll_comm(comm, &c);
    if (err)
        return err;
    MPI_Count total = recvcount * c->size;
    MPIR_Blocks blocks = { .count = recvcount, .type = datatype };
    err = check(sendbuf, recvbuf, total, recvcount, datatype, op);
    if (err || total == 0)
        return err;
    return reduce_scatter(sendbuf, recvbuf, &blocks, total, op, c);
}

int MPIR_Reduce_scatter_impl(const void *sendbuf, void *recvbuf, const MPI_Count *recvcounts, MPI_Datatype datatype,
                             MPI_Op op, MPI_Comm comm)
{
    MPIR_Comm *c;
    int err = MPIR_Coll_comm(comm, &c);
    if (err)
        return err;
    if (!recvcounts)
        return MPIR_Err(MPI_ERR_ARG, "recvcounts is NULL");
    MPI_Aint *displs = malloc((size_t) c->size * sizeof *displs);
    if (!displs)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory for %d displacements", c->size);
    MPI_Count total = 0;
    for (int i = 0; i < c->size && err == MPI_SUCCESS; i++) {
        err = MPIR_Coll_check_data("recvbuf", recvbuf, "recvcounts", recvcounts[i], "datatype", datatype, i);
        displs[i] = total;
        total += recvcounts[i];
    }
    if (err == MPI_SUCCESS)
        err = check(sendbuf, recvbuf, total, recvcounts[c->rank], datatype, op);
    if (err == MPI_SUCCESS && total > 0) {
        MPIR_Blocks blocks = { .counts = recvcounts, .displs = displs, .type = datatype };
        err = reduce_scatter(sendbuf, recvbuf, &blocks, total, op, c);
    }
    free(displs);
    return err;
}
