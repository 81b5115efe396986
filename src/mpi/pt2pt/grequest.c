/*
 * Generalized requests (MPI 4.1 13.2): MPI_Grequest_start, MPI_Grequest_complete, and the calls
 * into the user's callbacks that the completion calls make.
 *
 * The request is an ordinary one of kind MPIR_REQUEST_GENERALIZED that only MPI_Grequest_complete
 * marks complete. Once it is: MPI_Wait, MPI_Test & co. and MPI_Request_get_status call query_fn
 * for its status (MPIR_Grequest_query, from MPIR_Request_peek), and the call that ends the request
 * (a completion call, or MPI_Grequest_complete after MPI_Request_free) calls free_fn once; MPI_Cancel
 * calls cancel_fn with whether it has completed. The callbacks' error codes are those calls'.
 */
#include "pt2pt.h"

struct MPIR_Grequest {
    MPI_Grequest_query_function *query_fn;
    MPI_Grequest_free_function *free_fn;    /* NULL once called */
    MPI_Grequest_cancel_function *cancel_fn;
    void *extra_state;
};

int MPIR_Grequest_start_impl(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                             MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request)
{
    if (!query_fn || !free_fn || !cancel_fn)
        return MPIR_Err(MPI_ERR_ARG, "%s is NULL", !query_fn ? "query_fn" : !free_fn ? "free_fn" : "cancel_fn");
    MPIR_Request *req = MPIR_Request_create(MPIR_REQUEST_GENERALIZED);
    struct MPIR_Grequest *g = malloc(sizeof *g);
    if (req == NULL || g == NULL) {
        free(g);
        if (req)
            MPIR_Request_release(req);
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory or of request handles");
    }
    *g = (struct MPIR_Grequest) { query_fn, free_fn, cancel_fn, extra_state };
    req->greq = g;
    *request = MPIR_Object_handle(req);
    return MPI_SUCCESS;
}

/* The handle may be one the user has freed already (MPI_Request_free before the completion). */
int MPIR_Grequest_complete_impl(MPI_Request request)
{
    MPIR_Request *req = MPIR_Request_lookup_freed_too(request);
    if (req == NULL || req->greq == NULL)
        return MPIR_Err(MPI_ERR_REQUEST, "request %#x is %s", (unsigned) request,
                        req ? "not a generalized request (made by MPI_Grequest_start)" : "not a valid request");
    if (MPIR_Request_is_complete(req))
        return MPIR_Err(MPI_ERR_REQUEST, "request %#x is complete already", (unsigned) request);
    MPID_Request_complete(req);     /* if MPI_Request_free came first, its end: free_fn runs there */
    return MPI_SUCCESS;
}

int MPIR_Grequest_query(MPIR_Request *req)
{
    return req->greq ? req->greq->query_fn(req->greq->extra_state, &req->status) : MPI_SUCCESS;
}

int MPIR_Grequest_free(MPIR_Request *req)
{
    struct MPIR_Grequest *g = req->greq;
    if (g == NULL || g->free_fn == NULL)
        return MPI_SUCCESS;
    MPI_Grequest_free_function *fn = g->free_fn;
    g->free_fn = NULL;
    return fn(g->extra_state);
}

int MPIR_Grequest_cancel(MPIR_Request *req)
{
    return req->greq ? req->greq->cancel_fn(req->greq->extra_state, MPIR_Request_is_complete(req)) : MPI_SUCCESS;
}
