/*
 * Generalized requests (MPI 4.1 13.2): MPI_Grequest_start and MPI_Grequest_complete, and the
 * callbacks as each completion call makes them: MPI_Test before the completion (no callback),
 * MPI_Wait (query_fn fills the status, then free_fn once), MPI_Request_get_status (query_fn only),
 * MPI_Request_free before the completion (free_fn at MPI_Grequest_complete), MPI_Cancel (cancel_fn
 * with whether it had completed), MPI_Waitall with ordinary requests, the callbacks' error codes
 * returned, a completion from another thread while MPI_Wait waits, and argument errors.
 */
#include <pthread.h>
#include <time.h>
#include "mtest.h"

typedef struct {
    int queries, frees, cancels, last_complete;
    int query_err, free_err;    /* what the callbacks return */
    int cancelled;              /* what query_fn reports */
} state;

static int query(void *extra, MPI_Status *status)
{
    state *s = extra;
    s->queries++;
    status->MPI_SOURCE = 3;
    status->MPI_TAG = 44;
    MPI_Status_set_elements(status, MPI_INT, 5);
    MPI_Status_set_cancelled(status, s->cancelled);
    return s->query_err;
}

static int release(void *extra)
{
    state *s = extra;
    s->frees++;
    return s->free_err;
}

static int cancel(void *extra, int complete)
{
    state *s = extra;
    s->cancels++;
    s->last_complete = complete;
    s->cancelled = !complete;
    return MPI_SUCCESS;
}

static void *complete_later(void *arg)
{
    nanosleep(&(struct timespec) { 0, 50 * 1000 * 1000 }, NULL);
    MPI_Grequest_complete(*(MPI_Request *) arg);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Request r;
    MPI_Status st;
    int flag, count;

    /* the ordinary life: not complete, completed, waited for */
    state a = { 0 };
    CHECK_MPI(MPI_Grequest_start(query, release, cancel, &a, &r));
    CHECK_MPI(MPI_Test(&r, &flag, &st));
    CHECK(!flag && a.queries == 0 && a.frees == 0, "before the completion: flag %d, %d queries", flag, a.queries);
    CHECK_MPI(MPI_Grequest_complete(r));
    CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
    CHECK(flag && a.queries == 1 && a.frees == 0, "get_status: flag %d, %d queries, %d frees", flag, a.queries,
          a.frees);
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK_EQ(a.queries, 2);
    CHECK_EQ(a.frees, 1);
    CHECK(r == MPI_REQUEST_NULL, "the request is MPI_REQUEST_NULL after MPI_Wait");
    CHECK_EQ(st.MPI_SOURCE, 3);
    CHECK_EQ(st.MPI_TAG, 44);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK_EQ(count, 5);
    MPI_Test_cancelled(&st, &flag);
    CHECK_EQ(flag, 0);

    /* freed before its completion: free_fn runs at the completion, not before */
    state b = { 0 };
    CHECK_MPI(MPI_Grequest_start(query, release, cancel, &b, &r));
    MPI_Request kept = r;
    CHECK_MPI(MPI_Request_free(&r));
    CHECK_EQ(b.frees, 0);
    CHECK_MPI(MPI_Grequest_complete(kept));
    CHECK_EQ(b.frees, 1);
    CHECK_EQ(b.queries, 0);

    /* cancelled before its completion */
    state c = { 0 };
    CHECK_MPI(MPI_Grequest_start(query, release, cancel, &c, &r));
    CHECK_MPI(MPI_Cancel(&r));
    CHECK(c.cancels == 1 && c.last_complete == 0, "cancel_fn: %d calls, complete %d", c.cancels, c.last_complete);
    CHECK_MPI(MPI_Grequest_complete(r));
    CHECK_MPI(MPI_Cancel(&r));
    CHECK(c.cancels == 2 && c.last_complete == 1, "cancel_fn after the completion: complete %d", c.last_complete);
    c.cancelled = 1;
    CHECK_MPI(MPI_Wait(&r, &st));
    MPI_Test_cancelled(&st, &flag);
    CHECK_EQ(flag, 1);

    /* the callbacks' errors are the completion call's */
    state d = { .query_err = MPI_ERR_OTHER };
    CHECK_MPI(MPI_Grequest_start(query, release, cancel, &d, &r));
    CHECK_MPI(MPI_Grequest_complete(r));
    CHECK_ERR(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_ERR_OTHER);
    CHECK_EQ(d.frees, 1);
    state e = { .free_err = MPI_ERR_INTERN };
    CHECK_MPI(MPI_Grequest_start(query, release, cancel, &e, &r));
    CHECK_MPI(MPI_Grequest_complete(r));
    CHECK_ERR(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_ERR_INTERN);

    /* among ordinary requests in MPI_Waitall */
    state f = { 0 };
    MPI_Request rs[3];
    int out = 17, in = 0;
    CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &rs[0]));
    CHECK_MPI(MPI_Grequest_start(query, release, cancel, &f, &rs[1]));
    CHECK_MPI(MPI_Isend(&out, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &rs[2]));
    CHECK_MPI(MPI_Grequest_complete(rs[1]));
    MPI_Status sts[3];
    CHECK_MPI(MPI_Waitall(3, rs, sts));
    CHECK_EQ(in, 17);
    CHECK_EQ(sts[1].MPI_TAG, 44);
    CHECK_EQ(f.frees, 1);

    /* completed by another thread while this one waits */
    if (provided == MPI_THREAD_MULTIPLE) {
        state g = { 0 };
        pthread_t t;
        CHECK_MPI(MPI_Grequest_start(query, release, cancel, &g, &r));
        MPI_Request handle = r;
        pthread_create(&t, NULL, complete_later, &handle);
        CHECK_MPI(MPI_Wait(&r, &st));
        pthread_join(t, NULL);
        CHECK_EQ(g.queries, 1);
        CHECK_EQ(g.frees, 1);
    }

    /* errors */
    state h = { 0 };
    CHECK_ERR(MPI_Grequest_start(NULL, release, cancel, &h, &r), MPI_ERR_ARG);
    CHECK_MPI(MPI_Grequest_start(query, release, cancel, &h, &r));
    CHECK_MPI(MPI_Grequest_complete(r));
    CHECK_ERR(MPI_Grequest_complete(r), MPI_ERR_REQUEST);
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_ERR(MPI_Grequest_complete(MPI_REQUEST_NULL), MPI_ERR_REQUEST);
    CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, 0, 6, MPI_COMM_SELF, &r));
    CHECK_ERR(MPI_Grequest_complete(r), MPI_ERR_REQUEST);
    CHECK_MPI(MPI_Cancel(&r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    return MTest_Finalize();
}
