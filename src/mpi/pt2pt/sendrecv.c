/*
 * MPI_Sendrecv and MPI_Sendrecv_replace: a receive and a send started together, so two processes
 * that exchange with each other cannot deadlock.
 */
#include "pt2pt.h"

/* Starts the receive, then the send; waits for both. The receive's error wins: it is the one the
 * status describes. */
static int exchange(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                    MPI_Comm comm, MPI_Status *status)
{
    /* Both sides are checked before either starts, so an error leaves nothing in flight. */
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    int err = MPIR_Pt2pt_check_dest(c, dest);
    if (err == MPI_SUCCESS)
        err = MPIR_Pt2pt_check_tag(sendtag, false);
    if (err == MPI_SUCCESS)
        err = MPIR_Pt2pt_check_source(c, source);
    if (err == MPI_SUCCESS)
        err = MPIR_Pt2pt_check_tag(recvtag, true);
    if (err)
        return err;

    MPIR_Request *rreq, *sreq;
    err = MPID_Irecv(recvbuf, recvcount, recvtype, source, recvtag, c, 0, &rreq);
    if (err)
        return err;
    err = MPID_Isend(sendbuf, sendcount, sendtype, dest, sendtag, c, 0, MPID_SEND_STANDARD, &sreq);
    if (err) {
        int cls = err;
        MPID_Cancel_recv(rreq);     /* matched already: it completes normally */
        MPIR_Request_wait(rreq);
        MPIR_Request_finish(rreq, MPI_STATUS_IGNORE, false, NULL);
        return cls;
    }
    MPIR_Request_wait(sreq);
    MPIR_Request_wait(rreq);
    int send_err = MPIR_Request_finish(sreq, MPI_STATUS_IGNORE, false, NULL);
    err = MPIR_Request_finish(rreq, status, false, NULL);
    return err ? err : send_err;
}

int MPIR_Sendrecv_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                       MPI_Comm comm, MPI_Status *status)
{
    return exchange(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                    comm, status);
}

/* The outgoing data is packed into a temporary first, so the receive may overwrite buf; it travels
 * as MPI_PACKED, which the receiver's type matches whatever it is. */
int MPIR_Sendrecv_replace_impl(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag,
                               int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    MPI_Count bytes = 0;
    if (dest != MPI_PROC_NULL
        && MPIR_Mul_overflows(count, MPID_Datatype_get(datatype)->size, &bytes))
        return MPIR_Err(MPI_ERR_COUNT, "count %lld of this type overflows the message size", (long long) count);
    char *tmp = malloc(bytes > 0 ? (size_t) bytes : 1);
    MPIR_CHKMEM(tmp);
    MPI_Count position = 0;
    int err = bytes > 0 ? MPIR_Pack_impl(buf, count, MPID_Datatype_get(datatype), tmp, bytes, &position, comm) : MPI_SUCCESS;
    if (err == MPI_SUCCESS)
        err = exchange(tmp, bytes, MPI_PACKED, dest, sendtag, buf, count, datatype, source, recvtag, comm, status);
    free(tmp);
    return err;
}
