/*
 * Communicators inside the library (src/mpi/comm).
 *
 * Files: comm_object.c (pool, builtins, references, finalize), comm_context.c (agreeing on context
 * ids), comm_p2p.c (the library's own messages on a communicator's collective context),
 * comm_create.c (dup, split, create, free), comm_idup.c (nonblocking dup), comm_inter.c (intercommunicators), comm_query.c,
 * comm_name.c, comm_attr.c.
 */
#ifndef MPIR_COMM_INTERNAL_H_INCLUDED
#define MPIR_COMM_INTERNAL_H_INCLUDED

#include "mpiimpl.h"
#include "mpir_impl_proto.h"     /* MPIR_Allreduce_impl, the one collective used here */
#include "mpid_device.h"
#include "../group/group.h"

/* ---- objects (comm_object.c) ---- */

/* A new intracommunicator of the group local on the context id context_id (allocated by this
 * process), with the error handler of parent. It takes its own reference on the group and owns the
 * context from then on (freed when the communicator is destroyed); on failure the caller keeps it. */
int MPIR_Comm_new(MPIR_Comm *parent, MPIR_Group *local, int context_id, MPIR_Comm **out);
/* A new intercommunicator: sends on send_ctx, receives on recv_ctx, and its local_comm uses
 * local_ctx (both allocated by this process, owned as above). */
int MPIR_Comm_new_inter(MPIR_Comm *parent, MPIR_Group *local, MPIR_Group *remote, int send_ctx, int recv_ctx,
                        int local_ctx, MPIR_Comm **out);

/* MPI_Comm_split on an intracommunicator or intercommunicator (comm_create.c): the communicator of
 * the processes with this process's color (MPI_COMM_NULL for MPI_UNDEFINED), ordered by key. A
 * process that brings MPIR_SPLIT_BAD_COLOR (its own argument error) or any other negative color
 * makes every process fail with bad_class ("process r of the group <what>"), none left waiting;
 * MPIR_SPLIT_FAILED_COLOR (it failed otherwise: out of memory, or it learnt of another's failure)
 * makes the others fail with MPI_ERR_OTHER. */
#define MPIR_SPLIT_BAD_COLOR (-1)
#define MPIR_SPLIT_FAILED_COLOR (-2)
int MPIR_Comm_split_internal(MPIR_Comm *comm, int color, int key, int bad_class, const char *what, MPI_Comm *newcomm);

/* ---- info hints (comm_info.c) ---- */
/* Adds the hints of info (MPI_INFO_NULL: none) to comm's, replacing values of keys set before. */
int MPIR_Comm_info_merge(MPIR_Comm *comm, MPI_Info info);
/* Drops comm's hints. */
void MPIR_Comm_info_free(MPIR_Comm *comm);

/* Sets the values of the predefined attributes (MPI_TAG_UB ...) for this job (comm_attr.c). */
void MPIR_Comm_attr_init(void);

static inline MPI_Comm MPIR_Comm_handle(const MPIR_Comm *comm)
{
    return MPIR_Object_handle(comm);
}

/* The intracommunicator a collective over "my side" of comm runs on. */
static inline MPIR_Comm *MPIR_Comm_local(MPIR_Comm *comm)
{
    return comm->is_inter ? comm->local_comm : comm;
}

/* The largest tag users may pass (the value of MPI_TAG_UB). */
#ifndef MPIR_TAG_UB
#define MPIR_TAG_UB ((1 << 30) - 1)
#endif

/* ---- context ids (comm_context.c) ---- */

#define MPIR_CONTEXT_MAX 8192   /* context ids are 0 .. MPIR_CONTEXT_MAX-1, two per communicator */
#define MPIR_CONTEXT_WORLD 0
#define MPIR_CONTEXT_SELF 2

/* Marks every id free but those of MPI_COMM_WORLD and MPI_COMM_SELF. */
void MPIR_Context_init(void);
/* Agrees on n context ids free in every process of comm (both groups of an intercommunicator);
 * collective over comm. ids[] ascending. A process that failed before (local_err, returned) or
 * fails in it still takes part, and then every process of the agreement fails (MPI_ERR_OTHER
 * where it did not fail itself); ids[] is then not to be freed. */
int MPIR_Context_alloc(MPIR_Comm *comm, int local_err, int n, int *ids);
/* The same over the members of group only (a subgroup of the intracommunicator parent), with
 * messages on parent tagged with tag: MPI_Comm_create_group. */
int MPIR_Context_alloc_group(MPIR_Comm *parent, const MPIR_Group *group, int tag, int n, int *ids);
/* Returns an id this process allocated. */
void MPIR_Context_free(int id);

/* An agreement in steps, for callers that combine the offers themselves (nonblocking creations):
 * begin; then rounds of offer (this process's offer into buf), a bitwise AND of buf over every
 * participant by the caller, and claim, until claim returns anything but MPIR_CONTEXT_RETRY
 * (MPI_SUCCESS with ids[0..n) ascending, or an error class); then end. prio orders competing
 * agreements and is the same in every participant (MPIR_Context_priority). */
#define MPIR_CONTEXT_BUF_WORDS (MPIR_CONTEXT_MAX / 64 + 2)
#define MPIR_CONTEXT_RETRY (-1)
typedef struct {
    long long prio;
    int round;
    bool nonblocking, registered, owner;
} MPIR_Context_agreement;
int MPIR_Context_agree_begin(MPIR_Context_agreement *a, long long prio, bool nonblocking);
void MPIR_Context_agree_offer(MPIR_Context_agreement *a, unsigned *buf);
int MPIR_Context_agree_claim(MPIR_Context_agreement *a, const unsigned *buf, int n, int *ids);
void MPIR_Context_agree_end(MPIR_Context_agreement *a);
/* The priority of an agreement over comm (or a group of it) tagged tag. */
long long MPIR_Context_priority(const MPIR_Comm *comm, int tag);

/* ---- the library's own messages (comm_p2p.c) ---- */

/* Internal messages travel on a communicator's collective context with tags above MPI_TAG_UB
 * (2^30-1), so no user receive can match them: a user-supplied tag t (MPI_Intercomm_create,
 * MPI_Comm_create_group) becomes MPIR_TAG_USER(t); the library's fixed exchanges use the two
 * values at the top of that range. */
#define MPIR_TAG_USER(t) ((1 << 30) | (t))
#define MPIR_TAG_CONTEXT MPIR_TAG_USER(0x3fffffff)      /* context id agreement across groups */
#define MPIR_TAG_LEADERS MPIR_TAG_USER(0x3ffffffe)      /* leaders' exchanges on an intercommunicator */
/* A nonblocking creation (MPI_Comm_idup) takes the next number of the communicator's sequence of
 * collectives (coll_seq, as every collective does) and tags its messages with it, between the
 * schedule engine's tags (below 2^26, src/mpi/coll/coll_sched.c) and MPIR_TAG_USER. */
#define MPIR_TAG_IDUP(seq) ((1 << 29) | (int) ((seq) & 0xffffffu))

/* Blocking exchange with one peer (a rank of the group comm addresses): sends sendcount elements
 * of the predefined type, then receives recvcount; either count may be 0 to skip that half. */
int MPIR_Comm_sendrecv_internal(const void *sendbuf, int sendcount, void *recvbuf, int recvcount,
                                MPI_Datatype type, int peer, int tag, MPIR_Comm *comm);
/* Copies n ints from rank root of the intracommunicator comm to all its processes (an allreduce
 * with MPI_BOR in which the others contribute zeros). */
int MPIR_Comm_bcast_ints(int *buf, int n, int root, MPIR_Comm *comm);
/* The two groups of an intercommunicator swap arrays of ints: the leaders (local rank 0 of each)
 * exchange send[0..nsend) for nrecv ints, then every process of each group gets them in recv[].
 * Collective over inter; every process takes part whatever local_err, the error it has met so
 * far. A leader's local_err makes both groups fail without moving the ints (so recv is written
 * only where the leaders were well, which the caller must make sure of: a process without recv
 * must be in a group whose leader knows). Returns local_err if set, else MPI_ERR_OTHER when either
 * leader failed. */
int MPIR_Comm_swap_with_remote(MPIR_Comm *inter, int local_err, const int *send, int nsend, int *recv, int nrecv);

#endif
