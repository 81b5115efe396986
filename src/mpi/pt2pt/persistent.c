/*
 * Persistent requests (MPI 4.1 3.9): MPI_Send_init, MPI_Bsend_init, MPI_Ssend_init,
 * MPI_Rsend_init, MPI_Recv_init, MPI_Start, MPI_Startall (which also start the persistent
 * collectives: src/mpi/coll/persistent_coll.c).
 *
 * An init call checks the arguments once and records them in a request that references the
 * communicator and the datatype (the user may free both before the last start). MPI_Start runs the
 * operation as an ordinary request, persist.active, that the completion calls finish like any
 * other (wait.c: the instance is released and the persistent request becomes inactive again).
 */
#include "pt2pt.h"

static int persistent_init(const void *buf, MPI_Count count, MPI_Datatype type, int peer, int tag, MPI_Comm comm,
                           int op, MPI_Request *request)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    bool recv = op == MPIR_PERSIST_RECV;
    int err = MPIR_Pt2pt_check_peer(c, peer, tag, recv);
    MPI_Count bytes;
    if (err == MPI_SUCCESS)   /* the count checks of every start, once, here */
        err = MPID_Stream_size(MPID_Datatype_get(type), count, &bytes);
    if (err)
        return err;
    MPIR_Request *req = MPIR_Request_create(recv ? MPIR_REQUEST_RECV : MPIR_REQUEST_SEND);
    if (req == NULL)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory or of request handles");
    req->persistent = true;
    req->persist.op = op;
    req->persist.buf = (void *) buf;
    req->persist.count = count;
    req->persist.peer = peer;
    req->persist.tag = tag;
    MPIR_Comm_add_ref(c);
    req->comm = c;
    req->type = MPID_Datatype_get(type);
    MPID_Datatype_add_ref(req->type);
    *request = MPIR_Object_handle(req);
    return MPI_SUCCESS;
}

int MPIR_Send_init_impl(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                        MPI_Request *request)
{
    return persistent_init(buf, count, datatype, dest, tag, comm, MPID_SEND_STANDARD, request);
}

int MPIR_Ssend_init_impl(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                         MPI_Request *request)
{
    return persistent_init(buf, count, datatype, dest, tag, comm, MPID_SEND_SYNC, request);
}

int MPIR_Rsend_init_impl(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                         MPI_Request *request)
{
    return persistent_init(buf, count, datatype, dest, tag, comm, MPID_SEND_READY, request);
}

int MPIR_Bsend_init_impl(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                         MPI_Request *request)
{
    return persistent_init(buf, count, datatype, dest, tag, comm, MPIR_PERSIST_BSEND, request);
}

int MPIR_Recv_init_impl(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                        MPI_Request *request)
{
    return persistent_init(buf, count, datatype, source, tag, comm, MPIR_PERSIST_RECV, request);
}

/* A buffered send's instance: complete as soon as the data sits in the attached buffer. */
static int start_bsend(MPIR_Request *req, MPI_Datatype type, MPIR_Request **active)
{
    MPI_Comm comm = MPIR_Object_handle(req->comm);
    if (MPIR_Comm_lookup(comm) == NULL)
        return MPIR_Err(MPI_ERR_COMM, "the communicator of this persistent buffered send has been freed");
    MPIR_Request *a = MPIR_Request_create(MPIR_REQUEST_GENERALIZED);
    if (a == NULL)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory or of request handles");
    int err = MPIR_Bsend_start(req->persist.buf, req->persist.count, type, req->persist.peer, req->persist.tag, comm);
    if (err) {
        MPIR_Request_release(a);
        return err;
    }
    MPIR_Comm_add_ref(req->comm);
    a->comm = req->comm;
    atomic_store_explicit(&a->complete, 1, memory_order_release);
    *active = a;
    return MPI_SUCCESS;
}

/* Starts the persistent request behind handle (entry index of MPI_Startall's array, or -1). Its
 * errors go to the error handler of its communicator (*err_comm). */
static int start(MPI_Request handle, MPI_Count index, MPI_Comm *err_comm)
{
    char where[48] = "request";
    if (index >= 0)
        snprintf(where, sizeof where, "array_of_requests[%lld]", (long long) index);
    MPIR_Request *req = handle == MPI_REQUEST_NULL ? NULL : MPIR_Request_lookup(handle);
    if (req == NULL)
        return MPIR_Err(MPI_ERR_REQUEST, "%s is %s", where,
                        handle == MPI_REQUEST_NULL ? "MPI_REQUEST_NULL" : "not a valid request");
    if (req->comm)
        *err_comm = MPIR_Object_handle(req->comm);
    if (!req->persistent)
        return MPIR_Err(MPI_ERR_REQUEST, "%s = %#x is not a persistent request (made by MPI_Send_init, "
                        "MPI_Recv_init and the like)", where, (unsigned) handle);
    if (req->persist.active)
        return MPIR_Err(MPI_ERR_REQUEST, "%s = %#x is active already: complete it before starting it again",
                        where, (unsigned) handle);
    MPI_Datatype type = req->type ? MPID_Datatype_handle(req->type) : MPI_DATATYPE_NULL;   /* none: collectives */
    int op = req->persist.op;
    MPIR_Request *a = NULL;
    int err;
    if (op == MPIR_PERSIST_RECV)
        err = MPID_Irecv(req->persist.buf, req->persist.count, type, req->persist.peer, req->persist.tag, req->comm,
                         0, &a);
    else if (op == MPIR_PERSIST_BSEND)
        err = start_bsend(req, type, &a);
    else if (op == MPIR_PERSIST_COLL)
        err = MPIR_Coll_persistent_start(req, &a);
    else
        err = MPID_Isend(req->persist.buf, req->persist.count, type, req->persist.peer, req->persist.tag, req->comm,
                         0, op, &a);
    if (err == MPI_SUCCESS)
        req->persist.active = a;
    return err;
}

int MPIR_Start_impl(MPI_Request *request, MPI_Comm *err_comm)
{
    return start(*request, -1, err_comm);
}

/* Starts the requests in order; on an error the ones before it stay started. */
int MPIR_Startall_impl(MPI_Count count, MPI_Request *array_of_requests, MPI_Comm *err_comm)
{
    for (MPI_Count i = 0; i < count; i++) {
        int err = start(array_of_requests[i], i, err_comm);
        if (err)
            return err;
    }
    return MPI_SUCCESS;
}
