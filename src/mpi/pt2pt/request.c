/*
 * Requests: the pool and the references.
 *
 * The device creates a request for every operation it starts (MPI_Ibsend's are made here) and
 * marks it complete; the MPI layer reaps it (MPI_Wait and kin), or the user lets go of it early
 * with MPI_Request_free, and then the device releases it when it completes (MPID_Request_free).
 */
#include "pt2pt.h"
#include <stdio.h>

/* The first block is static: a program with few requests in flight never allocates one. */
static MPIR_Request direct_block[MPIR_POOL_BLOCK];
static MPIR_Pool request_pool =
    MPIR_POOL_INITIALIZER(MPIR_CLASS_REQUEST, MPIR_Request, "request", direct_block);

MPIR_Request *MPIR_Request_create(MPIR_Request_kind kind)
{
    MPIR_Request *req = MPIR_Pool_alloc(&request_pool);
    if (req == NULL)
        return NULL;
    req->kind = kind;
    MPIR_Pt2pt_status_empty(&req->status);
    return req;
}

void MPIR_Request_release(MPIR_Request *req)
{
    if (MPIR_Object_release_ref(req) > 0)
        return;
    if (req->comm)
        MPIR_Comm_release(req->comm);
    if (req->type)
        MPID_Datatype_release(req->type);
    if (req->partner)
        MPIR_Request_release(req->partner);
    if (req->owned)
        free(req->owned);
    if (req->greq) {
        MPIR_Grequest_free(req);    /* unless a completion call did, to return its error */
        free(req->greq);
    }
    MPIR_Pool_free(&request_pool, req);
}

/* A request the user freed is the device's until it completes, but its handle is already dead. */
MPIR_Request *MPIR_Request_lookup(MPI_Request handle)
{
    MPIR_Request *req = MPIR_Pool_lookup(&request_pool, handle);
    return req && !atomic_load_explicit(&req->freed_by_user, memory_order_relaxed) ? req : NULL;
}

MPIR_Request *MPIR_Request_lookup_freed_too(MPI_Request handle)
{
    return MPIR_Pool_lookup(&request_pool, handle);
}

/* ---- finalize ---- */

static const char *kind_name(MPIR_Request_kind kind)
{
    return kind == MPIR_REQUEST_SEND ? "send" : kind == MPIR_REQUEST_RECV ? "receive" : "generalized";
}

static void report_leak(void *obj, void *arg)
{
    MPIR_Request *req = obj;
    (void) arg;
    if (req->freed_by_user)
        return;     /* the device still completes it */
    fprintf(stderr, "Loom MPI: %s%s request 0x%08x was never completed or freed%s\n",
            req->persistent ? "persistent " : "", kind_name(req->kind), (unsigned) MPIR_Object_handle(req),
            MPIR_Request_is_complete(req) ? "" : " (still pending)");
}

/* MPI_Finalize, after the world's barrier and before the device leaves. */
void MPIR_Pt2pt_finalize(void)
{
    MPIR_Bsend_finalize();
    MPIR_Mprobe_finalize();
    if (MPIR_Leak_report_wanted())
        MPIR_Pool_foreach(&request_pool, report_leak, NULL);
}
