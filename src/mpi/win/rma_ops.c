/*
 * The origin side of the one-sided operations (MPI_Put, MPI_Get, the accumulates, their request
 * forms) and the origin's bookkeeping of what it has sent (see rma.h).
 *
 * On a window in shared memory the origin does the operation itself (direct()). Elsewhere an
 * operation is one message: its header, the target datatype's description, and the origin's
 * data packed by the segment engine. So it has either gone or failed as a whole, and the origin
 * buffer may be reused as soon as the call returns. An operation with an answer (get, the
 * fetching accumulates) first posts the receive of the answer into the result buffer, with the
 * result datatype, so the answer lands there without a copy.
 *
 * Checks, in the order the standard's error classes suggest: the target rank (MPI_ERR_RANK), an
 * access epoch to it (MPI_ERR_RMA_SYNC), the displacement (MPI_ERR_DISP), matching type
 * signatures (MPI_ERR_TYPE), the operation (MPI_ERR_OP), and the target's bytes inside its window
 * (MPI_ERR_RMA_RANGE: every process's window size is known from creation).
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"
#include "mpid_device.h"
#include "rma.h"

/* ---- pending operations ---- */

static int wait_request(MPIR_Request *req)
{
    while (!MPIR_Request_is_complete(req))
        MPID_Progress_wait();
    int code = MPIR_Request_error(req);
    MPIR_Request_release(req);
    return code == MPI_SUCCESS ? MPI_SUCCESS : MPIR_Err_from_code(code);
}

/* Records req (NULL: done already) with buf, freed when it completes. Without memory for the
 * record, waits for it at once. */
static int add_pending_as(MPIR_Rma *r, MPIR_Request *req, int target, void *buf, bool ack)
{
    if (!req) {
        free(buf);
        return MPI_SUCCESS;
    }
    pthread_mutex_lock(&r->lock);
    Rma_pending *p = MPIR_Array_reserve(r->pending, &r->cap, r->npending, sizeof *p);
    if (!p) {
        pthread_mutex_unlock(&r->lock);
        int err = wait_request(req);
        free(buf);
        return err;
    }
    r->pending = p;
    r->pending[r->npending++] = (Rma_pending) { req, target, buf, ack };
    pthread_mutex_unlock(&r->lock);
    return MPI_SUCCESS;
}

static int add_pending(MPIR_Rma *r, MPIR_Request *req, int target, void *buf)
{
    return add_pending_as(r, req, target, buf, false);
}

/* The error an acknowledgement from target reports, if any. */
static int acknowledged(int target, const int *errclass)
{
    if (*errclass == MPI_SUCCESS)
        return MPI_SUCCESS;
    return MPIR_Err(*errclass, "a one-sided operation to process %d reached outside the memory attached to "
                    "its dynamic window, and was not done", target);
}

int MPIR_Rma_wait_pending(MPIR_Rma *r, int target)
{
    int first = MPI_SUCCESS;
    pthread_mutex_lock(&r->lock);
    for (size_t i = 0; i < r->npending;) {
        Rma_pending p = r->pending[i];
        if (target >= 0 && p.target != target) {
            i++;
            continue;
        }
        r->pending[i] = r->pending[--r->npending];     /* order does not matter for waiting */
        pthread_mutex_unlock(&r->lock);
        int err = wait_request(p.req);
        if (err == MPI_SUCCESS && p.ack)
            err = acknowledged(p.target, p.buf);
        free(p.buf);
        if (first == MPI_SUCCESS)
            first = err;
        pthread_mutex_lock(&r->lock);
        i = 0;      /* another thread may have changed the list meanwhile */
    }
    pthread_mutex_unlock(&r->lock);
    return first;
}

/* ---- messages ---- */

/* Sends header h to target with the description and room for data_bytes of data, which fill()
 * writes; the message buffer becomes a pending operation's. */
static int send_message(MPIR_Rma *r, int target, Rma_header *h, const int64_t *desc, size_t ndesc,
                        MPI_Count data_bytes, int (*fill)(void *data, const void *arg), const void *arg,
                        MPIR_Request **reqp)
{
    size_t off = MPIR_Rma_data_offset((MPI_Count) ndesc);
    if ((uint64_t) data_bytes > (uint64_t) SIZE_MAX - off)
        return MPIR_Err(MPI_ERR_COUNT, "%lld bytes of data are more than a message can hold", (long long) data_bytes);
    size_t len = off + (size_t) data_bytes;
    char *buf = malloc(len);
    if (!buf)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory for a one-sided operation of %zu bytes", len);
    h->ndesc = (MPI_Count) ndesc;
    memcpy(buf, h, sizeof *h);
    if (ndesc)
        memcpy(buf + sizeof *h, desc, ndesc * sizeof *desc);
    int err = fill ? fill(buf + off, arg) : MPI_SUCCESS;
    MPIR_Request *req = NULL;
    if (err == MPI_SUCCESS)
        err = MPID_Isend(buf, (MPI_Count) len, MPI_BYTE, target, RMA_TAG_HEADER, r->win->comm, 0,
                         MPID_SEND_STANDARD, &req);
    if (err) {
        free(buf);
        return err;
    }
    if (reqp && req) {
        MPIR_Object_add_ref(req);   /* the caller's */
        *reqp = req;
    }
    return add_pending(r, req, target, buf);
}

int MPIR_Rma_send_control(MPIR_Rma *r, int target, int kind, int lock_type)
{
    Rma_header h = { .kind = kind, .lock_type = lock_type };
    MPIR_Request *ack = NULL;
    int *errclass = NULL;       /* what the acknowledgement carries */
    if (kind == RMA_FLUSH || kind == RMA_LOCK || kind == RMA_UNLOCK) {
        if (!(errclass = malloc(sizeof *errclass)))
            return MPIR_Err(MPI_ERR_NO_MEM, "out of memory for an acknowledgement");
        int err = MPID_Irecv(errclass, 1, MPI_INT, target, RMA_TAG_ACK, r->win->comm, 0, &ack);
        if (err) {
            free(errclass);
            return err;
        }
    }
    int err = send_message(r, target, &h, NULL, 0, 0, NULL, NULL, NULL);
    if (err) {
        if (ack) {
            MPID_Cancel_recv(ack);
            wait_request(ack);
        }
        free(errclass);
        return err;
    }
    return add_pending_as(r, ack, target, errclass, true);
}

/* ---- checks ---- */

/* A rank of the window with an access epoch open to it; for the request forms (MPI 4.1, 12.3.5)
 * a passive-target one. */
static int check_target(MPIR_Rma *r, int target, bool request_form)
{
    if (target < 0 || target >= r->nranks)
        return MPIR_Err(MPI_ERR_RANK, "target rank %d is not a rank of the window's group (0..%d)", target,
                        r->nranks - 1);
    pthread_mutex_lock(&r->lock);
    bool passive = r->lock_all || r->locked[target];
    bool open = passive || r->fence_open || r->in_access[target];
    pthread_mutex_unlock(&r->lock);
    if (request_form && !passive)
        return MPIR_Err(MPI_ERR_RMA_SYNC, "the request-based operations belong in a passive-target epoch "
                        "(MPI_Win_lock or MPI_Win_lock_all), and none is open to process %d", target);
    if (!open)
        return MPIR_Err(MPI_ERR_RMA_SYNC, "no access epoch to process %d of the window is open (it needs "
                        "MPI_Win_fence, MPI_Win_lock, MPI_Win_lock_all or MPI_Win_start first)", target);
    return MPI_SUCCESS;
}

/* The same type signature: count instances of a, nb of b. */
static int check_match(const char *what, MPI_Datatype a, MPI_Count na, MPI_Datatype b, MPI_Count nb)
{
    const MPID_Datatype *da = MPID_Datatype_get(a), *db = MPID_Datatype_get(b);
    MPI_Count sa, sb;
    if (__builtin_mul_overflow(da->size, na, &sa) || __builtin_mul_overflow(db->size, nb, &sb))
        return MPIR_Err(MPI_ERR_COUNT, "the %s or the target's data is more than 2^63 bytes", what);
    if (sa != sb)
        return MPIR_Err(MPI_ERR_TYPE, "the %s has %lld bytes and the target's data %lld: their type "
                        "signatures must match", what, (long long) sa, (long long) sb);
    if (sa && (MPID_Datatype_signature(da, na) != MPID_Datatype_signature(db, nb) ||
               da->n_elements * na != db->n_elements * nb))
        return MPIR_Err(MPI_ERR_TYPE, "the %s and the target's data have the same size (%lld bytes) but "
                        "different type signatures", what, (long long) sa);
    return MPI_SUCCESS;
}

/* The target bytes of (count, type) at disp must lie inside the target's window; *offset their
 * base's offset there. */
static int check_range(MPIR_Rma *r, int target, MPI_Aint disp, MPI_Count count, MPI_Datatype type,
                       MPI_Aint *offset)
{
    if (disp < 0)
        return MPIR_Err(MPI_ERR_DISP, "target_disp is %ld, must be non-negative", (long) disp);
    const MPID_Datatype *t = MPID_Datatype_get(type);
    MPI_Aint off, span, lo, hi;
    if (__builtin_mul_overflow(disp, (MPI_Aint) r->disp_units[target], &off))
        return MPIR_Err(MPI_ERR_RMA_RANGE, "target_disp %ld times the displacement unit %d overflows",
                        (long) disp, r->disp_units[target]);
    *offset = off;
    if (count == 0 || t->size == 0)
        return MPI_SUCCESS;     /* no byte of the window is touched */
    if (__builtin_mul_overflow(count - 1, t->extent, &span) ||
        __builtin_add_overflow(off, t->true_lb + (span < 0 ? span : 0), &lo) ||
        __builtin_add_overflow(off, t->true_ub + (span > 0 ? span : 0), &hi) || lo < 0 || hi > r->sizes[target])
        return MPIR_Err(MPI_ERR_RMA_RANGE, "the operation reaches outside the window of process %d (%ld "
                        "bytes; displacement %ld x %d, %lld instances of a type of true bounds [%ld, %ld) and "
                        "extent %ld)", target, (long) r->sizes[target], (long) disp, r->disp_units[target],
                        (long long) count, (long) t->true_lb, (long) t->true_ub, (long) t->extent);
    return MPI_SUCCESS;
}

/* Accumulates take predefined operations (MPI_REPLACE and MPI_NO_OP included) defined on the
 * target's elements. */
static int check_op(MPI_Op op, MPI_Datatype target_type)
{
    if (!MPIR_Op_is_builtin(op))
        return MPIR_Err(MPI_ERR_OP, "one-sided accumulates take predefined operations only, not "
                        "user-defined ones");
    if (op == MPI_REPLACE || op == MPI_NO_OP)
        return MPI_SUCCESS;
    return MPIR_Op_check(op, target_type);
}

static int check_committed(const char *what, MPI_Datatype type)
{
    MPID_Datatype *dt = MPID_Datatype_lookup(type);
    if (!dt)
        return MPIR_Err(MPI_ERR_TYPE, "%s is not a valid datatype", what);
    if (!MPID_Datatype_is_builtin(type) && !dt->is_committed)
        return MPIR_Err(MPI_ERR_TYPE, "%s is not committed", what);
    return MPI_SUCCESS;
}

/* ---- the operations ---- */

typedef struct {
    int kind;
    const void *origin;         /* packed into the message: PUT, ACC, GET_ACC (not with MPI_NO_OP) */
    MPI_Count origin_count;
    MPI_Datatype origin_type;
    const void *compare;        /* CAS: one element of origin_type after the origin's */
    void *result;               /* the answer's buffer: GET, GET_ACC, CAS */
    MPI_Count result_count;
    MPI_Datatype result_type;
    int target;
    MPI_Aint disp;
    MPI_Count target_count;
    MPI_Datatype target_type;
    MPI_Op op;
} Rma_op;

static int pack_origin(void *data, const void *arg)
{
    const Rma_op *o = arg;
    MPID_Segment seg;
    int err = MPID_Segment_init_borrowed(&seg, o->origin, o->origin_count, o->origin_type);
    if (err)
        return err;
    MPI_Count bytes = o->origin_count * MPID_Datatype_get(o->origin_type)->size, last = bytes;
    err = MPID_Segment_pack(&seg, 0, &last, data);
    MPID_Segment_free(&seg);
    if (err == MPI_SUCCESS && o->compare) {
        memcpy((char *) data + bytes, o->compare, (size_t) MPID_Datatype_get(o->origin_type)->size);
    }
    return err;
}

/* o, done by the origin itself on a window in shared memory (rma.h): puts and gets are copies
 * between the two typed buffers; accumulates pack the origin data, then read the old values
 * and combine under the target's accumulate lock, so that they are atomic with respect to each
 * other as the message path's are. */
static int direct(MPIR_Rma *r, const Rma_op *o, MPI_Aint offset)
{
    char *where = r->bases[o->target] + offset;
    if (o->kind == RMA_PUT)
        return MPIR_Localcopy(o->origin, o->origin_count, o->origin_type, where, o->target_count, o->target_type);
    if (o->kind == RMA_GET)
        return MPIR_Localcopy(where, o->target_count, o->target_type, o->result, o->result_count, o->result_type);
    /* the origin data as a packed stream: itself when contiguous (CAS: a predefined type), else
     * packed here, outside the lock */
    MPI_Count bytes = o->target_count * MPID_Datatype_get(o->target_type)->size;
    const MPID_Datatype *od = o->origin ? MPID_Datatype_get(o->origin_type) : NULL;
    const char *in = od && od->is_contig ? (const char *) o->origin + od->true_lb : NULL;
    char small[256], *packed = NULL;
    int err = MPI_SUCCESS;
    if (od && !in) {
        packed = (size_t) bytes <= sizeof small ? small : malloc((size_t) bytes);
        if (!packed)
            return MPIR_Err(MPI_ERR_NO_MEM, "out of memory for an accumulate of %lld bytes", (long long) bytes);
        in = packed;
        err = pack_origin(packed, o);
    }
    if (err == MPI_SUCCESS) {
        _Atomic int *lock = &r->control[o->target].accumulate;
        MPIR_Rma_spin_lock(lock);
        if (o->result)
            err = MPIR_Localcopy(where, o->target_count, o->target_type, o->result, o->result_count,
                                 o->result_type);
        if (err == MPI_SUCCESS && o->kind == RMA_CAS) {
            if (memcmp(where, o->compare, (size_t) bytes) == 0)
                memcpy(where, in, (size_t) bytes);
        } else if (err == MPI_SUCCESS && in) {
            err = MPIR_Op_apply_packed(in, where, o->target_count, o->target_type, o->op);
        }
        MPIR_Rma_spin_unlock(lock);
    }
    if (packed != small)
        free(packed);
    return err;
}

/* A request complete from the start, for the user. */
static int done_request(MPI_Request *user_req)
{
    MPIR_Request *done = MPIR_Request_create(MPIR_REQUEST_GENERALIZED);
    if (!done)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory or of request handles");
    atomic_store(&done->complete, 1);
    *user_req = MPIR_Object_handle(done);
    return MPI_SUCCESS;
}

/* Issues o; *user_req (if asked for) completes when the operation is complete at the origin. */
static int issue(MPI_Win win, Rma_op *o, MPI_Request *user_req)
{
    MPIR_Rma *r = MPIR_Win_lookup(win)->rma;
    if (o->target == MPI_PROC_NULL)
        return user_req ? done_request(user_req) : MPI_SUCCESS;
    int err = check_target(r, o->target, user_req != NULL);
    if (err)
        return err;
    bool answered = o->kind == RMA_GET || o->kind == RMA_GET_ACC || o->kind == RMA_CAS;
    if (o->origin && o->kind != RMA_CAS &&
        (err = check_match("origin data", o->origin_type, o->origin_count, o->target_type, o->target_count))
            != MPI_SUCCESS)
        return err;
    if (o->kind == RMA_GET_ACC &&
        (err = check_match("result buffer", o->result_type, o->result_count, o->target_type, o->target_count)) != MPI_SUCCESS)
        return err;
    if ((o->kind == RMA_ACC || o->kind == RMA_GET_ACC) && (err = check_op(o->op, o->target_type)) != MPI_SUCCESS)
        return err;
    MPI_Aint offset = o->disp;     /* dynamic windows: an address, checked by the target */
    if (!r->dynamic &&
        (err = check_range(r, o->target, o->disp, o->target_count, o->target_type, &offset)) != MPI_SUCCESS)
        return err;

    if (r->direct) {
        if ((err = direct(r, o, offset)) != MPI_SUCCESS)
            return err;
        return user_req ? done_request(user_req) : MPI_SUCCESS;
    }

    const MPID_Datatype *t = MPID_Datatype_get(o->target_type);
    Rma_header h = { .kind = o->kind, .op = o->op, .offset = offset, .count = o->target_count,
                     .bytes = o->target_count * t->size };
    int64_t *desc;
    size_t ndesc;
    if ((err = MPIR_Rma_type_describe(o->target_type, &desc, &ndesc, &h.type_depth)) != MPI_SUCCESS)
        return err;
    MPIR_Request *answer = NULL, *sent = NULL;
    if (answered)
        err = MPID_Irecv(o->result, o->result_count, o->result_type, o->target, RMA_TAG_REPLY, r->win->comm, 0,
                         &answer);
    MPI_Count data = !o->origin ? 0 : o->compare ? 2 * h.bytes : h.bytes;
    if (err == MPI_SUCCESS)
        err = send_message(r, o->target, &h, desc, ndesc, data, o->origin ? pack_origin : NULL, o,
                           user_req && !answer ? &sent : NULL);
    free(desc);
    if (err) {
        if (answer) {
            MPID_Cancel_recv(answer);
            wait_request(answer);
        }
        return err;
    }
    pthread_mutex_lock(&r->lock);
    r->touched[o->target] = 1;      /* a flush must reach it */
    pthread_mutex_unlock(&r->lock);
    if (answer && user_req) {
        MPIR_Object_add_ref(answer);    /* the user's */
        *user_req = MPIR_Object_handle(answer);
    } else if (user_req) {
        if (sent)
            *user_req = MPIR_Object_handle(sent);
        else if ((err = done_request(user_req)) != MPI_SUCCESS)    /* gone already */
            return err;
    }
    return add_pending(r, answer, o->target, NULL);
}

static int put(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
               MPI_Request *request)
{
    Rma_op o = { .kind = RMA_PUT, .origin = origin_addr, .origin_count = origin_count,
                 .origin_type = origin_datatype, .target = target_rank, .disp = target_disp,
                 .target_count = target_count, .target_type = target_datatype, .op = MPI_REPLACE };
    return issue(win, &o, request);
}

static int get(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
               MPI_Request *request)
{
    int err = check_match("origin buffer", origin_datatype, origin_count, target_datatype, target_count);
    if (err)
        return err;
    Rma_op o = { .kind = RMA_GET, .result = origin_addr, .result_count = origin_count,
                 .result_type = origin_datatype, .target = target_rank, .disp = target_disp,
                 .target_count = target_count, .target_type = target_datatype, .op = MPI_NO_OP };
    return issue(win, &o, request);
}

static int accumulate(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                      int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                      MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    Rma_op o = { .kind = RMA_ACC, .origin = origin_addr, .origin_count = origin_count,
                 .origin_type = origin_datatype, .target = target_rank, .disp = target_disp,
                 .target_count = target_count, .target_type = target_datatype, .op = op };
    return issue(win, &o, request);
}

static int get_accumulate(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                          void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype,
                          int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                          MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    /* with MPI_NO_OP the origin arguments are ignored */
    int err = op == MPI_NO_OP ? MPI_SUCCESS : check_committed("origin_datatype", origin_datatype);
    if (err)
        return err;
    Rma_op o = { .kind = RMA_GET_ACC, .origin = op == MPI_NO_OP ? NULL : origin_addr,
                 .origin_count = origin_count, .origin_type = origin_datatype, .result = result_addr,
                 .result_count = result_count, .result_type = result_datatype, .target = target_rank,
                 .disp = target_disp, .target_count = target_count, .target_type = target_datatype, .op = op };
    return issue(win, &o, request);
}

int MPIR_Put_impl(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                  MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    return put(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
               target_datatype, win, NULL);
}

int MPIR_Rput_impl(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                   MPI_Request *request)
{
    return put(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
               target_datatype, win, request);
}

int MPIR_Get_impl(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                  MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    return get(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
               target_datatype, win, NULL);
}

int MPIR_Rget_impl(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                   MPI_Request *request)
{
    return get(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
               target_datatype, win, request);
}

int MPIR_Accumulate_impl(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                         int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                         MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    return accumulate(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                      target_datatype, op, win, NULL);
}

int MPIR_Raccumulate_impl(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                          int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                          MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    return accumulate(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                      target_datatype, op, win, request);
}

int MPIR_Get_accumulate_impl(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                             void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype,
                             int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                             MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    return get_accumulate(origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype,
                          target_rank, target_disp, target_count, target_datatype, op, win, NULL);
}

int MPIR_Rget_accumulate_impl(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                              void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype,
                              int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                              MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    return get_accumulate(origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype,
                          target_rank, target_disp, target_count, target_datatype, op, win, request);
}

int MPIR_Fetch_and_op_impl(const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank,
                           MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    if (!MPID_Datatype_is_builtin(datatype))
        return MPIR_Err(MPI_ERR_TYPE, "MPI_Fetch_and_op takes a predefined datatype");
    return get_accumulate(origin_addr, 1, datatype, result_addr, 1, datatype, target_rank, target_disp, 1,
                          datatype, op, win, NULL);
}

int MPIR_Compare_and_swap_impl(const void *origin_addr, const void *compare_addr, void *result_addr,
                               MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    if (!MPID_Datatype_is_builtin(datatype) || MPID_Datatype_get(datatype)->basic_type == MPI_DATATYPE_NULL)
        return MPIR_Err(MPI_ERR_TYPE, "MPI_Compare_and_swap takes a predefined datatype of one element");
    Rma_op o = { .kind = RMA_CAS, .origin = origin_addr, .origin_count = 1, .origin_type = datatype,
                 .compare = compare_addr, .result = result_addr, .result_count = 1, .result_type = datatype,
                 .target = target_rank, .disp = target_disp, .target_count = 1, .target_type = datatype,
                 .op = MPI_REPLACE };
    return issue(win, &o, NULL);
}
