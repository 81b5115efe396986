/*
 * MPI_Allgather, MPI_Allgatherv and their nonblocking forms: a ring. Each rank first places its own block in recvbuf; in
 * step s = 0 .. size-2 it passes block (rank - s) to its right neighbour and receives block
 * (rank - s - 1) from its left one. Every message goes from recvbuf to recvbuf with recvtype, so
 * derived receive types need no temporary copies.
 */
#include "coll_inter.h"
#include "mpir_impl_proto.h"

static void build(MPIR_Sched *s, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                  const MPIR_Blocks *recv, MPIR_Comm *c)
{
    int n = c->size, rank = c->rank;
    if (sendbuf != MPI_IN_PLACE)
        MPIR_Sched_copy(s, sendbuf, sendcount, sendtype, MPIR_Blocks_addr(recv, rank), MPIR_Blocks_count(recv, rank),
                        recv->type);
    int right = (rank + 1) % n, left = (rank - 1 + n) % n;
    for (int st = 0; st < n - 1; st++) {
        int out = (rank - st + n) % n, in = (rank - st - 1 + n) % n;
        MPIR_Sched_send(s, MPIR_Blocks_addr(recv, out), MPIR_Blocks_count(recv, out), recv->type, right);
        MPIR_Sched_recv(s, MPIR_Blocks_addr(recv, in), MPIR_Blocks_count(recv, in), recv->type, left);
        MPIR_Sched_barrier(s);
    }
}

static int check(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, const MPIR_Blocks *recv,
                 MPIR_Comm *c)
{
    int err = MPI_SUCCESS;
    if (sendbuf != MPI_IN_PLACE)
        err = MPIR_Coll_check_data("sendbuf", sendbuf, "sendcount", sendcount, "sendtype", sendtype, -1);
    if (err == MPI_SUCCESS && MPIR_Blocks_v(recv) && MPIR_Aint_array_is_null(recv->displs))
        err = MPIR_Err(MPI_ERR_ARG, "displs is NULL");
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_blocks("recvbuf", recv, c->size, MPIR_Blocks_v(recv) ? "recvcounts" : "recvcount", "recvtype");
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_alias(sendbuf, sendcount, recv->buf, 1);
    return err;
}

/* v: MPI_Allgatherv (recv has per-rank counts and displacements). */
static int allgather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, const MPIR_Blocks *recv,
                     bool v, MPI_Comm comm, MPI_Request *request)
{
    MPIR_Comm *c = MPIR_Coll_inter(comm);
    MPIR_Blocks send = { .buf = sendbuf, .count = sendcount, .type = sendtype };
    int err = c ? MPI_SUCCESS : MPIR_Coll_comm(comm, &c);
    if (err == MPI_SUCCESS && v && !MPIR_Blocks_v(recv))
        err = MPIR_Err(MPI_ERR_ARG, "recvcounts is NULL");
    if (err == MPI_SUCCESS && c->is_inter)
        return MPIR_Inter_exchange(&send, true, recv, MPIR_TAG_ALLGATHER, c, request);
    if (err == MPI_SUCCESS)
        err = check(sendbuf, sendcount, sendtype, recv, c);
    if (err)
        return err;
    MPIR_Sched *s = MPIR_Sched_for(c, MPIR_TAG_ALLGATHER, request);
    build(s, sendbuf, sendcount, sendtype, recv, c);
    return MPIR_Sched_finish(s, request);
}

int MPIR_Allgather_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    MPIR_Blocks recv = { .buf = recvbuf, .count = recvcount, .type = recvtype };
    return allgather(sendbuf, sendcount, sendtype, &recv, false, comm, NULL);
}

int MPIR_Iallgather_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    MPIR_Blocks recv = { .buf = recvbuf, .count = recvcount, .type = recvtype };
    return allgather(sendbuf, sendcount, sendtype, &recv, false, comm, request);
}

int MPIR_Allgatherv_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                         MPIR_Count_array recvcounts, MPIR_Aint_array displs, MPI_Datatype recvtype, MPI_Comm comm)
{
    MPIR_Blocks recv = { .buf = recvbuf, .counts = recvcounts, .displs = displs, .type = recvtype };
    return allgather(sendbuf, sendcount, sendtype, &recv, true, comm, NULL);
}

int MPIR_Iallgatherv_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                          MPIR_Count_array recvcounts, MPIR_Aint_array displs, MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Request *request)
{
    MPIR_Blocks recv = { .buf = recvbuf, .counts = recvcounts, .displs = displs, .type = recvtype };
    return allgather(sendbuf, sendcount, sendtype, &recv, true, comm, request);
}
