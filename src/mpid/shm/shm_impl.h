/*
 * The shared-memory device: internal structures.
 *
 * Region. One shared-memory object per job (named by mpiexec in LOOM_SHM; created and formatted
 * by rank 0, attached by the others; a singleton uses private memory). It holds a header, one
 * state record per rank, and a ring of cells for every ordered pair of ranks (sender, receiver):
 * rings are single-producer single-consumer, so moving a cell needs no lock: the sender fills a
 * cell and stores its sequence word (release), the receiver polls that word and stores the ring's
 * tail (release) when done with the cell.
 *
 * Protocol. A message of up to 16 KiB (and one cell) travels eagerly: envelope and data in one
 * cell. Larger messages, and all synchronous sends, use rendezvous: the sender posts a
 * request-to-send (RTS) cell; when the receiver matches it, it answers clear-to-send (CTS); the
 * sender then packs the data with the segment engine straight into cells (DATA, at least four per
 * message) as ring space allows, and the receiver unpacks each straight into the user buffer while
 * the next is packed. Cells of one pair arrive in order, so messages are matched in the order they
 * were sent.
 *
 * Waiting. A waiting rank polls the next cell of each incoming ring. When the job has no more
 * ranks than the machine has cores it spins for a while (a message usually comes within
 * microseconds, and a futex sleep and wake-up costs several); otherwise it yields at once. Then it
 * sleeps on its doorbell, a futex word that peers bump, and wake, only when it said it sleeps (and
 * when they free space in a ring it found full). So a ping-pong costs no atomic read-modify-write
 * across caches, and 72 ranks on 2 cores wait without burning the cores.
 */
#ifndef SHM_IMPL_H_INCLUDED
#define SHM_IMPL_H_INCLUDED

#include <stdatomic.h>
#include <stdint.h>
#include "mpiimpl.h"
#include "mpid_device.h"

#define SHM_MAGIC 0x4c4f4f4d53484d31ull   /* "LOOMSHM1" */
#define SHM_CACHE_LINE 64

/* CELL_TAKEN: read by the receiver out of order, past a message held back in the ring (see
 * shm_progress.c); the tail moves over it when it gets there. */
enum { CELL_EAGER = 1, CELL_RTS, CELL_CTS, CELL_DATA, CELL_TAKEN };

/* The envelope and bookkeeping of a cell. Everything an eager message needs comes first, so with
 * the cell's sequence word it fills one cache line: a small message costs the receiver one or two
 * line transfers. */
typedef struct {
    int kind;
    int context_id, tag, src_lpid;
    MPI_Count bytes;                /* EAGER, RTS: the message's total bytes */
    uint64_t sig;                   /* the sender's signature hash over n_elements elements */
    MPI_Count n_elements;
    MPI_Datatype sender_basic;      /* the sender's basic type, MPI_DATATYPE_NULL if mixed */
    int pad;
    MPI_Count len;                  /* EAGER, DATA: length of the payload */
    MPI_Count offset;               /* DATA: stream offset of the payload */
    uint64_t sender_req, receiver_req;
} Cell_header;

/* A cell is full when seq == its ring index + 1: the sender stores seq (release) after the rest,
 * the receiver polls it, so no shared head counter travels between the caches. The payload starts
 * on a line of its own (the header takes 96 bytes), so that copies to and from an aligned user
 * buffer move whole lines: on the Zen 5 host a ping-pong of 6.3, 16 and 40 KB messages took 5%,
 * 11% and 2% less time than with the payload at byte 96 (the cell's size is the same). */
typedef struct {
    _Atomic uint64_t seq;
    Cell_header h;
    char payload[] __attribute__((aligned(SHM_CACHE_LINE)));   /* region->cell_payload bytes */
} Cell;

/* One ring per (sender, receiver), each field group on its own cache line by who writes it. */
typedef struct {
    uint64_t head;                  /* the sender's: index of the next cell to fill */
    uint64_t tail_seen;             /* the sender's: the receiver's tail when it last looked */
    char pad1[SHM_CACHE_LINE - 2 * sizeof(uint64_t)];
    _Atomic uint64_t tail;          /* cells consumed by the receiver */
    char pad2[SHM_CACHE_LINE - sizeof(uint64_t)];
    _Atomic int want_space;         /* the sender found the ring full: ring its doorbell on consuming */
    char pad3[SHM_CACHE_LINE - sizeof(int)];
    /* cells follow */
} Ring;
/* Rings start on pages and cells are whole lines, so every cell, and so its payload, starts on a
 * line. */
_Static_assert(sizeof(Ring) % SHM_CACHE_LINE == 0, "cells must start on cache lines");

typedef struct {
    _Atomic uint32_t doorbell;      /* futex word */
    _Atomic int sleeping;           /* threads of this rank asleep on the doorbell */
    _Atomic int pid;
    char pad[SHM_CACHE_LINE - 3 * sizeof(int)];
} Rank_state;

typedef struct {
    uint64_t magic;
    _Atomic int ready;              /* rank 0 has formatted the region */
    _Atomic int attached;           /* ranks that have mapped it; the last one unlinks the name */
    _Atomic int aborted;
    int nranks;
    size_t ncells, cell_payload, cell_size, ring_size;   /* ncells: a power of two */
    size_t ranks_offset, rings_offset;
} Region_header;

/* The process's view of the job. */
typedef struct {
    Region_header *region;
    size_t region_bytes;
    bool shared;                    /* false for a singleton's private memory */
    int rank, nranks;
    Rank_state *ranks;
    char *rings;
} Shm_state;
extern Shm_state shm;

/* ---- region (shm_region.c) ---- */
int shm_region_attach(void);
void shm_region_detach(void);

static inline Ring *shm_ring(int sender, int receiver)
{
    return (Ring *) (shm.rings + ((size_t) sender * shm.nranks + receiver) * shm.region->ring_size);
}

static inline Cell *shm_cell(Ring *ring, uint64_t index)
{
    return (Cell *) ((char *) (ring + 1) + (index & (shm.region->ncells - 1)) * shm.region->cell_size);
}

/* ---- waiting (shm_wait.c) ---- */
/* Chooses the fences (MPID_Init). */
void shm_wait_init(void);
/* The two sides of the asymmetric fence (see shm_wait.c): fast where it runs per message, slow
 * where it runs before sleeping or on a full ring. */
extern bool shm_have_membarrier;
static inline void shm_fence_fast(void)
{
    if (shm_have_membarrier)
        atomic_signal_fence(memory_order_seq_cst);
    else
        atomic_thread_fence(memory_order_seq_cst);
}
void shm_fence_slow(void);
/* Bumps rank's doorbell and wakes it if it sleeps (ring space freed, shutdown). */
void shm_ring_doorbell(int rank);
/* After publishing a cell to rank: wakes it only if it said it sleeps. */
void shm_notify(int rank);
uint32_t shm_doorbell_value(void);
/* Blocks until the doorbell moves from seen or a cell arrives, with backoff; returns after at most
 * a few ms. */
void shm_wait(uint32_t seen);

/* Whether the next cell of the ring from sender to this rank is full. */
static inline bool shm_cell_ready(int sender)
{
    Ring *r = shm_ring(sender, shm.rank);
    uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    return atomic_load_explicit(&shm_cell(r, tail)->seq, memory_order_acquire) == tail + 1;
}

/* ---- matching and protocols (shm_progress.c) ---- */
/* The device lock, taken only when threads may call MPI at the same time (MPI_THREAD_MULTIPLE);
 * a lower level promises one calling thread at a time. */
extern pthread_mutex_t shm_lock_mutex;
static inline void shm_lock(void)
{
    if (MPIR_Process.thread_level == MPI_THREAD_MULTIPLE)
        pthread_mutex_lock(&shm_lock_mutex);
}
static inline void shm_unlock(void)
{
    if (MPIR_Process.thread_level == MPI_THREAD_MULTIPLE)
        pthread_mutex_unlock(&shm_lock_mutex);
}
/* One pass over incoming rings and pending sends; returns whether anything happened. Lock held. */
bool shm_progress(void);
/* Queues a send request for its first cell and tries to post it. Lock held. */
void shm_start_send(MPIR_Request *req);
/* Sends an eager message at once without a request if a cell is free and nothing is queued
 * before it to dest; false if it did not (then nothing happened). Lock held. */
bool shm_send_now(const void *buf, MPI_Count count, MPID_Datatype *dt, MPI_Count bytes, int dest, int context_id,
                  int tag);
/* Matches a new receive against unexpected messages, or posts it. Lock held. */
void shm_start_recv(MPIR_Request *req);
int shm_iprobe(int source, int tag, MPIR_Comm *comm, int context_id, int *flag, MPI_Status *status);
/* Matched probe: takes the message off the unexpected queue. */
int shm_improbe(int source_lpid, int tag, MPIR_Comm *comm, int context_id, int *flag, MPID_Message **msg,
                MPI_Status *status);
/* Receives a message shm_improbe took (and frees it). */
void shm_mrecv(MPIR_Request *req, MPID_Message *msg);
void shm_message_free(MPID_Message *msg);
bool shm_cancel_recv(MPIR_Request *req);
/* The per-destination send queues (MPID_Init); and everything the protocols still hold. */
int shm_progress_init(void);
void shm_progress_finalize(void);

static inline int shm_recv_context(const MPIR_Comm *comm, int context_offset)
{
    return (comm->is_inter ? comm->recv_context_id : comm->context_id) + context_offset;
}

#endif
