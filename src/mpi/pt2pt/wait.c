/*
 * Completing one request: MPI_Wait, MPI_Test, MPI_Request_get_status, and the helpers every
 * completion call shares.
 *
 * A request with an error in its status (a truncated or mismatched receive) is still completed
 * and freed; its error is returned through the error handler of its communicator.
 */
#include "pt2pt.h"

void MPIR_Request_wait(MPIR_Request *req)
{
    for (int step = 0; !MPIR_Request_is_complete(req); step++)
        MPIR_Pt2pt_poll(step > 0);
}

int MPIR_Request_peek(MPIR_Request *req, MPI_Status *status, bool with_error, MPI_Comm *err_comm)
{
    if (req->persistent) {
        if (req->persist.active == NULL) {
            MPIR_Pt2pt_status_empty(status);    /* inactive */
            return MPI_SUCCESS;
        }
        req = req->persist.active;
    }
    int query_err = req->greq ? MPIR_Grequest_query(req) : MPI_SUCCESS;     /* the user's status */
    int err = query_err ? query_err : MPIR_Request_error(req);
    MPIR_Pt2pt_status_copy(status, &req->status, with_error);
    if (with_error && !MPIR_Status_is_ignore(status))
        status->MPI_ERROR = err;    /* a pair's send may have failed */
    if (err != MPI_SUCCESS && err_comm && req->comm && *err_comm == MPI_COMM_NULL)
        *err_comm = MPIR_Object_handle(req->comm);
    return err;
}

int MPIR_Request_finish(MPIR_Request *req, MPI_Status *status, bool with_error, MPI_Comm *err_comm)
{
    int err = MPIR_Request_peek(req, status, with_error, err_comm);
    if (!req->persistent) {
        int free_err = req->greq ? MPIR_Grequest_free(req) : MPI_SUCCESS;
        err = err ? err : free_err;
        MPIR_Request_release(req);
    } else if (req->persist.active) {
        MPIR_Request_release(req->persist.active);  /* the instance; the request becomes inactive */
        req->persist.active = NULL;
    }
    return err;
}

int MPIR_Request_reap(MPI_Request *handle, MPIR_Request *req, MPI_Status *status, bool with_error,
                      MPI_Comm *err_comm)
{
    if (!req->persistent)
        *handle = MPI_REQUEST_NULL;
    return MPIR_Request_finish(req, status, with_error, err_comm);
}

/* The binding checked the handle, but another thread may have completed it since. */
static int lookup(MPI_Request handle, MPIR_Request **req)
{
    *req = MPIR_Request_lookup(handle);
    if (*req == NULL)
        return MPIR_Err(MPI_ERR_REQUEST, "request %#x was completed or freed meanwhile (by another thread?)",
                        (unsigned) handle);
    return MPI_SUCCESS;
}

int MPIR_Wait_impl(MPI_Request *request, MPI_Status *status, MPI_Comm *err_comm)
{
    if (*request == MPI_REQUEST_NULL) {
        MPIR_Pt2pt_status_empty(status);
        return MPI_SUCCESS;
    }
    MPIR_Request *req;
    int err = lookup(*request, &req);
    if (err)
        return err;
    MPIR_Request_wait(req);
    return MPIR_Request_reap(request, req, status, false, err_comm);
}

/* MPI_Test (reap: the request is freed when complete) and MPI_Request_get_status (it is not). */
static int test(MPI_Request *request, int *flag, MPI_Status *status, MPI_Comm *err_comm, bool reap)
{
    if (*request == MPI_REQUEST_NULL) {
        *flag = 1;
        MPIR_Pt2pt_status_empty(status);
        return MPI_SUCCESS;
    }
    MPIR_Request *req;
    int err = lookup(*request, &req);
    if (err)
        return err;
    if (!MPIR_Request_is_complete(req))
        MPIR_Pt2pt_poll(false);
    *flag = MPIR_Request_is_complete(req);
    if (!*flag)
        return MPI_SUCCESS;
    if (!reap)
        return MPIR_Request_peek(req, status, false, err_comm);
    return MPIR_Request_reap(request, req, status, false, err_comm);
}

int MPIR_Test_impl(MPI_Request *request, int *flag, MPI_Status *status, MPI_Comm *err_comm)
{
    return test(request, flag, status, err_comm, true);
}

int MPIR_Request_get_status_impl(MPI_Request request, int *flag, MPI_Status *status, MPI_Comm *err_comm)
{
    return test(&request, flag, status, err_comm, false);
}
