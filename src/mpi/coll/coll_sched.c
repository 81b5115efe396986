/*
 * Collective schedules (see coll_sched.h): building, running, and the background progress of the
 * nonblocking collectives.
 *
 * Started schedules sit in a list that the progress hook MPID_HOOK_COLL walks on every progress
 * pass of the device (any MPI_Wait/Test, blocking call or probe), under a lock that only one
 * thread holds at a time; a thread that finds it taken moves on (the holder is advancing every
 * schedule anyway).
 */
#include <limits.h>
#include <pthread.h>
#include "coll_sched.h"
#include "mpid_device.h"

/* A collective's tag: its number in the communicator's sequence (20 bits, wrapping), its kind (4)
 * and whether it is nonblocking (1), above 64: below 2^26. */
#define TAG_BASE 64

/* A persistent collective's start runs under the number its init took (MPIR_Sched_pin_seq). */
static _Thread_local bool pinned;
static _Thread_local unsigned pinned_seq;

void MPIR_Sched_pin_seq(bool on, unsigned seq)
{
    pinned = on;
    pinned_seq = seq;
}

static int collective_tag(MPIR_Comm *c, int kind, bool nonblocking)
{
    unsigned seq = (pinned ? pinned_seq : c->coll_seq++) & 0xfffffu;
    pinned = false;
    return TAG_BASE + (int) (seq << 5 | (unsigned) kind << 1 | nonblocking);
}

typedef enum { STEP_SEND, STEP_RECV, STEP_COPY, STEP_REDUCE, STEP_BARRIER } Step_kind;

typedef struct {
    Step_kind kind;
    const void *src;            /* send buffer, copy source, reduction input */
    void *dst;                  /* receive buffer, copy destination, reduction inout */
    MPI_Count count, dcount;
    MPID_Datatype *type, *dtype;    /* referenced (dtype: copies only) */
    int peer;
    MPI_Op op;                  /* a predefined operation, or MPI_OP_NULL and then ... */
    MPIR_Op user_op;            /* ... a copy of the user's record: it may be freed meanwhile */
    MPIR_Request *req;          /* a started send or receive not yet completed */
} Step;

struct MPIR_Sched {
    MPIR_Comm *comm;            /* referenced */
    int tag;
    Step *steps;
    int n, cap;
    int phase;                  /* first step of the running phase */
    int next;                   /* first step not started */
    void **tmp;                 /* temporary buffers (bases) */
    int ntmp, captmp;
    int err;                    /* the first error: a full code (MPIR_Err_code) */
    bool failed;                /* taking its part without data (see fail) */
    MPI_Count owed;             /* failed: messages still to be received and dropped */
    MPIR_Request *drain;        /* the receive posted for one of them */
    bool spare;                 /* the thread's spare record */
    MPIR_Request *req;          /* nonblocking: the user's request (one reference is ours), or NULL */
    MPIR_Sched *next_active;
};

/* For a collective whose record finds no memory: it must take part all the same. */
static _Thread_local MPIR_Sched spare;
static _Thread_local bool spare_in_use;

/* ---- failing ---- */

/* The first error is kept as a code: the failure that follows records reasons of its own. */
static void note_code(MPIR_Sched *s, int code)
{
    if (s->err == MPI_SUCCESS)
        s->err = code;
}

/* An empty message where peer expects one of this schedule's. Without a request to queue it behind
 * a full ring, it waits for room. */
static void send_empty(MPIR_Sched *s, int peer)
{
    MPIR_Request *req;
    while (MPID_Send(NULL, 0, MPI_BYTE, peer, s->tag, s->comm, MPIR_CONTEXT_COLL_OFFSET, MPID_SEND_STANDARD, &req)
           == MPI_ERR_NO_MEM)
        MPID_Progress_wait();
    if (req)
        MPID_Request_free(req);
}

static void release_types(Step *st)
{
    if (st->type)
        MPID_Datatype_release(st->type);
    if (st->dtype)
        MPID_Datatype_release(st->dtype);
    st->type = st->dtype = NULL;
}

/* From now on s takes its part without data (coll_sched.h): the steps not started go, their
 * messages sent empty at once or owed; steps started complete as they are. */
static void fail(MPIR_Sched *s)
{
    if (s->failed)
        return;
    s->failed = true;
    for (int i = s->next; i < s->n; i++) {
        Step *st = &s->steps[i];
        if (st->kind == STEP_SEND)
            send_empty(s, st->peer);
        else if (st->kind == STEP_RECV)
            s->owed++;
        release_types(st);
    }
    s->n = s->next;
}

void MPIR_Sched_fail(MPIR_Sched *s, int errclass)
{
    if (!s)
        return;
    if (s->err == MPI_SUCCESS)
        s->err = MPIR_Err_keep(errclass);
    fail(s);
}

/* ---- building ---- */

MPIR_Sched *MPIR_Sched_create(MPIR_Comm *c, int kind, bool nonblocking)
{
    int tag = collective_tag(c, kind, nonblocking);     /* taken even if this fails: it is c's next */
    MPIR_Sched *s = calloc(1, sizeof *s);
    if (!s && !spare_in_use) {
        spare = (MPIR_Sched) { .spare = true };
        spare_in_use = true;
        s = &spare;
    }
    if (!s) {
        MPIR_Err(MPI_ERR_NO_MEM, "out of memory for a collective schedule");
        return NULL;
    }
    s->tag = tag;
    s->comm = c;
    MPIR_Comm_add_ref(c);
    if (s->spare) {
        MPIR_Sched_fail(s, MPIR_Err(MPI_ERR_NO_MEM, "out of memory for a collective schedule"));
    }
    return s;
}

/* A new step, or NULL if s has failed (then the caller takes its part without data). */
static Step *add(MPIR_Sched *s, Step_kind kind)
{
    if (!s || s->failed)
        return NULL;
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        Step *steps = realloc(s->steps, (size_t) cap * sizeof *steps);
        if (!steps) {
            MPIR_Sched_fail(s, MPIR_Err(MPI_ERR_NO_MEM, "out of memory for a collective schedule of %d steps", cap));
            return NULL;
        }
        s->steps = steps;
        s->cap = cap;
    }
    Step *st = &s->steps[s->n++];
    *st = (Step) { .kind = kind };
    return st;
}

static MPID_Datatype *type_ref(MPI_Datatype type)
{
    MPID_Datatype *dt = MPID_Datatype_get(type);
    MPID_Datatype_add_ref(dt);
    return dt;
}

void MPIR_Sched_send(MPIR_Sched *s, const void *buf, MPI_Count count, MPI_Datatype type, int dest)
{
    Step *st = add(s, STEP_SEND);
    if (st)
        *st = (Step) { .kind = STEP_SEND, .src = buf, .count = count, .type = type_ref(type), .peer = dest };
    else if (s && s->failed)
        send_empty(s, dest);
}

void MPIR_Sched_recv(MPIR_Sched *s, void *buf, MPI_Count count, MPI_Datatype type, int source)
{
    Step *st = add(s, STEP_RECV);
    if (st)
        *st = (Step) { .kind = STEP_RECV, .dst = buf, .count = count, .type = type_ref(type), .peer = source };
    else if (s && s->failed)
        s->owed++;
}

void MPIR_Sched_copy(MPIR_Sched *s, const void *src, MPI_Count scount, MPI_Datatype stype, void *dst,
                     MPI_Count dcount, MPI_Datatype dtype)
{
    Step *st = add(s, STEP_COPY);
    if (st)
        *st = (Step) { .kind = STEP_COPY, .src = src, .count = scount, .type = type_ref(stype), .dst = dst,
                       .dcount = dcount, .dtype = type_ref(dtype) };
}

void MPIR_Sched_reduce(MPIR_Sched *s, const void *in, void *inout, MPI_Count count, MPI_Datatype type, MPI_Op op)
{
    Step *st = add(s, STEP_REDUCE);
    if (!st)
        return;
    *st = (Step) { .kind = STEP_REDUCE, .src = in, .dst = inout, .count = count, .type = type_ref(type), .op = op };
    if (!MPIR_Op_is_builtin(op)) {
        st->user_op = *MPIR_Op_lookup(op);
        st->op = MPI_OP_NULL;
    }
}

void MPIR_Sched_barrier(MPIR_Sched *s)
{
    /* a barrier right after another one (or first) separates nothing */
    if (s && s->n > 0 && s->steps[s->n - 1].kind != STEP_BARRIER)
        add(s, STEP_BARRIER);
}

void *MPIR_Sched_tmpbuf(MPIR_Sched *s, MPI_Count count, MPI_Datatype type)
{
    if (!s || s->failed)
        return NULL;
    int err = MPI_SUCCESS;
    if (s->ntmp == s->captmp) {
        int cap = s->captmp ? 2 * s->captmp : 4;
        void **tmp = realloc(s->tmp, (size_t) cap * sizeof *tmp);
        if (tmp) {
            s->tmp = tmp;
            s->captmp = cap;
        } else
            err = MPIR_Err(MPI_ERR_NO_MEM, "out of memory for a collective schedule");
    }
    void *base, *buf;
    if (err == MPI_SUCCESS && (err = MPIR_Typed_alloc(count, type, &base, &buf)) == MPI_SUCCESS) {
        s->tmp[s->ntmp++] = base;
        return buf;
    }
    MPIR_Sched_fail(s, err);
    return NULL;
}

static void sched_free(MPIR_Sched *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n; i++) {
        Step *st = &s->steps[i];
        if (st->req)
            MPIR_Request_release(st->req);
        release_types(st);
    }
    for (int i = 0; i < s->ntmp; i++)
        free(s->tmp[i]);
    free(s->tmp);
    free(s->steps);
    MPIR_Comm_release(s->comm);
    if (s->spare)
        spare_in_use = false;
    else
        free(s);
}

/* ---- running ---- */

static void start_step(MPIR_Sched *s, Step *st)
{
    MPI_Datatype type = st->type ? MPID_Datatype_handle(st->type) : MPI_DATATYPE_NULL;
    int err = MPI_SUCCESS;
    switch (st->kind) {
    case STEP_SEND:
        if ((err = MPIR_Coll_isend(st->src, st->count, type, st->peer, s->tag, s->comm, &st->req)) != MPI_SUCCESS)
            send_empty(s, st->peer);
        break;
    case STEP_RECV:
        if ((err = MPIR_Coll_irecv(st->dst, st->count, type, st->peer, s->tag, s->comm, &st->req)) != MPI_SUCCESS)
            s->owed++;
        break;
    case STEP_COPY:
        err = MPIR_Localcopy(st->src, st->count, type, st->dst, st->dcount, MPID_Datatype_handle(st->dtype));
        break;
    case STEP_REDUCE:
        if (st->op == MPI_OP_NULL)
            MPIR_Op_apply_user(&st->user_op, st->src, st->dst, st->count, type);
        else
            err = MPIR_Op_apply(st->src, st->dst, st->count, type, st->op);
        break;
    case STEP_BARRIER:
        break;
    }
    if (err != MPI_SUCCESS)
        MPIR_Sched_fail(s, err);
}

/* The error of a completed send or receive step: its status's, or, for a receive that got less
 * than it expects (in a collective, amounts must match exactly), the failure of the sender. */
static int step_error(const Step *st)
{
    const MPI_Status *status = &st->req->status;
    if (status->MPI_ERROR != MPI_SUCCESS || st->kind != STEP_RECV)
        return status->MPI_ERROR;
    MPI_Count want = st->count * st->type->size, got = MPIR_Status_get_bytes(status);
    if (got == want)
        return MPI_SUCCESS;
    return MPIR_Err_code(MPI_ERR_OTHER, "rank %d sent %lld bytes where this collective expects %lld: that rank's "
                         "part failed (its own call returns why), or the ranks' counts or types differ",
                         status->MPI_SOURCE, (long long) got, (long long) want);
}

/* A failed schedule's receives of the messages it still expects, one at a time; whether all came. */
static bool drain(MPIR_Sched *s, bool *did)
{
    while (s->owed > 0) {
        if (s->drain) {
            if (!MPIR_Request_is_complete(s->drain))
                return false;
            MPIR_Request_release(s->drain);
            s->drain = NULL;
            s->owed--;
            *did = true;
        } else if (MPIR_Coll_irecv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, s->tag, s->comm, &s->drain) != MPI_SUCCESS) {
            s->drain = NULL;
            return false;   /* no request now: the next pass tries again */
        }
    }
    return true;
}

/* Moves s as far as it goes now. Returns whether it is done; *did says whether anything happened. */
static bool advance(MPIR_Sched *s, bool *did)
{
    for (;;) {
        bool pending = false;
        for (int i = s->phase; i < s->next; i++) {
            Step *st = &s->steps[i];
            if (!st->req)
                continue;
            if (!MPIR_Request_is_complete(st->req)) {
                pending = true;
                continue;
            }
            int code = step_error(st);
            MPIR_Request_release(st->req);
            st->req = NULL;
            *did = true;
            if (code != MPI_SUCCESS) {
                note_code(s, code);
                fail(s);
            }
        }
        if (pending)
            return false;
        if (s->next == s->n)
            return drain(s, did);
        s->phase = s->next;
        while (s->next < s->n && s->steps[s->next].kind != STEP_BARRIER)
            start_step(s, &s->steps[s->next++]);
        if (s->next < s->n)
            s->next++;      /* past the barrier: it closes this phase */
        *did = true;
    }
}

int MPIR_Sched_run(MPIR_Sched *s)
{
    if (!s)
        return MPI_ERR_NO_MEM;
    bool did = false;
    while (!advance(s, &did))
        MPID_Progress_wait();
    int err = MPIR_Err_from_code(s->err);
    sched_free(s);
    return err;
}

/* ---- background progress ---- */

static pthread_mutex_t active_lock = PTHREAD_MUTEX_INITIALIZER;
static MPIR_Sched *active;              /* started, not done (under active_lock) */
static _Atomic int nactive;             /* their number: checked without the lock */

/* Completes the request of a finished schedule, if it has one, and frees it. The schedule's
 * reference on the request goes, and the user's too if MPI_Request_free gave it up meanwhile. */
static void complete(MPIR_Sched *s)
{
    MPIR_Request *req = s->req;
    if (!req) {
        sched_free(s);
        return;
    }
    req->status.MPI_ERROR = s->err;
    sched_free(s);
    MPID_Request_complete(req);
    MPIR_Request_release(req);
}

static bool progress_hook(void)
{
    if (atomic_load_explicit(&nactive, memory_order_acquire) == 0)
        return false;
    /* taken: another thread is advancing the schedules, or a user operation called in from a
     * reduction step of one (then the caller is this thread itself) */
    if (pthread_mutex_trylock(&active_lock) != 0)
        return false;
    bool did = false;
    MPIR_Sched *done = NULL;
    for (MPIR_Sched **link = &active; *link;) {
        MPIR_Sched *s = *link;
        if (advance(s, &did)) {
            *link = s->next_active;
            atomic_fetch_sub(&nactive, 1);
            s->next_active = done;
            done = s;
        } else {
            link = &s->next_active;
        }
    }
    pthread_mutex_unlock(&active_lock);
    /* completed outside the lock: a request's release may reach the user's callbacks */
    while (done) {
        MPIR_Sched *s = done;
        done = s->next_active;
        complete(s);
    }
    return did;
}

int MPIR_Sched_start(MPIR_Sched *s, MPI_Request *request)
{
    if (!s)
        return MPI_ERR_NO_MEM;
    if (s->spare)
        return MPIR_Sched_run(s);   /* the thread's record cannot outlive the call */
    /* a schedule that failed while it was built completes its request with the error */
    MPIR_Request *req = MPIR_Request_create(MPIR_REQUEST_GENERALIZED);
    int err = MPI_SUCCESS;
    if (req) {
        MPIR_Comm_add_ref(s->comm);     /* for the request's error handler */
        req->comm = s->comm;
        MPIR_Object_add_ref(req);       /* the schedule's */
        s->req = req;
        *request = MPIR_Object_handle(req);
    } else {    /* the call returns the error, and s goes on in the background */
        MPIR_Sched_fail(s, MPIR_Err(MPI_ERR_NO_MEM, "out of memory or of request handles"));
        err = MPIR_Err_from_code(s->err);
    }

    bool did = false;
    if (advance(s, &did)) {
        complete(s);
        return err;
    }
    atomic_store(&MPID_Progress_hooks[MPID_HOOK_COLL], progress_hook);
    pthread_mutex_lock(&active_lock);
    s->next_active = active;
    active = s;
    atomic_fetch_add(&nactive, 1);
    pthread_mutex_unlock(&active_lock);
    return err;
}
