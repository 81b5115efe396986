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

int MPIR_Comm_swap_with_remote(MPIR_Comm *inter, int local_err, const int *send, int nsend, int *recv, int nrecv)
{
    /* The leaders swap whether they failed, then the ints if neither did: the two decide alike, so
     * a failure on one side leaves no leader waiting for ints that will not come. Then each tells
     * its group (state: this group's leader failed, the other's did), and the ints follow if they
     * moved. */
    int state[2] = { local_err != MPI_SUCCESS, 0 }, err = MPI_SUCCESS;
    if (inter->rank == 0) {
        err = MPIR_Comm_sendrecv_internal(&state[0], 1, &state[1], 1, MPI_INT, 0, MPIR_TAG_LEADERS, inter);
        if (err == MPI_SUCCESS && !state[0] && !state[1])
            err = MPIR_Comm_sendrecv_internal(send, nsend, recv, nrecv, MPI_INT, 0, MPIR_TAG_LEADERS, inter);
        if (err)
            state[0] = 1;
    }
    int e = MPIR_Comm_bcast_ints(state, 2, 0, inter->local_comm);
    err = err ? err : e;
    if (e == MPI_SUCCESS && !state[0] && !state[1]) {      /* the same in the whole group */
        e = MPIR_Comm_bcast_ints(recv, nrecv, 0, inter->local_comm);
        err = err ? err : e;
    }
    if (local_err || err)
        return local_err ? local_err : err;
    if (state[0])
        return MPIR_Err(MPI_ERR_OTHER, "the leader of this group (local rank 0) failed");
    if (state[1])
        return MPIR_Err(MPI_ERR_OTHER, "a process of the remote group failed");
    return MPI_SUCCESS;
}
