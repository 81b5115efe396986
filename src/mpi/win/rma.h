/*
 * One-sided communication over the device's messages (MPI 4.1 chapter 12).
 *
 * Every operation is a message to the target process on the window's private communicator: a
 * header (what, where, and the target datatype described as in rma_type.c), then the origin's
 * data as a message of its own, sent with the origin's datatype, so the segment engine packs it
 * straight from the origin buffer. The target handles headers in its progress hook (rma_target.c):
 * a put is received straight into the window with the rebuilt target datatype; an accumulate into
 * a packed buffer that the operation then combines into the window; a get is answered with a
 * message sent from the window with the target datatype.
 *
 * Order. The target handles the operations it receives one after the other, in the order they
 * arrived (the device delivers one origin's messages in order), and answers in that order. So an
 * operation is applied when every earlier one is; a flush, an unlock or the end of an access
 * epoch is a header too, and its acknowledgement (or its being counted) says that everything the
 * origin sent before it is done at the target. Accumulates are atomic with respect to each other
 * because one process applies them all, one at a time.
 *
 * Progress. The target must enter the library (any call that waits or tests) for operations on
 * its window to advance, as MPICH's shared-memory device does without a progress thread. A
 * passive-target epoch towards a process that never calls MPI waits.
 *
 * Locks are granted by the target in its hook: exclusive to one origin, shared to any number;
 * requests that cannot be granted wait in arrival order. MPI_Win_lock waits for the grant.
 */
#ifndef RMA_H_INCLUDED
#define RMA_H_INCLUDED

#include <pthread.h>
#include <sched.h>
#include "mpiimpl.h"
#include "mpir_win.h"

/* Tags on the window's communicator (collectives there use tags from 64 up). */
enum { RMA_TAG_HEADER = 1, RMA_TAG_DATA, RMA_TAG_REPLY, RMA_TAG_ACK, RMA_TAG_POST };

typedef enum {
    RMA_PUT = 1, RMA_GET, RMA_ACC, RMA_GET_ACC, RMA_CAS,    /* operations */
    RMA_FLUSH, RMA_LOCK, RMA_UNLOCK, RMA_COMPLETE,          /* synchronization */
} Rma_kind;

/* A header; the words of the target datatype's description follow it. */
typedef struct {
    int kind;
    int lock_type;          /* RMA_LOCK */
    MPI_Op op;              /* RMA_ACC, RMA_GET_ACC */
    int type_depth;         /* the description's nesting depth */
    MPI_Aint offset;        /* bytes from the target's window base (disp * its disp_unit) */
    MPI_Count count;        /* target count */
    MPI_Count bytes;        /* the target data's packed bytes (count x the target type's size) */
    MPI_Count ndesc;        /* words of the description */
} Rma_header;

/* Where the origin's data starts in a message: after the header and the description, on 16
 * bytes, so that the target combines aligned elements. */
static inline size_t MPIR_Rma_data_offset(MPI_Count ndesc)
{
    return (sizeof(Rma_header) + (size_t) ndesc * sizeof(int64_t) + 15) & ~(size_t) 15;
}

/* Per process of a window in shared memory (win_shared.c): its passive-target lock (0 free, -1
 * held exclusively, n > 0 held by n sharers) and the lock its accumulates take. */
typedef struct {
    _Atomic int lock;
    _Atomic int accumulate;
    char pad[64 - 2 * sizeof(int)];
} MPIR_Rma_control;

/* An operation or message of the origin not yet complete. */
typedef struct {
    MPIR_Request *req;
    int target;
    void *buf;              /* freed with it: a message, or an acknowledgement's error class */
    bool ack;               /* buf is an acknowledgement: an error class the target reports */
} Rma_pending;

struct MPIR_Target_op;
struct MPIR_Lock_wait;

/* The window's one-sided state. */
typedef struct MPIR_Rma {
    MPIR_Win *win;
    int nranks;
    MPI_Aint *sizes;        /* every process's window size and displacement unit (at creation) */
    int *disp_units;
    /* direct: the window is in shared memory (win_shared.c), and origins reach every process's
     * part at bases[rank] themselves; the operations are done when their call returns */
    bool direct;
    bool dynamic;           /* MPI_Win_create_dynamic: displacements are addresses at the target,
                               checked there against the memory attached */
    char **bases;
    MPIR_Rma_control *control;

    /* origin side (under lock) */
    pthread_mutex_t lock;
    Rma_pending *pending;
    size_t npending, cap;
    unsigned char *touched;         /* per target: operations since its last flush */
    unsigned char *locked;          /* per target: RMA_LOCK_NONE, _HELD, _NOCHECK */
    unsigned char *in_access;       /* per target: in the group of MPI_Win_start */
    bool fence_open;                /* a fence opened an epoch (no MPI_MODE_NOSUCCEED) */
    int lock_all;                   /* RMA_LOCK_NONE, _HELD, _NOCHECK */
    bool access_open;               /* between MPI_Win_start and MPI_Win_complete */
    int *exposure;                  /* the group of MPI_Win_post, as ranks; -1 if none */
    int nexposure;
    bool exposure_open;
    _Atomic int completes;          /* MPI_Win_complete notices received (target side counts) */

    /* target side (under the module's target lock, rma_target.c) */
    struct MPIR_Target_op *head, *tail;     /* operations received, in order */
    int exclusive;                  /* the origin holding the exclusive lock, or -1 */
    int shared;                     /* origins holding the shared lock */
    struct MPIR_Lock_wait *waiting, *waiting_tail;
    int *failed;            /* per origin: the error class of an operation it could not have done
                               (dynamic windows: outside the memory attached), for its next
                               acknowledgement; NULL until one fails */
    struct MPIR_Attached *attached;     /* dynamic windows: the memory attached, in no order */
    size_t nattached, capattached;
    Rma_pending *replies;           /* answers in flight, with their buffers */
    size_t nreplies, capreplies;
    struct MPIR_Rma *next;          /* windows with one-sided state */
} MPIR_Rma;

enum { RMA_LOCK_NONE, RMA_LOCK_HELD, RMA_LOCK_EXCLUSIVE, RMA_LOCK_NOCHECK };   /* HELD: shared */

/* A short critical section on a lock word of shared memory (an accumulate lock): spin, and give
 * the core away while another process holds it, since it may be waiting for this core. */
static inline void MPIR_Rma_spin_lock(_Atomic int *word)
{
    for (int spins = 0;; spins++) {
        int free_ = 0;
        if (atomic_compare_exchange_weak_explicit(word, &free_, 1, memory_order_acquire, memory_order_relaxed))
            return;
        if (spins >= 64)
            sched_yield();
    }
}

static inline void MPIR_Rma_spin_unlock(_Atomic int *word)
{
    atomic_store_explicit(word, 0, memory_order_release);
}

/* ---- rma_type.c ---- */
/* The description of type's constructor tree (malloc'd words), and the tree's depth. */
int MPIR_Rma_type_describe(MPI_Datatype type, int64_t **words, size_t *nwords, int *depth);
/* The committed type a description stands for (a derived one is the caller's to free), built on
 * a stack for its depth. */
int MPIR_Rma_type_rebuild(const int64_t *words, size_t nwords, int depth, MPI_Datatype *type);

/* A piece of memory attached to a dynamic window (MPI_Win_attach). */
typedef struct MPIR_Attached {
    char *base;
    MPI_Aint size;
} MPIR_Attached;

/* ---- rma_target.c ---- */
/* MPI_Win_attach and MPI_Win_detach: under the target lock, since the hook reads the list. */
int MPIR_Rma_attach(MPIR_Rma *r, void *base, MPI_Aint size);
int MPIR_Rma_detach(MPIR_Rma *r, const void *base);
/* Registers the window with the progress hook (at creation) and takes it off (at free, after
 * the closing barrier: its answers still in flight are waited for). */
void MPIR_Rma_target_attach(MPIR_Rma *r);
void MPIR_Rma_target_detach(MPIR_Rma *r);

/* ---- rma_ops.c ---- */
/* Sends a header of kind (no data) to target, and for RMA_FLUSH, RMA_LOCK and RMA_UNLOCK also
 * posts the receive of its acknowledgement; both become pending operations of target. */
int MPIR_Rma_send_control(MPIR_Rma *r, int target, int kind, int lock_type);
/* Waits for the pending operations of target (-1: all) and drops them; the first error. */
int MPIR_Rma_wait_pending(MPIR_Rma *r, int target);

/* ---- win_shared.c ---- */
/* The memory of a window in shared memory (collective over comm): one mapping of length bytes
 * holding the control area and every process's size bytes in rank order, each part at offsets[rank]
 * (malloc'd), a multiple of align (a power of two up to a page). All succeed or all fail. */
int MPIR_Win_shared_segment(MPI_Comm comm, MPI_Aint size, size_t align, void **segment, size_t *length,
                            MPI_Aint **offsets);
void MPIR_Win_shared_segment_free(void *segment, size_t length);

/* ---- win_create.c ---- */
/* The state of a window over nranks processes (win set by the caller). */
int MPIR_Rma_new(int nranks, MPIR_Rma **out);
void MPIR_Rma_free(MPIR_Rma *r);

#endif
