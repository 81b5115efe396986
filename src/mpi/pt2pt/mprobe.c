/*
 * Matched probe and receive: MPI_Mprobe, MPI_Improbe, MPI_Mrecv, MPI_Imrecv (MPI 4.1 3.8.2).
 *
 * A matched probe takes the message off the device's queue of arrived messages (MPID_Improbe), so
 * no other receive or probe can match it, and hands it to the user as an MPI_Message: a handle of
 * class MPIR_CLASS_MESSAGE for a record holding the device's message and a reference on the
 * communicator it was probed on. MPI_Mrecv/MPI_Imrecv consume the handle (it becomes
 * MPI_MESSAGE_NULL). A probe of MPI_PROC_NULL gives the builtin MPI_MESSAGE_NO_PROC, whose receive
 * completes at once with source MPI_PROC_NULL. Invalid message handles (MPI_MESSAGE_NULL, one
 * already received, garbage) are MPI_ERR_REQUEST, as for the requests messages stand in for.
 */
#include "pt2pt.h"

typedef struct {
    MPIR_Object obj;
    MPIR_Comm *comm;        /* referenced */
    MPID_Message *msg;
} MPIR_Message;

static MPIR_Pool message_pool = MPIR_POOL_INITIALIZER(MPIR_CLASS_MESSAGE, MPIR_Message, "message", NULL);

static void message_release(MPIR_Message *m)
{
    MPIR_Comm_release(m->comm);
    MPIR_Pool_free(&message_pool, m);
}

/* ---- probing ---- */

/* One attempt (block: until found). The record is allocated first, so a message taken off the
 * queue can always be handed out. */
static int mprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status,
                  bool block)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    int err = MPIR_Pt2pt_check_peer(c, source, tag, true);
    if (err == MPI_SUCCESS && message == NULL)
        err = MPIR_Err(MPI_ERR_ARG, "message is NULL");
    if (err)
        return err;
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        *message = MPI_MESSAGE_NO_PROC;
        MPIR_Pt2pt_status_proc_null(status);
        return MPI_SUCCESS;
    }
    MPIR_Message *m = MPIR_Pool_alloc(&message_pool);
    if (m == NULL)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory or of message handles");
    MPI_Status found;
    *flag = 0;
    for (int step = 0; err == MPI_SUCCESS && !*flag; step++) {
        MPIR_Pt2pt_poll(step > 0);
        err = MPID_Improbe(source, tag, c, 0, flag, &m->msg, &found);
        if (!block)
            break;
    }
    if (err || !*flag) {
        MPIR_Pool_free(&message_pool, m);
        return err;
    }
    MPIR_Comm_add_ref(c);
    m->comm = c;
    *message = MPIR_Object_handle(m);
    MPIR_Pt2pt_status_copy(status, &found, false);
    return MPI_SUCCESS;
}

int MPIR_Mprobe_impl(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    int flag;
    return mprobe(source, tag, comm, &flag, message, status, true);
}

int MPIR_Improbe_impl(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status)
{
    return mprobe(source, tag, comm, flag, message, status, false);
}

/* ---- receiving ---- */

/* Starts the receive of *message and consumes the handle; *req is NULL for MPI_MESSAGE_NO_PROC. */
static int mrecv_start(void *buf, MPI_Count count, MPI_Datatype type, MPI_Message *message, MPIR_Request **req,
                       MPI_Comm *err_comm)
{
    *req = NULL;
    if (message == NULL)
        return MPIR_Err(MPI_ERR_ARG, "message is NULL");
    if (*message == MPI_MESSAGE_NO_PROC) {
        *message = MPI_MESSAGE_NULL;
        return MPI_SUCCESS;
    }
    MPIR_Message *m = MPIR_Pool_lookup(&message_pool, *message);
    if (m == NULL)
        return MPIR_Err(MPI_ERR_REQUEST, "message %#x is %s", (unsigned) *message,
                        *message == MPI_MESSAGE_NULL ? "MPI_MESSAGE_NULL"
                                                     : "not a matched message (never probed, or already received)");
    *err_comm = MPIR_Object_handle(m->comm);
    int err = MPID_Imrecv(buf, count, type, m->msg, m->comm, req);
    if (err)
        return err;     /* the message stays matched: the user may try again */
    message_release(m);
    *message = MPI_MESSAGE_NULL;
    return MPI_SUCCESS;
}

int MPIR_Mrecv_impl(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status,
                    MPI_Comm *err_comm)
{
    MPIR_Request *req;
    int err = mrecv_start(buf, count, datatype, message, &req, err_comm);
    if (err)
        return err;
    if (req == NULL) {
        MPIR_Pt2pt_status_proc_null(status);
        return MPI_SUCCESS;
    }
    MPIR_Request_wait(req);
    return MPIR_Request_finish(req, status, false, NULL);
}

int MPIR_Imrecv_impl(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                     MPI_Request *request, MPI_Comm *err_comm)
{
    MPIR_Request *req;
    int err = mrecv_start(buf, count, datatype, message, &req, err_comm);
    if (err)
        return err;
    if (req == NULL)    /* MPI_MESSAGE_NO_PROC: a receive from MPI_PROC_NULL, complete at once */
        err = MPID_Irecv(buf, count, datatype, MPI_PROC_NULL, MPI_ANY_TAG, MPIR_Comm_lookup(MPI_COMM_SELF), 0,
                         &req);
    if (err == MPI_SUCCESS)
        *request = MPIR_Object_handle(req);
    return err;
}

/* ---- finalize ---- */

static void drop_message(void *obj, void *arg)
{
    MPIR_Message *m = obj;
    (void) arg;
    if (MPIR_Leak_report_wanted())
        fprintf(stderr, "Loom MPI: message 0x%08x was matched by MPI_Mprobe/MPI_Improbe but never received\n",
                (unsigned) MPIR_Object_handle(m));
    MPID_Message_free(m->msg);
    message_release(m);
}

/* MPI_Finalize, before the device leaves: matched messages never received. */
void MPIR_Mprobe_finalize(void)
{
    MPIR_Pool_foreach(&message_pool, drop_message, NULL);
}
