/*
 * Collective schedules: a collective algorithm written down as a list of steps, then run either to
 * completion at once (the blocking collectives) or in the background (the nonblocking ones,
 * advanced by the progress engine through MPID_Progress_hook).
 *
 * Steps are sends, receives, local typed copies and local reductions, grouped in phases by
 * barriers. A phase starts all its steps in order (local steps run right away, so a step after a
 * copy or reduction sees its result); the next phase starts when every send and receive of the
 * previous one has completed. Buffers are fixed when the step is added: an algorithm that swaps
 * buffers between rounds swaps them while it builds.
 *
 * Adding steps cannot fail from the builder's point of view: the first error (out of memory) is
 * kept in the schedule and returned by MPIR_Sched_run/MPIR_Sched_start, which free it. An error
 * while the schedule runs (a truncated receive, a failed copy) is kept too, and the remaining steps
 * still run, so that the other ranks are not left waiting.
 *
 * Matching: every message travels on the communicator's collective context. A blocking
 * collective's messages carry the collective's tag (MPIR_TAG_*), a nonblocking one's a tag of its
 * own from the communicator's sequence of nonblocking collectives (every rank starts them in the
 * same order), so collectives in flight together never take each other's messages. Within one
 * schedule, messages between two ranks pair up in the order the steps are added.
 *
 * Datatypes and the communicator are referenced for the life of the schedule, and user operations
 * copied (MPI_Op_free may come before the collective completes); temporary buffers
 * (MPIR_Sched_tmpbuf) are freed with it.
 */
#ifndef COLL_SCHED_H_INCLUDED
#define COLL_SCHED_H_INCLUDED

#include "coll_util.h"

typedef struct MPIR_Sched MPIR_Sched;

/* A new, empty schedule on c with tag (MPIR_TAG_* for a blocking collective, MPIR_SCHED_NBC for the
 * next tag of the communicator's nonblocking sequence). NULL when out of memory (reason recorded). */
#define MPIR_SCHED_NBC (-1)
MPIR_Sched *MPIR_Sched_create(MPIR_Comm *c, int tag);

void MPIR_Sched_send(MPIR_Sched *s, const void *buf, MPI_Count count, MPI_Datatype type, int dest);
void MPIR_Sched_recv(MPIR_Sched *s, void *buf, MPI_Count count, MPI_Datatype type, int source);
/* MPIR_Localcopy when the step runs. */
void MPIR_Sched_copy(MPIR_Sched *s, const void *src, MPI_Count scount, MPI_Datatype stype, void *dst,
                     MPI_Count dcount, MPI_Datatype dtype);
/* inout = in op inout (MPIR_Op_apply) when the step runs. */
void MPIR_Sched_reduce(MPIR_Sched *s, const void *in, void *inout, MPI_Count count, MPI_Datatype type, MPI_Op op);
/* Ends a phase: the steps after it wait for the sends and receives before it. */
void MPIR_Sched_barrier(MPIR_Sched *s);
/* A temporary buffer for count elements of type (MPIR_Typed_alloc), freed with the schedule; NULL
 * when out of memory (then the schedule fails, and the builder may go on with NULL). */
void *MPIR_Sched_tmpbuf(MPIR_Sched *s, MPI_Count count, MPI_Datatype type);

/* Runs s to completion and frees it. Returns the first error (a class, reason recorded). s may be
 * NULL (creation failed). */
int MPIR_Sched_run(MPIR_Sched *s);
/* Starts s in the background behind a new request (completed, with the first error in its status,
 * when the last step is done) and gives up s. s may be NULL (creation failed). */
int MPIR_Sched_start(MPIR_Sched *s, MPI_Request *request);

/* Blocking collective (request NULL: run here) or nonblocking (start behind *request). */
static inline int MPIR_Sched_finish(MPIR_Sched *s, MPI_Request *request)
{
    return request ? MPIR_Sched_start(s, request) : MPIR_Sched_run(s);
}

/* The schedule for a collective: the blocking tag, or the nonblocking sequence if request. */
static inline MPIR_Sched *MPIR_Sched_for(MPIR_Comm *c, int blocking_tag, MPI_Request *request)
{
    return MPIR_Sched_create(c, request ? MPIR_SCHED_NBC : blocking_tag);
}

/* ---- algorithms other collectives build on (arguments already checked; steps added to s) ---- */

/* MPI_Reduce of count elements (sendbuf MPI_IN_PLACE: the input is in recvbuf). */
void MPIR_Sched_add_reduce(MPIR_Sched *s, const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype type,
                           MPI_Op op, int root, MPIR_Comm *c);
/* MPI_Scatter(v) of the root's blocks (recvbuf MPI_IN_PLACE at the root: keep its block). */
void MPIR_Sched_add_scatter(MPIR_Sched *s, const MPIR_Blocks *send, void *recvbuf, MPI_Count recvcount,
                            MPI_Datatype recvtype, int root, MPIR_Comm *c);

#endif
