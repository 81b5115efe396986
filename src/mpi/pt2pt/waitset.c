/*
 * Completing some of a set of requests: MPI_Waitany/Testany, Waitall/Testall, Waitsome/Testsome,
 * and the MPI_Request_get_status_any/all/some forms that leave the requests allocated (!reap).
 *
 * MPI_REQUEST_NULL entries and persistent requests not started are inactive: the *any and *some
 * forms pass over them, the *all forms give them an empty status. The *all and *some forms report failed
 * operations with MPI_ERR_IN_STATUS; then, and only then, they write the error field of every
 * status they return (MPI 4.1, section 3.2.5). The *any forms return the error itself.
 * Each loop looks at the requests, and only if none is ready lets the device progress.
 */
#include "pt2pt.h"

/* The request of an active entry (the binding checked the handle; a concurrent free is an error). */
static int entry(const MPI_Request *reqs, MPI_Count i, MPIR_Request **req)
{
    *req = MPIR_Request_lookup(reqs[i]);
    if (*req == NULL)
        return MPIR_Err(MPI_ERR_REQUEST, "array_of_requests[%lld] = %#x was completed or freed meanwhile "
                        "(by another thread?)", (long long) i, (unsigned) reqs[i]);
    return MPI_SUCCESS;
}

/* Reports the completed request of entry i; frees it and nulls the entry if reap. */
static int report(MPI_Request *reqs, MPI_Count i, MPIR_Request *req, MPI_Status *status, bool with_error,
                  MPI_Comm *err_comm, bool reap)
{
    if (!reap)
        return MPIR_Request_peek(req, status, with_error, err_comm);
    return MPIR_Request_reap(&reqs[i], req, status, with_error, err_comm);
}

static MPI_Status *status_at(MPI_Status *statuses, MPI_Count i)
{
    return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

static int in_status(MPI_Count nfailed, MPI_Count first)
{
    return MPIR_Err(MPI_ERR_IN_STATUS, "%lld operation%s failed (the first is request %lld); the error "
                    "field of each status says which", (long long) nfailed, nfailed == 1 ? "" : "s",
                    (long long) first);
}

/* What one look at the set for the *any and *some forms found. */
typedef struct {
    int n;                  /* complete entries, their indices in the caller's array */
    bool active;            /* some entry is active at all */
    MPIR_Request *first;    /* the request of the first complete entry */
    MPI_Count nfailed;      /* complete entries whose operation failed ... */
    MPI_Count first_failed; /* ... and the index of the first of them */
} Scan;

/* The entries whose operation is complete go to indices, in order, until max of them are found. */
static int find_complete(MPI_Count count, const MPI_Request *reqs, MPI_Count max, int *indices, Scan *s)
{
    *s = (Scan) { .first_failed = -1 };
    for (MPI_Count i = 0; i < count && s->n < max; i++) {
        if (reqs[i] == MPI_REQUEST_NULL)
            continue;
        MPIR_Request *req;
        int err = entry(reqs, i, &req);
        if (err)
            return err;
        if (MPIR_Request_is_inactive(req))
            continue;
        s->active = true;
        if (!MPIR_Request_is_complete(req))
            continue;
        if (s->n == 0)
            s->first = req;
        indices[s->n++] = (int) i;
        if (MPIR_Request_error(req) != MPI_SUCCESS && s->nfailed++ == 0)
            s->first_failed = i;
    }
    return MPI_SUCCESS;
}

/* ---- any ---- */

static int any(MPI_Count count, MPI_Request *reqs, int *index, int *flag, MPI_Status *status,
               MPI_Comm *err_comm, bool block, bool reap)
{
    for (int step = 0;; step++) {
        Scan found;
        int err = find_complete(count, reqs, 1, index, &found);
        if (err)
            return err;
        if (found.n > 0) {
            *flag = 1;
            return report(reqs, *index, found.first, status, false, err_comm, reap);
        }
        *index = MPI_UNDEFINED;
        if (!found.active) {
            *flag = 1;
            MPIR_Pt2pt_status_empty(status);
            return MPI_SUCCESS;
        }
        if (!block && step == 1) {
            *flag = 0;
            return MPI_SUCCESS;
        }
        MPIR_Pt2pt_poll(step > 0);
    }
}

int MPIR_Waitany_impl(MPI_Count count, MPI_Request *array_of_requests, int *index, MPI_Status *status,
                      MPI_Comm *err_comm)
{
    int flag;
    return any(count, array_of_requests, index, &flag, status, err_comm, true, true);
}

int MPIR_Testany_impl(MPI_Count count, MPI_Request *array_of_requests, int *index, int *flag, MPI_Status *status,
                      MPI_Comm *err_comm)
{
    return any(count, array_of_requests, index, flag, status, err_comm, false, true);
}

int MPIR_Request_get_status_any_impl(MPI_Count count, const MPI_Request *array_of_requests, int *index, int *flag,
                                     MPI_Status *status, MPI_Comm *err_comm)
{
    return any(count, (MPI_Request *) array_of_requests, index, flag, status, err_comm, false, false);
}

/* ---- all ---- */

/* Whether every active request is complete; err for a handle freed meanwhile. */
static bool all_complete(MPI_Count count, const MPI_Request *reqs, int *err)
{
    for (MPI_Count i = 0; i < count; i++) {
        if (reqs[i] == MPI_REQUEST_NULL)
            continue;
        MPIR_Request *req;
        if ((*err = entry(reqs, i, &req)) != MPI_SUCCESS)
            return false;
        if (!MPIR_Request_is_complete(req))
            return false;
    }
    return true;
}

/* Reports every request of a set that is complete throughout. */
static int report_all(MPI_Count count, MPI_Request *reqs, MPI_Status *statuses, MPI_Comm *err_comm, bool reap)
{
    MPI_Count nfailed = 0, first = -1;
    for (MPI_Count i = 0; i < count; i++) {
        MPIR_Request *req = reqs[i] == MPI_REQUEST_NULL ? NULL : MPIR_Request_lookup(reqs[i]);
        if (req && MPIR_Request_error(req) != MPI_SUCCESS && nfailed++ == 0)
            first = i;
    }
    for (MPI_Count i = 0; i < count; i++) {
        MPIR_Request *req = reqs[i] == MPI_REQUEST_NULL ? NULL : MPIR_Request_lookup(reqs[i]);
        if (req == NULL)
            MPIR_Pt2pt_status_empty(status_at(statuses, i));
        else
            report(reqs, i, req, status_at(statuses, i), nfailed > 0, err_comm, reap);
    }
    return nfailed ? in_status(nfailed, first) : MPI_SUCCESS;
}

static int test_all(MPI_Count count, MPI_Request *reqs, int *flag, MPI_Status *statuses, MPI_Comm *err_comm,
                    bool reap)
{
    int err = MPI_SUCCESS;
    *flag = all_complete(count, reqs, &err);
    if (!*flag && !err) {
        MPIR_Pt2pt_poll(false);
        *flag = all_complete(count, reqs, &err);
    }
    if (err || !*flag)
        return err;
    return report_all(count, reqs, statuses, err_comm, reap);
}

int MPIR_Waitall_impl(MPI_Count count, MPI_Request *array_of_requests, MPI_Status *array_of_statuses,
                      MPI_Comm *err_comm)
{
    int err = MPI_SUCCESS;
    for (int step = 0; !all_complete(count, array_of_requests, &err); step++) {
        if (err)
            return err;
        MPIR_Pt2pt_poll(step > 0);
    }
    return report_all(count, array_of_requests, array_of_statuses, err_comm, true);
}

int MPIR_Testall_impl(MPI_Count count, MPI_Request *array_of_requests, int *flag, MPI_Status *array_of_statuses,
                      MPI_Comm *err_comm)
{
    return test_all(count, array_of_requests, flag, array_of_statuses, err_comm, true);
}

int MPIR_Request_get_status_all_impl(MPI_Count count, const MPI_Request *array_of_requests, int *flag,
                                     MPI_Status *array_of_statuses, MPI_Comm *err_comm)
{
    return test_all(count, (MPI_Request *) array_of_requests, flag, array_of_statuses, err_comm, false);
}

/* ---- some ---- */

static int some(MPI_Count incount, MPI_Request *reqs, int *outcount, int *indices, MPI_Status *statuses,
                MPI_Comm *err_comm, bool block, bool reap)
{
    /* First note which are complete (in indices), so that exactly those are reported and the
     * decision to write the error fields holds for all of them. */
    Scan found;
    for (int step = 0;; step++) {
        int err = find_complete(incount, reqs, incount, indices, &found);
        if (err)
            return err;
        if (!found.active) {
            *outcount = MPI_UNDEFINED;
            return MPI_SUCCESS;
        }
        if (found.n > 0 || (!block && step == 1))
            break;
        MPIR_Pt2pt_poll(step > 0);
    }
    for (int k = 0; k < found.n; k++)
        report(reqs, indices[k], MPIR_Request_lookup(reqs[indices[k]]), status_at(statuses, k), found.nfailed > 0,
               err_comm, reap);
    *outcount = found.n;
    return found.nfailed ? in_status(found.nfailed, found.first_failed) : MPI_SUCCESS;
}

int MPIR_Waitsome_impl(MPI_Count incount, MPI_Request *array_of_requests, int *outcount, int *array_of_indices,
                       MPI_Status *array_of_statuses, MPI_Comm *err_comm)
{
    return some(incount, array_of_requests, outcount, array_of_indices, array_of_statuses, err_comm, true, true);
}

int MPIR_Testsome_impl(MPI_Count incount, MPI_Request *array_of_requests, int *outcount, int *array_of_indices,
                       MPI_Status *array_of_statuses, MPI_Comm *err_comm)
{
    return some(incount, array_of_requests, outcount, array_of_indices, array_of_statuses, err_comm, false, true);
}

int MPIR_Request_get_status_some_impl(MPI_Count incount, const MPI_Request *array_of_requests, int *outcount,
                                      int *array_of_indices, MPI_Status *array_of_statuses, MPI_Comm *err_comm)
{
    return some(incount, (MPI_Request *) array_of_requests, outcount, array_of_indices, array_of_statuses,
                err_comm, false, false);
}
