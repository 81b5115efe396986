/*
 * The library's own messages: the few exchanges that building communicators needs beyond
 * MPI_Allreduce (between the leaders of two groups, or among the members of a group that is not
 * yet a communicator). They use the device directly, on the collective context of the
 * communicator, so they never meet user messages.
 */
#include <stdio.h>
#include "comm.h"

/* Waits for a request and returns its outcome as an error class with a reason. */
static int wait_and_release(MPIR_Request *req)
{
    while (!MPIR_Request_is_complete(req)) {
        MPID_Progress_test();
        if (!MPIR_Request_is_complete(req))
            MPID_Progress_wait();
    }
    int code = req->status.MPI_ERROR;
    MPIR_Request_release(req);
    if (code == MPI_SUCCESS)
        return MPI_SUCCESS;
    char text[MPI_MAX_ERROR_STRING];
    int len;
    if (MPIR_Error_string_impl(code, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "error code %d", code);
    return MPIR_Err(code & MPIR_ERR_CLASS_MASK, "an internal message failed: %s", text);
}

int MPIR_Comm_sendrecv_internal(const void *sendbuf, int sendcount, void *recvbuf, int recvcount,
                                MPI_Datatype type, int peer, int tag, MPIR_Comm *comm)
{
    MPIR_Request *rreq = NULL, *sreq = NULL;
    int err = MPI_SUCCESS;
    /* The receive is posted first, so two peers exchanging large buffers cannot both wait on a send. */
    if (recvcount > 0)
        err = MPID_Irecv(recvbuf, recvcount, type, peer, tag, comm, MPIR_CONTEXT_COLL_OFFSET, &rreq);
    if (err == MPI_SUCCESS && sendcount > 0)
        err = MPID_Isend(sendbuf, sendcount, type, peer, tag, comm, MPIR_CONTEXT_COLL_OFFSET, MPID_SEND_STANDARD,
                         &sreq);
    if (sreq) {
        int e = wait_and_release(sreq);
        err = err ? err : e;
    }
    if (rreq) {
        /* A posted receive is always waited for: even after a failed send, since its request
         * refers to recvbuf. */
        int e = wait_and_release(rreq);
        err = err ? err : e;
    }
    return err;
}

int MPIR_Comm_bcast_ints(int *buf, int n, int root, MPIR_Comm *comm)
{
    if (n == 0)
        return MPI_SUCCESS;
    /* in place: nothing to allocate, so no way to fail on one process only */
    if (comm->rank != root)
        memset(buf, 0, (size_t) n * sizeof *buf);
    return MPIR_Allreduce_impl(MPI_IN_PLACE, buf, n, MPI_INT, MPI_BOR, MPIR_Comm_handle(comm));
}

int MPIR_Comm_swap_with_remote(MPIR_Comm *inter, const int *send, int nsend, int *recv, int nrecv)
{
    int err = MPI_SUCCESS;
    if (inter->rank == 0)
        err = MPIR_Comm_sendrecv_internal(send, nsend, recv, nrecv, MPI_INT, 0, MPIR_TAG_LEADERS, inter);
    /* The broadcast runs even if the leader failed, so no process of the group is left waiting;
     * the leader's error travels as its return value only. */
    int e = MPIR_Comm_bcast_ints(recv, nrecv, 0, inter->local_comm);
    return err ? err : e;
}
