/*
 * Buffered mode: MPI_Bsend, MPI_Ibsend, and the buffers they use: the process's (MPI_Buffer_attach,
 * detach, flush, iflush) and a communicator's own (MPI 4.1: MPI_Comm_attach_buffer & co.), which
 * the buffered sends on that communicator use instead while it is attached.
 *
 * A buffered send packs the message (MPI_Pack semantics) into a free range of the buffer and sends
 * it from there as MPI_PACKED, so it is complete for the user at once. Each message occupies its
 * packed size plus MPI_BSEND_OVERHEAD bytes, which is the accounting the standard tells users to
 * size the buffer with; the bookkeeping itself lives outside the user's buffer, so its alignment
 * does not matter. Ranges are taken first-fit and given back when the device has sent them. With
 * MPI_BUFFER_AUTOMATIC (MPI 4.1) each message gets its own allocation.
 *
 * One mutex guards every buffer; it is held while packing and starting the send, so the device's
 * own lock nests inside it (the device never calls back into this file). The requests of finished
 * messages are released after it is dropped: the last one may end a communicator, and its buffer
 * with it (MPIR_Bsend_comm_free).
 *
 * A nonblocking flush completes when every message its buffer held at the call has been sent:
 * each message has a number in its buffer's sequence, and the progress hook MPID_HOOK_BSEND
 * checks the flushes in flight.
 */
#include "pt2pt.h"

typedef struct Bsend_entry {
    MPI_Count offset, len;      /* the range taken in the attached buffer, overhead included */
    char *heap;                 /* MPI_BUFFER_AUTOMATIC: the message's own allocation */
    MPIR_Request *req;          /* the device's send of the packed data */
    unsigned long long seq;     /* its number in the buffer's sequence */
    struct Bsend_entry *next;   /* in buffer order */
} Bsend_entry;

struct MPIR_Bsend_buffer {
    bool attached, automatic;
    char *buf;
    MPI_Count size;
    Bsend_entry *active;        /* messages the device is still sending */
    int nactive;
    unsigned long long next_seq;
    struct MPIR_Bsend_buffer *next;     /* the communicators' buffers, for MPI_Finalize */
};
typedef struct MPIR_Bsend_buffer Bsend_buffer;

/* A nonblocking flush in flight: done when no message of buffer numbered below upto is left. */
typedef struct Iflush {
    Bsend_buffer *buffer;
    unsigned long long upto;
    MPIR_Request *req;
    struct Iflush *next;
} Iflush;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Bsend_buffer process_buffer;
static Bsend_buffer *comm_buffers;  /* behind lock */
static Iflush *iflushes;            /* behind lock */
static _Atomic int niflushes;   /* their number: a look without the lock */

/* The buffer a buffered send on c uses. */
static Bsend_buffer *buffer_of(const MPIR_Comm *c)
{
    return c->bsend ? c->bsend : &process_buffer;
}

/* Unlinks the messages of b the device has finished with onto *done (their release waits for the
 * lock to be dropped: finish_entries). */
static void reclaim_locked(Bsend_buffer *b, Bsend_entry **done)
{
    for (Bsend_entry **link = &b->active; *link;) {
        Bsend_entry *e = *link;
        if (!MPIR_Request_is_complete(e->req)) {
            link = &e->next;
            continue;
        }
        *link = e->next;
        e->next = *done;
        *done = e;
        b->nactive--;
    }
}

static void finish_entries(Bsend_entry *done)
{
    while (done) {
        Bsend_entry *e = done;
        done = e->next;
        MPIR_Request_release(e->req);   /* a failed buffered send has nobody to tell */
        free(e->heap);
        free(e);
    }
}

/* Whether a message numbered below upto is still in b. */
static bool pending_before_locked(const Bsend_buffer *b, unsigned long long upto)
{
    for (const Bsend_entry *e = b->active; e; e = e->next)
        if (e->seq < upto)
            return true;
    return false;
}

/* Finds room in b for a message of bytes packed bytes; links a new entry there and sets *data.
 * Returns MPI_ERR_BUFFER without a reason when there is no room: the caller may retry (see
 * no_room). */
static int reserve_locked(Bsend_buffer *b, MPI_Count bytes, Bsend_entry **entry, char **data)
{
    Bsend_entry *e = calloc(1, sizeof *e);
    MPIR_CHKMEM(e);
    if (b->automatic) {
        e->heap = malloc(bytes > 0 ? (size_t) bytes : 1);
        if (e->heap == NULL) {
            free(e);
            return MPIR_Err(MPI_ERR_NO_MEM, "no memory for a buffered message of %lld bytes", (long long) bytes);
        }
        e->next = b->active;
        b->active = e;
        *data = e->heap;
    } else {
        MPI_Count need = bytes + MPI_BSEND_OVERHEAD, end = 0;
        Bsend_entry **link = &b->active;
        for (; *link && (*link)->offset - end < need; link = &(*link)->next)
            end = (*link)->offset + (*link)->len;
        if (!b->attached || (*link == NULL && b->size - end < need)) {
            free(e);
            return MPI_ERR_BUFFER;
        }
        e->offset = end;
        e->len = need;
        e->next = *link;
        *link = e;
        *data = b->buf + end;
    }
    e->seq = b->next_seq++;
    b->nactive++;
    *entry = e;
    return MPI_SUCCESS;
}

/* The reason a message of bytes packed bytes does not fit in b. */
static int no_room_locked(const Bsend_buffer *b, MPI_Count bytes)
{
    if (!b->attached)
        return MPIR_Err(MPI_ERR_BUFFER, "no buffer is attached for buffered sends (see MPI_Buffer_attach)");
    return MPIR_Err(MPI_ERR_BUFFER,
                    "the message needs %lld bytes of buffer (%lld packed + MPI_BSEND_OVERHEAD %d) but the attached "
                    "buffer of %lld bytes has no free range that large (%d buffered send%s pending)",
                    (long long) (bytes + MPI_BSEND_OVERHEAD), (long long) bytes, MPI_BSEND_OVERHEAD,
                    (long long) b->size, b->nactive, b->nactive == 1 ? "" : "s");
}

static void unlink_locked(Bsend_buffer *b, Bsend_entry *e)
{
    Bsend_entry **link = &b->active;
    while (*link != e)
        link = &(*link)->next;
    *link = e->next;
    free(e->heap);
    free(e);
    b->nactive--;
}

int MPIR_Bsend_start(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    int err = MPIR_Pt2pt_check_dest(c, dest);
    if (err == MPI_SUCCESS)
        err = MPIR_Pt2pt_check_tag(tag, false);
    if (err || dest == MPI_PROC_NULL)
        return err;
    MPI_Count bytes, total;
    if (MPIR_Mul_overflows(count, MPID_Datatype_get(type)->size, &bytes)
        || MPIR_Add_overflows(bytes, (MPI_Count) MPI_BSEND_OVERHEAD, &total))
        return MPIR_Err(MPI_ERR_COUNT, "count %lld of this type overflows the message size", (long long) count);

    Bsend_entry *e, *done = NULL;
    char *data;
    pthread_mutex_lock(&lock);
    Bsend_buffer *b = buffer_of(c);
    reclaim_locked(b, &done);
    err = reserve_locked(b, bytes, &e, &data);
    if (err == MPI_ERR_BUFFER && b->nactive > 0) {
        /* Sends still in flight may be done by now: one round of progress, then look again. */
        pthread_mutex_unlock(&lock);
        MPIR_Pt2pt_poll(false);
        pthread_mutex_lock(&lock);
        b = buffer_of(c);
        reclaim_locked(b, &done);
        err = reserve_locked(b, bytes, &e, &data);
    }
    if (err == MPI_ERR_BUFFER)
        err = no_room_locked(b, bytes);
    if (err == MPI_SUCCESS) {
        MPI_Count position = 0;
        if (bytes > 0)
            err = MPIR_Pack_impl(buf, count, MPID_Datatype_get(type), data, bytes, &position, comm);
        if (err == MPI_SUCCESS)
            err = MPID_Isend(data, bytes, MPI_PACKED, dest, tag, c, 0, MPID_SEND_STANDARD, &e->req);
        if (err)
            unlink_locked(b, e);
    }
    pthread_mutex_unlock(&lock);
    finish_entries(done);
    return err;
}

int MPIR_Bsend_impl(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return MPIR_Bsend_start(buf, count, datatype, dest, tag, comm);
}

/* The request of MPI_Ibsend is complete as soon as the data sits in the buffer. */
int MPIR_Ibsend_impl(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                     MPI_Request *request)
{
    MPIR_Request *req = MPIR_Request_create(MPIR_REQUEST_GENERALIZED);
    MPIR_CHKMEM(req);
    int err = MPIR_Bsend_start(buf, count, datatype, dest, tag, comm);
    if (err) {
        MPIR_Request_release(req);
        return err;
    }
    req->comm = MPIR_Comm_lookup(comm);
    MPIR_Comm_add_ref(req->comm);
    atomic_store_explicit(&req->complete, 1, memory_order_release);
    *request = MPIR_Object_handle(req);
    return MPI_SUCCESS;
}

/* ---- attaching, detaching, flushing ---- */

static int attach(Bsend_buffer *b, void *buffer, MPI_Count size)
{
    if (b->attached)
        return MPIR_Err(MPI_ERR_BUFFER, "a buffer is already attached (%s); detach it first",
                        b->automatic ? "MPI_BUFFER_AUTOMATIC" : "only one may be attached at a time");
    if (buffer == NULL && size > 0)
        return MPIR_Err(MPI_ERR_BUFFER, "buffer is NULL");
    b->attached = true;
    b->automatic = buffer == MPI_BUFFER_AUTOMATIC;
    b->buf = b->automatic ? NULL : buffer;
    b->size = b->automatic ? 0 : size;
    return MPI_SUCCESS;
}

int MPIR_Buffer_attach_impl(void *buffer, MPI_Count size)
{
    pthread_mutex_lock(&lock);
    int err = attach(&process_buffer, buffer, size);
    pthread_mutex_unlock(&lock);
    return err;
}

int MPIR_Comm_attach_buffer_impl(MPI_Comm comm, void *buffer, MPI_Count size)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    Bsend_buffer *fresh = calloc(1, sizeof *fresh);
    MPIR_CHKMEM(fresh);
    pthread_mutex_lock(&lock);
    int err = attach(c->bsend ? c->bsend : fresh, buffer, size);
    if (err == MPI_SUCCESS && !c->bsend) {
        c->bsend = fresh;
        fresh->next = comm_buffers;
        comm_buffers = fresh;
        fresh = NULL;
    }
    pthread_mutex_unlock(&lock);
    free(fresh);
    return err;
}

/* Unlinks onto *done the nonblocking flushes (of b, or of any buffer if b is NULL) that nothing
 * holds back any more, or all of them with everything (b is going away). */
static void take_iflushes_locked(const Bsend_buffer *b, bool everything, Iflush **done)
{
    for (Iflush **link = &iflushes; *link;) {
        Iflush *f = *link;
        if ((b && f->buffer != b) || (!everything && pending_before_locked(f->buffer, f->upto))) {
            link = &f->next;
            continue;
        }
        *link = f->next;
        f->next = *done;
        *done = f;
        atomic_fetch_sub(&niflushes, 1);
    }
}

/* Completes their requests (outside the lock) and frees them; returns whether there were any. */
static bool complete_iflushes(Iflush *done)
{
    bool any = done != NULL;
    while (done) {
        Iflush *f = done;
        done = f->next;
        MPID_Request_complete(f->req);
        free(f);
    }
    return any;
}

/* Drives progress until no message is in b; with detach, detaches b then (under the same lock, so
 * no send can slip in between), completing its flushes in flight, and gives its buffer back. */
static void drain(Bsend_buffer *b, bool detach, void **buffer, MPI_Count *size)
{
    /* (b may end in finish_entries, with the last reference of its communicator, only when it has
     * become empty, and then the loop is over) */
    for (int step = 0;; step++) {
        Bsend_entry *done = NULL;
        Iflush *flushed = NULL;
        pthread_mutex_lock(&lock);
        reclaim_locked(b, &done);
        bool empty = b->active == NULL;
        if (empty && detach) {
            *buffer = !b->attached ? NULL : b->automatic ? MPI_BUFFER_AUTOMATIC : b->buf;
            *size = b->size;
            b->attached = b->automatic = false;
            b->buf = NULL;
            b->size = 0;
            take_iflushes_locked(b, true, &flushed);
        }
        pthread_mutex_unlock(&lock);
        finish_entries(done);
        complete_iflushes(flushed);
        if (empty)
            return;
        MPIR_Pt2pt_poll(step > 0);
    }
}

/* Nothing attached is not an error: the buffer is NULL and its size 0 (as MPICH does). */
int MPIR_Buffer_detach_impl(void *buffer_addr, MPI_Count *size)
{
    drain(&process_buffer, true, (void **) buffer_addr, size);
    return MPI_SUCCESS;
}

int MPIR_Comm_detach_buffer_impl(MPI_Comm comm, void *buffer_addr, MPI_Count *size)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    if (c->bsend == NULL) {
        *(void **) buffer_addr = NULL;
        *size = 0;
        return MPI_SUCCESS;
    }
    drain(c->bsend, true, (void **) buffer_addr, size);
    MPIR_Bsend_comm_free(c);    /* its sends use the process's buffer again */
    return MPI_SUCCESS;
}

int MPIR_Buffer_flush_impl(void)
{
    drain(&process_buffer, false, NULL, NULL);
    return MPI_SUCCESS;
}

int MPIR_Comm_flush_buffer_impl(MPI_Comm comm)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    if (c->bsend)
        drain(c->bsend, false, NULL, NULL);
    return MPI_SUCCESS;
}

/* The progress hook: completes the flushes in flight whose messages have gone. */
static bool progress(void)
{
    if (atomic_load(&niflushes) == 0)
        return false;
    Bsend_entry *done = NULL;
    Iflush *flushed = NULL;
    pthread_mutex_lock(&lock);
    for (Iflush *f = iflushes; f; f = f->next)
        reclaim_locked(f->buffer, &done);
    take_iflushes_locked(NULL, false, &flushed);
    pthread_mutex_unlock(&lock);
    finish_entries(done);
    return complete_iflushes(flushed);
}

static int iflush(Bsend_buffer *b, MPI_Request *request)
{
    MPIR_Request *req = MPIR_Request_create(MPIR_REQUEST_GENERALIZED);
    Iflush *f = malloc(sizeof *f);
    if (req == NULL || f == NULL) {
        free(f);
        if (req)
            MPIR_Request_release(req);
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory or of request handles");
    }
    pthread_mutex_lock(&lock);
    if (b == NULL || !pending_before_locked(b, b->next_seq)) {
        atomic_store_explicit(&req->complete, 1, memory_order_release);     /* nothing to wait for */
        free(f);
    } else {
        *f = (Iflush) { b, b->next_seq, req, iflushes };
        iflushes = f;
        atomic_fetch_add(&niflushes, 1);
        atomic_store(&MPID_Progress_hooks[MPID_HOOK_BSEND], progress);
    }
    pthread_mutex_unlock(&lock);
    *request = MPIR_Object_handle(req);
    return MPI_SUCCESS;
}

int MPIR_Buffer_iflush_impl(MPI_Request *request)
{
    return iflush(&process_buffer, request);
}

int MPIR_Comm_iflush_buffer_impl(MPI_Comm comm, MPI_Request *request)
{
    return iflush(MPIR_Comm_lookup(comm)->bsend, request);
}

/* At detach, or at the communicator's end: then the last request of its messages is gone (each
 * held the communicator), and only flushes that nobody waited for may be left. */
void MPIR_Bsend_comm_free(MPIR_Comm *comm)
{
    Bsend_buffer *b = comm->bsend;
    if (b == NULL)
        return;
    Iflush *flushed = NULL;
    pthread_mutex_lock(&lock);
    take_iflushes_locked(b, true, &flushed);
    Bsend_buffer **link = &comm_buffers;
    while (*link != b)
        link = &(*link)->next;
    *link = b->next;
    comm->bsend = NULL;
    pthread_mutex_unlock(&lock);
    complete_iflushes(flushed);
    free(b);
}

/* MPI_Finalize delivers what the buffers hold: the process's and the communicators' (a freed
 * communicator's buffer ends with its last message). */
void MPIR_Bsend_finalize(void)
{
    void *buffer;
    MPI_Count size;
    drain(&process_buffer, true, &buffer, &size);
    for (;;) {
        pthread_mutex_lock(&lock);
        Bsend_buffer *b = comm_buffers;
        while (b && !b->attached)
            b = b->next;
        pthread_mutex_unlock(&lock);
        if (b == NULL)
            return;
        drain(b, true, &buffer, &size);     /* detached, so the next look passes it */
    }
}
