/*
 * Communicators and groups.
 *
 * A group lists its members by their rank in MPI_COMM_WORLD ("lpid"). A communicator has a local
 * group, and for an intercommunicator a remote group too; point-to-point ranks address the remote
 * group of an intercommunicator and the local group of an intracommunicator.
 *
 * Messages match only within a context: each communicator owns the context ids context_id (its
 * point-to-point traffic) and context_id + 1 (its collectives), so the two never mix. Context ids
 * are agreed on collectively when a communicator is created (comm_context.c).
 */
#ifndef MPIR_COMM_H_INCLUDED
#define MPIR_COMM_H_INCLUDED

#include <stdatomic.h>
#include "mpi.h"
#include "mpir_object.h"

struct MPIR_Attribute;
struct MPIR_Topology;
struct MPIR_Bsend_buffer;

typedef struct MPIR_Group {
    MPIR_Object obj;
    int size;
    int rank;               /* of the calling process, MPI_UNDEFINED if not a member */
    int *lpids;             /* world rank of each member, in group order */
    int is_user;            /* a handle the user holds (communicators never share these) */
} MPIR_Group;

#define MPIR_CONTEXT_COLL_OFFSET 1

typedef struct MPIR_Comm {
    MPIR_Object obj;
    int rank, size;                     /* in the local group */
    int context_id;                     /* even; context_id + 1 carries the collectives */
    int recv_context_id;                /* intercommunicators: the context the remote side sends on
                                           (intracommunicators: equal to context_id) */
    int is_inter;
    MPIR_Group *local_group;
    MPIR_Group *remote_group;           /* intercommunicators only */
    int remote_size;                    /* size of the group point-to-point ranks address */
    int *rank_of_lpid;                  /* world rank -> rank in the addressed group, or -1 */
    struct MPIR_Comm *local_comm;       /* intercommunicators: an intracomm of the local group */
    _Atomic int errhandler;             /* MPI_Errhandler */
    int errhandler_set_by_user;
    char name[MPI_MAX_OBJECT_NAME];
    struct MPIR_Attribute *attributes;
    _Atomic int freed;                  /* MPI_Comm_free was called: the handle is invalid, but
                                           pending requests may still hold references */
    int is_being_freed;                 /* MPI_Comm_free is running its attribute delete callbacks */
    int is_internal;                    /* made by the library for itself (an intercommunicator's
                                           local_comm): never reported as leaked */
    MPI_Info info;                      /* the hints set (MPI_Comm_set_info, dup_with_info): a private
                                           info object, or 0 if none were ever set */
    unsigned coll_seq;                  /* collectives started so far: each gets its own tag from
                                           this sequence (src/mpi/coll/coll_sched.c) */
    struct MPIR_Bsend_buffer *bsend;    /* the buffer MPI_Comm_attach_buffer attached for its
                                           buffered sends (src/mpi/pt2pt/bsend.c), or NULL */
    struct MPIR_Topology *topo;         /* a process topology (src/mpi/topo), or NULL; shared by
                                           duplicates, since it never changes */
} MPIR_Comm;

/* References held by requests, attributes' callers, and child communicators. */
void MPIR_Comm_add_ref(MPIR_Comm *comm);
void MPIR_Comm_release(MPIR_Comm *comm);
/* Builds MPI_COMM_WORLD and MPI_COMM_SELF from MPIR_Process.world_rank/size (MPI_Init). */
int MPIR_Comm_init_builtins(void);
/* Releases every communicator state at MPI_Finalize. */
void MPIR_Comm_finalize(void);

/* Drops the buffer a communicator has attached, as it ends (src/mpi/pt2pt/bsend.c). */
void MPIR_Bsend_comm_free(MPIR_Comm *comm);

/* A topology record for one more communicator (MPI_Comm_dup), and its release (src/mpi/topo). */
struct MPIR_Topology *MPIR_Topo_share(struct MPIR_Topology *topo);
void MPIR_Topo_release(struct MPIR_Topology *topo);

/* The group behind a valid handle (MPI_GROUP_EMPTY included), else NULL. */
MPIR_Group *MPIR_Group_lookup(MPI_Group group);
void MPIR_Group_add_ref(MPIR_Group *group);
void MPIR_Group_release(MPIR_Group *group);

/* Whether this process is the root of a rooted collective on comm called with root (on an
 * intercommunicator the root passes MPI_ROOT). */
static inline bool MPIR_Comm_is_root(const MPIR_Comm *comm, int root)
{
    return comm->is_inter ? root == MPI_ROOT : comm->rank == root;
}

/* World rank of rank r of the group a communicator's point-to-point ranks address. */
static inline int MPIR_Comm_lpid(const MPIR_Comm *comm, int r)
{
    return (comm->is_inter ? comm->remote_group : comm->local_group)->lpids[r];
}

#endif
