/*
 * The device interface (mpid_device.h) of the shared-memory device: argument plumbing around the
 * protocols in shm_progress.c, under one lock.
 */
#include <unistd.h>
#include "shm_impl.h"
#include "copy_kernels.h"

int MPID_Init(void)
{
    int err = shm_region_attach();
    if (err)
        return err;
    if ((err = shm_progress_init())) {
        shm_region_detach();
        return err;
    }
    shm_wait_init();
    MPID_Copy_init();
    MPIR_Process.world_rank = shm.rank;
    MPIR_Process.world_size = shm.nranks;
    return MPI_SUCCESS;
}

int MPID_Finalize(void)
{
    shm_lock();
    /* the world synchronised before: whatever is still in flight is ours to finish sending */
    while (shm_progress())
        ;
    shm_progress_finalize();
    shm_region_detach();
    shm_unlock();
    return MPI_SUCCESS;
}

/* A request for (buf, count, type) on comm, with the references it keeps. */
static int new_request(MPIR_Request_kind kind, const void *buf, MPI_Count count, MPI_Datatype type, MPIR_Comm *comm,
                       int tag, MPIR_Request **reqp)
{
    MPIR_Request *req = MPIR_Request_create(kind);
    if (!req)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory allocating a request");
    MPID_Datatype *dt = MPID_Datatype_get(type);
    int64_t bytes;
    if (MPIR_Mul_overflows(count, dt->size, &bytes)) {
        MPIR_Request_release(req);
        return MPIR_Err(MPI_ERR_COUNT, "count %lld of this datatype exceeds 2^63 bytes", (long long) count);
    }
    /* data in one run needs no segment: the protocols copy it with memcpy */
    MPI_Aint offset = dt->true_lb;
    if (dt->is_contig || MPID_Datatype_one_run(dt, count, &offset)) {
        req->dev.contig = true;
        req->dev.contig_buf = (char *) ((uintptr_t) buf + (uintptr_t) offset);   /* MPI_BOTTOM-safe */
        req->dev.seg.size = bytes;
        req->dev.seg.count = count;
    } else {
        /* the request's own reference keeps the type alive for the segment */
        int err = MPID_Segment_init_borrowed(&req->dev.seg, buf, count, type);
        if (err) {
            MPIR_Request_release(req);
            return err;
        }
    }
    MPIR_Comm_add_ref(comm);
    req->comm = comm;
    MPID_Datatype_add_ref(dt);
    req->type = dt;
    req->dev.tag = tag;
    req->dev.bytes = bytes;
    req->status.MPI_ERROR = MPI_SUCCESS;
    *reqp = req;
    return MPI_SUCCESS;
}

/* A request that is complete from the start (MPI_PROC_NULL). */
static int null_request(MPIR_Request_kind kind, MPIR_Comm *comm, MPIR_Request **reqp)
{
    MPIR_Request *req = MPIR_Request_create(kind);
    if (!req)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory allocating a request");
    MPIR_Comm_add_ref(comm);
    req->comm = comm;
    req->status.MPI_SOURCE = MPI_PROC_NULL;
    req->status.MPI_TAG = MPI_ANY_TAG;
    req->status.MPI_ERROR = MPI_SUCCESS;
    MPIR_Status_set_bytes(&req->status, 0);
    atomic_store_explicit(&req->complete, 1, memory_order_release);
    *reqp = req;
    return MPI_SUCCESS;
}

int MPID_Isend(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPIR_Comm *comm,
               int context_offset, int mode, MPIR_Request **reqp)
{
    if (dest == MPI_PROC_NULL)
        return null_request(MPIR_REQUEST_SEND, comm, reqp);
    MPIR_Request *req;
    int err = new_request(MPIR_REQUEST_SEND, buf, count, type, comm, tag, &req);
    if (err)
        return err;
    req->dev.peer_lpid = MPIR_Comm_lpid(comm, dest);
    req->dev.context_id = comm->context_id + context_offset;
    req->dev.mode = mode;
    req->dev.sig_hash = MPID_Datatype_signature(req->type, count);
    *reqp = req;
    shm_lock();
    shm_start_send(req);
    shm_unlock();
    return MPI_SUCCESS;
}

int MPID_Send(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPIR_Comm *comm,
              int context_offset, int mode, MPIR_Request **reqp)
{
    *reqp = NULL;
    if (dest == MPI_PROC_NULL)
        return MPI_SUCCESS;
    MPID_Datatype *dt = MPID_Datatype_get(type);
    int64_t bytes;
    if (mode != MPID_SEND_SYNC && !MPIR_Mul_overflows(count, dt->size, &bytes)) {
        shm_lock();
        bool sent = shm_send_now(buf, count, dt, bytes, MPIR_Comm_lpid(comm, dest), comm->context_id + context_offset,
                                 tag);
        shm_unlock();
        if (sent)
            return MPI_SUCCESS;
    }
    return MPID_Isend(buf, count, type, dest, tag, comm, context_offset, mode, reqp);
}

int MPID_Irecv(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPIR_Comm *comm,
               int context_offset, MPIR_Request **reqp)
{
    if (source == MPI_PROC_NULL)
        return null_request(MPIR_REQUEST_RECV, comm, reqp);
    MPIR_Request *req;
    int err = new_request(MPIR_REQUEST_RECV, buf, count, type, comm, tag, &req);
    if (err)
        return err;
    req->dev.peer_lpid = source == MPI_ANY_SOURCE ? MPI_ANY_SOURCE : MPIR_Comm_lpid(comm, source);
    req->dev.context_id = shm_recv_context(comm, context_offset);
    *reqp = req;
    shm_lock();
    shm_start_recv(req);
    shm_unlock();
    return MPI_SUCCESS;
}

int MPID_Iprobe(int source, int tag, MPIR_Comm *comm, int context_offset, int *flag, MPI_Status *status)
{
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        if (status != MPI_STATUS_IGNORE) {
            status->MPI_SOURCE = MPI_PROC_NULL;
            status->MPI_TAG = MPI_ANY_TAG;
            status->MPI_ERROR = MPI_SUCCESS;
            MPIR_Status_set_bytes(status, 0);
        }
        return MPI_SUCCESS;
    }
    int lpid = source == MPI_ANY_SOURCE ? MPI_ANY_SOURCE : MPIR_Comm_lpid(comm, source);
    shm_lock();
    int err = shm_iprobe(lpid, tag, comm, shm_recv_context(comm, context_offset), flag, status);
    shm_unlock();
    return err;
}

int MPID_Improbe(int source, int tag, MPIR_Comm *comm, int context_offset, int *flag, MPID_Message **msg,
                 MPI_Status *status)
{
    int lpid = source == MPI_ANY_SOURCE ? MPI_ANY_SOURCE : MPIR_Comm_lpid(comm, source);
    shm_lock();
    int err = shm_improbe(lpid, tag, comm, shm_recv_context(comm, context_offset), flag, msg, status);
    shm_unlock();
    return err;
}

int MPID_Imrecv(void *buf, MPI_Count count, MPI_Datatype type, MPID_Message *msg, MPIR_Comm *comm,
                MPIR_Request **reqp)
{
    MPIR_Request *req;
    int err = new_request(MPIR_REQUEST_RECV, buf, count, type, comm, MPI_ANY_TAG, &req);
    if (err)
        return err;
    req->dev.peer_lpid = MPI_ANY_SOURCE;
    *reqp = req;
    shm_lock();
    shm_mrecv(req, msg);
    shm_unlock();
    return MPI_SUCCESS;
}

void MPID_Message_free(MPID_Message *msg)
{
    shm_lock();
    shm_message_free(msg);
    shm_unlock();
}

int MPID_Cancel_recv(MPIR_Request *req)
{
    shm_lock();
    shm_cancel_recv(req);
    shm_unlock();
    return MPI_SUCCESS;
}

void MPID_Request_free(MPIR_Request *req)
{
    /* under the lock: the device may be completing it right now */
    shm_lock();
    bool done = MPIR_Request_is_complete(req);
    if (!done)
        req->freed_by_user = true;
    shm_unlock();
    if (done)
        MPIR_Request_release(req);
}

void MPID_Request_complete(MPIR_Request *req)
{
    shm_lock();
    bool release = req->freed_by_user;
    atomic_store_explicit(&req->complete, 1, memory_order_release);
    shm_unlock();
    if (release)
        MPIR_Request_release(req);
}

bool (*_Atomic MPID_Progress_hooks[MPID_NHOOKS])(void);

/* The MPI layer's own progress (nonblocking collectives, communicator creations, buffer
 * flushes), when it has any. */
static bool progress_hook(void)
{
    bool did = false;
    for (int i = 0; i < MPID_NHOOKS; i++) {
        bool (*hook)(void) = atomic_load_explicit(&MPID_Progress_hooks[i], memory_order_acquire);
        did = (hook && hook()) || did;
    }
    return did;
}

void MPID_Progress_test(void)
{
    shm_lock();
    shm_progress();
    shm_unlock();
    progress_hook();
}

void MPID_Progress_wait(void)
{
    uint32_t seen = shm_doorbell_value();   /* before polling: a cell arriving after it wakes us */
    shm_lock();
    bool did = shm_progress();
    shm_unlock();
    did |= progress_hook();
    if (!did)
        shm_wait(seen);
}

void MPID_Abort(int errorcode, const char *message)
{
    if (shm.region)
        atomic_store(&shm.region->aborted, 1);
    if (message && *message)
        fprintf(stderr, "%s\n", message);
    fflush(stdout);
    fflush(stderr);
    /* mpiexec sees this rank end with the code and ends the others */
    _exit(errorcode);
}
