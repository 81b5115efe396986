/*
 * The device interface (ADI): what the MPI layer asks of the device that moves messages.
 * The shared-memory device (src/mpid/shm) implements it for the processes of one machine.
 *
 * Threads: every function here may be called from any thread (MPI_THREAD_MULTIPLE); the device
 * serialises internally.
 * Errors: functions return MPI_SUCCESS or an error class with a reason recorded (MPIR_Err). Errors
 * of an operation found while it progresses (truncation, type mismatch) are stored as full error
 * codes in the request's status.MPI_ERROR (MPIR_Err_code) and reported when it is completed.
 */
#ifndef MPID_DEVICE_H_INCLUDED
#define MPID_DEVICE_H_INCLUDED

#include "mpi.h"
#include "mpir_comm.h"
#include "mpir_request.h"

/* Joins the job mpiexec started (from its environment), or becomes a singleton of one process.
 * Sets MPIR_Process.world_rank and world_size. */
int MPID_Init(void);
/* Leaves the job: all of this process's communication must be complete (MPI_Finalize first
 * synchronises the world). */
int MPID_Finalize(void);

/* The size in bytes of the level (1-3) data cache of the first core, from hwloc (read once; a
 * typical size where hwloc cannot tell). */
size_t MPID_Cache_size(int level);
/* Its set span: the size divided by the ways. Addresses a multiple of it apart share cache sets. */
size_t MPID_Cache_set_span(int level);

enum { MPID_SEND_STANDARD, MPID_SEND_SYNC, MPID_SEND_READY };

/* Starts a send of (buf, count, type) to rank dest of comm (MPI_PROC_NULL: completes at once) on
 * context comm->context_id + context_offset. The request references comm and type. */
int MPID_Isend(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPIR_Comm *comm,
               int context_offset, int mode, MPIR_Request **req);
/* A blocking send: as MPID_Isend, but a message that can leave at once (eager, with nothing
 * queued before it) goes without a request, and *req is NULL (also for MPI_PROC_NULL). */
int MPID_Send(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPIR_Comm *comm,
              int context_offset, int mode, MPIR_Request **req);
/* Starts a receive; source may be MPI_ANY_SOURCE or MPI_PROC_NULL, tag MPI_ANY_TAG. On completion
 * status holds MPI_SOURCE (a rank of comm), MPI_TAG, the byte count received, and MPI_ERROR:
 * MPI_SUCCESS, or a code of class MPI_ERR_TRUNCATE (the message was longer: the buffer holds its
 * first bytes) or MPI_ERR_TYPE (the sender's type signature is not a prefix of the receiver's; the
 * check is off when LOOM_TYPE_CHECK=0). */
int MPID_Irecv(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPIR_Comm *comm,
               int context_offset, MPIR_Request **req);
/* Whether a matching message has arrived (not received); status as for a receive of it. */
int MPID_Iprobe(int source, int tag, MPIR_Comm *comm, int context_offset, int *flag, MPI_Status *status);
/* Matched probe (MPI_Mprobe): a message matched by MPID_Improbe leaves the queue of arrived
 * messages, so only MPID_Imrecv of it can receive it. Opaque to the MPI layer. */
typedef struct MPID_Message MPID_Message;
/* As MPID_Iprobe; when *flag is set, *msg is the message taken (source is not MPI_PROC_NULL). */
int MPID_Improbe(int source, int tag, MPIR_Comm *comm, int context_offset, int *flag, MPID_Message **msg,
                 MPI_Status *status);
/* Starts the receive of msg (comm: the one it was probed on) into (buf, count, type); msg is
 * consumed when this succeeds and left untouched when it fails. */
int MPID_Imrecv(void *buf, MPI_Count count, MPI_Datatype type, MPID_Message *msg, MPIR_Comm *comm,
                MPIR_Request **req);
/* Drops a matched message that will never be received (finalize). */
void MPID_Message_free(MPID_Message *msg);
/* Cancels a receive that has not matched yet (then status says cancelled and the request
 * completes); a matched one completes normally. */
int MPID_Cancel_recv(MPIR_Request *req);

/* MPI_Request_free: drops the user's reference now if the request is complete, else when it completes. */
void MPID_Request_free(MPIR_Request *req);
/* Completes a request the MPI layer runs itself (a nonblocking collective, MPI_Comm_idup, a flush,
 * a generalized request), and drops the user's reference if MPI_Request_free gave it up: under the
 * same lock as MPID_Request_free, so that one of the two always sees the other. */
void MPID_Request_complete(MPIR_Request *req);

/* One pass over incoming messages and pending sends; never blocks. */
void MPID_Progress_test(void);
/* Waits until something may have happened: polls (spinning for a while when the job has no more
 * ranks than cores, else yielding), then sleeps on a futex, so many more ranks than cores can wait
 * without burning the cores. Returns within a few ms, or sooner when a message comes. */
void MPID_Progress_wait(void);

/* Set by the MPI layer's modules when they have operations of their own to advance: called in
 * this order, outside the device's lock, at the end of every MPID_Progress_test/MPID_Progress_wait
 * pass; each returns whether it did anything (then MPID_Progress_wait does not sleep). */
enum {
    MPID_HOOK_COLL,     /* nonblocking collectives (src/mpi/coll/coll_sched.c) */
    MPID_HOOK_COMM,     /* MPI_Comm_idup (src/mpi/comm/comm_idup.c) */
    MPID_HOOK_BSEND,    /* MPI_Buffer_iflush (src/mpi/pt2pt/bsend.c) */
    MPID_HOOK_RMA,      /* one-sided operations arriving at this process's windows (src/mpi/win/rma_target.c) */
    MPID_NHOOKS
};
extern bool (*_Atomic MPID_Progress_hooks[MPID_NHOOKS])(void);

/* Ends every process of the job with errorcode (through mpiexec). */
void MPID_Abort(int errorcode, const char *message) __attribute__((noreturn));

#endif
