/*
 * MPI_Alltoall, MPI_Alltoallv, MPI_Alltoallw and their nonblocking forms: one exchange over block
 * layouts (MPIR_Blocks), all messages at once: each rank sends its block for rank + s and receives
 * the block from rank - s for s = 1 .. size-1 (in that order, so every rank starts with its
 * neighbours); its own block is a local copy. Every block goes straight from the send buffer to
 * the receive buffer with its own count and type.
 *
 * MPI_IN_PLACE: the data to send is in the receive buffer, described by the receive layout. Each
 * block to send is first copied aside (a block received early would overwrite one not yet sent).
 */
#include "coll_inter.h"
#include "mpir_impl_proto.h"

/* send == NULL: in place. */
static void build(MPIR_Sched *s, const MPIR_Blocks *send, const MPIR_Blocks *recv, MPIR_Comm *c)
{
    int n = c->size, rank = c->rank;
    void **aside = NULL;
    if (!send) {
        send = recv;
        /* NULL: the schedule has failed, and takes its part in the exchange without data */
        aside = MPIR_Sched_tmpbuf(s, (MPI_Count) n * (MPI_Count) sizeof *aside, MPI_BYTE);
        for (int i = 0; aside && i < n; i++) {
            MPI_Count count = MPIR_Blocks_count(recv, i);
            MPI_Datatype type = MPIR_Blocks_type(recv, i);
            if (i == rank)
                continue;
            aside[i] = MPIR_Sched_tmpbuf(s, count, type);
            MPIR_Sched_copy(s, MPIR_Blocks_addr(recv, i), count, type, aside[i], count, type);
        }
    }
    for (int st = 0; st < n; st++) {
        int dst = (rank + st) % n, src = (rank - st + n) % n;
        const void *sbuf = aside ? aside[dst] : MPIR_Blocks_addr(send, dst);
        if (st == 0 && !aside) {
            MPIR_Sched_copy(s, sbuf, MPIR_Blocks_count(send, dst), MPIR_Blocks_type(send, dst),
                            MPIR_Blocks_addr(recv, rank), MPIR_Blocks_count(recv, rank), MPIR_Blocks_type(recv, rank));
        } else if (st > 0) {
            MPIR_Sched_send(s, sbuf, MPIR_Blocks_count(send, dst), MPIR_Blocks_type(send, dst), dst);
            MPIR_Sched_recv(s, MPIR_Blocks_addr(recv, src), MPIR_Blocks_count(recv, src), MPIR_Blocks_type(recv, src),
                            src);
        }
    }
}

/* The communicator: an intracommunicator, or an intercommunicator (coll_inter.c). */
static int coll_comm(MPI_Comm comm, MPIR_Comm **c)
{
    *c = MPIR_Coll_inter(comm);
    return *c ? MPI_SUCCESS : MPIR_Coll_comm(comm, c);
}

/* Checks both layouts (send == NULL: in place) and runs the exchange. */
static int alltoall(const MPIR_Blocks *send, const MPIR_Blocks *recv, MPIR_Comm *c, MPI_Request *request)
{
    if (c->is_inter) {
        MPIR_Blocks in_place = { .buf = MPI_IN_PLACE, .type = MPI_BYTE };    /* refused there */
        return MPIR_Inter_exchange(send ? send : &in_place, false, recv, MPIR_TAG_ALLTOALL, c, request);
    }
    int err = MPI_SUCCESS;
    if (send)
        err = MPIR_Coll_check_blocks("sendbuf", send, c->size, MPIR_Blocks_v(send) ? "sendcounts" : "sendcount",
                                     send->types ? "sendtypes" : "sendtype");
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_blocks("recvbuf", recv, c->size, MPIR_Blocks_v(recv) ? "recvcounts" : "recvcount",
                                     recv->types ? "recvtypes" : "recvtype");
    if (err == MPI_SUCCESS && send)
        err = MPIR_Coll_check_alias(send->buf, 1, recv->buf, 1);
    if (err)
        return err;
    MPIR_Sched *s = MPIR_Sched_for(c, MPIR_TAG_ALLTOALL, request);
    build(s, send, recv, c);
    return MPIR_Sched_finish(s, request);
}

static int alltoall_u(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    MPIR_Comm *c;
    MPIR_Blocks send = { .buf = sendbuf, .count = sendcount, .type = sendtype };
    MPIR_Blocks recv = { .buf = recvbuf, .count = recvcount, .type = recvtype };
    int err = coll_comm(comm, &c);
    return err ? err : alltoall(sendbuf == MPI_IN_PLACE ? NULL : &send, &recv, c, request);
}

/* MPI_ERR_ARG for the first array of the v (or w) form that is NULL (the send side's only when it
 * is read: not with MPI_IN_PLACE). */
static int null_array(bool in_place, const MPIR_Blocks *send, const MPIR_Blocks *recv, bool w)
{
    const char *what = !in_place && !MPIR_Blocks_v(send) ? "sendcounts"
                       : !in_place && MPIR_Aint_array_is_null(send->displs) ? "sdispls"
                       : w && !in_place && !send->types ? "sendtypes"
                       : !MPIR_Blocks_v(recv) ? "recvcounts"
                       : MPIR_Aint_array_is_null(recv->displs) ? "rdispls"
                       : w && !recv->types ? "recvtypes" : NULL;
    return what ? MPIR_Err(MPI_ERR_ARG, "%s is NULL", what) : MPI_SUCCESS;
}

static int alltoall_v(const void *sendbuf, MPIR_Count_array sendcounts, MPIR_Aint_array sdispls,
                      MPI_Datatype sendtype, void *recvbuf, MPIR_Count_array recvcounts, MPIR_Aint_array rdispls,
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    MPIR_Comm *c;
    MPIR_Blocks send = { .buf = sendbuf, .counts = sendcounts, .displs = sdispls, .type = sendtype };
    MPIR_Blocks recv = { .buf = recvbuf, .counts = recvcounts, .displs = rdispls, .type = recvtype };
    bool in_place = sendbuf == MPI_IN_PLACE;
    int err = coll_comm(comm, &c);
    err = err ? err : null_array(in_place, &send, &recv, false);
    return err ? err : alltoall(in_place ? NULL : &send, &recv, c, request);
}

static int alltoall_w(const void *sendbuf, MPIR_Count_array sendcounts, MPIR_Aint_array sdispls,
                      const MPI_Datatype *sendtypes, void *recvbuf, MPIR_Count_array recvcounts,
                      MPIR_Aint_array rdispls, const MPI_Datatype *recvtypes, MPI_Comm comm, MPI_Request *request)
{
    MPIR_Comm *c;
    MPIR_Blocks send = { .buf = sendbuf, .counts = sendcounts, .displs = sdispls, .byte_displs = true,
                         .types = sendtypes };
    MPIR_Blocks recv = { .buf = recvbuf, .counts = recvcounts, .displs = rdispls, .byte_displs = true,
                         .types = recvtypes };
    bool in_place = sendbuf == MPI_IN_PLACE;
    int err = coll_comm(comm, &c);
    err = err ? err : null_array(in_place, &send, &recv, true);
    return err ? err : alltoall(in_place ? NULL : &send, &recv, c, request);
}

int MPIR_Alltoall_without_data(MPI_Comm comm, int errclass)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    MPIR_Blocks none = { .type = MPI_BYTE };
    MPIR_Sched *s = MPIR_Sched_for(c, MPIR_TAG_ALLTOALL, NULL);
    MPIR_Sched_fail(s, errclass);
    build(s, &none, &none, c);      /* a failed schedule uses no buffer */
    MPIR_Sched_run(s);
    return errclass;
}

int MPIR_Alltoall_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoall_u(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL);
}

int MPIR_Ialltoall_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return alltoall_u(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}

int MPIR_Alltoallv_impl(const void *sendbuf, MPIR_Count_array sendcounts, MPIR_Aint_array sdispls,
                        MPI_Datatype sendtype, void *recvbuf, MPIR_Count_array recvcounts, MPIR_Aint_array rdispls,
                        MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoall_v(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, NULL);
}

int MPIR_Ialltoallv_impl(const void *sendbuf, MPIR_Count_array sendcounts, MPIR_Aint_array sdispls,
                         MPI_Datatype sendtype, void *recvbuf, MPIR_Count_array recvcounts, MPIR_Aint_array rdispls,
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return alltoall_v(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request);
}

int MPIR_Alltoallw_impl(const void *sendbuf, MPIR_Count_array sendcounts, MPIR_Aint_array sdispls,
                        const MPI_Datatype *sendtypes, void *recvbuf, MPIR_Count_array recvcounts,
                        MPIR_Aint_array rdispls, const MPI_Datatype *recvtypes, MPI_Comm comm)
{
    return alltoall_w(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, NULL);
}

int MPIR_Ialltoallw_impl(const void *sendbuf, MPIR_Count_array sendcounts, MPIR_Aint_array sdispls,
                         const MPI_Datatype *sendtypes, void *recvbuf, MPIR_Count_array recvcounts,
                         MPIR_Aint_array rdispls, const MPI_Datatype *recvtypes, MPI_Comm comm, MPI_Request *request)
{
    return alltoall_w(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm,
                      request);
}
