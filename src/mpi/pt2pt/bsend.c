/*
 * Buffered mode: MPI_Bsend, MPI_Ibsend, MPI_Buffer_attach/detach/flush.
 *
 * A buffered send packs the message (MPI_Pack semantics) into a free range of the attached buffer
 * and sends it from there as MPI_PACKED, so it is complete for the user at once. Each message
 * occupies its packed size plus MPI_BSEND_OVERHEAD bytes, which is the accounting the standard
 * tells users to size the buffer with; the bookkeeping itself lives outside the user's buffer,
 * so its alignment does not matter. Ranges are taken first-fit and given back when the device
 * has sent them. With MPI_BUFFER_AUTOMATIC (MPI 4.1) each message gets its own allocation.
 * One mutex guards the state; it is held while packing and starting the send, so the device's own
 * lock nests inside it (the device never calls back into this file).
 */
#include "pt2pt.h"

typedef struct Bsend_entry {
    MPI_Count offset, len;      /* the range taken in the attached buffer, overhead included */
    char *heap;                 /* MPI_BUFFER_AUTOMATIC: the message's own allocation */
    MPIR_Request *req;          /* the device's send of the packed data */
    struct Bsend_entry *next;   /* in buffer order */
} Bsend_entry;

static struct {
    pthread_mutex_t lock;
    bool attached, automatic;
    char *buf;
    MPI_Count size;
    Bsend_entry *active;        /* messages the device is still sending */
    int nactive;
} bsend = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Gives back the ranges of the messages the device has finished with. */
static void reclaim_locked(void)
{
    for (Bsend_entry **link = &bsend.active; *link;) {
        Bsend_entry *e = *link;
        if (!MPIR_Request_is_complete(e->req)) {
            link = &e->next;
            continue;
        }
        *link = e->next;
        MPIR_Request_release(e->req);   /* a failed buffered send has nobody to tell */
        free(e->heap);
        free(e);
        bsend.nactive--;
    }
}

/* Finds room for a message of bytes packed bytes; links a new entry there and sets *data. Returns
 * MPI_ERR_BUFFER without a reason when there is no room: the caller may retry (see no_room). */
static int reserve_locked(MPI_Count bytes, Bsend_entry **entry, char **data)
{
    Bsend_entry *e = calloc(1, sizeof *e);
    MPIR_CHKMEM(e);
    if (bsend.automatic) {
        e->heap = malloc(bytes > 0 ? (size_t) bytes : 1);
        if (e->heap == NULL) {
            free(e);
            return MPIR_Err(MPI_ERR_NO_MEM, "no memory for a buffered message of %lld bytes", (long long) bytes);
        }
        e->next = bsend.active;
        bsend.active = e;
        *data = e->heap;
    } else {
        MPI_Count need = bytes + MPI_BSEND_OVERHEAD, end = 0;
        Bsend_entry **link = &bsend.active;
        for (; *link && (*link)->offset - end < need; link = &(*link)->next)
            end = (*link)->offset + (*link)->len;
        if (!bsend.attached || (*link == NULL && bsend.size - end < need)) {
            free(e);
            return MPI_ERR_BUFFER;
        }
        e->offset = end;
        e->len = need;
        e->next = *link;
        *link = e;
        *data = bsend.buf + end;
    }
    bsend.nactive++;
    *entry = e;
    return MPI_SUCCESS;
}

/* The reason a message of bytes packed bytes does not fit. */
static int no_room_locked(MPI_Count bytes)
{
    if (!bsend.attached)
        return MPIR_Err(MPI_ERR_BUFFER, "no buffer is attached for buffered sends (see MPI_Buffer_attach)");
    return MPIR_Err(MPI_ERR_BUFFER,
                    "the message needs %lld bytes of buffer (%lld packed + MPI_BSEND_OVERHEAD %d) but the attached "
                    "buffer of %lld bytes has no free range that large (%d buffered send%s pending)",
                    (long long) (bytes + MPI_BSEND_OVERHEAD), (long long) bytes, MPI_BSEND_OVERHEAD,
                    (long long) bsend.size, bsend.nactive, bsend.nactive == 1 ? "" : "s");
}

static void unlink_locked(Bsend_entry *e)
{
    Bsend_entry **link = &bsend.active;
    while (*link != e)
        link = &(*link)->next;
    *link = e->next;
    free(e->heap);
    free(e);
    bsend.nactive--;
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

    Bsend_entry *e;
    char *data;
    pthread_mutex_lock(&bsend.lock);
    reclaim_locked();
    err = reserve_locked(bytes, &e, &data);
    if (err == MPI_ERR_BUFFER && bsend.nactive > 0) {
        /* Sends still in flight may be done by now: one round of progress, then look again. */
        pthread_mutex_unlock(&bsend.lock);
        MPIR_Pt2pt_poll(false);
        pthread_mutex_lock(&bsend.lock);
        reclaim_locked();
        err = reserve_locked(bytes, &e, &data);
    }
    if (err == MPI_ERR_BUFFER)
        err = no_room_locked(bytes);
    if (err == MPI_SUCCESS) {
        MPI_Count position = 0;
        if (bytes > 0)
            err = MPIR_Pack_impl(buf, count, MPID_Datatype_get(type), data, bytes, &position, comm);
        if (err == MPI_SUCCESS)
            err = MPID_Isend(data, bytes, MPI_PACKED, dest, tag, c, 0, MPID_SEND_STANDARD, &e->req);
        if (err)
            unlink_locked(e);
    }
    pthread_mutex_unlock(&bsend.lock);
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

int MPIR_Buffer_attach_impl(void *buffer, MPI_Count size)
{
    int err = MPI_SUCCESS;
    pthread_mutex_lock(&bsend.lock);
    if (bsend.attached)
        err = MPIR_Err(MPI_ERR_BUFFER, "a buffer is already attached (%s); detach it first",
                       bsend.automatic ? "MPI_BUFFER_AUTOMATIC" : "only one may be attached at a time");
    else if (buffer == NULL && size > 0)
        err = MPIR_Err(MPI_ERR_BUFFER, "buffer is NULL");
    else {
        bsend.attached = true;
        bsend.automatic = buffer == MPI_BUFFER_AUTOMATIC;
        bsend.buf = bsend.automatic ? NULL : buffer;
        bsend.size = bsend.automatic ? 0 : size;
    }
    pthread_mutex_unlock(&bsend.lock);
    return err;
}

/* Drives progress until no buffered send is in flight; with detach, detaches the buffer then
 * (under the same lock, so no send can slip in between). */
static void drain(bool detach, void **buffer, MPI_Count *size)
{
    for (int step = 0;; step++) {
        pthread_mutex_lock(&bsend.lock);
        reclaim_locked();
        if (bsend.active == NULL) {
            if (detach) {
                *buffer = !bsend.attached ? NULL : bsend.automatic ? MPI_BUFFER_AUTOMATIC : bsend.buf;
                *size = bsend.size;
                bsend.attached = bsend.automatic = false;
                bsend.buf = NULL;
                bsend.size = 0;
            }
            pthread_mutex_unlock(&bsend.lock);
            return;
        }
        pthread_mutex_unlock(&bsend.lock);
        MPIR_Pt2pt_poll(step > 0);
    }
}

/* Nothing attached is not an error: the buffer is NULL and its size 0 (as MPICH does). */
int MPIR_Buffer_detach_impl(void *buffer_addr, MPI_Count *size)
{
    drain(true, (void **) buffer_addr, size);
    return MPI_SUCCESS;
}

int MPIR_Buffer_flush_impl(void)
{
    drain(false, NULL, NULL);
    return MPI_SUCCESS;
}

void MPIR_Bsend_finalize(void)
{
    void *buffer;
    MPI_Count size;
    drain(true, &buffer, &size);
}
