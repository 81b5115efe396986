/*
 * Matching and the message protocols of the shared-memory device (see shm_impl.h).
 *
 * Everything here runs under shm_lock. Queues, all process-local:
 *   posted      receives not matched yet, in posting order;
 *   unexpected  arrived messages not matched yet, in arrival order (eager ones with a copy of their
 *               data, rendezvous ones with just the envelope);
 *   outq[dest]  requests waiting for a cell to send their first cell (EAGER, RTS, or a receive's CTS)
 *               to dest, in order, so messages to one destination keep their order;
 *   streaming   rendezvous sends cleared to send, with data left.
 */
#include "shm_impl.h"

pthread_mutex_t shm_lock = PTHREAD_MUTEX_INITIALIZER;

enum { SEND_EAGER = 1, SEND_RTS, SEND_WAIT_CTS, SEND_STREAM, RECV_POSTED, RECV_CTS, RECV_DATA };

typedef struct Unexpected {
    Cell_header h;
    char *data;                     /* EAGER: a copy of the payload */
    struct Unexpected *next;
} Unexpected;

typedef struct {
    MPIR_Request *head, *tail;
} Queue;

static Queue posted, streaming;
static Queue *outq;                 /* one per destination rank */
static Unexpected *unexp_head, *unexp_tail;
static int next_sender;             /* where the next pass starts reading: fairness */

/* ---- queues ---- */

static void enqueue(Queue *q, MPIR_Request *req)
{
    req->dev.next = NULL;
    if (q->tail)
        q->tail->dev.next = req;
    else
        q->head = req;
    q->tail = req;
}

static MPIR_Request *dequeue(Queue *q)
{
    MPIR_Request *req = q->head;
    if (req) {
        q->head = req->dev.next;
        if (!q->head)
            q->tail = NULL;
    }
    return req;
}

/* Removes req from q; false if it was not there. */
static bool unlink_req(Queue *q, MPIR_Request *req)
{
    MPIR_Request *prev = NULL;
    for (MPIR_Request *r = q->head; r; prev = r, r = r->dev.next)
        if (r == req) {
            if (prev)
                prev->dev.next = r->dev.next;
            else
                q->head = r->dev.next;
            if (q->tail == r)
                q->tail = prev;
            return true;
        }
    return false;
}

static Queue *out_queue(int dest)
{
    if (!outq)
        outq = calloc((size_t) shm.nranks, sizeof *outq);
    return outq ? &outq[dest] : NULL;
}

/* ---- completion ---- */

static void complete(MPIR_Request *req)
{
    MPID_Segment_free(&req->dev.seg);
    bool release = req->freed_by_user;
    atomic_store_explicit(&req->complete, 1, memory_order_release);
    if (release)
        MPIR_Request_release(req);
}

/* ---- cells ---- */

static Cell *cell_reserve(int dest)
{
    Ring *r = shm_ring(shm.rank, dest);
    uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
    uint64_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);
    return head - tail < shm.region->ncells ? shm_cell(r, head) : NULL;
}

static void cell_publish(int dest)
{
    Ring *r = shm_ring(shm.rank, dest);
    atomic_store_explicit(&r->head, atomic_load_explicit(&r->head, memory_order_relaxed) + 1, memory_order_release);
    shm_ring_doorbell(dest);
}

/* Posts the first cell of req (EAGER, RTS, or a receive's CTS); false if the ring is full. */
static bool post_first_cell(MPIR_Request *req)
{
    int dest = req->dev.peer_lpid;
    Cell *c = cell_reserve(dest);
    if (!c)
        return false;
    memset(&c->h, 0, sizeof c->h);
    c->h.src_lpid = shm.rank;
    if (req->dev.protocol == RECV_CTS) {
        c->h.kind = CELL_CTS;
        c->h.sender_req = req->dev.remote_id;
        c->h.receiver_req = (uint64_t) (uintptr_t) req;
        req->dev.protocol = RECV_DATA;
        cell_publish(dest);
        return true;
    }
    c->h.context_id = req->dev.context_id;
    c->h.tag = req->dev.tag;
    c->h.bytes = req->dev.bytes;
    c->h.sender_req = (uint64_t) (uintptr_t) req;
    c->h.sig = req->dev.sig_hash;
    c->h.n_elements = req->type->n_elements * req->dev.seg.count;
    c->h.sender_basic = req->type->basic_type;
    if (req->dev.protocol == SEND_EAGER) {
        MPI_Count last = req->dev.bytes;
        c->h.kind = CELL_EAGER;
        c->h.len = req->dev.bytes;
        MPID_Segment_pack(&req->dev.seg, 0, &last, c->payload);
        cell_publish(dest);
        complete(req);
    } else {
        c->h.kind = CELL_RTS;
        req->dev.protocol = SEND_WAIT_CTS;
        cell_publish(dest);
    }
    return true;
}

/* Posts what the destination queues can: returns whether anything went out. */
static bool drain_out_queues(void)
{
    bool did = false;
    for (int d = 0; outq && d < shm.nranks; d++)
        while (outq[d].head && post_first_cell(outq[d].head)) {
            dequeue(&outq[d]);
            did = true;
        }
    return did;
}

/* Packs rendezvous data straight into the receiver's cells while its ring has room. */
static bool stream_data(void)
{
    bool did = false;
    MPIR_Request *prev = NULL, *req = streaming.head;
    while (req) {
        MPIR_Request *next = req->dev.next;
        Cell *c;
        while (req->dev.done < req->dev.bytes && (c = cell_reserve(req->dev.peer_lpid))) {
            MPI_Count first = req->dev.done, last = first + (MPI_Count) shm.region->cell_payload;
            if (last > req->dev.bytes)
                last = req->dev.bytes;
            MPID_Segment_pack(&req->dev.seg, first, &last, c->payload);
            memset(&c->h, 0, sizeof c->h);
            c->h.kind = CELL_DATA;
            c->h.src_lpid = shm.rank;
            c->h.receiver_req = req->dev.remote_id;
            c->h.offset = first;
            c->h.len = last - first;
            cell_publish(req->dev.peer_lpid);
            req->dev.done = last;
            did = true;
        }
        if (req->dev.done >= req->dev.bytes) {
            if (prev)
                prev->dev.next = next;
            else
                streaming.head = next;
            if (streaming.tail == req)
                streaming.tail = prev;
            complete(req);
        } else
            prev = req;
        req = next;
    }
    return did;
}

/* ---- receiving ---- */

static bool tag_matches(int want, int got) { return want == MPI_ANY_TAG || want == got; }

static bool envelope_matches(const MPIR_Request *rreq, const Cell_header *h)
{
    if (rreq->dev.context_id != h->context_id || !tag_matches(rreq->dev.tag, h->tag))
        return false;
    return rreq->dev.peer_lpid == MPI_ANY_SOURCE || rreq->dev.peer_lpid == h->src_lpid;
}

/* Signature hash of the first n elements of the receiver's (count, type). */
typedef struct {
    MPI_Count want, seen;
    uint64_t sig;
} Sig_state;

static int sig_run(void *state, char *addr, MPI_Datatype el_type, MPI_Count n)
{
    Sig_state *s = state;
    if (n > s->want - s->seen)
        n = s->want - s->seen;
    s->sig = MPID_Sig_concat(s->sig, MPID_Sig_repeat(MPID_Datatype_get(el_type)->sig_hash, 1, n), n);
    s->seen += n;
    return s->seen >= s->want ? MPID_RUN_STOP : 0;   /* enough: stop the walk */
}

static uint64_t receiver_prefix_sig(MPID_Datatype *dt, MPI_Count n)
{
    if (dt->n_elements == 0)
        return 0;
    MPI_Count full = n / dt->n_elements, rem = n % dt->n_elements;
    uint64_t sig = MPID_Datatype_signature(dt, full);
    if (rem) {
        MPID_Segment seg;
        Sig_state s = { rem, 0, 0 };
        MPI_Count last = dt->size;
        if (MPID_Segment_init(&seg, NULL, 1, MPID_Datatype_handle(dt)) == MPI_SUCCESS) {
            MPID_Segment_for_each_run(&seg, 0, &last, sig_run, &s);
            MPID_Segment_free(&seg);
        }
        sig = MPID_Sig_concat(sig, s.sig, rem);
    }
    return sig;
}

static void describe(char *out, size_t len, MPI_Count n, MPI_Datatype basic)
{
    const char *name = MPID_Builtin_name(basic);
    if (name)
        snprintf(out, len, "%lld x %s", (long long) n, name);
    else
        snprintf(out, len, "%lld elements of mixed types", (long long) n);
}

static bool type_check_enabled(void)
{
    static _Atomic int enabled = -1;
    if (enabled < 0) {
        const char *e = getenv("LOOM_TYPE_CHECK");
        enabled = !(e && e[0] == '0');
    }
    return enabled;
}

/* The standard's matching rule (MPI 4.1 3.3): the sender's signature must be a prefix of the
 * receiver's; MPI_PACKED on either side matches anything. */
static int check_signature(MPIR_Request *rreq, const Cell_header *h)
{
    MPID_Datatype *rt = rreq->type;
    MPI_Count r_elements = rt->n_elements * rreq->dev.seg.count;
    if (!type_check_enabled() || h->sender_basic == MPI_PACKED || rt->basic_type == MPI_PACKED
        || h->n_elements > r_elements)   /* longer than the buffer: a truncation, reported as such */
        return MPI_SUCCESS;
    uint64_t expect = receiver_prefix_sig(rt, h->n_elements);
    if (expect == h->sig)
        return MPI_SUCCESS;
    char s[96], r[96];
    describe(s, sizeof s, h->n_elements, h->sender_basic);
    describe(r, sizeof r, h->n_elements, rt->basic_type);
    return MPIR_Err_code(MPI_ERR_TYPE, "type signatures do not match: rank %d sent %s (signature 0x%016llx), "
                         "the receive expects %s (signature 0x%016llx); set LOOM_TYPE_CHECK=0 to disable this check",
                         rreq->status.MPI_SOURCE, s, (unsigned long long) h->sig, r, (unsigned long long) expect);
}

/* Feeds received stream bytes into the receive buffer, in order. Bytes past the buffer's end are
 * dropped (truncation); an element split between two chunks waits in the carry. */
static void receive_bytes(MPIR_Request *r, const char *p, MPI_Count n)
{
    MPID_Segment *seg = &r->dev.seg;
    MPI_Count limit = r->dev.bytes < seg->size ? r->dev.bytes : seg->size;
    r->dev.received += n;
    while (n > 0 && r->dev.done < limit) {
        if (r->dev.carry_len > 0) {
            MPI_Count take = (MPI_Count) sizeof r->dev.carry - r->dev.carry_len;
            if (take > n)
                take = n;
            memcpy(r->dev.carry + r->dev.carry_len, p, (size_t) take);
            r->dev.carry_len += (int) take;
            p += take;
            n -= take;
            MPI_Count last = r->dev.done + r->dev.carry_len < limit ? r->dev.done + r->dev.carry_len : limit;
            MPID_Segment_unpack(seg, r->dev.done, &last, r->dev.carry);
            int used = (int) (last - r->dev.done);
            memmove(r->dev.carry, r->dev.carry + used, (size_t) (r->dev.carry_len - used));
            r->dev.carry_len -= used;
            r->dev.done = last;
            if (used == 0 && r->dev.carry_len == (int) sizeof r->dev.carry)
                break;   /* cannot happen with a matching signature: nothing fits */
            continue;
        }
        MPI_Count last = r->dev.done + n < limit ? r->dev.done + n : limit;
        MPID_Segment_unpack(seg, r->dev.done, &last, p);
        MPI_Count used = last - r->dev.done;
        p += used;
        n -= used;
        r->dev.done = last;
        if (n > 0 && r->dev.done < limit && n < (MPI_Count) sizeof r->dev.carry) {
            memcpy(r->dev.carry, p, (size_t) n);   /* the start of an element the next chunk ends */
            r->dev.carry_len = (int) n;
            n = 0;
        }
    }
    if (r->dev.received >= r->dev.bytes) {
        MPIR_Status_set_bytes(&r->status, r->dev.done);
        complete(r);
    }
}

/* A receive met its message: status, checks, then data (eager) or the CTS (rendezvous). */
static void deliver(MPIR_Request *rreq, const Cell_header *h, const char *data)
{
    rreq->status.MPI_SOURCE = rreq->comm->rank_of_lpid[h->src_lpid];
    rreq->status.MPI_TAG = h->tag;
    rreq->dev.bytes = h->bytes;
    rreq->dev.done = rreq->dev.received = 0;
    rreq->dev.carry_len = 0;
    int err = check_signature(rreq, h);
    if (!err && h->bytes > rreq->dev.seg.size)
        err = MPIR_Err_code(MPI_ERR_TRUNCATE, "message truncated: rank %d sent %lld bytes (tag %d), the receive "
                            "buffer holds %lld", rreq->status.MPI_SOURCE, (long long) h->bytes, h->tag,
                            (long long) rreq->dev.seg.size);
    rreq->status.MPI_ERROR = err;
    if (h->kind == CELL_EAGER) {
        if (h->bytes == 0) {
            MPIR_Status_set_bytes(&rreq->status, 0);
            complete(rreq);
        } else
            receive_bytes(rreq, data, h->len);
        return;
    }
    rreq->dev.peer_lpid = h->src_lpid;
    rreq->dev.remote_id = h->sender_req;
    rreq->dev.protocol = RECV_CTS;
    Queue *q = out_queue(h->src_lpid);
    if (!q) {
        rreq->status.MPI_ERROR = MPIR_Err_code(MPI_ERR_NO_MEM, "out of memory queueing a clear-to-send");
        complete(rreq);
        return;
    }
    enqueue(q, rreq);
    if (q->head == rreq && post_first_cell(rreq))
        dequeue(q);
}

static void handle_cell(Cell *c)
{
    const Cell_header *h = &c->h;
    switch (h->kind) {
    case CELL_EAGER:
    case CELL_RTS:
        for (MPIR_Request *r = posted.head; r; r = r->dev.next)
            if (envelope_matches(r, h)) {
                unlink_req(&posted, r);
                deliver(r, h, c->payload);
                return;
            }
        Unexpected *u = malloc(sizeof *u);
        char *copy = h->kind == CELL_EAGER && h->len ? malloc((size_t) h->len) : NULL;
        if (!u || (h->kind == CELL_EAGER && h->len && !copy)) {
            /* no memory to hold the message: nothing sensible remains but to stop the job */
            MPID_Abort(1, "out of memory buffering an unexpected message");
        }
        u->h = *h;
        u->data = copy;
        if (copy)
            memcpy(copy, c->payload, (size_t) h->len);
        u->next = NULL;
        if (unexp_tail)
            unexp_tail->next = u;
        else
            unexp_head = u;
        unexp_tail = u;
        return;
    case CELL_CTS: {
        MPIR_Request *sreq = (MPIR_Request *) (uintptr_t) h->sender_req;
        sreq->dev.remote_id = h->receiver_req;
        sreq->dev.protocol = SEND_STREAM;
        sreq->dev.done = 0;
        enqueue(&streaming, sreq);
        return;
    }
    case CELL_DATA:
        receive_bytes((MPIR_Request *) (uintptr_t) h->receiver_req, c->payload, h->len);
        return;
    }
}

/* Reads every ring addressed to this rank. */
static bool drain_rings(void)
{
    bool did = false;
    for (int i = 0; i < shm.nranks; i++) {
        int s = (next_sender + i) % shm.nranks;
        Ring *r = shm_ring(s, shm.rank);
        uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
        uint64_t head = atomic_load_explicit(&r->head, memory_order_acquire);
        if (tail == head)
            continue;
        bool was_full = head - tail >= shm.region->ncells;
        for (; tail != head; tail++) {
            handle_cell(shm_cell(r, tail));
            atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
        }
        if (was_full)
            shm_ring_doorbell(s);   /* the sender may be waiting for room */
        did = true;
    }
    next_sender = (next_sender + 1) % shm.nranks;
    return did;
}

bool shm_progress(void)
{
    bool did = drain_rings();
    did |= stream_data();
    did |= drain_out_queues();
    return did;
}

/* ---- starting operations ---- */

void shm_start_send(MPIR_Request *req)
{
    bool eager = req->dev.bytes <= (MPI_Count) shm.region->cell_payload && req->dev.mode != MPID_SEND_SYNC;
    req->dev.protocol = eager ? SEND_EAGER : SEND_RTS;
    Queue *q = out_queue(req->dev.peer_lpid);
    if (!q) {
        req->status.MPI_ERROR = MPIR_Err_code(MPI_ERR_NO_MEM, "out of memory queueing a send");
        complete(req);
        return;
    }
    enqueue(q, req);
    if (q->head == req && post_first_cell(req))
        dequeue(q);
    shm_progress();
}

void shm_start_recv(MPIR_Request *req)
{
    Cell_header probe = { 0 };
    Unexpected *prev = NULL;
    shm_progress();
    for (Unexpected *u = unexp_head; u; prev = u, u = u->next) {
        probe = u->h;
        if (!envelope_matches(req, &probe))
            continue;
        if (prev)
            prev->next = u->next;
        else
            unexp_head = u->next;
        if (unexp_tail == u)
            unexp_tail = prev;
        deliver(req, &u->h, u->data);
        free(u->data);
        free(u);
        return;
    }
    req->dev.protocol = RECV_POSTED;
    enqueue(&posted, req);
}

int shm_iprobe(int source_lpid, int tag, MPIR_Comm *comm, int context_id, int *flag, MPI_Status *status)
{
    shm_progress();
    for (Unexpected *u = unexp_head; u; u = u->next) {
        if (u->h.context_id != context_id || !tag_matches(tag, u->h.tag)
            || (source_lpid != MPI_ANY_SOURCE && source_lpid != u->h.src_lpid))
            continue;
        *flag = 1;
        if (status != MPI_STATUS_IGNORE) {
            status->MPI_SOURCE = comm->rank_of_lpid[u->h.src_lpid];
            status->MPI_TAG = u->h.tag;
            status->MPI_ERROR = MPI_SUCCESS;
            MPIR_Status_set_bytes(status, u->h.bytes);
            MPIR_Status_set_cancelled(status, 0);
        }
        return MPI_SUCCESS;
    }
    *flag = 0;
    return MPI_SUCCESS;
}

bool shm_cancel_recv(MPIR_Request *req)
{
    if (!unlink_req(&posted, req))
        return false;
    MPIR_Status_set_cancelled(&req->status, 1);
    MPIR_Status_set_bytes(&req->status, 0);
    complete(req);
    return true;
}

void shm_progress_finalize(void)
{
    while (unexp_head) {
        Unexpected *u = unexp_head;
        unexp_head = u->next;
        free(u->data);
        free(u);
    }
    unexp_tail = NULL;
    free(outq);
    outq = NULL;
}
