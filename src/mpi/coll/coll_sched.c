/*
 * Collective schedules (see coll_sched.h): building, running, and the background progress of the
 * nonblocking collectives.
 *
 * Started schedules sit in a list that MPID_Progress_hook walks on every progress pass of the
 * device (any MPI_Wait/Test, blocking call or probe), under a lock that only one thread holds at a
 * time; a thread that finds it taken moves on (the holder is advancing every schedule anyway).
 */
#include <limits.h>
#include <pthread.h>
#include "coll_sched.h"
#include "mpid_device.h"

/* Nonblocking tags start above the blocking collectives' and wrap within the tag range. */
#define NBC_TAG_BASE 64
#define NBC_TAG_SPAN (1 << 24)

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
    int build_err;              /* a class (reason recorded) from building */
    int err_class;              /* the first error while running: a class ... */
    int err_code;               /* ... or a full code from a request's status */
    MPIR_Request *req;          /* nonblocking: the user's request (one reference is ours) */
    MPIR_Sched *next_active;
};

/* ---- building ---- */

MPIR_Sched *MPIR_Sched_create(MPIR_Comm *c, int tag)
{
    MPIR_Sched *s = calloc(1, sizeof *s);
    if (!s) {
        MPIR_Err(MPI_ERR_NO_MEM, "out of memory for a collective schedule");
        return NULL;
    }
    if (tag == MPIR_SCHED_NBC)
        tag = NBC_TAG_BASE + (int) (c->nbc_seq++ % NBC_TAG_SPAN);
    s->tag = tag;
    s->comm = c;
    MPIR_Comm_add_ref(c);
    return s;
}

static Step *add(MPIR_Sched *s, Step_kind kind)
{
    if (!s || s->build_err)
        return NULL;
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        Step *steps = realloc(s->steps, (size_t) cap * sizeof *steps);
        if (!steps) {
            s->build_err = MPIR_Err(MPI_ERR_NO_MEM, "out of memory for a collective schedule of %d steps", cap);
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
}

void MPIR_Sched_recv(MPIR_Sched *s, void *buf, MPI_Count count, MPI_Datatype type, int source)
{
    Step *st = add(s, STEP_RECV);
    if (st)
        *st = (Step) { .kind = STEP_RECV, .dst = buf, .count = count, .type = type_ref(type), .peer = source };
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
    if (!s || s->build_err)
        return NULL;
    if (s->ntmp == s->captmp) {
        int cap = s->captmp ? 2 * s->captmp : 4;
        void **tmp = realloc(s->tmp, (size_t) cap * sizeof *tmp);
        if (!tmp) {
            s->build_err = MPIR_Err(MPI_ERR_NO_MEM, "out of memory for a collective schedule");
            return NULL;
        }
        s->tmp = tmp;
        s->captmp = cap;
    }
    void *base, *buf;
    if ((s->build_err = MPIR_Typed_alloc(count, type, &base, &buf)) != MPI_SUCCESS)
        return NULL;
    s->tmp[s->ntmp++] = base;
    return buf;
}

static void sched_free(MPIR_Sched *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n; i++) {
        Step *st = &s->steps[i];
        if (st->req)
            MPIR_Request_release(st->req);
        if (st->type)
            MPID_Datatype_release(st->type);
        if (st->dtype)
            MPID_Datatype_release(st->dtype);
    }
    for (int i = 0; i < s->ntmp; i++)
        free(s->tmp[i]);
    free(s->tmp);
    free(s->steps);
    MPIR_Comm_release(s->comm);
    free(s);
}

/* ---- running ---- */

static void note_class(MPIR_Sched *s, int cls)
{
    if (cls != MPI_SUCCESS && s->err_class == MPI_SUCCESS && s->err_code == MPI_SUCCESS)
        s->err_class = cls;
}

static void start_step(MPIR_Sched *s, Step *st)
{
    MPI_Datatype type = st->type ? MPID_Datatype_handle(st->type) : MPI_DATATYPE_NULL;
    switch (st->kind) {
    case STEP_SEND:
        note_class(s, MPIR_Coll_isend(st->src, st->count, type, st->peer, s->tag, s->comm, &st->req));
        break;
    case STEP_RECV:
        note_class(s, MPIR_Coll_irecv(st->dst, st->count, type, st->peer, s->tag, s->comm, &st->req));
        break;
    case STEP_COPY:
        note_class(s, MPIR_Localcopy(st->src, st->count, type, st->dst, st->dcount, MPID_Datatype_handle(st->dtype)));
        break;
    case STEP_REDUCE:
        if (st->op == MPI_OP_NULL)
            MPIR_Op_apply_user(&st->user_op, st->src, st->dst, st->count, type);
        else
            note_class(s, MPIR_Op_apply(st->src, st->dst, st->count, type, st->op));
        break;
    case STEP_BARRIER:
        break;
    }
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
            int code = st->req->status.MPI_ERROR;
            if (code != MPI_SUCCESS && s->err_class == MPI_SUCCESS && s->err_code == MPI_SUCCESS)
                s->err_code = code;
            MPIR_Request_release(st->req);
            st->req = NULL;
            *did = true;
        }
        if (pending)
            return false;
        if (s->next == s->n)
            return true;
        s->phase = s->next;
        while (s->next < s->n && s->steps[s->next].kind != STEP_BARRIER)
            start_step(s, &s->steps[s->next++]);
        if (s->next < s->n)
            s->next++;      /* past the barrier: it closes this phase */
        *did = true;
    }
}

/* The error a blocking collective returns: a class, with the reason recorded. */
static int run_error(const MPIR_Sched *s)
{
    if (s->err_class != MPI_SUCCESS)
        return s->err_class;
    if (s->err_code == MPI_SUCCESS)
        return MPI_SUCCESS;
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0, cls = MPI_ERR_OTHER;
    PMPI_Error_class(s->err_code, &cls);
    if (PMPI_Error_string(s->err_code, msg, &len) != MPI_SUCCESS)
        snprintf(msg, sizeof msg, "error code %d", s->err_code);
    return MPIR_Err(cls, "%s", msg);
}

int MPIR_Sched_run(MPIR_Sched *s)
{
    if (!s)
        return MPI_ERR_NO_MEM;
    int err = s->build_err;
    if (err == MPI_SUCCESS) {
        bool did = false;
        while (!advance(s, &did))
            MPID_Progress_wait();
        err = run_error(s);
    }
    sched_free(s);
    return err;
}

/* ---- background progress ---- */

static pthread_mutex_t active_lock = PTHREAD_MUTEX_INITIALIZER;
static MPIR_Sched *active;              /* started, not done (under active_lock) */
static _Atomic int nactive;             /* their number: checked without the lock */

/* The error a nonblocking collective's request reports: a full code. */
static int request_error(const MPIR_Sched *s)
{
    if (s->err_code != MPI_SUCCESS)
        return s->err_code;
    if (s->err_class != MPI_SUCCESS)
        return MPIR_Err_code(s->err_class, "a local step of the nonblocking collective failed: %s",
                             MPIR_Err_class_string(s->err_class));
    return MPI_SUCCESS;
}

/* Completes the request of a finished schedule and frees it. The schedule's reference on the
 * request goes, and the user's too if MPI_Request_free gave it up meanwhile. */
static void complete(MPIR_Sched *s)
{
    MPIR_Request *req = s->req;
    req->status.MPI_ERROR = request_error(s);
    sched_free(s);
    atomic_store_explicit(&req->complete, 1, memory_order_release);
    if (atomic_load(&req->freed_by_user))
        MPIR_Request_release(req);
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
    int err = s->build_err;
    MPIR_Request *req = err ? NULL : MPIR_Request_create(MPIR_REQUEST_GENERALIZED);
    if (!err && !req)
        err = MPIR_Err(MPI_ERR_NO_MEM, "out of memory or of request handles");
    if (err) {
        sched_free(s);
        return err;
    }
    MPIR_Comm_add_ref(s->comm);     /* for the request's error handler */
    req->comm = s->comm;
    MPIR_Object_add_ref(req);       /* the schedule's */
    s->req = req;
    *request = MPIR_Object_handle(req);

    bool did = false;
    if (advance(s, &did)) {
        complete(s);
        return MPI_SUCCESS;
    }
    atomic_store(&MPID_Progress_hook, progress_hook);
    pthread_mutex_lock(&active_lock);
    s->next_active = active;
    active = s;
    atomic_fetch_add(&nactive, 1);
    pthread_mutex_unlock(&active_lock);
    return MPI_SUCCESS;
}
