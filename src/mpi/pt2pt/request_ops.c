/* MPI_Request_free and MPI_Cancel. */
#include "pt2pt.h"

static int lookup_active(MPI_Request handle, const char *what, MPIR_Request **req)
{
    if (handle == MPI_REQUEST_NULL)
        return MPIR_Err(MPI_ERR_REQUEST, "MPI_REQUEST_NULL cannot be %s", what);
    *req = MPIR_Request_lookup(handle);
    if (*req == NULL)
        return MPIR_Err(MPI_ERR_REQUEST, "request %#x was completed or freed meanwhile (by another thread?)",
                        (unsigned) handle);
    return MPI_SUCCESS;
}

int MPIR_Request_free_impl(MPI_Request *request)
{
    MPIR_Request *req;
    int err = lookup_active(*request, "freed", &req);
    if (err)
        return err;
    if (req->persistent) {
        /* a running instance completes on its own and is released then */
        if (req->persist.active)
            MPID_Request_free(req->persist.active);
        req->persist.active = NULL;
        MPIR_Request_release(req);
    } else {
        if (req->partner) {         /* a pair: each half goes its own way (the send owns its data) */
            MPID_Request_free(req->partner);
            req->partner = NULL;
        }
        MPID_Request_free(req);     /* released now if complete, else by the device when it completes */
    }
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}

/* Only receives that have not matched can be cancelled. A send is left to complete (the standard
 * allows that); MPI_Test_cancelled then says false. The request must still be completed. */
int MPIR_Cancel_impl(MPI_Request *request)
{
    MPIR_Request *req;
    int err = lookup_active(*request, "cancelled", &req);
    if (err == MPI_SUCCESS && req->persistent) {
        if (req->persist.active == NULL)
            return MPIR_Err(MPI_ERR_REQUEST, "request %#x is a persistent request that is not active (MPI_Start "
                            "it first)", (unsigned) *request);
        req = req->persist.active;
    }
    if (err == MPI_SUCCESS && req->greq)
        return MPIR_Grequest_cancel(req);
    if (err == MPI_SUCCESS && req->kind == MPIR_REQUEST_RECV && !MPIR_Request_is_complete(req))
        err = MPID_Cancel_recv(req);
    return err;
}
