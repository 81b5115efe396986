/*
 * What the collective algorithms share: blocking point-to-point on a communicator's collective
 * context, request waiting, argument checks, and temporary buffers.
 *
 * Every message of a collective travels on context_id + MPIR_CONTEXT_COLL_OFFSET, so it never
 * matches a user's receive, with a tag of its own (coll_sched.h) made with the collective's kind
 * below, so that ranks that call different collectives (an erroneous program) do not silently
 * exchange data. The algorithms themselves are schedules (coll_sched.h).
 */
#ifndef COLL_UTIL_H_INCLUDED
#define COLL_UTIL_H_INCLUDED

#include "mpiimpl.h"

/* The kinds of collective (at most 15: four bits of the tag). */
enum {
    MPIR_TAG_BARRIER = 1, MPIR_TAG_BCAST, MPIR_TAG_REDUCE, MPIR_TAG_ALLREDUCE, MPIR_TAG_GATHER,
    MPIR_TAG_SCATTER, MPIR_TAG_ALLGATHER, MPIR_TAG_ALLTOALL, MPIR_TAG_SCAN, MPIR_TAG_NEIGHBOR
};

/* ---- communication (comm ranks; MPI_PROC_NULL peers complete at once) ---- */

int MPIR_Coll_isend(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPIR_Comm *comm,
                    MPIR_Request **req);
int MPIR_Coll_irecv(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPIR_Comm *comm,
                    MPIR_Request **req);

/* ---- argument checks (MPIR_Err reasons) ---- */

/* The communicator of a collective: an intracommunicator. */
int MPIR_Coll_comm(MPI_Comm comm, MPIR_Comm **c);
/* The communicator behind comm if it is an intercommunicator (the collectives that support them
 * then go to coll_inter.h), else NULL. */
MPIR_Comm *MPIR_Coll_inter(MPI_Comm comm);
int MPIR_Coll_check_root(int root, const MPIR_Comm *c);
/* One buffer argument: count >= 0, type valid and committed, no NULL buffer for data that must be
 * there. Names are the argument names for the message; index >= 0 names an array element. */
int MPIR_Coll_check_data(const char *buf_name, const void *buf, const char *count_name, MPI_Count count,
                         const char *type_name, MPI_Datatype type, long long index);
struct MPIR_Blocks;
/* Every block of a layout (see MPIR_Blocks below); the caller has checked that the user's arrays
 * are not NULL. */
int MPIR_Coll_check_blocks(const char *buf_name, const struct MPIR_Blocks *b, int n, const char *count_name,
                           const char *type_name);
/* A send buffer that is also the receive buffer (MPI_IN_PLACE exists for that): MPI_ERR_BUFFER. */
int MPIR_Coll_check_alias(const void *sendbuf, MPI_Count sendcount, const void *recvbuf, MPI_Count recvcount);
/* The communicator (MPIR_Coll_comm) and arguments of a reduction whose result every rank receives
 * (allreduce, scan, exscan): sendbuf (unless MPI_IN_PLACE) and recvbuf, their aliasing, and op on
 * datatype. */
int MPIR_Coll_check_reduction(MPI_Comm comm, MPIR_Comm **c, const void *sendbuf, const void *recvbuf,
                              MPI_Count count, MPI_Datatype datatype, MPI_Op op);
/* The arguments of a linear gather (gather: the ranks' data goes to the root) or scatter, checked
 * in one place because one is the mirror of the other: data (count, type) is every rank's own
 * buffer (sendbuf of a gather, recvbuf of a scatter; MPI_IN_PLACE only at the root), blocks the
 * root's buffer of one block per rank; v: MPI_Gatherv/MPI_Scatterv, whose counts must be given. */
int MPIR_Coll_check_rooted(bool gather, const void *data, MPI_Count count, MPI_Datatype type,
                           const struct MPIR_Blocks *blocks, bool v, int root, const MPIR_Comm *c);

/* ---- data ---- */

/* A temporary typed buffer (MPIR_Typed_alloc): buf is where instance 0 goes, base is freed. */
typedef struct {
    void *buf, *base;
} MPIR_Tmpbuf;

static inline int MPIR_Tmpbuf_alloc(MPIR_Tmpbuf *t, MPI_Count count, MPI_Datatype type)
{
    return MPIR_Typed_alloc(count, type, &t->base, &t->buf);
}

static inline void MPIR_Tmpbuf_swap(MPIR_Tmpbuf *a, MPIR_Tmpbuf *b)
{
    MPIR_Tmpbuf t = *a;
    *a = *b;
    *b = t;
}

/* buf + bytes, computed on integers: buf may be MPI_BOTTOM (types with absolute addresses). */
static inline char *MPIR_Coll_offset(const void *buf, MPI_Aint bytes)
{
    return (char *) ((uintptr_t) buf + (uintptr_t) bytes);
}

/* The blocks of a buffer of the gather/scatter/all-to-all family, one per rank: block i holds
 * counts[i] elements of types[i] at displs[i] (in extents of its type, or in bytes; the user's
 * arrays, of int or of 64-bit elements). Uniform layouts leave the arrays NULL: then every block
 * holds count elements of type, block i at i * count extents. */
typedef struct MPIR_Blocks {
    const void *buf;
    MPIR_Count_array counts;
    MPI_Count count;
    MPIR_Aint_array displs;
    bool byte_displs;
    const MPI_Datatype *types;
    MPI_Datatype type;
} MPIR_Blocks;

/* Whether the blocks have counts of their own (the v and w forms). */
static inline bool MPIR_Blocks_v(const MPIR_Blocks *b)
{
    return !MPIR_Count_array_is_null(b->counts);
}

static inline MPI_Count MPIR_Blocks_count(const MPIR_Blocks *b, int i)
{
    return MPIR_Blocks_v(b) ? MPIR_Count_array_at(b->counts, i) : b->count;
}

static inline MPI_Datatype MPIR_Blocks_type(const MPIR_Blocks *b, int i)
{
    return b->types ? b->types[i] : b->type;
}

static inline char *MPIR_Blocks_addr(const MPIR_Blocks *b, int i)
{
    MPI_Datatype type = MPIR_Blocks_type(b, i);
    MPI_Aint extent = MPID_Datatype_get(type)->extent;
    if (MPIR_Aint_array_is_null(b->displs))
        return MPIR_Coll_offset(b->buf, i * b->count * extent);
    MPI_Aint d = MPIR_Aint_array_at(b->displs, i);
    return MPIR_Coll_offset(b->buf, b->byte_displs ? d : d * extent);
}

#endif
