/*
 * MPI_Scatter and MPI_Scatterv: the root sends every rank its block straight from sendbuf and
 * copies its own block locally; every other rank receives (linear, the mirror of gather.c).
 */
#include "coll_util.h"
#include "mpir_impl_proto.h"

int MPIR_Coll_scatter(const MPIR_Blocks *send, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                      MPIR_Comm *c)
{
    if (c->rank != root)
        return MPIR_Coll_recv(recvbuf, recvcount, recvtype, root, MPIR_TAG_SCATTER, c);

    MPIR_Request **reqs = calloc((size_t) c->size, sizeof *reqs);
    if (!reqs)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory for %d requests", c->size);
    int err = MPI_SUCCESS;
    for (int i = 0; i < c->size && err == MPI_SUCCESS; i++) {
        const char *block = MPIR_Blocks_addr(send, i);
        MPI_Count n = MPIR_Blocks_count(send, i);
        if (i != root)
            err = MPIR_Coll_isend(block, n, send->type, i, MPIR_TAG_SCATTER, c, &reqs[i]);
        else if (recvbuf != MPI_IN_PLACE)
            err = MPIR_Localcopy(block, n, send->type, recvbuf, recvcount, recvtype);
    }
    int werr = MPIR_Coll_waitall(c->size, reqs);
    free(reqs);
    return err ? err : werr;
}

static int check(const MPIR_Blocks *send, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                 MPIR_Comm *c)
{
    int err = MPIR_Coll_check_root(root, c);
    if (err)
        return err;
    if (recvbuf == MPI_IN_PLACE && c->rank != root)
        return MPIR_Err(MPI_ERR_BUFFER, "MPI_IN_PLACE is only valid at the root (rank %d, root %d)", c->rank, root);
    if (recvbuf != MPI_IN_PLACE)
        err = MPIR_Coll_check_data("recvbuf", recvbuf, "recvcount", recvcount, "recvtype", recvtype, -1);
    if (err || c->rank != root)
        return err;
    if (send->displs == NULL && send->counts != NULL)
        return MPIR_Err(MPI_ERR_ARG, "displs is NULL at the root");
    err = MPIR_Coll_check_blocks("sendbuf", send, c->size, send->counts ? "sendcounts" : "sendcount", "sendtype");
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_alias(send->buf, 1, recvbuf, recvcount);
    return err;
}

int MPIR_Scatter_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    MPIR_Comm *c;
    MPIR_Blocks send = { .buf = sendbuf, .count = sendcount, .type = sendtype };
    int err = MPIR_Coll_comm(comm, &c);
    if (err == MPI_SUCCESS)
        err = check(&send, recvbuf, recvcount, recvtype, root, c);
    return err ? err : MPIR_Coll_scatter(&send, recvbuf, recvcount, recvtype, root, c);
}

int MPIR_Scatterv_impl(const void *sendbuf, const MPI_Count *sendcounts, const MPI_Aint *displs,
                       MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm)
{
    MPIR_Comm *c;
    MPIR_Blocks send = { .buf = sendbuf, .counts = sendcounts, .displs = displs, .type = sendtype };
    int err = MPIR_Coll_comm(comm, &c);
    if (err == MPI_SUCCESS && c->rank == root && !sendcounts)
        err = MPIR_Err(MPI_ERR_ARG, "sendcounts is NULL at the root");
    if (err == MPI_SUCCESS)
        err = check(&send, recvbuf, recvcount, recvtype, root, c);
    return err ? err : MPIR_Coll_scatter(&send, recvbuf, recvcount, recvtype, root, c);
}
