/*
 * The shared-memory device: internal structures.
 *
 * Region. One shared-memory object per job (named by mpiexec in LOOM_SHM; created and formatted
 * by rank 0, attached by the others; a singleton uses private memory). It holds a header, one
 * state record per rank, and a ring of cells for every ordered pair of ranks (sender, receiver):
 * rings are single-producer single-consumer, so moving a cell needs no lock, only a release store
 * of the ring's head (sender) or tail (receiver).
 *
 * Protocol. A message whose data fits in one cell travels eagerly: envelope and data in one cell.
 * Larger messages, and all synchronous sends, use rendezvous: the sender posts a request-to-send
 * (RTS) cell; when the receiver matches it, it answers clear-to-send (CTS); the sender then packs
 * the data with the segment engine straight into cells (DATA) as ring space allows, and the
 * receiver unpacks each straight into the user buffer. Cells of one pair arrive in order, so
 * messages are matched in the order they were sent.
 *
 * Waiting. Each rank has a doorbell, a counter every peer bumps after giving it a cell or ring
 * space. A waiting rank spins briefly, then yields, then sleeps on the doorbell with a futex; a
 * peer wakes it only if it said it sleeps. So 72 ranks on 2 cores wait without spinning.
 */
#ifndef SHM_IMPL_H_INCLUDED
#define SHM_IMPL_H_INCLUDED

#include <stdatomic.h>
#include <stdint.h>
#include "mpiimpl.h"
#include "mpid_device.h"

#define SHM_MAGIC 0x4c4f4f4d53484d31ull   /* "LOOMSHM1" */
#define SHM_CACHE_LINE 64

enum { CELL_EAGER = 1, CELL_RTS, CELL_CTS, CELL_DATA };

/* The envelope and bookkeeping at the start of every cell. */
typedef struct {
    int kind;
    int context_id, tag, src_lpid;
    MPI_Count bytes;                /* EAGER, RTS: the message's total bytes */
    MPI_Count offset, len;          /* DATA: stream offset and length of the payload; EAGER: len */
    uint64_t sender_req, receiver_req;
    uint64_t sig;                   /* the sender's signature hash over n_elements elements */
    MPI_Count n_elements;
    MPI_Datatype sender_basic;      /* the sender's basic type, MPI_DATATYPE_NULL if mixed */
} Cell_header;

typedef struct {
    Cell_header h;
    char payload[];                 /* region->cell_payload bytes */
} Cell;

typedef struct {
    _Atomic uint64_t head;          /* cells published by the sender */
    char pad1[SHM_CACHE_LINE - sizeof(uint64_t)];
    _Atomic uint64_t tail;          /* cells consumed by the receiver */
    char pad2[SHM_CACHE_LINE - sizeof(uint64_t)];
    /* cells follow */
} Ring;

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
    size_t ncells, cell_payload, cell_size, ring_size;
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
    return (Cell *) ((char *) (ring + 1) + (index % shm.region->ncells) * shm.region->cell_size);
}

/* ---- waiting (shm_wait.c) ---- */
void shm_ring_doorbell(int rank);
uint32_t shm_doorbell_value(void);
/* Blocks until the doorbell moves from seen, with backoff; returns after at most a few ms. */
void shm_wait_doorbell(uint32_t seen);

/* ---- matching and protocols (shm_progress.c) ---- */
extern pthread_mutex_t shm_lock;
/* One pass over incoming rings and pending sends; returns whether anything happened. Lock held. */
bool shm_progress(void);
/* Queues a send request for its first cell and tries to post it. Lock held. */
void shm_start_send(MPIR_Request *req);
/* Matches a new receive against unexpected messages, or posts it. Lock held. */
void shm_start_recv(MPIR_Request *req);
int shm_iprobe(int source, int tag, MPIR_Comm *comm, int context_id, int *flag, MPI_Status *status);
bool shm_cancel_recv(MPIR_Request *req);
void shm_progress_finalize(void);

static inline int shm_recv_context(const MPIR_Comm *comm, int context_offset)
{
    return (comm->is_inter ? comm->recv_context_id : comm->context_id) + context_offset;
}

#endif
