/*
 * MPI_Request_free and MPI_Cancel, and the status accessors (MPI_Test_cancelled, MPI_Status_get_*
 * and MPI_Status_set_*).
 */
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
    if (err == MPI_SUCCESS && req->kind == MPIR_REQUEST_RECV && !MPIR_Request_is_complete(req))
        err = MPID_Cancel_recv(req);
    return err;
}

/* MPI_STATUS_IGNORE is no status to read or write. */
static int check_status(const MPI_Status *status)
{
    if (MPIR_Status_is_ignore(status))
        return MPIR_Err(MPI_ERR_ARG, "status is MPI_STATUS_IGNORE");
    return MPI_SUCCESS;
}

int MPIR_Test_cancelled_impl(const MPI_Status *status, int *flag)
{
    int err = check_status(status);
    if (err == MPI_SUCCESS)
        *flag = MPIR_Status_get_cancelled(status);
    return err;
}

int MPIR_Status_set_cancelled_impl(MPI_Status *status, int flag)
{
    int err = check_status(status);
    if (err == MPI_SUCCESS)
        MPIR_Status_set_cancelled(status, flag != 0);
    return err;
}

/* MPI 4.1 accessors of the public fields, for languages without direct access to the struct. */
int MPIR_Status_get_source_impl(const MPI_Status *status, int *source)
{
    int err = check_status(status);
    if (err == MPI_SUCCESS)
        *source = status->MPI_SOURCE;
    return err;
}

int MPIR_Status_get_tag_impl(const MPI_Status *status, int *tag)
{
    int err = check_status(status);
    if (err == MPI_SUCCESS)
        *tag = status->MPI_TAG;
    return err;
}

int MPIR_Status_get_error_impl(const MPI_Status *status, int *error)
{
    int err = check_status(status);
    if (err == MPI_SUCCESS)
        *error = status->MPI_ERROR;
    return err;
}

int MPIR_Status_set_source_impl(MPI_Status *status, int source)
{
    int err = check_status(status);
    if (err == MPI_SUCCESS)
        status->MPI_SOURCE = source;
    return err;
}

int MPIR_Status_set_tag_impl(MPI_Status *status, int tag)
{
    int err = check_status(status);
    if (err == MPI_SUCCESS)
        status->MPI_TAG = tag;
    return err;
}

int MPIR_Status_set_error_impl(MPI_Status *status, int error)
{
    int err = check_status(status);
    if (err == MPI_SUCCESS)
        status->MPI_ERROR = error;
    return err;
}
