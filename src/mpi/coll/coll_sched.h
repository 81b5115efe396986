/*
 * Collective schedules: a collective algorithm written down as a list of steps, then run either to
 * completion at once (the blocking collectives) or in the background (the nonblocking ones,
 * advanced by the progress engine through its progress hook, MPID_HOOK_COLL).
 *
 * Steps are sends, receives, local typed copies and local reductions, grouped in phases by
 * barriers. A phase starts all its steps in order (local steps run right away, so a step after a
 * copy or reduction sees its result); the next phase starts when every send and receive of the
 * previous one has completed. Buffers are fixed when the step is added: an algorithm that swaps
 * buffers between rounds swaps them while it builds.
 *
 * Adding steps cannot fail from the builder's point of view: the first error (out of memory) is
 * kept in the schedule and returned by MPIR_Sched_run/MPIR_Sched_start.
 *
 * Failure. A rank whose schedule fails still takes part, because the other ranks wait for its
 * messages and send it theirs: it sends every message it still owes at once, empty, and receives,
 * dropping them, as many as it still expects. A rank that receives less than a step expects (an
 * empty message: the sender failed) fails the same way, so the failure travels on to every rank
 * whose result depends on it; their calls return MPI_ERR_OTHER, the failing rank's its own error,
 * and the communicator stays usable for the next collective. Schedules fail when they cannot be
 * built (out of memory: a collective whose record itself finds no memory runs on the thread's
 * spare record, and then even a nonblocking one completes its part before it returns) and on any
 * error while they run (a request not to be had, a failed copy, a truncated receive).
 *
 * Matching: every message travels on the communicator's collective context, with a tag of its
 * collective: the next number of the communicator's sequence of collectives (every rank calls them
 * in the same order, blocking and nonblocking, MPI 4.1 6.12), the collective's kind (MPIR_TAG_*)
 * and whether it is nonblocking. So collectives in flight together never take each other's
 * messages, nor do different collectives called by mistake, and a failed schedule receives what
 * it expects with MPI_ANY_SOURCE. Within one schedule, messages between two ranks pair up in the
 * order the steps are added.
 *
 * Datatypes and the communicator are referenced for the life of the schedule, and user operations
 * copied (MPI_Op_free may come before the collective completes); temporary buffers
 * (MPIR_Sched_tmpbuf) are freed with it.
 */
#ifndef COLL_SCHED_H_INCLUDED
#define COLL_SCHED_H_INCLUDED

#include "coll_util.h"

typedef struct MPIR_Sched MPIR_Sched;

/* A new, empty schedule on c for a collective of kind (MPIR_TAG_*), taking the next number of c's
 * sequence. Never NULL but when out of memory while the thread's spare record is in use. */
MPIR_Sched *MPIR_Sched_create(MPIR_Comm *c, int kind, bool nonblocking);
/* From on to the next call with !on, the next schedule this thread creates takes the number seq
 * instead (a persistent collective's start: persistent_coll.c). */
void MPIR_Sched_pin_seq(bool on, unsigned seq);

void MPIR_Sched_send(MPIR_Sched *s, const void *buf, MPI_Count count, MPI_Datatype type, int dest);
void MPIR_Sched_recv(MPIR_Sched *s, void *buf, MPI_Count count, MPI_Datatype type, int source);
/* MPIR_Localcopy when the step runs. */
void MPIR_Sched_copy(MPIR_Sched *s, const void *src, MPI_Count scount, MPI_Datatype stype, void *dst,
                     MPI_Count dcount, MPI_Datatype dtype);
/* inout = in op inout (MPIR_Op_apply) when the step runs. */
void MPIR_Sched_reduce(MPIR_Sched *s, const void *in, void *inout, MPI_Count count, MPI_Datatype type, MPI_Op op);
/* Fails s with errclass (reason recorded): it takes its part without data (see above). */
void MPIR_Sched_fail(MPIR_Sched *s, int errclass);
/* Ends a phase: the steps after it wait for the sends and receives before it. */
void MPIR_Sched_barrier(MPIR_Sched *s);
/* A temporary buffer for count elements of type (MPIR_Typed_alloc), freed with the schedule; NULL
 * when out of memory (then the schedule fails, and the builder may go on with NULL). */
void *MPIR_Sched_tmpbuf(MPIR_Sched *s, MPI_Count count, MPI_Datatype type);

/* Runs s to completion and frees it. Returns the first error (a class, reason recorded). s may be
 * NULL (creation failed). */
int MPIR_Sched_run(MPIR_Sched *s);
/* Starts s in the background behind a new request (completed, with the first error in its status,
 * when the last step is done) and gives up s. Without a request, returns the error while s takes
 * its part in the background. s may be NULL (creation failed). */
int MPIR_Sched_start(MPIR_Sched *s, MPI_Request *request);

/* Blocking collective (request NULL: run here) or nonblocking (start behind *request). */
static inline int MPIR_Sched_finish(MPIR_Sched *s, MPI_Request *request)
{
    return request ? MPIR_Sched_start(s, request) : MPIR_Sched_run(s);
}

/* The schedule for a collective of kind, nonblocking if request. */
static inline MPIR_Sched *MPIR_Sched_for(MPIR_Comm *c, int kind, MPI_Request *request)
{
    return MPIR_Sched_create(c, kind, request != NULL);
}

/* ---- algorithms other collectives build on (arguments already checked; steps added to s) ---- */

/* MPI_Reduce of count elements (sendbuf MPI_IN_PLACE: the input is in recvbuf). */
void MPIR_Sched_add_reduce(MPIR_Sched *s, const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype type,
                           MPI_Op op, int root, MPIR_Comm *c);
/* MPI_Scatter(v) of the root's blocks (recvbuf MPI_IN_PLACE at the root: keep its block). */
void MPIR_Sched_add_scatter(MPIR_Sched *s, const MPIR_Blocks *send, void *recvbuf, MPI_Count recvcount,
                            MPI_Datatype recvtype, int root, MPIR_Comm *c);

#endif
