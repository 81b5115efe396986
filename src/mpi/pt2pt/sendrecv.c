/*
 * MPI_Sendrecv and MPI_Sendrecv_replace, and their nonblocking forms MPI_Isendrecv and
 * MPI_Isendrecv_replace (MPI 4.0): a receive and a send started together, so two processes that
 * exchange with each other cannot deadlock, behind one request.
 */
#include "pt2pt.h"

/* Starts the receive, then the send, as one request: the receive, with the send as its partner
 * (it completes when both have; the receive's error wins, as the status describes it). owned, if
 * not NULL, is the send's data, freed with the send. Both sides are checked before either starts,
 * so an error leaves nothing in flight. Without a request (the blocking forms) the pair is waited
 * for here; with one it is handed to the user. */
static int sendrecv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                    MPI_Comm comm, void *owned, MPI_Status *status, MPI_Request *request)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    int err = MPIR_Pt2pt_check_dest(c, dest);
    if (err == MPI_SUCCESS)
        err = MPIR_Pt2pt_check_tag(sendtag, false);
    if (err == MPI_SUCCESS)
        err = MPIR_Pt2pt_check_source(c, source);
    if (err == MPI_SUCCESS)
        err = MPIR_Pt2pt_check_tag(recvtag, true);
    MPIR_Request *rreq = NULL, *sreq = NULL;
    if (err == MPI_SUCCESS)
        err = MPID_Irecv(recvbuf, recvcount, recvtype, source, recvtag, c, 0, &rreq);
    if (err == MPI_SUCCESS)
        err = MPID_Isend(sendbuf, sendcount, sendtype, dest, sendtag, c, 0, MPID_SEND_STANDARD, &sreq);
    if (err) {
        if (rreq) {
            MPID_Cancel_recv(rreq);     /* matched already: it completes normally */
            MPIR_Request_wait(rreq);
            MPIR_Request_finish(rreq, MPI_STATUS_IGNORE, false, NULL);
        }
        free(owned);
        return err;
    }
    sreq->owned = owned;
    rreq->partner = sreq;
    if (request) {
        *request = MPIR_Object_handle(rreq);
        return MPI_SUCCESS;
    }
    MPIR_Request_wait(rreq);
    return MPIR_Request_finish(rreq, status, false, NULL);
}

/* MPI_Sendrecv_replace: the outgoing data is packed into a copy first, so the receive may
 * overwrite buf; it travels as MPI_PACKED, which the receiver's type matches whatever it is. */
static int sendrecv_replace(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source,
                            int recvtag, MPI_Comm comm, MPI_Status *status, MPI_Request *request)
{
    MPI_Count bytes = 0, position = 0;
    if (dest != MPI_PROC_NULL && MPIR_Mul_overflows(count, MPID_Datatype_get(datatype)->size, &bytes))
        return MPIR_Err(MPI_ERR_COUNT, "count %lld of this type overflows the message size", (long long) count);
    char *copy = malloc(bytes > 0 ? (size_t) bytes : 1);
    MPIR_CHKMEM(copy);
    int err = bytes > 0 ? MPIR_Pack_impl(buf, count, MPID_Datatype_get(datatype), copy, bytes, &position, comm)
                        : MPI_SUCCESS;
    if (err) {
        free(copy);
        return err;
    }
    return sendrecv(copy, bytes, MPI_PACKED, dest, sendtag, buf, count, datatype, source, recvtag, comm, copy, status,
                    request);
}

int MPIR_Sendrecv_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                       MPI_Comm comm, MPI_Status *status)
{
    return sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm,
                    NULL, status, NULL);
}

int MPIR_Isendrecv_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                        void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                        MPI_Comm comm, MPI_Request *request)
{
    return sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm,
                    NULL, MPI_STATUS_IGNORE, request);
}

int MPIR_Sendrecv_replace_impl(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag,
                               int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    return sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, status, NULL);
}

int MPIR_Isendrecv_replace_impl(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag,
                                int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    return sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, MPI_STATUS_IGNORE, request);
}
