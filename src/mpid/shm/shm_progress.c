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
 * An arrived message that matches no receive and finds no memory for its copy stays in its ring
 * (the first cell not read), where receives and probes still find it (handle_cell, find_held_back).
 * The cells behind it are still read when that needs no memory (read_past_held): clear-to-sends,
 * data, and messages that match a posted receive (an earlier message left in the ring matched
 * none of them, so none is overtaken); they are marked taken, and the rest wait with it. So a
 * process without memory still receives what it has posted receives for, in whatever order its
 * peers' messages come.
 */
#include "shm_impl.h"
#include "copy_kernels.h"   /* MPID_Copy_long, streaming stores */

pthread_mutex_t shm_lock_mutex = PTHREAD_MUTEX_INITIALIZER;

enum { SEND_EAGER = 1, SEND_RTS, SEND_WAIT_CTS, SEND_STREAM, RECV_POSTED, RECV_CTS, RECV_DATA };

/* An unexpected message; also what MPI_Mprobe hands out (an MPID_Message, see mpid_device.h). */
typedef struct MPID_Message {
    Cell_header h;
    char *data;                     /* EAGER: a copy of the payload */
    struct MPID_Message *next;
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

/* The queues exist from MPID_Init on, so that no send and no clear-to-send can fail for want of
 * memory: a receive refused once its sender has started would leave the sender waiting. */
int shm_progress_init(void)
{
    outq = calloc((size_t) shm.nranks, sizeof *outq);
    return outq ? MPI_SUCCESS : MPIR_Err(MPI_ERR_NO_MEM, "out of memory for the send queues");
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

/* ---- protocol sizes ---- */

/* Messages up to this size travel eagerly in one cell. Above it the rendezvous protocol streams
 * the data in several cells, so the receiver unpacks one while the sender packs the next: for a
 * message of tens of KiB of small blocks that overlap saves more than the RTS/CTS exchange costs. */
#define EAGER_MAX ((MPI_Count) 16384)
static MPI_Count eager_max(void)
{
    return EAGER_MAX < (MPI_Count) shm.region->cell_payload ? EAGER_MAX : (MPI_Count) shm.region->cell_payload;
}

/* The payload of each DATA cell of a message: a quarter of it (at least 4 KiB), so that even a
 * mid-size message is a pipeline of a few stages, up to a whole cell. */
static MPI_Count chunk_size(MPI_Count bytes)
{
    MPI_Count chunk = bytes / 4 < 4096 ? 4096 : bytes / 4;
    return chunk < (MPI_Count) shm.region->cell_payload ? chunk : (MPI_Count) shm.region->cell_payload;
}

/* ---- moving the user's data ---- */

/* Packed bytes [first, *last) of the request's buffer to dest: one copy when the data is one run. */
static void pack(MPIR_Request *req, MPI_Count first, MPI_Count *last, void *dest)
{
    if (!req->dev.contig)
        MPID_Segment_pack(&req->dev.seg, first, last, dest);
    else if (*last > first)
        MPID_Copy_long(dest, req->dev.contig_buf + first, (size_t) (*last - first));
}

/* A receive buffer beyond the last-level cache is written with streaming stores (copy_kernels.h;
 * the segment decides the same for itself). */
static void unpack(MPIR_Request *req, MPI_Count first, MPI_Count *last, const void *src)
{
    if (!req->dev.contig) {
        MPID_Segment_unpack(&req->dev.seg, first, last, src);
        return;
    }
    if (*last > first)
        copy_run(req->dev.contig_buf + first, src, (size_t) (*last - first), (size_t) req->dev.seg.size);
}

/* ---- cells ---- */

/* The next free cell of the ring to dest, or NULL if it is full. The receiver's tail is read only
 * when the cells known free run out, so a steady stream costs no read of the receiver's line. */
static Cell *cell_reserve(int dest)
{
    Ring *r = shm_ring(shm.rank, dest);
    uint64_t ncells = shm.region->ncells;
    if (r->head - r->tail_seen >= ncells) {
        r->tail_seen = atomic_load_explicit(&r->tail, memory_order_acquire);
        if (r->head - r->tail_seen >= ncells) {
            /* ask for a doorbell when space frees up; look again after asking (the receiver
             * stores its tail, then reads want_space: one of us sees the other) */
            atomic_store_explicit(&r->want_space, 1, memory_order_relaxed);
            shm_fence_slow();
            r->tail_seen = atomic_load_explicit(&r->tail, memory_order_acquire);
            if (r->head - r->tail_seen >= ncells)
                return NULL;
        }
    }
    return shm_cell(r, r->head);
}

/* Hands the cell cell_reserve gave to the receiver. */
static void cell_publish(int dest)
{
    Ring *r = shm_ring(shm.rank, dest);
    atomic_store_explicit(&shm_cell(r, r->head)->seq, r->head + 1, memory_order_release);
    r->head++;
    shm_notify(dest);
}

/* Posts the first cell of req (EAGER, RTS, or a receive's CTS), the head of its out queue, and
 * takes it off the queue (before completing it: a completed request may be freed at once); false
 * if the ring is full. */
static bool post_first_cell(MPIR_Request *req)
{
    int dest = req->dev.peer_lpid;
    Cell *c = cell_reserve(dest);
    if (!c)
        return false;
    dequeue(&outq[dest]);
    if (req->dev.protocol == RECV_CTS) {
        c->h = (Cell_header) { .kind = CELL_CTS, .src_lpid = shm.rank, .sender_req = req->dev.remote_id,
                               .receiver_req = (uint64_t) (uintptr_t) req };
        req->dev.protocol = RECV_DATA;
        cell_publish(dest);
        if (req->dev.bytes == 0) {      /* a 0-byte rendezvous (MPI_Ssend): no DATA cell follows */
            MPIR_Status_set_bytes(&req->status, 0);
            complete(req);
        }
        return true;
    }
    bool eager = req->dev.protocol == SEND_EAGER;
    c->h = (Cell_header) { .kind = eager ? CELL_EAGER : CELL_RTS, .src_lpid = shm.rank,
                           .context_id = req->dev.context_id, .tag = req->dev.tag, .bytes = req->dev.bytes,
                           .sig = req->dev.sig_hash, .n_elements = req->type->n_elements * req->dev.seg.count,
                           .sender_basic = req->type->basic_type, .len = eager ? req->dev.bytes : 0,
                           .sender_req = (uint64_t) (uintptr_t) req };
    if (eager) {
        MPI_Count last = req->dev.bytes;
        pack(req, 0, &last, c->payload);
        cell_publish(dest);
        complete(req);
    } else {
        req->dev.protocol = SEND_WAIT_CTS;
        cell_publish(dest);
    }
    return true;
}

/* Posts what the destination queues can: returns whether anything went out. */
static bool drain_out_queues(void)
{
    bool did = false;
    for (int d = 0; d < shm.nranks; d++)
        while (outq[d].head && post_first_cell(outq[d].head))
            did = true;
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
            MPI_Count first = req->dev.done, last = first + chunk_size(req->dev.bytes);
            if (last > req->dev.bytes)
                last = req->dev.bytes;
            pack(req, first, &last, c->payload);
            c->h = (Cell_header) { .kind = CELL_DATA, .src_lpid = shm.rank, .receiver_req = req->dev.remote_id,
                                   .offset = first, .len = last - first };
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

/* Whether the message of header h is one for (source_lpid, tag, context_id), wildcards allowed. */
static bool header_matches(const Cell_header *h, int source_lpid, int tag, int context_id)
{
    return h->context_id == context_id && tag_matches(tag, h->tag)
        && (source_lpid == MPI_ANY_SOURCE || source_lpid == h->src_lpid);
}

static bool envelope_matches(const MPIR_Request *rreq, const Cell_header *h)
{
    return header_matches(h, rreq->dev.peer_lpid, rreq->dev.tag, rreq->dev.context_id);
}

/* Signature hash of the first n elements of the receiver's (count, type). */
typedef struct {
    MPI_Count want, seen;
    uint64_t sig;
} Sig_state;

static int sig_run(void *state, char *addr, MPI_Datatype el_type, MPI_Count n)
{
    Sig_state *s = state;
    (void) addr;
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
    MPI_Count size = r->dev.seg.size;
    MPI_Count limit = r->dev.bytes < size ? r->dev.bytes : size;
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
            unpack(r, r->dev.done, &last, r->dev.carry);
            int used = (int) (last - r->dev.done);
            memmove(r->dev.carry, r->dev.carry + used, (size_t) (r->dev.carry_len - used));
            r->dev.carry_len -= used;
            r->dev.done = last;
            if (used == 0 && r->dev.carry_len == (int) sizeof r->dev.carry)
                break;   /* cannot happen with a matching signature: nothing fits */
            continue;
        }
        MPI_Count last = r->dev.done + n < limit ? r->dev.done + n : limit;
        unpack(r, r->dev.done, &last, p);
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
    Queue *q = &outq[h->src_lpid];
    enqueue(q, rreq);
    if (q->head == rreq)
        post_first_cell(rreq);
}

/* A copy of the message of cell c, to keep until a receive matches it; NULL without memory. */
static Unexpected *hold(const Cell *c)
{
    const Cell_header *h = &c->h;
    Unexpected *u = malloc(sizeof *u);
    char *copy = h->kind == CELL_EAGER && h->len ? malloc((size_t) h->len) : NULL;
    if (!u || (h->kind == CELL_EAGER && h->len && !copy)) {
        free(u);
        free(copy);
        return NULL;
    }
    u->h = *h;
    u->data = copy;
    if (copy)
        MPID_Copy_long(copy, c->payload, (size_t) h->len);
    u->next = NULL;
    return u;
}

/* Delivers the message of cell c to the first posted receive it matches; false if none. */
static bool match_posted(Cell *c)
{
    for (MPIR_Request *r = posted.head; r; r = r->dev.next)
        if (envelope_matches(r, &c->h)) {
            unlink_req(&posted, r);
            deliver(r, &c->h, c->payload);
            return true;
        }
    return false;
}

/* Handles one incoming cell; false when it has to stay in its ring for now: an unexpected
 * message with no memory to hold it waits there, its sender held back as by a full ring, until a
 * receive or a probe matches it or memory returns (each poll tries again). */
static bool handle_cell(Cell *c)
{
    const Cell_header *h = &c->h;
    switch (h->kind) {
    case CELL_EAGER:
    case CELL_RTS:
        if (match_posted(c))
            return true;
        Unexpected *u = hold(c);
        if (!u)
            return false;
        if (unexp_tail)
            unexp_tail->next = u;
        else
            unexp_head = u;
        unexp_tail = u;
        return true;
    case CELL_CTS: {
        MPIR_Request *sreq = (MPIR_Request *) (uintptr_t) h->sender_req;
        sreq->dev.remote_id = h->receiver_req;
        sreq->dev.protocol = SEND_STREAM;
        sreq->dev.done = 0;
        enqueue(&streaming, sreq);
        return true;
    }
    case CELL_DATA:
        receive_bytes((MPIR_Request *) (uintptr_t) h->receiver_req, c->payload, h->len);
        return true;
    case CELL_TAKEN:
        return true;
    }
    return true;
}

/* The cells of ring r behind the held-back one at tail: those that need no memory are read and
 * marked taken (see the top of this file). Returns whether any was. */
static bool read_past_held(Ring *r, uint64_t tail)
{
    bool did = false;
    for (uint64_t i = tail + 1;; i++) {
        Cell *c = shm_cell(r, i);
        if (atomic_load_explicit(&c->seq, memory_order_acquire) != i + 1)
            return did;
        int kind = c->h.kind;
        if (kind == CELL_TAKEN || ((kind == CELL_EAGER || kind == CELL_RTS) && !match_posted(c)))
            continue;
        if (kind == CELL_CTS || kind == CELL_DATA)
            handle_cell(c);
        c->h.kind = CELL_TAKEN;
        did = true;
    }
}


/* After this rank freed cells of the ring r from sender s: the sender may wait for room (see
 * cell_reserve). */
static void room_made(int s, Ring *r)
{
    shm_fence_fast();
    if (atomic_load_explicit(&r->want_space, memory_order_relaxed) && atomic_exchange(&r->want_space, 0))
        shm_ring_doorbell(s);   /* after the exchange: a request set later is seen next time */
}

/* Takes the held-back cell c of the ring from sender s out of order: the tail moves over it when
 * it gets there. */
static void take_held(int s, Cell *c)
{
    Ring *r = shm_ring(s, shm.rank);
    uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    c->h.kind = CELL_TAKEN;
    if (c != shm_cell(r, tail))
        return;
    while (atomic_load_explicit(&shm_cell(r, tail)->seq, memory_order_acquire) == tail + 1
           && shm_cell(r, tail)->h.kind == CELL_TAKEN)
        tail++;
    atomic_store_explicit(&r->tail, tail, memory_order_release);
    room_made(s, r);
}

/* Reads every ring addressed to this rank. */
static bool drain_rings(void)
{
    bool did = false;
    for (int i = 0; i < shm.nranks; i++) {
        int s = (next_sender + i) % shm.nranks;
        Ring *r = shm_ring(s, shm.rank);
        uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed), start = tail;
        for (Cell *c; atomic_load_explicit(&(c = shm_cell(r, tail))->seq, memory_order_acquire) == tail + 1;) {
            if (!handle_cell(c)) {
                did |= read_past_held(r, tail);
                break;
            }
            atomic_store_explicit(&r->tail, ++tail, memory_order_release);
        }
        if (tail == start)
            continue;
        room_made(s, r);
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
    bool eager = req->dev.bytes <= eager_max() && req->dev.mode != MPID_SEND_SYNC;
    req->dev.protocol = eager ? SEND_EAGER : SEND_RTS;
    Queue *q = &outq[req->dev.peer_lpid];
    enqueue(q, req);
    if (q->head == req && post_first_cell(req))
        return;
    shm_progress();   /* full ring: perhaps the receiver has made room */
}

bool shm_send_now(const void *buf, MPI_Count count, MPID_Datatype *dt, MPI_Count bytes, int dest, int context_id,
                  int tag)
{
    if (bytes > eager_max() || outq[dest].head)
        return false;   /* rendezvous, or behind queued messages: keep the order */
    MPID_Segment seg;
    MPI_Aint offset = dt->true_lb;
    bool contig = dt->is_contig || MPID_Datatype_one_run(dt, count, &offset);
    if (!contig && MPID_Segment_init_borrowed(&seg, buf, count, MPID_Datatype_handle(dt)) != MPI_SUCCESS)
        return false;   /* the request path reports it */
    Cell *c = cell_reserve(dest);
    if (c) {
        c->h = (Cell_header) { .kind = CELL_EAGER, .src_lpid = shm.rank, .context_id = context_id, .tag = tag,
                               .bytes = bytes, .sig = MPID_Datatype_signature(dt, count),
                               .n_elements = dt->n_elements * count, .sender_basic = dt->basic_type, .len = bytes };
        MPI_Count last = bytes;
        if (!contig)
            MPID_Segment_pack(&seg, 0, &last, c->payload);
        else if (bytes > 0)
            MPID_Copy_long(c->payload, (const char *) ((uintptr_t) buf + (uintptr_t) offset), (size_t) bytes);
        cell_publish(dest);
    }
    if (!contig)
        MPID_Segment_free(&seg);
    return c != NULL;
}

/* The first unexpected message that matches (source_lpid, tag, context_id), and the one before it
 * (NULL if it is the first), after one progress pass; NULL if none. */
static Unexpected *find_unexpected(int source_lpid, int tag, int context_id, Unexpected **prevp)
{
    shm_progress();
    Unexpected *prev = NULL;
    for (Unexpected *u = unexp_head; u; prev = u, u = u->next)
        if (header_matches(&u->h, source_lpid, tag, context_id)) {
            *prevp = prev;
            return u;
        }
    return NULL;
}

/* The first message left in its ring for want of memory (handle_cell, read_past_held) that
 * matches (source_lpid, tag, context_id), its sender in *senderp; NULL if none. Such messages come
 * after the unexpected messages from their sender, so look here only when none of those matched. */
static Cell *find_held_back(int source_lpid, int tag, int context_id, int *senderp)
{
    for (int s = 0; s < shm.nranks; s++) {
        if ((source_lpid != MPI_ANY_SOURCE && s != source_lpid) || !shm_cell_ready(s))
            continue;
        Ring *r = shm_ring(s, shm.rank);
        for (uint64_t i = atomic_load_explicit(&r->tail, memory_order_relaxed);; i++) {
            Cell *c = shm_cell(r, i);
            if (atomic_load_explicit(&c->seq, memory_order_acquire) != i + 1)
                break;
            if ((c->h.kind == CELL_EAGER || c->h.kind == CELL_RTS)
                && header_matches(&c->h, source_lpid, tag, context_id)) {
                *senderp = s;
                return c;
            }
        }
    }
    return NULL;
}

static void unlink_unexpected(Unexpected *u, Unexpected *prev)
{
    if (prev)
        prev->next = u->next;
    else
        unexp_head = u->next;
    if (unexp_tail == u)
        unexp_tail = prev;
}

/* The receive takes the message: its data (eager), or the sender's stream after a CTS. */
static void receive_unexpected(MPIR_Request *req, Unexpected *u)
{
    deliver(req, &u->h, u->data);
    free(u->data);
    free(u);
}

void shm_start_recv(MPIR_Request *req)
{
    Unexpected *prev, *u = find_unexpected(req->dev.peer_lpid, req->dev.tag, req->dev.context_id, &prev);
    if (u) {
        unlink_unexpected(u, prev);
        receive_unexpected(req, u);
        return;
    }
    req->dev.protocol = RECV_POSTED;
    enqueue(&posted, req);
}

static void probe_status(const Cell_header *h, MPIR_Comm *comm, MPI_Status *status)
{
    if (status == MPI_STATUS_IGNORE)
        return;
    status->MPI_SOURCE = comm->rank_of_lpid[h->src_lpid];
    status->MPI_TAG = h->tag;
    status->MPI_ERROR = MPI_SUCCESS;
    MPIR_Status_set_bytes(status, h->bytes);
    MPIR_Status_set_cancelled(status, 0);
}

int shm_iprobe(int source_lpid, int tag, MPIR_Comm *comm, int context_id, int *flag, MPI_Status *status)
{
    Unexpected *prev, *u = find_unexpected(source_lpid, tag, context_id, &prev);
    const Cell_header *h = u ? &u->h : NULL;
    if (!h) {
        int sender;
        Cell *c = find_held_back(source_lpid, tag, context_id, &sender);
        h = c ? &c->h : NULL;
    }
    *flag = h != NULL;
    if (h)
        probe_status(h, comm, status);
    return MPI_SUCCESS;
}

int shm_improbe(int source_lpid, int tag, MPIR_Comm *comm, int context_id, int *flag, MPID_Message **msg,
                MPI_Status *status)
{
    Unexpected *prev, *u = find_unexpected(source_lpid, tag, context_id, &prev);
    if (u)
        unlink_unexpected(u, prev);     /* no other receive can match it now */
    else {
        int sender;
        Cell *c = find_held_back(source_lpid, tag, context_id, &sender);
        if (c) {   /* the message must leave its ring to be taken */
            if (!(u = hold(c)))
                return MPIR_Err(MPI_ERR_NO_MEM, "out of memory taking the matched message out of its ring "
                                "(it stays there for a receive)");
            take_held(sender, c);
        }
    }
    *flag = u != NULL;
    if (u) {
        probe_status(&u->h, comm, status);
        *msg = u;
    }
    return MPI_SUCCESS;
}

void shm_mrecv(MPIR_Request *req, MPID_Message *msg)
{
    receive_unexpected(req, msg);
}

void shm_message_free(MPID_Message *msg)
{
    /* a rendezvous sender waits for a CTS that never comes: it is this program's error (a matched
     * message never received), and the sender's request stays pending */
    free(msg->data);
    free(msg);
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
