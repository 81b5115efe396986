/*
 * Sends and receives in every mode, blocking and nonblocking (buffered mode: bsend.c).
 *
 * Each starts a device operation; the blocking forms wait for it and report its error (a
 * truncated or mismatched receive) through the communicator's error handler.
 */
#include "pt2pt.h"

int MPIR_Pt2pt_isend(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                     int mode, MPIR_Request **req)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    int err = MPIR_Pt2pt_check_peer(c, dest, tag, false);
    if (err == MPI_SUCCESS)
        err = MPID_Isend(buf, count, type, dest, tag, c, 0, mode, req);
    return err;
}

int MPIR_Pt2pt_irecv(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                     MPIR_Request **req)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    int err = MPIR_Pt2pt_check_peer(c, source, tag, true);
    if (err == MPI_SUCCESS)
        err = MPID_Irecv(buf, count, type, source, tag, c, 0, req);
    return err;
}

static int send_blocking(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                         int mode)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    int err = MPIR_Pt2pt_check_peer(c, dest, tag, false);
    MPIR_Request *req = NULL;
    if (err == MPI_SUCCESS)
        err = MPID_Send(buf, count, type, dest, tag, c, 0, mode, &req);
    if (err || !req)
        return err;     /* an error, or the message left at once */
    MPIR_Request_wait(req);
    return MPIR_Request_finish(req, MPI_STATUS_IGNORE, false, NULL);
}

static int send_nonblocking(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                            MPI_Comm comm, int mode, MPI_Request *request)
{
    MPIR_Request *req;
    int err = MPIR_Pt2pt_isend(buf, count, type, dest, tag, comm, mode, &req);
    if (err == MPI_SUCCESS)
        *request = MPIR_Object_handle(req);
    return err;
}

int MPIR_Send_impl(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return send_blocking(buf, count, datatype, dest, tag, comm, MPID_SEND_STANDARD);
}

int MPIR_Ssend_impl(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return send_blocking(buf, count, datatype, dest, tag, comm, MPID_SEND_SYNC);
}

int MPIR_Rsend_impl(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return send_blocking(buf, count, datatype, dest, tag, comm, MPID_SEND_READY);
}

int MPIR_Isend_impl(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                    MPI_Request *request)
{
    return send_nonblocking(buf, count, datatype, dest, tag, comm, MPID_SEND_STANDARD, request);
}

int MPIR_Issend_impl(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                     MPI_Request *request)
{
    return send_nonblocking(buf, count, datatype, dest, tag, comm, MPID_SEND_SYNC, request);
}

int MPIR_Irsend_impl(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                     MPI_Request *request)
{
    return send_nonblocking(buf, count, datatype, dest, tag, comm, MPID_SEND_READY, request);
}

int MPIR_Recv_impl(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                   MPI_Status *status)
{
    MPIR_Request *req;
    int err = MPIR_Pt2pt_irecv(buf, count, datatype, source, tag, comm, &req);
    if (err)
        return err;
    MPIR_Request_wait(req);
    return MPIR_Request_finish(req, status, false, NULL);
}

int MPIR_Irecv_impl(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                    MPI_Request *request)
{
    MPIR_Request *req;
    int err = MPIR_Pt2pt_irecv(buf, count, datatype, source, tag, comm, &req);
    if (err == MPI_SUCCESS)
        *request = MPIR_Object_handle(req);
    return err;
}
