/*
 * MPI_Alltoall, MPI_Alltoallv and MPI_Alltoallw: one pairwise exchange over block layouts
 * (MPIR_Blocks). In step s = 1 .. size-1 each rank sends its block for rank + s and receives the
 * block from rank - s; step 0 is the local copy of its own block. Every block goes straight from
 * the send buffer to the receive buffer with its own count and type.
 *
 * MPI_IN_PLACE: the data to send is in the receive buffer, described by the receive layout. Each
 * block to send is first copied aside (a block received early would overwrite one not yet sent).
 */
#include "coll_util.h"
#include "mpir_impl_proto.h"

/* send == NULL: in place. */
static int exchange(const MPIR_Blocks *send, const MPIR_Blocks *recv, MPIR_Comm *c)
{
    int n = c->size, rank = c->rank, err = MPI_SUCCESS;
    MPIR_Tmpbuf *aside = NULL;
    if (!send) {
        send = recv;
        if (!(aside = calloc((size_t) n, sizeof *aside)))
            return MPIR_Err(MPI_ERR_NO_MEM, "out of memory for %d buffers", n);
        for (int i = 0; i < n && err == MPI_SUCCESS; i++) {
            MPI_Count count = MPIR_Blocks_count(recv, i);
            MPI_Datatype type = MPIR_Blocks_type(recv, i);
            if (i == rank)
                continue;
            err = MPIR_Tmpbuf_alloc(&aside[i], count, type);
            if (err == MPI_SUCCESS)
                err = MPIR_Localcopy(MPIR_Blocks_addr(recv, i), count, type, aside[i].buf, count, type);
        }
    }
    for (int s = 0; s < n && err == MPI_SUCCESS; s++) {
        int dst = (rank + s) % n, src = (rank - s + n) % n;
        const void *sbuf = aside ? aside[dst].buf : MPIR_Blocks_addr(send, dst);
        if (s == 0 && !aside)
            err = MPIR_Localcopy(sbuf, MPIR_Blocks_count(send, dst), MPIR_Blocks_type(send, dst),
                                 MPIR_Blocks_addr(recv, rank), MPIR_Blocks_count(recv, rank),
                                 MPIR_Blocks_type(recv, rank));
        else if (s > 0)
            err = MPIR_Coll_sendrecv(sbuf, MPIR_Blocks_count(send, dst), MPIR_Blocks_type(send, dst), dst,
                                     MPIR_Blocks_addr(recv, src), MPIR_Blocks_count(recv, src),
                                     MPIR_Blocks_type(recv, src), src, MPIR_TAG_ALLTOALL, c);
    }
    if (aside) {
        for (int i = 0; i < n; i++)
            free(aside[i].base);
        free(aside);
    }
    return err;
}

/* Checks both layouts (send == NULL: in place) and runs the exchange. */
static int alltoall(const MPIR_Blocks *send, const MPIR_Blocks *recv, MPIR_Comm *c)
{
    int err = MPI_SUCCESS;
    if (send)
        err = MPIR_Coll_check_blocks("sendbuf", send, c->size, send->counts ? "sendcounts" : "sendcount",
                                     send->types ? "sendtypes" : "sendtype");
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_blocks("recvbuf", recv, c->size, recv->counts ? "recvcounts" : "recvcount",
                                     recv->types ? "recvtypes" : "recvtype");
    if (err == MPI_SUCCESS && send)
        err = MPIR_Coll_check_alias(send->buf, 1, recv->buf, 1);
    return err ? err : exchange(send, recv, c);
}

int MPIR_Alltoall_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    MPIR_Comm *c;
    MPIR_Blocks send = { .buf = sendbuf, .count = sendcount, .type = sendtype };
    MPIR_Blocks recv = { .buf = recvbuf, .count = recvcount, .type = recvtype };
    int err = MPIR_Coll_comm(comm, &c);
    return err ? err : alltoall(sendbuf == MPI_IN_PLACE ? NULL : &send, &recv, c);
}

int MPIR_Alltoallv_impl(const void *sendbuf, const MPI_Count *sendcounts, const MPI_Aint *sdispls,
                        MPI_Datatype sendtype, void *recvbuf, const MPI_Count *recvcounts, const MPI_Aint *rdispls,
                        MPI_Datatype recvtype, MPI_Comm comm)
{
    MPIR_Comm *c;
    MPIR_Blocks send = { .buf = sendbuf, .counts = sendcounts, .displs = sdispls, .type = sendtype };
    MPIR_Blocks recv = { .buf = recvbuf, .counts = recvcounts, .displs = rdispls, .type = recvtype };
    bool in_place = sendbuf == MPI_IN_PLACE;
    int err = MPIR_Coll_comm(comm, &c);
    if (err == MPI_SUCCESS && ((!in_place && (!sendcounts || !sdispls)) || !recvcounts || !rdispls))
        err = MPIR_Err(MPI_ERR_ARG, "%s is NULL", !in_place && !sendcounts ? "sendcounts"
                       : !in_place && !sdispls ? "sdispls" : !recvcounts ? "recvcounts" : "rdispls");
    return err ? err : alltoall(in_place ? NULL : &send, &recv, c);
}

int MPIR_Alltoallw_impl(const void *sendbuf, const MPI_Count *sendcounts, const MPI_Aint *sdispls,
                        const MPI_Datatype *sendtypes, void *recvbuf, const MPI_Count *recvcounts,
                        const MPI_Aint *rdispls, const MPI_Datatype *recvtypes, MPI_Comm comm)
{
    MPIR_Comm *c;
    MPIR_Blocks send = { .buf = sendbuf, .counts = sendcounts, .displs = sdispls, .byte_displs = true,
                         .types = sendtypes };
    MPIR_Blocks recv = { .buf = recvbuf, .counts = recvcounts, .displs = rdispls, .byte_displs = true,
                         .types = recvtypes };
    bool in_place = sendbuf == MPI_IN_PLACE;
    int err = MPIR_Coll_comm(comm, &c);
    if (err == MPI_SUCCESS && ((!in_place && (!sendcounts || !sdispls || !sendtypes)) || !recvcounts || !rdispls
                               || !recvtypes))
        err = MPIR_Err(MPI_ERR_ARG, "%s is NULL", !in_place && !sendcounts ? "sendcounts"
                       : !in_place && !sdispls ? "sdispls" : !in_place && !sendtypes ? "sendtypes"
                       : !recvcounts ? "recvcounts" : !rdispls ? "rdispls" : "recvtypes");
    return err ? err : alltoall(in_place ? NULL : &send, &recv, c);
}
