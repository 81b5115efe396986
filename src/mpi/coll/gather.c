/*
 * MPI_Gather and MPI_Gatherv: the root posts one receive per rank straight into its block of
 * recvbuf and copies its own block locally; every other rank sends. (Linear: the root's receives
 * all proceed at once, and no rank stores data that is not its own.)
 */
#include "coll_util.h"
#include "mpir_impl_proto.h"

static int gather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, const MPIR_Blocks *recv,
                  int root, MPIR_Comm *c)
{
    if (c->rank != root)
        return MPIR_Coll_send(sendbuf, sendcount, sendtype, root, MPIR_TAG_GATHER, c);

    MPIR_Request **reqs = calloc((size_t) c->size, sizeof *reqs);
    if (!reqs)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory for %d requests", c->size);
    int err = MPI_SUCCESS;
    for (int i = 0; i < c->size && err == MPI_SUCCESS; i++) {
        char *block = MPIR_Blocks_addr(recv, i);
        MPI_Count n = MPIR_Blocks_count(recv, i);
        if (i != root)
            err = MPIR_Coll_irecv(block, n, recv->type, i, MPIR_TAG_GATHER, c, &reqs[i]);
        else if (sendbuf != MPI_IN_PLACE)
            err = MPIR_Localcopy(sendbuf, sendcount, sendtype, block, n, recv->type);
    }
    int werr = MPIR_Coll_waitall(c->size, reqs);
    free(reqs);
    return err ? err : werr;
}

static int check(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, const MPIR_Blocks *recv,
                 int root, MPIR_Comm *c)
{
    int err = MPIR_Coll_check_root(root, c);
    if (err)
        return err;
    if (sendbuf == MPI_IN_PLACE && c->rank != root)
        return MPIR_Err(MPI_ERR_BUFFER, "MPI_IN_PLACE is only valid at the root (rank %d, root %d)", c->rank, root);
    if (sendbuf != MPI_IN_PLACE)
        err = MPIR_Coll_check_data("sendbuf", sendbuf, "sendcount", sendcount, "sendtype", sendtype, -1);
    if (err || c->rank != root)
        return err;
    if (recv->displs == NULL && recv->counts != NULL)
        return MPIR_Err(MPI_ERR_ARG, "displs is NULL at the root");
    err = MPIR_Coll_check_blocks("recvbuf", recv, c->size, recv->counts ? "recvcounts" : "recvcount", "recvtype");
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_alias(sendbuf, sendcount, recv->buf, 1);
    return err;
}

int MPIR_Gather_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    MPIR_Comm *c;
    MPIR_Blocks recv = { .buf = recvbuf, .count = recvcount, .type = recvtype };
    int err = MPIR_Coll_comm(comm, &c);
    if (err == MPI_SUCCESS)
        err = check(sendbuf, sendcount, sendtype, &recv, root, c);
    return err ? err : gather(sendbuf, sendcount, sendtype, &recv, root, c);
}

int MPIR_Gatherv_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const MPI_Count *recvcounts, const MPI_Aint *displs, MPI_Datatype recvtype, int root,
                      MPI_Comm comm)
{
    MPIR_Comm *c;
    MPIR_Blocks recv = { .buf = recvbuf, .counts = recvcounts, .displs = displs, .type = recvtype };
    int err = MPIR_Coll_comm(comm, &c);
    if (err == MPI_SUCCESS && c->rank == root && !recvcounts)
        err = MPIR_Err(MPI_ERR_ARG, "recvcounts is NULL at the root");
    if (err == MPI_SUCCESS)
        err = check(sendbuf, sendcount, sendtype, &recv, root, c);
    return err ? err : gather(sendbuf, sendcount, sendtype, &recv, root, c);
}
