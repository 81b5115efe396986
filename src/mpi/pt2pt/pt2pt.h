/*
 * Point-to-point internals shared by the files of src/mpi/pt2pt.
 *
 * The MPI layer here is thin: it checks what only it can check (ranks and tags need the
 * communicator), starts operations on the device (mpid_device.h), and completes requests.
 * Waiting loops let the device progress and back off through MPID_Progress_wait; nothing here
 * spins on its own.
 */
#ifndef PT2PT_H_INCLUDED
#define PT2PT_H_INCLUDED

#include "mpiimpl.h"
#include "mpir_impl_proto.h"
#include "mpir_request.h"
#include "mpid_device.h"

/* The largest tag (the value of the MPI_TAG_UB attribute). */
#ifndef MPIR_TAG_UB
#define MPIR_TAG_UB ((1 << 30) - 1)
#endif

/* ---- argument checks (check.c) ---- */
/* dest of a send: a rank of the addressed group, or MPI_PROC_NULL. */
int MPIR_Pt2pt_check_dest(const MPIR_Comm *comm, int dest);
/* source of a receive or probe: also MPI_ANY_SOURCE. */
int MPIR_Pt2pt_check_source(const MPIR_Comm *comm, int source);
/* tag of a send: 0..MPIR_TAG_UB; of a receive: also MPI_ANY_TAG. */
int MPIR_Pt2pt_check_tag(int tag, bool is_recv);
/* The peer (dest of a send; source of a receive or probe) and the tag: the checks every operation
 * starts with, in one place so that all report the same error first. */
static inline int MPIR_Pt2pt_check_peer(const MPIR_Comm *comm, int peer, int tag, bool is_recv)
{
    int err = is_recv ? MPIR_Pt2pt_check_source(comm, peer) : MPIR_Pt2pt_check_dest(comm, peer);
    return err ? err : MPIR_Pt2pt_check_tag(tag, is_recv);
}

/* ---- statuses ---- */
/* The empty status of the standard: any source, any tag, success, no data, not cancelled. */
static inline void MPIR_Pt2pt_status_empty(MPI_Status *status)
{
    if (MPIR_Status_is_ignore(status))
        return;
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    status->MPI_ERROR = MPI_SUCCESS;
    MPIR_Status_set_bytes(status, 0);
    MPIR_Status_set_cancelled(status, false);
}

/* The status of a probe or receive of MPI_PROC_NULL: empty, from MPI_PROC_NULL; the error field is
 * left alone, as by every call about one operation. */
static inline void MPIR_Pt2pt_status_proc_null(MPI_Status *status)
{
    if (MPIR_Status_is_ignore(status))
        return;
    int error = status->MPI_ERROR;
    MPIR_Pt2pt_status_empty(status);
    status->MPI_SOURCE = MPI_PROC_NULL;
    status->MPI_ERROR = error;
}

/* Copies a completed operation's status for the user (nothing for MPI_STATUS_IGNORE). The error
 * field is written only by calls that return MPI_ERR_IN_STATUS (with_error), as the standard says. */
static inline void MPIR_Pt2pt_status_copy(MPI_Status *dst, const MPI_Status *src, bool with_error)
{
    if (MPIR_Status_is_ignore(dst))
        return;
    dst->MPI_SOURCE = src->MPI_SOURCE;
    dst->MPI_TAG = src->MPI_TAG;
    if (with_error)
        dst->MPI_ERROR = src->MPI_ERROR;
    MPIR_Status_set_bytes(dst, MPIR_Status_get_bytes(src));
    MPIR_Status_set_cancelled(dst, MPIR_Status_get_cancelled(src));
}

/* ---- requests (request.c, wait.c) ---- */

/* One step of a waiting loop: block briefly first (unless this is the first step), then let the
 * device progress. */
static inline void MPIR_Pt2pt_poll(bool block)
{
    if (block)
        MPID_Progress_wait();
    MPID_Progress_test();
}

/* Blocks until req is complete. */
void MPIR_Request_wait(MPIR_Request *req);
/* Reports a completed request: copies its status (the error field only if with_error), notes the
 * communicator an error belongs to in *err_comm (unless err_comm is NULL or already set), and
 * returns the operation's error (MPI_SUCCESS or the code in its status; a generalized request:
 * its query_fn's, which fills the status first). */
int MPIR_Request_peek(MPIR_Request *req, MPI_Status *status, bool with_error, MPI_Comm *err_comm);
/* Reports a completed request as MPIR_Request_peek does, then releases the user's reference (a
 * persistent request: its running instance, which makes it inactive). */
int MPIR_Request_finish(MPIR_Request *req, MPI_Status *status, bool with_error, MPI_Comm *err_comm);
/* MPIR_Request_finish for the request behind *handle, which becomes MPI_REQUEST_NULL unless the
 * request is persistent. */
int MPIR_Request_reap(MPI_Request *handle, MPIR_Request *req, MPI_Status *status, bool with_error,
                      MPI_Comm *err_comm);

/* Starts a send in mode (MPID_SEND_*) after checking dest and tag. */
int MPIR_Pt2pt_isend(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                     int mode, MPIR_Request **req);
/* Starts a receive after checking source and tag. */
int MPIR_Pt2pt_irecv(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                     MPIR_Request **req);

/* ---- matched probe (mprobe.c) ---- */
/* MPI_Finalize: drops matched messages never received (reported with LOOM_REPORT_LEAKS). */
void MPIR_Mprobe_finalize(void);

/* ---- buffered sends (bsend.c) ---- */
/* Packs the message into the attached buffer and starts sending it from there. */
int MPIR_Bsend_start(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
/* MPI_Finalize: waits for the buffered sends still in flight. */
void MPIR_Bsend_finalize(void);

#endif
