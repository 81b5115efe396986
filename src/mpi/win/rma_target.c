/*
 * The target side of one-sided communication (see rma.h): the progress hook that receives the
 * operations on this process's windows and applies them in order.
 *
 * Each pass of the hook, for each window: receives every header that has arrived (the probe
 * gives its size; the receive goes into a buffer of that size), then handles the received ones
 * from the oldest, stopping at the first still arriving. What cannot be done for want of memory
 * (a buffer, an answer) stays queued and is tried again on the next pass, so a short shortage
 * delays operations instead of losing them.
 *
 * One lock covers every window's target state, taken with trylock as the collectives' hook does:
 * a thread that finds it taken moves on, since the holder is handling every window anyway.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"
#include "mpid_device.h"
#include "rma.h"

typedef struct MPIR_Target_op {
    struct MPIR_Target_op *next;
    int source;
    char *msg;                  /* header, description, data */
    MPI_Count len;
    MPIR_Request *req;          /* its receive, until handled */
} Target_op;

typedef struct MPIR_Lock_wait {
    struct MPIR_Lock_wait *next;
    int source, lock_type;
} Lock_wait;

static pthread_mutex_t target_lock = PTHREAD_MUTEX_INITIALIZER;
static MPIR_Rma *windows;               /* under target_lock */
static _Atomic int nwindows;

/* ---- answers ---- */

/* Sends (buf, count, type) to source on tag; the answer's buffer `owned` is freed once it has
 * gone. False if it could not be started (then owned is still the caller's). */
static bool answer(MPIR_Rma *r, int source, int tag, const void *buf, MPI_Count count, MPI_Datatype type,
                   void *owned)
{
    Rma_pending *p = MPIR_Array_reserve(r->replies, &r->capreplies, r->nreplies, sizeof *p);
    if (!p)
        return false;
    r->replies = p;
    MPIR_Request *req = NULL;
    if (MPID_Isend(buf, count, type, source, tag, r->win->comm, 0, MPID_SEND_STANDARD, &req) != MPI_SUCCESS)
        return false;
    if (req)
        r->replies[r->nreplies++] = (Rma_pending) { req, source, owned };
    else
        free(owned);
    return true;
}

/* An acknowledgement carries the error class of an operation from source that failed since the
 * last one (MPI_SUCCESS if none). */
static bool acknowledge(MPIR_Rma *r, int source)
{
    int *errclass = malloc(sizeof *errclass);
    if (!errclass)
        return false;
    *errclass = r->failed ? r->failed[source] : MPI_SUCCESS;
    if (!answer(r, source, RMA_TAG_ACK, errclass, 1, MPI_INT, errclass)) {
        free(errclass);
        return false;
    }
    if (r->failed)
        r->failed[source] = MPI_SUCCESS;
    return true;
}

/* Dynamic windows: whether [where + lo, where + hi) lies in one piece of attached memory. */
static bool attached(const MPIR_Rma *r, const char *where, const MPID_Datatype *t, MPI_Count count)
{
    if (count == 0 || t->size == 0)
        return true;
    MPI_Aint span = (count - 1) * t->extent;
    uintptr_t lo = (uintptr_t) where + (uintptr_t) (t->true_lb + (span < 0 ? span : 0));
    uintptr_t hi = (uintptr_t) where + (uintptr_t) (t->true_ub + (span > 0 ? span : 0));
    for (size_t i = 0; i < r->nattached; i++) {
        uintptr_t b = (uintptr_t) r->attached[i].base;
        if (lo >= b && hi <= b + (uintptr_t) r->attached[i].size && lo <= hi)
            return true;
    }
    return false;
}

/* Records that an operation from source failed with errclass; false without memory to. */
static bool fail(MPIR_Rma *r, int source, int errclass)
{
    if (!r->failed && !(r->failed = calloc((size_t) r->nranks, sizeof *r->failed)))
        return false;
    r->failed[source] = errclass;
    return true;
}

int MPIR_Rma_attach(MPIR_Rma *r, void *base, MPI_Aint size)
{
    if (size < 0)
        return MPIR_Err(MPI_ERR_SIZE, "size is %ld, must be non-negative", (long) size);
    int err = MPI_SUCCESS;
    pthread_mutex_lock(&target_lock);
    for (size_t i = 0; i < r->nattached && err == MPI_SUCCESS; i++) {
        const MPIR_Attached *a = &r->attached[i];
        if ((char *) base < a->base + a->size && a->base < (char *) base + size)
            err = MPIR_Err(MPI_ERR_RMA_ATTACH, "the memory [%p, +%ld) overlaps memory attached before ([%p, +%ld))",
                           base, (long) size, (void *) a->base, (long) a->size);
    }
    MPIR_Attached *list = err ? NULL : MPIR_Array_reserve(r->attached, &r->capattached, r->nattached, sizeof *list);
    if (!err && !list)
        err = MPIR_Err(MPI_ERR_NO_MEM, "out of memory attaching memory to the window");
    if (!err) {
        r->attached = list;
        r->attached[r->nattached++] = (MPIR_Attached) { base, size };
    }
    pthread_mutex_unlock(&target_lock);
    return err;
}

int MPIR_Rma_detach(MPIR_Rma *r, const void *base)
{
    bool found = false;
    pthread_mutex_lock(&target_lock);
    for (size_t i = 0; i < r->nattached && !found; i++)
        if (r->attached[i].base == base) {
            r->attached[i] = r->attached[--r->nattached];
            found = true;
        }
    pthread_mutex_unlock(&target_lock);
    return found ? MPI_SUCCESS : MPIR_Err(MPI_ERR_RMA_ATTACH, "no memory attached to the window starts at %p", base);
}

/* Drops the answers that have gone. */
static bool reap_replies(MPIR_Rma *r)
{
    bool did = false;
    for (size_t i = 0; i < r->nreplies;) {
        if (MPIR_Request_is_complete(r->replies[i].req)) {
            MPIR_Request_release(r->replies[i].req);
            free(r->replies[i].buf);
            r->replies[i] = r->replies[--r->nreplies];
            did = true;
        } else {
            i++;
        }
    }
    return did;
}

/* ---- locks ---- */

static bool grantable(const MPIR_Rma *r, int lock_type)
{
    return r->exclusive < 0 && (lock_type == MPI_LOCK_SHARED || r->shared == 0);
}

/* Grants the waiting requests that can be, in order. */
static void grant_waiting(MPIR_Rma *r)
{
    while (r->waiting && grantable(r, r->waiting->lock_type)) {
        Lock_wait *w = r->waiting;
        if (!acknowledge(r, w->source))
            return;     /* again on the next pass */
        if (w->lock_type == MPI_LOCK_EXCLUSIVE)
            r->exclusive = w->source;
        else
            r->shared++;
        r->waiting = w->next;
        if (!r->waiting)
            r->waiting_tail = NULL;
        free(w);
    }
}

static bool lock_request(MPIR_Rma *r, int source, int lock_type)
{
    Lock_wait *w = malloc(sizeof *w);
    if (!w)
        return false;
    *w = (Lock_wait) { NULL, source, lock_type };
    if (r->waiting_tail)
        r->waiting_tail->next = w;
    else
        r->waiting = w;
    r->waiting_tail = w;
    grant_waiting(r);
    return true;
}

static bool unlock(MPIR_Rma *r, int source)
{
    if (!acknowledge(r, source))
        return false;
    if (r->exclusive == source)
        r->exclusive = -1;
    else if (r->shared > 0)
        r->shared--;
    grant_waiting(r);
    return true;
}

/* ---- operations ---- */

/* The rebuilt target datatype of a message (a derived one is the caller's to free), and where
 * the origin's data starts in it. */
static int target_type(const Rma_header *h, const char *msg, MPI_Count len, MPI_Datatype *type, const char **data)
{
    if (h->ndesc < 0 || h->ndesc > len || (MPI_Count) MPIR_Rma_data_offset(h->ndesc) > len)
        return MPIR_Err(MPI_ERR_INTERN, "a one-sided operation's message is shorter than its header says");
    *data = msg + MPIR_Rma_data_offset(h->ndesc);
    return MPIR_Rma_type_rebuild((const int64_t *) (msg + sizeof *h), (size_t) h->ndesc, h->type_depth, type);
}

/* Applies one operation; false if it must be tried again later. */
static bool apply(MPIR_Rma *r, Target_op *t)
{
    Rma_header h;
    memcpy(&h, t->msg, sizeof h);
    switch (h.kind) {
    case RMA_FLUSH:
        return acknowledge(r, t->source);
    case RMA_LOCK:
        return lock_request(r, t->source, h.lock_type);
    case RMA_UNLOCK:
        return unlock(r, t->source);
    case RMA_COMPLETE:
        atomic_fetch_add(&r->completes, 1);
        return true;
    default:
        break;
    }
    MPI_Datatype type;
    const char *data = NULL;
    if (target_type(&h, t->msg, t->len, &type, &data) != MPI_SUCCESS)
        return false;   /* out of memory rebuilding it: again on the next pass */
    /* integer arithmetic: a dynamic window's base is MPI_BOTTOM, its offsets addresses */
    char *where = (char *) ((uintptr_t) r->win->base + (uintptr_t) h.offset);
    if (r->dynamic && !attached(r, where, MPID_Datatype_get(type), h.count)) {
        /* not done; the origin learns it at its next flush or unlock, and an answer it waits for
         * comes empty */
        bool noted = fail(r, t->source, MPI_ERR_RMA_RANGE);
        if (noted && (h.kind == RMA_GET || h.kind == RMA_GET_ACC || h.kind == RMA_CAS))
            noted = answer(r, t->source, RMA_TAG_REPLY, NULL, 0, MPI_BYTE, NULL);
        if (!MPID_Datatype_is_builtin(type))
            MPIR_Type_free_impl(&type);
        return noted;
    }
    bool done = true;
    switch (h.kind) {
    case RMA_PUT:
        MPIR_Op_apply_packed(data, where, h.count, type, MPI_REPLACE);
        break;
    case RMA_ACC:
        MPIR_Op_apply_packed(data, where, h.count, type, h.op);
        break;
    case RMA_GET:
        done = answer(r, t->source, RMA_TAG_REPLY, where, h.count, type, NULL);
        break;
    case RMA_GET_ACC:
    case RMA_CAS: {
        /* the old values go back packed; the answer owns their copy */
        char *old = malloc(h.bytes ? (size_t) h.bytes : 1);
        MPI_Count last = h.bytes;
        MPID_Segment seg;
        done = old && MPID_Segment_init(&seg, where, h.count, type) == MPI_SUCCESS;
        if (done) {
            MPID_Segment_pack(&seg, 0, &last, old);
            MPID_Segment_free(&seg);
            done = answer(r, t->source, RMA_TAG_REPLY, old, h.bytes, MPI_PACKED, old);
        }
        if (!done) {
            free(old);
            break;
        }
        if (h.kind == RMA_GET_ACC)
            MPIR_Op_apply_packed(data, where, h.count, type, h.op);
        else if (memcmp(old, data + h.bytes, (size_t) h.bytes) == 0)    /* data: origin, compare */
            memcpy(where, data, (size_t) h.bytes);
        break;
    }
    default:
        break;
    }
    if (!MPID_Datatype_is_builtin(type))
        MPIR_Type_free_impl(&type);
    return done;
}

/* ---- the hook ---- */

/* Receives the headers that have arrived at r. */
static bool receive_headers(MPIR_Rma *r)
{
    bool did = false;
    for (;;) {
        int flag = 0;
        MPI_Status st;
        if (MPID_Iprobe(MPI_ANY_SOURCE, RMA_TAG_HEADER, r->win->comm, 0, &flag, &st) != MPI_SUCCESS || !flag)
            return did;
        MPI_Count len = MPIR_Status_get_bytes(&st);
        Target_op *t = malloc(sizeof *t);
        char *msg = malloc(len > 0 ? (size_t) len : 1);
        MPIR_Request *req = NULL;
        /* the first message from that source on the tag is the one probed: only this hook
         * receives there, under target_lock */
        if (!t || !msg || MPID_Irecv(msg, len, MPI_BYTE, st.MPI_SOURCE, RMA_TAG_HEADER, r->win->comm, 0, &req)) {
            free(t);
            free(msg);
            return did;     /* again on the next pass */
        }
        *t = (Target_op) { NULL, st.MPI_SOURCE, msg, len, req };
        if (r->tail)
            r->tail->next = t;
        else
            r->head = t;
        r->tail = t;
        did = true;
    }
}

static bool advance(MPIR_Rma *r)
{
    bool did = reap_replies(r);
    did |= receive_headers(r);
    while (r->head && MPIR_Request_is_complete(r->head->req)) {
        Target_op *t = r->head;
        if (!apply(r, t))
            break;
        r->head = t->next;
        if (!r->head)
            r->tail = NULL;
        MPIR_Request_release(t->req);
        free(t->msg);
        free(t);
        did = true;
    }
    if (r->waiting)
        grant_waiting(r);
    return did;
}

static bool progress_hook(void)
{
    if (atomic_load_explicit(&nwindows, memory_order_acquire) == 0)
        return false;
    if (pthread_mutex_trylock(&target_lock) != 0)
        return false;
    bool did = false;
    for (MPIR_Rma *r = windows; r; r = r->next)
        did |= advance(r);
    pthread_mutex_unlock(&target_lock);
    return did;
}

void MPIR_Rma_target_attach(MPIR_Rma *r)
{
    r->exclusive = -1;
    pthread_mutex_lock(&target_lock);
    r->next = windows;
    windows = r;
    atomic_fetch_add(&nwindows, 1);
    pthread_mutex_unlock(&target_lock);
    atomic_store(&MPID_Progress_hooks[MPID_HOOK_RMA], progress_hook);
}

void MPIR_Rma_target_detach(MPIR_Rma *r)
{
    pthread_mutex_lock(&target_lock);
    for (MPIR_Rma **link = &windows; *link; link = &(*link)->next)
        if (*link == r) {
            *link = r->next;
            atomic_fetch_sub(&nwindows, 1);
            break;
        }
    pthread_mutex_unlock(&target_lock);
    /* every origin has closed its epochs (the free's barrier came after): what is left are
     * answers still leaving, and nothing if the program was correct */
    while (r->nreplies) {
        reap_replies(r);
        if (r->nreplies)
            MPID_Progress_wait();
    }
    free(r->replies);
    while (r->head) {
        Target_op *t = r->head;
        r->head = t->next;
        if (!MPIR_Request_is_complete(t->req)) {
            MPID_Cancel_recv(t->req);
            while (!MPIR_Request_is_complete(t->req))
                MPID_Progress_wait();
        }
        MPIR_Request_release(t->req);
        free(t->msg);
        free(t);
    }
    while (r->waiting) {
        Lock_wait *w = r->waiting;
        r->waiting = w->next;
        free(w);
    }
    free(r->failed);
    free(r->attached);
}
