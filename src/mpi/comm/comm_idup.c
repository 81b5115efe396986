/*
 * MPI_Comm_idup and MPI_Comm_idup_with_info: a dup that completes in the background (MPI 4.1: a
 * process may communicate, even wait for other processes, between MPI_Comm_idup and its wait).
 *
 * At the call the attributes are copied (the copy callbacks run in the caller, as for MPI_Comm_dup)
 * and so are the hints. The context id agreement (comm_context.c, "in steps") then runs from the
 * device's progress engine (hook MPID_HOOK_COMM): each round is a binomial reduction of the
 * offered masks to rank 0 followed by a broadcast back, one message at a time, on the
 * communicator's collective context with the idup's own tag (MPIR_TAG_IDUP). On an
 * intercommunicator each group agrees on its two contexts over its local_comm, then the leaders
 * swap receive contexts and each broadcasts the other side's to its group. The last step builds
 * the communicator, stores it in *newcomm and completes the request.
 *
 * The schedule engine of the nonblocking collectives (src/mpi/coll/coll_sched.h) is not used: a
 * round's outcome decides what comes next (another round, the swap, the new communicator), and its
 * schedules run fixed lists of steps to the end.
 *
 * A process whose part fails before the agreement (out of memory for the copies or the request, a
 * copy callback's error) still takes part in it, so the others are not left waiting: it then
 * gives the ids back and completes with the error (or, without a request, returns it at once and
 * goes on in the background; without memory for its record, on the thread's spare one, to the end
 * before it returns). A message that finds no request to start waits for the next pass.
 */
#include <pthread.h>
#include "comm.h"

enum { OP_SEND, OP_RECV, OP_RECV_AND };     /* OP_RECV_AND: receive into other[], AND into buf[] */

typedef struct {
    int kind;
    MPIR_Comm *comm;
    int peer;
    void *buf;
    int n;
    MPI_Datatype type;
} Op;

/* A reduction and a broadcast over up to 2^31 ranks take at most 32 + 31 messages; the swap 2. */
#define MAX_OPS 72

typedef struct Idup {
    MPIR_Comm *old;                 /* referenced */
    MPIR_Comm *local;               /* the intracommunicator of old's local group */
    int tag;
    MPIR_Context_agreement agreement;
    bool agreeing;                  /* begun and not ended */
    bool swapping;                  /* intercommunicator: the ids are claimed, the leaders swap */
    int nids;                       /* ids claimed (freed again if the idup fails) */
    unsigned buf[MPIR_CONTEXT_BUF_WORDS], other[MPIR_CONTEXT_BUF_WORDS];
    int ids[2], remote_ctx;
    Op ops[MAX_OPS];
    int nops, cur;
    MPIR_Request *pending;          /* the current op's message */
    int err;                        /* an error code (MPIR_Err_code) once something failed */
    int local_err;                  /* the same for a failure before the agreement: it runs all
                                       the same, and its ids go back */
    MPI_Info hints;                 /* a copy, or MPI_INFO_NULL */
    MPIR_Attribute *attrs;          /* the copied attributes */
    MPI_Comm *newcomm;
    MPIR_Request *req;              /* the user's request; one reference is ours */
    struct Idup *next;
} Idup;

/* ---- the messages of a step ---- */

static void add_op(Idup *d, int kind, MPIR_Comm *comm, int peer, void *buf, int n, MPI_Datatype type)
{
    d->ops[d->nops++] = (Op) { kind, comm, peer, buf, n, type };
}

/* n elements at buf from rank 0 of the local group to the others: in step mask, ranks [0, mask)
 * send to [mask, 2 mask). */
static void add_bcast(Idup *d, void *buf, int n, MPI_Datatype type)
{
    MPIR_Comm *c = d->local;
    for (int mask = 1; mask < c->size; mask <<= 1) {
        if (c->rank < mask && c->rank + mask < c->size)
            add_op(d, OP_SEND, c, c->rank + mask, buf, n, type);
        else if (c->rank >= mask && c->rank < 2 * mask)
            add_op(d, OP_RECV, c, c->rank - mask, buf, n, type);
    }
}

/* A round: this process's offer, ANDed up a binomial tree to rank 0, and the result sent back. */
static void start_round(Idup *d)
{
    MPIR_Comm *c = d->local;
    MPIR_Context_agree_offer(&d->agreement, d->buf);
    d->nops = d->cur = 0;
    for (int mask = 1; mask < c->size; mask <<= 1) {
        if (c->rank & mask) {
            add_op(d, OP_SEND, c, c->rank - mask, d->buf, MPIR_CONTEXT_BUF_WORDS, MPI_UNSIGNED);
            break;
        }
        if (c->rank + mask < c->size)
            add_op(d, OP_RECV_AND, c, c->rank + mask, d->other, MPIR_CONTEXT_BUF_WORDS, MPI_UNSIGNED);
    }
    add_bcast(d, d->buf, MPIR_CONTEXT_BUF_WORDS, MPI_UNSIGNED);
}

/* The leaders swap the receive contexts of their groups; each group learns the other's. */
static void start_swap(Idup *d)
{
    d->swapping = true;
    d->nops = d->cur = 0;
    if (d->local->rank == 0) {
        add_op(d, OP_SEND, d->old, 0, &d->ids[0], 1, MPI_INT);
        add_op(d, OP_RECV, d->old, 0, &d->remote_ctx, 1, MPI_INT);
    }
    add_bcast(d, &d->remote_ctx, 1, MPI_INT);
}

/* Moves the messages of the step on; true once they are all done (or one failed). */
static bool run_ops(Idup *d, bool *did)
{
    while (d->cur < d->nops) {
        Op *op = &d->ops[d->cur];
        if (d->pending == NULL) {
            int e = op->kind == OP_SEND
                        ? MPID_Isend(op->buf, op->n, op->type, op->peer, d->tag, op->comm, MPIR_CONTEXT_COLL_OFFSET,
                                     MPID_SEND_STANDARD, &d->pending)
                        : MPID_Irecv(op->buf, op->n, op->type, op->peer, d->tag, op->comm, MPIR_CONTEXT_COLL_OFFSET,
                                     &d->pending);
            *did = true;
            if (e == MPI_ERR_NO_MEM) {
                d->pending = NULL;
                return false;   /* no request now: the next pass tries again */
            }
            if (e) {
                d->pending = NULL;
                d->err = MPIR_Err_code(e, "an internal message of MPI_Comm_idup could not be started: %s",
                                       MPIR_Err_class_string(e));
                return true;
            }
        }
        if (!MPIR_Request_is_complete(d->pending))
            return false;
        int code = d->pending->status.MPI_ERROR;
        MPIR_Request_release(d->pending);
        d->pending = NULL;
        *did = true;
        if (code) {
            d->err = code;
            return true;
        }
        if (op->kind == OP_RECV_AND)
            for (int i = 0; i < MPIR_CONTEXT_BUF_WORDS; i++)
                d->buf[i] &= d->other[i];
        d->cur++;
    }
    return true;
}

/* Moves d as far as it goes now; true once it is done (d->err says how). */
static bool advance(Idup *d, bool *did)
{
    for (;;) {
        if (!run_ops(d, did))
            return false;
        if (d->err || d->swapping)
            return true;
        int n = d->old->is_inter ? 2 : 1;
        int e = MPIR_Context_agree_claim(&d->agreement, d->buf, n, d->ids);
        if (e == MPIR_CONTEXT_RETRY) {
            start_round(d);
            /* the first round only gathers everyone; later retries wait for the next progress
             * pass, so a single process that cannot have the mask yet does not spin here */
            if (d->agreement.round > 1)
                return false;
            continue;
        }
        MPIR_Context_agree_end(&d->agreement);
        d->agreeing = false;
        if (e) {
            d->err = MPIR_Err_code(e, "MPI_Comm_idup found no context id free in every process (too many "
                                      "communicators exist)");
            return true;
        }
        d->nids = n;
        if (!d->old->is_inter)
            return true;
        start_swap(d);
    }
}

/* ---- completion ---- */

/* For an idup whose record finds no memory: it must take part all the same. */
static _Thread_local Idup spare;
static _Thread_local bool spare_in_use;

static void destroy(Idup *d)
{
    if (d->agreeing)
        MPIR_Context_agree_end(&d->agreement);
    for (int i = 0; i < d->nids; i++)
        MPIR_Context_free(d->ids[i]);
    if (d->attrs) {     /* no communicator to hang them on: the copies are deleted */
        (void) MPIR_Attr_delete_all(&d->attrs, MPI_COMM_NULL);
        MPIR_Attr_drop_all(&d->attrs);
    }
    if (d->hints != MPI_INFO_NULL)
        MPIR_Info_free_impl(&d->hints);
    MPIR_Comm_release(d->old);
    if (d == &spare)
        spare_in_use = false;
    else
        free(d);
}

/* Builds the communicator (if all went well), completes the request and frees d. */
static void finish(Idup *d)
{
    MPIR_Comm *c = NULL, *old = d->old;
    int code = d->local_err ? d->local_err : d->err, e = MPI_SUCCESS;
    if (code == MPI_SUCCESS) {
        if (old->is_inter)
            e = MPIR_Comm_new_inter(old, old->local_group, old->remote_group, d->remote_ctx, d->ids[0], d->ids[1], &c);
        else if ((e = MPIR_Comm_new(old, old->local_group, d->ids[0], &c)) == MPI_SUCCESS)
            c->topo = MPIR_Topo_share(old->topo);
        if (e == MPI_SUCCESS) {
            d->nids = 0;    /* the communicator owns them now */
            e = MPIR_Comm_info_merge(c, d->hints);
        }
        if (e) {
            code = MPIR_Err_code(e, "MPI_Comm_idup could not build the new communicator: %s",
                                 MPIR_Err_class_string(e));
            if (c)
                MPIR_Comm_release(c);
            c = NULL;
        }
    }
    if (c) {
        c->attributes = d->attrs;
        d->attrs = NULL;
        *d->newcomm = MPIR_Comm_handle(c);
    }
    MPIR_Request *req = d->req;
    destroy(d);
    if (!req)
        return;
    req->status.MPI_ERROR = code;
    MPID_Request_complete(req);
    MPIR_Request_release(req);
}

/* ---- background progress ---- */

static pthread_mutex_t active_lock = PTHREAD_MUTEX_INITIALIZER;
static Idup *active;                /* behind active_lock */
static _Atomic int nactive;         /* how many: a look without the lock */

static bool progress(void)
{
    if (atomic_load_explicit(&nactive, memory_order_acquire) == 0)
        return false;
    if (pthread_mutex_trylock(&active_lock) != 0)
        return false;   /* another thread is advancing them */
    bool did = false;
    Idup *done = NULL;
    for (Idup **link = &active; *link;) {
        Idup *d = *link;
        if (advance(d, &did)) {
            atomic_fetch_sub(&nactive, 1);
            *link = d->next;
            d->next = done;
            done = d;
        } else {
            link = &d->next;
        }
    }
    pthread_mutex_unlock(&active_lock);
    while (done) {      /* finished outside the lock: it may release the last reference of a comm */
        Idup *d = done;
        done = d->next;
        finish(d);
    }
    return did;
}

/* ---- starting ---- */

static int idup_start(MPI_Comm comm, MPI_Info hints, MPI_Comm *newcomm, MPI_Request *request)
{
    MPIR_Comm *old = MPIR_Comm_lookup(comm);
    *newcomm = MPI_COMM_NULL;   /* until the request completes, and if the call fails */
    int err = MPI_SUCCESS;
    Idup *d = calloc(1, sizeof *d);
    if (!d && !spare_in_use) {
        spare = (Idup) { 0 };
        spare_in_use = true;
        d = &spare;
    }
    if (!d)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory for MPI_Comm_idup");
    if (d == &spare)
        err = MPIR_Err(MPI_ERR_NO_MEM, "out of memory for MPI_Comm_idup");
    d->hints = MPI_INFO_NULL;
    if (err == MPI_SUCCESS && hints != MPI_INFO_NULL)
        err = MPIR_Info_dup_impl(hints, &d->hints);
    if (err == MPI_SUCCESS)
        err = MPIR_Attr_copy_all(&old->attributes, comm, &d->attrs);
    MPIR_Request *req = d == &spare ? NULL : MPIR_Request_create(MPIR_REQUEST_GENERALIZED);
    if (err == MPI_SUCCESS && req == NULL)
        err = MPIR_Err(MPI_ERR_NO_MEM, "out of memory or of request handles");
    if (err)
        d->local_err = MPIR_Err_keep(err);  /* it still takes part, and builds nothing */
    MPIR_Comm_add_ref(old);
    d->old = old;
    d->tag = MPIR_TAG_IDUP(old->coll_seq++);
    int e = MPIR_Context_agree_begin(&d->agreement, MPIR_Context_priority(old, d->tag), true);
    if (e) {    /* too many agreements at once: a process limit, not one of this call */
        if (req)
            MPIR_Request_release(req);
        destroy(d);
        return e;
    }
    d->agreeing = true;
    if (req) {
        MPIR_Comm_add_ref(old);     /* the request's: its error goes to old's handler */
        req->comm = old;
        MPIR_Object_add_ref(req);   /* ours, until finish */
        d->req = req;
        *request = MPIR_Object_handle(req);
    }
    d->local = MPIR_Comm_local(old);
    d->newcomm = newcomm;

    int code = d->local_err;    /* d may be gone when the call returns it */
    start_round(d);
    bool did = false, done = advance(d, &did);
    while (!done && d == &spare) {      /* it cannot outlive the call */
        MPID_Progress_wait();
        done = advance(d, &did);
    }
    if (done) {
        finish(d);
    } else {
        atomic_store(&MPID_Progress_hooks[MPID_HOOK_COMM], progress);
        pthread_mutex_lock(&active_lock);
        d->next = active;
        active = d;
        atomic_fetch_add(&nactive, 1);
        pthread_mutex_unlock(&active_lock);
    }
    return req ? MPI_SUCCESS : MPIR_Err_from_code(code);
}

int MPIR_Comm_idup_impl(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    MPIR_Comm *old = MPIR_Comm_lookup(comm);
    return idup_start(comm, old->info ? old->info : MPI_INFO_NULL, newcomm, request);
}

int MPIR_Comm_idup_with_info_impl(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request)
{
    return idup_start(comm, info, newcomm, request);
}
