/*
 * Dataloops and segments: the engine that moves typed data.
 *
 * A dataloop describes one instance of a committed datatype as a small tree of loops over
 * contiguous runs of basic elements. It is built at MPI_Type_commit from the type's constructors
 * and normalised so that equivalent layouts get the same fast form:
 *   - contiguous children are absorbed into their parent's blocks (a vector of contiguous(5, double)
 *     is a vector of 40-byte blocks), adjacent blocks are merged, empty blocks dropped;
 *   - dup, resized, subarray and darray wrappers disappear (they only change where copies go);
 *   - a type whose data is one run in type-map order is a single CONTIG leaf;
 *   - a struct whose entries are runs of basic elements is one INDEXED leaf, with a basic type per
 *     block when the types differ (a struct of a million basic entries costs 20 bytes per entry).
 * Loops that repeat (contig, vector) store no per-block arrays, so regular types take memory
 * independent of their counts.
 *
 * A segment is a cursor over (buf, count, datatype) that packs or unpacks any byte range of the
 * packed stream (see MPID_Segment_pack below for the exact contract).
 */
#ifndef MPID_DATALOOP_H_INCLUDED
#define MPID_DATALOOP_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "mpi.h"
#include "mpid_datatype.h"   /* MPID_Stream_turn */

typedef enum {
    MPID_LOOP_CONTIG,   /* count child elements back to back (at child_extent) */
    MPID_LOOP_VECTOR,   /* count blocks of blocklen children, block k at k * stride */
    MPID_LOOP_BLKIDX,   /* count blocks of blocklen children, block k at offsets[k] (or offsets32[k]) */
    MPID_LOOP_INDEXED,  /* count blocks at offsets[k], of (prefix[k+1] - prefix[k]) / child_size children
                           (or offsets32 and prefix32: MPID_Loop_offset, MPID_Loop_prefix) */
    MPID_LOOP_STRUCT    /* count blocks: block k is one instance of children[k] */
} MPID_Loop_kind;

typedef struct MPID_Loop {
    MPID_Loop_kind kind;
    int depth;                    /* 1 for a leaf */
    MPI_Aint disp;                /* every block is placed relative to base + disp */
    MPI_Count count;              /* number of blocks (CONTIG: number of elements) */
    MPI_Count blocklen;           /* VECTOR, BLKIDX: elements per block */
    MPI_Aint stride;              /* VECTOR: bytes between block starts */
    MPI_Aint *offsets;            /* BLKIDX, INDEXED, STRUCT: byte offset of each block */
    int32_t *offsets32;           /* BLKIDX leaf or INDEXED loop whose offsets span less than 2 GiB:
                                     them, in half the bytes to read and keep (offsets is then NULL);
                                     signed, as a leaf's are measured from its first block's */
    MPI_Count *prefix;            /* INDEXED, STRUCT: packed bytes before block k (count + 1 values) */
    uint32_t *prefix32;           /* INDEXED loop with offsets32 and under 4 GiB of data: prefix,
                                     in 32 bits (prefix is then NULL); the two go together */
    struct MPID_Loop *child;      /* the element of every block; NULL at a leaf (basic elements) */
    struct MPID_Loop **children;  /* STRUCT: block k is one instance of children[k] */
    MPI_Aint child_extent;        /* distance between consecutive elements inside a block */
    MPI_Count child_size;         /* packed bytes of one element */
    MPI_Count size;               /* packed bytes of the whole loop */
    MPI_Datatype el_type;         /* leaf: the basic type of the elements (el_size bytes each) */
    int el_size;                  /* leaf: size of one basic element, never split by a chunk */
    MPI_Datatype *el_types;       /* INDEXED leaf of a struct of mixed basic types: the basic type
                                     of each block (then el_type and el_size are unused) */
    struct MPID_Windows *windows; /* set when one instance of this loop is small and in order: the
                                     byte masks that let a vector unit copy it whole (segment.c) */
    struct MPID_Plan *plan;       /* root of a leaf or a struct of leaves: the kernel calls that
                                     copy one instance whole (plan.c) */
    struct MPID_Loop *next_dead;  /* links the loops being freed (MPID_Dataloop_free) */
} MPID_Loop;

/* Offset and prefix sum k of an INDEXED loop, whichever width it keeps them in. */
static inline MPI_Aint MPID_Loop_offset(const MPID_Loop *l, MPI_Count k)
{
    return l->offsets32 ? l->offsets32[k] : l->offsets[k];
}
static inline MPI_Count MPID_Loop_prefix(const MPID_Loop *l, MPI_Count k)
{
    return l->prefix32 ? l->prefix32[k] : l->prefix[k];
}

/* Builds the dataloop of a type from its constructors (at commit). NULL with an error recorded if
 * memory runs out. Types with no data get a CONTIG loop of count 0. */
struct MPID_Datatype;
int MPID_Dataloop_build(struct MPID_Datatype *dt, MPID_Loop **loop);
void MPID_Dataloop_free(MPID_Loop *loop);
/* Prints the loop tree (debugging, and tests that check normalisation). */
void MPID_Dataloop_print(const MPID_Loop *loop, FILE *out);

/* The copy plan of one instance of loop, or NULL where there is none (a loop with repeated
 * elements below its structs other than rows of a vector leaf, many leaves, or no memory); and its
 * run over the whole instance at buf, packed to or unpacked from stream. */
typedef struct MPID_Plan MPID_Plan;
MPID_Plan *MPID_Plan_build(const MPID_Loop *loop);
void MPID_Plan_run(const MPID_Plan *plan, char *buf, char *stream, bool pack);
/* The plan of a type's loop (the type's dataloop field, NULL until built), or NULL. */
static inline const MPID_Plan *MPID_Loop_plan(const MPID_Loop *loop)
{
    return loop ? loop->plan : NULL;
}

/*S
 * MPID_Segment - a cursor over (buf, count, datatype).
 *
 * The packed stream of a segment is the concatenation, in type-map order, of every basic element
 * of count instances of the type, count * size bytes in all. Instance i starts at buf + i * extent.
 *
 * Contract of the range operations (pack, unpack, iov, count):
 *   - they process the packed bytes [first, *last) and may be called in any order, with any ranges;
 *   - first must be 0, the end of the stream, or a value some earlier call returned in *last (any
 *     basic-element boundary works; others give MPI_ERR_ARG);
 *   - *last is lowered, if needed, to the nearest basic-element boundary at or below it and to the
 *     end of the stream: a basic element is never split between two calls. A range too short to hold
 *     one whole element returns *last == first;
 *   - a call that starts where the previous one stopped continues from the saved cursor (O(1));
 *     any other start is found by a seek: O(depth) for regular loops, O(log n) per indexed level.
 * The segment holds a reference on the datatype until MPID_Segment_free.
 S*/
#define MPID_SEGMENT_HINTS 16
typedef struct MPID_Segment {
    char *buf;
    MPI_Count count;
    struct MPID_Datatype *type;
    MPID_Loop top;                /* count instances of the type's loop, normalised like any loop */
    MPI_Count size;               /* packed bytes of the whole stream */
    MPI_Count pos;                /* where the last operation stopped */
    bool held;                    /* the segment holds a reference on the type */
    const struct MPID_Plan *plan; /* a single instance's plan: what a range of the whole stream runs */
    MPI_Count hints[MPID_SEGMENT_HINTS];  /* per loop depth: the indexed block last visited, so a
                                             call that continues finds its block in O(1) */
    /* Unpacks of a stream beyond the last-level cache from its start (a large receive, in
     * chunks) take one turn of the type's streaming trial between them (MPID_Segment_unpack). */
    bool turn_open;
    MPI_Count turn_bytes;
    MPID_Stream_turn turn;
} MPID_Segment;

/* The dataloop of a committed type, built on first use (commit builds it; dup'ed committed types get
 * theirs here). NULL with an error recorded if memory runs out. */
const MPID_Loop *MPID_Datatype_loop(struct MPID_Datatype *dt, int *err);
/* Whether count instances of dt are one run of bytes, in stream order, starting offset bytes from
 * the buffer (then packing is one memcpy, whatever the extent says). */
bool MPID_Datatype_one_run(struct MPID_Datatype *dt, MPI_Count count, MPI_Aint *offset);

/* The stream's size of count >= 0 instances of dt, after checking that every data address is
 * computable: the last instance's data, at (count - 1) * extent plus [true_lb, true_ub), must be
 * a representable offset (the extent may be negative). Bytes beyond MPI_Count: MPI_ERR_COUNT;
 * instances beyond the address space: MPI_ERR_ARG. Segments check it; calls that may not build
 * one (a collective on one rank) check it themselves. */
int MPID_Stream_size(const MPID_Datatype *dt, MPI_Count count, MPI_Count *size);

/* The segment API is the device-level interface of the engine: exported from the library (whose
 * other internals are hidden), so device tests and tools outside it can drive it. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* type must be committed. */
int MPID_Segment_init(MPID_Segment *seg, const void *buf, MPI_Count count, MPI_Datatype type);
/* The same without a reference on the type: for a segment that lives only during one call that
 * the caller's own handle keeps the type alive for (MPI_Pack, MPI_Unpack). */
int MPID_Segment_init_borrowed(MPID_Segment *seg, const void *buf, MPI_Count count, MPI_Datatype type);
void MPID_Segment_free(MPID_Segment *seg);

/* Copies packed bytes [first, *last) to dest (dest[0] receives byte first). */
int MPID_Segment_pack(MPID_Segment *seg, MPI_Count first, MPI_Count *last, void *dest);
/* Copies src (holding packed bytes [first, *last)) into the typed buffer; with streaming stores
 * when the whole stream is beyond the last-level cache (copy_kernels.h). */
int MPID_Segment_unpack(MPID_Segment *seg, MPI_Count first, MPI_Count *last, const void *src);

/* Packs (pack) or unpacks the whole stream of count instances of dt: the work of MPI_Pack and
 * MPI_Unpack, without a cursor to set up; with streaming stores when the stream is beyond the
 * last-level cache (copy_kernels.h). */
int MPID_Stream_copy(const void *buf, MPI_Count count, struct MPID_Datatype *dt, void *stream, bool pack);

/* The typed-buffer addresses of the runs that hold packed bytes [first, *last), merged where they
 * touch. At most max_iov runs are written; *last stops after the last complete run written. */
typedef struct {
    void *base;
    MPI_Aint len;
} MPID_Iov;
int MPID_Segment_to_iov(MPID_Segment *seg, MPI_Count first, MPI_Count *last, MPID_Iov *iov,
                        MPI_Count max_iov, MPI_Count *n_iov);

/* Number of contiguous pieces of the typed buffer that hold packed bytes [first, *last), merged
 * where they touch (what a writev of the range would need). */
int MPID_Segment_count_blocks(MPID_Segment *seg, MPI_Count first, MPI_Count *last, MPI_Count *n_blocks);

/* Basic elements whose bytes lie entirely in [0, nbytes) of the stream (MPI_Get_elements). */
MPI_Count MPID_Segment_count_elements(MPID_Segment *seg, MPI_Count nbytes);

/* Generic traversal for conversions (external32): calls fn on every run of basic elements in
 * [first, *last), in stream order, with the run's address, its basic type and element count. fn
 * returns 0 to go on, MPID_RUN_STOP to stop (then *last is the end of that run), or an error
 * class, which stops the walk and is returned. */
#define MPID_RUN_STOP (-1)
typedef int (*MPID_Run_fn)(void *state, char *addr, MPI_Datatype el_type, MPI_Count n_elements);
int MPID_Segment_for_each_run(MPID_Segment *seg, MPI_Count first, MPI_Count *last, MPID_Run_fn fn,
                              void *state);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
