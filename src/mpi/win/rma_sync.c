/*
 * Synchronization of one-sided communication (MPI 4.1, 12.5): fences, locks, flushes, and
 * post/start/complete/wait (see rma.h for the messages they rest on). On a window in shared
 * memory the operations are done when their calls return, and locks are words of the shared
 * memory that origins take themselves.
 *
 * Completion at a target: a flush, an unlock, or (for a fence) a flush of every target the
 * origin touched, is a header the target acknowledges when it reaches it, so after every
 * operation sent before. Completion at the origin: waiting for the pending messages (answers
 * received, messages gone).
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"
#include "mpid_device.h"
#include "rma.h"
#include "../comm/comm.h"
#include "../group/group.h"

static MPIR_Rma *rma_of(MPI_Win win)
{
    return MPIR_Win_lookup(win)->rma;
}

static int check_assert(int assert, int allowed, const char *call)
{
    if (assert & ~allowed)
        return MPIR_Err(MPI_ERR_ASSERT, "assert 0x%x has bits %s does not take (0x%x)", assert, call,
                        assert & ~allowed);
    return MPI_SUCCESS;
}

static int check_rank(MPIR_Rma *r, int rank)
{
    if (rank < 0 || rank >= r->nranks)
        return MPIR_Err(MPI_ERR_RANK, "rank %d is not a rank of the window's group (0..%d)", rank, r->nranks - 1);
    return MPI_SUCCESS;
}

static bool any_lock(MPIR_Rma *r)
{
    if (r->lock_all)
        return true;
    for (int i = 0; i < r->nranks; i++)
        if (r->locked[i])
            return true;
    return false;
}

/* Completes at the targets (and the origin) every operation sent to the targets with want[t]
 * (NULL: all) that were touched since their last flush. */
static int flush_targets(MPIR_Rma *r, const unsigned char *want)
{
    int err = MPI_SUCCESS;
    for (int t = 0; t < r->nranks && err == MPI_SUCCESS; t++) {
        pthread_mutex_lock(&r->lock);
        bool go = r->touched[t] && (!want || want[t]);
        if (go)
            r->touched[t] = 0;
        pthread_mutex_unlock(&r->lock);
        if (go)
            err = MPIR_Rma_send_control(r, t, RMA_FLUSH, 0);
    }
    int werr = MPIR_Rma_wait_pending(r, -1);
    return err ? err : werr;
}

/* ---- fence ---- */

int MPIR_Win_fence_impl(int assert, MPI_Win win)
{
    MPIR_Rma *r = rma_of(win);
    int err = check_assert(assert, MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED,
                           "MPI_Win_fence");
    if (err)
        return err;
    if (any_lock(r) || r->access_open || r->exposure_open)
        return MPIR_Err(MPI_ERR_RMA_SYNC, "a fence cannot end a lock or post/start epoch");
    /* the operations of the epoch that ends are complete at their targets before the barrier;
     * after it, every target has applied every operation addressed to it */
    err = flush_targets(r, NULL);
    int berr = MPIR_Barrier_impl(MPIR_Comm_handle(r->win->comm));
    if (err == MPI_SUCCESS)
        err = berr;
    pthread_mutex_lock(&r->lock);
    r->fence_open = !(assert & MPI_MODE_NOSUCCEED);
    pthread_mutex_unlock(&r->lock);
    return err;
}

/* ---- locks ---- */

/* The lock word of a window in shared memory: taken by compare and swap, waited for with the
 * core given away (its holder may need it) and this process's own progress kept going. */
static void lock_word(MPIR_Rma_control *c, int lock_type)
{
    for (;;) {
        int v = atomic_load_explicit(&c->lock, memory_order_relaxed);
        if (lock_type == MPI_LOCK_EXCLUSIVE ? v == 0 : v >= 0) {
            int want = lock_type == MPI_LOCK_EXCLUSIVE ? -1 : v + 1;
            if (atomic_compare_exchange_weak_explicit(&c->lock, &v, want, memory_order_acquire,
                                                      memory_order_relaxed))
                return;
            continue;
        }
        MPID_Progress_test();
        sched_yield();
    }
}

static void unlock_word(MPIR_Rma_control *c, bool exclusive)
{
    if (exclusive)
        atomic_store_explicit(&c->lock, 0, memory_order_release);
    else
        atomic_fetch_sub_explicit(&c->lock, 1, memory_order_release);
}

/* Sends the lock requests of ranks [lo, hi) and waits for the grants. */
static int lock_range(MPIR_Rma *r, int lo, int hi, int lock_type)
{
    if (r->direct) {
        for (int t = lo; t < hi; t++)
            lock_word(&r->control[t], lock_type);
        return MPI_SUCCESS;
    }
    int err = MPI_SUCCESS;
    for (int t = lo; t < hi && err == MPI_SUCCESS; t++)
        err = MPIR_Rma_send_control(r, t, RMA_LOCK, lock_type);
    int werr = MPIR_Rma_wait_pending(r, -1);
    return err ? err : werr;
}

static int unlock_range(MPIR_Rma *r, int lo, int hi, bool nocheck, bool exclusive)
{
    if (r->direct) {    /* the operations are done: only the lock goes */
        atomic_thread_fence(memory_order_seq_cst);
        for (int t = lo; t < hi && !nocheck; t++)
            unlock_word(&r->control[t], exclusive);
        return MPI_SUCCESS;
    }
    int err = MPI_SUCCESS;
    for (int t = lo; t < hi && err == MPI_SUCCESS; t++) {
        pthread_mutex_lock(&r->lock);
        bool touched = r->touched[t];
        r->touched[t] = 0;
        pthread_mutex_unlock(&r->lock);
        if (!nocheck)
            err = MPIR_Rma_send_control(r, t, RMA_UNLOCK, 0);
        else if (touched)
            err = MPIR_Rma_send_control(r, t, RMA_FLUSH, 0);
    }
    int werr = MPIR_Rma_wait_pending(r, -1);
    return err ? err : werr;
}

int MPIR_Win_lock_impl(int lock_type, int rank, int assert, MPI_Win win)
{
    MPIR_Rma *r = rma_of(win);
    if (lock_type != MPI_LOCK_EXCLUSIVE && lock_type != MPI_LOCK_SHARED)
        return MPIR_Err(MPI_ERR_LOCKTYPE, "lock_type %d is neither MPI_LOCK_EXCLUSIVE nor MPI_LOCK_SHARED", lock_type);
    int err = check_assert(assert, MPI_MODE_NOCHECK, "MPI_Win_lock");
    if (err)
        return err;
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if ((err = check_rank(r, rank)) != MPI_SUCCESS)
        return err;
    if (r->locked[rank] || r->lock_all)
        return MPIR_Err(MPI_ERR_RMA_SYNC, "the window is already locked at rank %d by this process", rank);
    if (!(assert & MPI_MODE_NOCHECK) && (err = lock_range(r, rank, rank + 1, lock_type)) != MPI_SUCCESS)
        return err;
    pthread_mutex_lock(&r->lock);
    r->locked[rank] = assert & MPI_MODE_NOCHECK ? RMA_LOCK_NOCHECK
                    : lock_type == MPI_LOCK_EXCLUSIVE ? RMA_LOCK_EXCLUSIVE : RMA_LOCK_HELD;
    pthread_mutex_unlock(&r->lock);
    return MPI_SUCCESS;
}

int MPIR_Win_unlock_impl(int rank, MPI_Win win)
{
    MPIR_Rma *r = rma_of(win);
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    int err = check_rank(r, rank);
    if (err)
        return err;
    if (!r->locked[rank])
        return MPIR_Err(MPI_ERR_RMA_SYNC, "the window is not locked at rank %d by this process", rank);
    err = unlock_range(r, rank, rank + 1, r->locked[rank] == RMA_LOCK_NOCHECK,
                       r->locked[rank] == RMA_LOCK_EXCLUSIVE);
    pthread_mutex_lock(&r->lock);
    r->locked[rank] = RMA_LOCK_NONE;
    pthread_mutex_unlock(&r->lock);
    return err;
}

int MPIR_Win_lock_all_impl(int assert, MPI_Win win)
{
    MPIR_Rma *r = rma_of(win);
    int err = check_assert(assert, MPI_MODE_NOCHECK, "MPI_Win_lock_all");
    if (err)
        return err;
    if (any_lock(r))
        return MPIR_Err(MPI_ERR_RMA_SYNC, "the window is already locked by this process");
    if (!(assert & MPI_MODE_NOCHECK) && (err = lock_range(r, 0, r->nranks, MPI_LOCK_SHARED)) != MPI_SUCCESS)
        return err;
    pthread_mutex_lock(&r->lock);
    r->lock_all = assert & MPI_MODE_NOCHECK ? RMA_LOCK_NOCHECK : RMA_LOCK_HELD;
    pthread_mutex_unlock(&r->lock);
    return MPI_SUCCESS;
}

int MPIR_Win_unlock_all_impl(MPI_Win win)
{
    MPIR_Rma *r = rma_of(win);
    if (!r->lock_all)
        return MPIR_Err(MPI_ERR_RMA_SYNC, "the window is not locked by MPI_Win_lock_all of this process");
    int err = unlock_range(r, 0, r->nranks, r->lock_all == RMA_LOCK_NOCHECK, false);
    pthread_mutex_lock(&r->lock);
    r->lock_all = RMA_LOCK_NONE;
    pthread_mutex_unlock(&r->lock);
    return err;
}

/* ---- flushes ---- */

/* A passive-target epoch to rank (-1: to any rank) must be open. */
static int check_passive(MPIR_Rma *r, int rank)
{
    if (rank < 0 ? !any_lock(r) : !r->lock_all && !r->locked[rank])
        return MPIR_Err(MPI_ERR_RMA_SYNC, "flushes belong in a passive-target epoch (MPI_Win_lock or "
                        "MPI_Win_lock_all), and none is open%s", rank < 0 ? "" : " to that rank");
    return MPI_SUCCESS;
}

int MPIR_Win_flush_impl(int rank, MPI_Win win)
{
    MPIR_Rma *r = rma_of(win);
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    int err = check_rank(r, rank);
    if (err || (err = check_passive(r, rank)) != MPI_SUCCESS)
        return err;
    unsigned char *want = calloc((size_t) r->nranks, 1);
    if (!want)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory for a flush");
    want[rank] = 1;
    err = flush_targets(r, want);
    free(want);
    return err;
}

int MPIR_Win_flush_all_impl(MPI_Win win)
{
    MPIR_Rma *r = rma_of(win);
    int err = check_passive(r, -1);
    return err ? err : flush_targets(r, NULL);
}

int MPIR_Win_flush_local_impl(int rank, MPI_Win win)
{
    MPIR_Rma *r = rma_of(win);
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    int err = check_rank(r, rank);
    if (err || (err = check_passive(r, rank)) != MPI_SUCCESS)
        return err;
    return MPIR_Rma_wait_pending(r, rank);
}

int MPIR_Win_flush_local_all_impl(MPI_Win win)
{
    MPIR_Rma *r = rma_of(win);
    int err = check_passive(r, -1);
    return err ? err : MPIR_Rma_wait_pending(r, -1);
}

/* One machine, one coherent memory (MPI_WIN_UNIFIED): the public and private copies are one; a
 * full fence orders this process's accesses around the call. */
int MPIR_Win_sync_impl(MPI_Win win)
{
    (void) win;
    atomic_thread_fence(memory_order_seq_cst);
    return MPI_SUCCESS;
}

/* ---- post, start, complete, wait ---- */

/* The window ranks of group's members (-1 for a process not in the window). */
static int group_ranks(MPIR_Rma *r, MPI_Group group, int **ranks, int *n)
{
    int err = MPIR_Group_size_impl(group, n);
    if (err)
        return err;
    int *in = malloc(((size_t) *n + 1) * sizeof *in), *out = malloc(((size_t) *n + 1) * sizeof *out);
    MPI_Group wg = MPI_GROUP_NULL;
    if (!in || !out) {
        free(in);
        free(out);
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory for the group of a post/start epoch");
    }
    for (int i = 0; i < *n; i++)
        in[i] = i;
    err = MPIR_Group_new_handle(r->win->comm->local_group, &wg);
    if (err == MPI_SUCCESS)
        err = MPIR_Group_translate_ranks_impl(group, *n, in, wg, out);
    if (wg != MPI_GROUP_NULL)
        MPIR_Group_free_impl(&wg);
    for (int i = 0; err == MPI_SUCCESS && i < *n; i++)
        if (out[i] == MPI_UNDEFINED)
            err = MPIR_Err(MPI_ERR_GROUP, "process %d of the group is not in the window's group", i);
    free(in);
    if (err) {
        free(out);
        return err;
    }
    *ranks = out;
    return MPI_SUCCESS;
}

/* Sends the post notice to each of ranks[n] (send), or receives it from each; one at a time. */
static int notices(MPIR_Rma *r, const int *ranks, int n, bool send)
{
    int err = MPI_SUCCESS;
    for (int i = 0; i < n && err == MPI_SUCCESS; i++) {
        MPIR_Request *req = NULL;
        err = send ? MPID_Isend(NULL, 0, MPI_BYTE, ranks[i], RMA_TAG_POST, r->win->comm, 0, MPID_SEND_STANDARD, &req)
                   : MPID_Irecv(NULL, 0, MPI_BYTE, ranks[i], RMA_TAG_POST, r->win->comm, 0, &req);
        while (err == MPI_SUCCESS && req && !MPIR_Request_is_complete(req))
            MPID_Progress_wait();
        if (req)
            MPIR_Request_release(req);
    }
    return err;
}

int MPIR_Win_post_impl(MPI_Group group, int assert, MPI_Win win)
{
    MPIR_Rma *r = rma_of(win);
    int err = check_assert(assert, MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT, "MPI_Win_post");
    if (err)
        return err;
    if (r->exposure_open)
        return MPIR_Err(MPI_ERR_RMA_SYNC, "an exposure epoch (MPI_Win_post) is already open on the window");
    int *ranks, n;
    if ((err = group_ranks(r, group, &ranks, &n)) != MPI_SUCCESS)
        return err;
    /* each origin's MPI_Win_start waits for this notice, so its operations find the window ready;
     * with MPI_MODE_NOCHECK the origins' starts use it too, and neither side sends or waits */
    if (!(assert & MPI_MODE_NOCHECK) && (err = notices(r, ranks, n, true)) != MPI_SUCCESS) {
        free(ranks);
        return err;
    }
    r->exposure = ranks;
    r->nexposure = n;
    r->exposure_open = true;
    return MPI_SUCCESS;
}

int MPIR_Win_start_impl(MPI_Group group, int assert, MPI_Win win)
{
    MPIR_Rma *r = rma_of(win);
    int err = check_assert(assert, MPI_MODE_NOCHECK, "MPI_Win_start");
    if (err)
        return err;
    if (r->access_open)
        return MPIR_Err(MPI_ERR_RMA_SYNC, "an access epoch (MPI_Win_start) is already open on the window");
    int *ranks, n;
    if ((err = group_ranks(r, group, &ranks, &n)) != MPI_SUCCESS)
        return err;
    if (!(assert & MPI_MODE_NOCHECK))
        err = notices(r, ranks, n, false);
    if (err == MPI_SUCCESS) {
        pthread_mutex_lock(&r->lock);
        for (int i = 0; i < n; i++)
            r->in_access[ranks[i]] = 1;
        r->access_open = true;
        pthread_mutex_unlock(&r->lock);
    }
    free(ranks);
    return err;
}

int MPIR_Win_complete_impl(MPI_Win win)
{
    MPIR_Rma *r = rma_of(win);
    if (!r->access_open)
        return MPIR_Err(MPI_ERR_RMA_SYNC, "MPI_Win_complete without MPI_Win_start");
    int err = MPI_SUCCESS;
    for (int t = 0; t < r->nranks; t++) {
        if (!r->in_access[t])
            continue;
        int e = MPIR_Rma_send_control(r, t, RMA_COMPLETE, 0);
        if (err == MPI_SUCCESS)
            err = e;
    }
    int werr = MPIR_Rma_wait_pending(r, -1);
    pthread_mutex_lock(&r->lock);
    memset(r->in_access, 0, (size_t) r->nranks);
    memset(r->touched, 0, (size_t) r->nranks);
    r->access_open = false;
    pthread_mutex_unlock(&r->lock);
    return err ? err : werr;
}

/* Whether every origin of the exposure epoch has completed; then the epoch ends. */
static bool exposure_done(MPIR_Rma *r)
{
    if (atomic_load(&r->completes) < r->nexposure)
        return false;
    atomic_fetch_sub(&r->completes, r->nexposure);
    free(r->exposure);
    r->exposure = NULL;
    r->nexposure = 0;
    r->exposure_open = false;
    return true;
}

int MPIR_Win_wait_impl(MPI_Win win)
{
    MPIR_Rma *r = rma_of(win);
    if (!r->exposure_open)
        return MPIR_Err(MPI_ERR_RMA_SYNC, "MPI_Win_wait without MPI_Win_post");
    while (!exposure_done(r))
        MPID_Progress_wait();
    return MPI_SUCCESS;
}

int MPIR_Win_test_impl(MPI_Win win, int *flag)
{
    MPIR_Rma *r = rma_of(win);
    if (!r->exposure_open)
        return MPIR_Err(MPI_ERR_RMA_SYNC, "MPI_Win_test without MPI_Win_post");
    MPID_Progress_test();
    *flag = exposure_done(r);
    return MPI_SUCCESS;
}
