/*
 * MPI_Allgather and MPI_Allgatherv: a ring. Each rank first places its own block in recvbuf; in
 * step s = 0 .. size-2 it passes block (rank - s) to its right neighbour and receives block
 * (rank - s - 1) from its left one. Every message goes from recvbuf to recvbuf with recvtype, so
 * derived receive types need no temporary copies.
 */
#include "coll_util.h"
#include "mpir_impl_proto.h"

static int allgather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, const MPIR_Blocks *recv,
                     MPIR_Comm *c)
{
    int n = c->size, rank = c->rank, err = MPI_SUCCESS;
    if (sendbuf != MPI_IN_PLACE)
        err = MPIR_Localcopy(sendbuf, sendcount, sendtype, MPIR_Blocks_addr(recv, rank),
                             MPIR_Blocks_count(recv, rank), recv->type);
    int right = (rank + 1) % n, left = (rank - 1 + n) % n;
    for (int s = 0; s < n - 1 && err == MPI_SUCCESS; s++) {
        int out = (rank - s + n) % n, in = (rank - s - 1 + n) % n;
        err = MPIR_Coll_sendrecv(MPIR_Blocks_addr(recv, out), MPIR_Blocks_count(recv, out), recv->type, right,
                                 MPIR_Blocks_addr(recv, in), MPIR_Blocks_count(recv, in), recv->type, left,
                                 MPIR_TAG_ALLGATHER, c);
    }
    return err;
}

static int check(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, const MPIR_Blocks *recv,
                 MPIR_Comm *c)
{
    int err = MPI_SUCCESS;
    if (sendbuf != MPI_IN_PLACE)
        err = MPIR_Coll_check_data("sendbuf", sendbuf, "sendcount", sendcount, "sendtype", sendtype, -1);
    if (err == MPI_SUCCESS && recv->counts && !recv->displs)
        err = MPIR_Err(MPI_ERR_ARG, "displs is NULL");
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_blocks("recvbuf", recv, c->size, recv->counts ? "recvcounts" : "recvcount", "recvtype");
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_alias(sendbuf, sendcount, recv->buf, 1);
    return err;
}

int MPIR_Allgather_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    MPIR_Comm *c;
    MPIR_Blocks recv = { .buf = recvbuf, .count = recvcount, .type = recvtype };
    int err = MPIR_Coll_comm(comm, &c);
    if (err == MPI_SUCCESS)
        err = check(sendbuf, sendcount, sendtype, &recv, c);
    return err ? err : allgather(sendbuf, sendcount, sendtype, &recv, c);
}

int MPIR_Allgatherv_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const MPI_Count *recvcounts, const MPI_Aint *displs, MPI_Datatype recvtype, MPI_Comm comm)
{
    MPIR_Comm *c;
    MPIR_Blocks recv = { .buf = recvbuf, .counts = recvcounts, .displs = displs, .type = recvtype };
    int err = MPIR_Coll_comm(comm, &c);
    if (err == MPI_SUCCESS && !recvcounts)
        err = MPIR_Err(MPI_ERR_ARG, "recvcounts is NULL");
    if (err == MPI_SUCCESS)
        err = check(sendbuf, sendcount, sendtype, &recv, c);
    return err ? err : allgather(sendbuf, sendcount, sendtype, &recv, c);
}
