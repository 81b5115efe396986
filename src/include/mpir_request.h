/*
 * Requests: what MPI_Isend, MPI_Irecv and their kin return, completed by the device's progress
 * engine and reaped by MPI_Wait/MPI_Test and friends.
 *
 * A request holds references on its communicator and datatype for its whole life, so either may
 * be freed by the user before the operation completes. The device part (dev) belongs to the
 * device and is opaque here.
 *
 * A persistent request (MPI_Send_init & co.) is only a description of an operation: each
 * MPI_Start runs it as an ordinary request of its own (persist.active) that the completion calls
 * reap and release; the persistent request itself stays until MPI_Request_free. While inactive it
 * is complete, with an empty status.
 */
#ifndef MPIR_REQUEST_H_INCLUDED
#define MPIR_REQUEST_H_INCLUDED

#include <stdatomic.h>
#include <stdbool.h>
#include "mpi.h"
#include "mpir_object.h"
#include "mpid_dataloop.h"

struct MPIR_Comm;
struct MPID_Datatype;

typedef enum {
    MPIR_REQUEST_SEND,
    MPIR_REQUEST_RECV,
    MPIR_REQUEST_GENERALIZED,   /* completed by the MPI layer itself (e.g. buffered sends) */
} MPIR_Request_kind;

typedef struct MPIR_Request {
    MPIR_Object obj;
    MPIR_Request_kind kind;
    _Atomic int complete;           /* set (release) by the device when the operation is done */
    MPI_Status status;              /* source, tag, error, received byte count, cancelled */
    struct MPIR_Comm *comm;         /* referenced */
    struct MPID_Datatype *type;     /* referenced */
    _Atomic bool freed_by_user;     /* MPI_Request_free: release when complete (lookups fail) */
    bool persistent;
    struct MPIR_Request *partner;   /* MPI_Isendrecv: the request is the receive, partner the send
                                       (referenced); it completes when both have */
    void *owned;                    /* freed with the request (a send's packed copy of its data) */
    struct MPIR_Grequest *greq;     /* a user's generalized request (MPI_Grequest_start): its
                                       callbacks (src/mpi/pt2pt/grequest.c), else NULL */
    struct {
        int op;                     /* MPIR_PERSIST_* */
        void *buf;
        MPI_Count count;
        int peer, tag;              /* dest or source, tag (checked at init) */
        struct MPIR_Request *active;    /* the running instance; NULL while inactive */
        /* a persistent collective: starts the nonblocking one with the arguments in owned, under
           the number its init took in the communicator's sequence of collectives */
        int (*start)(const void *args, MPI_Request *request);
        unsigned seq;
    } persist;
    /* device state */
    struct {
        int protocol;               /* eager, rendezvous, ... (device private) */
        int peer_lpid;              /* world rank of the other side */
        int context_id, tag;
        int mode;                   /* send mode */
        MPI_Count bytes;            /* total bytes of the message */
        MPI_Count done;             /* bytes moved so far (receive: placed in the buffer) */
        MPI_Count received;         /* receive: stream bytes arrived, placed or dropped */
        char carry[64];             /* receive: the start of an element split between two chunks */
        int carry_len;
        uint64_t remote_id;         /* the other side's request id (rendezvous) */
        uint64_t sig_hash;          /* sender's signature hash, or the receiver's check */
        bool contig;                /* the data is one run at contig_buf: moved with memcpy, and
                                       seg holds only size and count */
        char *contig_buf;
        MPID_Segment seg;           /* the user buffer as a packed stream (borrows the type) */
        void *unexpected;           /* a matched unexpected message still to be consumed */
        struct MPIR_Request *next;  /* device queues */
    } dev;
} MPIR_Request;

/* What a persistent request starts: a send mode (MPID_SEND_*, mpid_device.h), a buffered send, a
 * receive, or a collective (src/mpi/coll/persistent_coll.c). */
enum { MPIR_PERSIST_BSEND = 16, MPIR_PERSIST_RECV, MPIR_PERSIST_COLL };

/* The callbacks of a user's generalized request (grequest.c); each returns MPI_SUCCESS for a
 * request that is not one. query fills req->status; free runs once, at the request's end. */
int MPIR_Grequest_query(MPIR_Request *req);
int MPIR_Grequest_free(MPIR_Request *req);
int MPIR_Grequest_cancel(MPIR_Request *req);

/* A new request (ref_count 1, incomplete), or NULL if out of memory. */
MPIR_Request *MPIR_Request_create(MPIR_Request_kind kind);
/* Drops a reference; the last one releases the comm and datatype references and the record. */
void MPIR_Request_release(MPIR_Request *req);
/* The request behind a user handle, or NULL. */
MPIR_Request *MPIR_Request_lookup(MPI_Request handle);
/* The same, also for a request the user has freed that is still pending. */
MPIR_Request *MPIR_Request_lookup_freed_too(MPI_Request handle);

static inline bool MPIR_Request_is_complete(const MPIR_Request *req)
{
    if (req->persistent)
        req = req->persist.active;
    if (req == NULL)
        return true;
    return atomic_load_explicit(&req->complete, memory_order_acquire)
           && (req->partner == NULL || atomic_load_explicit(&req->partner->complete, memory_order_acquire));
}

/* A persistent request not started (MPI_Waitany and MPI_Waitsome pass over these, as over
 * MPI_REQUEST_NULL). */
static inline bool MPIR_Request_is_inactive(const MPIR_Request *req)
{
    return req->persistent && req->persist.active == NULL;
}

/* The error of a completed request (MPI_SUCCESS for an inactive one). */
/* The error of a completed request (of a pair: the receive's, else the send's). */
static inline int MPIR_Request_error(const MPIR_Request *req)
{
    if (req->persistent)
        req = req->persist.active;
    if (req == NULL)
        return MPI_SUCCESS;
    if (req->status.MPI_ERROR == MPI_SUCCESS && req->partner)
        return req->partner->status.MPI_ERROR;
    return req->status.MPI_ERROR;
}

#endif
