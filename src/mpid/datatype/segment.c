/*
 * The segment processor: packs, unpacks and enumerates byte ranges of (buf, count, datatype)
 * (contract in mpid_dataloop.h).
 *
 * walk() processes the packed bytes [from, to) of one instance of a loop, in stream order, by
 * descending only into the blocks and elements that overlap the range: reaching any offset costs a
 * division per regular level and a binary search per indexed level, never a walk from the start.
 * Leaves hand whole runs of bytes to the copy kernels, which are chosen by block size and contain
 * no calls per element.
 *
 * Ranges are trimmed to basic-element boundaries before walking (misalign()), so the walk itself
 * copies exact byte ranges and never has to stop in the middle.
 */
#include "mpiimpl.h"
#include "mpid_dataloop.h"
#include "copy_kernels.h"

enum { OP_PACK, OP_UNPACK, OP_RUNS, OP_IOV, OP_COUNT };

typedef struct {
    int op;
    char *stream;               /* PACK: where the next byte goes; UNPACK: where it comes from */
    MPI_Count pos;              /* stream position (OP_RUNS, OP_IOV) */
    MPID_Run_fn fn;             /* OP_RUNS */
    void *state;
    int err;
    MPID_Iov *iov;              /* OP_IOV */
    MPI_Count n_iov, max_iov;   /* also OP_COUNT */
    char *run_end;              /* OP_COUNT: where the last piece ended */
    bool stopped;               /* OP_IOV: the array is full; pos is where it stopped */
    MPI_Count *hints;           /* the segment's block hints, by loop depth */
    bool far;                   /* PACK, UNPACK: a stream beyond the last-level cache (copy_kernels.h) */
    bool streaming;             /* and its type's trial has it written with streaming stores */
} Ctx;

/* A context for copying: only these fields are read by OP_PACK and OP_UNPACK, and setting them
 * one by one costs less than zeroing the whole context (a rep stos) on every call. */
static inline void copy_ctx(Ctx *c, int op, char *stream)
{
    c->op = op;
    c->stream = stream;
    c->stopped = false;
    c->hints = NULL;
    c->far = c->streaming = false;
}

static bool is_leaf(const MPID_Loop *l)
{
    return l->child == NULL && l->kind != MPID_LOOP_STRUCT;
}

static MPI_Count min_c(MPI_Count a, MPI_Count b) { return a < b ? a : b; }

static MPI_Count max_c(MPI_Count a, MPI_Count b) { return a > b ? a : b; }

/* Index of the block of an indexed or struct loop holding stream byte pos: the last k < count
 * with prefix k <= pos. */
static MPI_Count search(const MPID_Loop *l, MPI_Count pos)
{
    MPI_Count lo = 0, hi = l->count - 1;
    while (lo < hi) {
        MPI_Count mid = lo + (hi - lo + 1) / 2;
        if (MPID_Loop_prefix(l, mid) <= pos)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* The block of an indexed or struct loop holding pos: the hinted block or the next one when the
 * walk continues where it stopped (O(1)), else a binary search (O(log n)). */
static MPI_Count find_block(const MPID_Loop *l, MPI_Count pos, MPI_Count *hints)
{
    MPI_Count *h = hints && l->depth < MPID_SEGMENT_HINTS ? &hints[l->depth] : NULL;
    if (h) {
        for (MPI_Count k = *h; k < l->count && k <= *h + 1; k++)
            if (MPID_Loop_prefix(l, k) <= pos && pos < MPID_Loop_prefix(l, k + 1))
                return *h = k;
    }
    MPI_Count k = search(l, pos);
    if (h)
        *h = k;
    return k;
}

/* ---- leaves ---- */

/* The basic type of block k of a leaf, and its size. */
static MPI_Datatype block_type(const MPID_Loop *leaf, MPI_Count k)
{
    return leaf->el_types ? leaf->el_types[k] : leaf->el_type;
}

static MPI_Count block_el_size(const MPID_Loop *leaf, MPI_Count k)
{
    return leaf->el_types ? MPID_Datatype_get(leaf->el_types[k])->size : leaf->el_size;
}

/* One run of bytes of block k of a leaf (whole basic elements, except at trimmed range ends that
 * the caller guarantees are element boundaries). */
static void run_of_block(Ctx *c, const MPID_Loop *leaf, MPI_Count k, char *addr, MPI_Count len)
{
    switch (c->op) {
    case OP_PACK:
        copy_bytes(c->stream, addr, len);
        c->stream += len;
        return;
    case OP_UNPACK:
        copy_bytes(addr, c->stream, len);
        c->stream += len;
        return;
    case OP_RUNS: {
        if (c->stopped)
            return;
        int r = c->fn(c->state, addr, block_type(leaf, k), len / block_el_size(leaf, k));
        c->pos += len;
        if (r) {
            c->stopped = true;   /* MPID_RUN_STOP, or an error to pass on */
            c->err = r == MPID_RUN_STOP ? MPI_SUCCESS : r;
        }
        return;
    }
    case OP_COUNT:
        if (c->n_iov == 0 || c->run_end != addr)
            c->n_iov++;
        c->run_end = at(addr, len);
        return;
    case OP_IOV:
        if (c->stopped)
            return;
        if (c->n_iov > 0 && at(c->iov[c->n_iov - 1].base, c->iov[c->n_iov - 1].len) == addr) {
            c->iov[c->n_iov - 1].len += len;
        } else if (c->n_iov == c->max_iov) {
            c->stopped = true;
            return;
        } else {
            c->iov[c->n_iov].base = addr;
            c->iov[c->n_iov++].len = len;
        }
        c->pos += len;
        return;
    }
}

/* The same for a leaf of one basic type. */
static void run(Ctx *c, const MPID_Loop *leaf, char *addr, MPI_Count len)
{
    run_of_block(c, leaf, 0, addr, len);
}

/* Where block k of a VECTOR or BLKIDX loop starts, base already moved by its disp. */
static char *block_addr(const MPID_Loop *l, char *base, MPI_Count k)
{
    return l->offsets || l->offsets32 ? at(base, MPID_Loop_offset(l, k)) : at_k(base, k, l->stride);
}

/* The same in a stream beyond the last-level cache, or false where the kernels copy them as
 * anywhere else (copy_kernels.h). */
static bool streamed_blocks(Ctx *c, const MPID_Loop *leaf, char *base, MPI_Count b, MPI_Count bs, MPI_Count n)
{
    bool pack = c->op == OP_PACK;
    if (leaf->offsets32)
        return pack && c->streaming && MPID_Stream_blkidx(c->stream, base, NULL, leaf->offsets32 + b, bs, n);
    if (leaf->offsets)
        return pack && c->streaming && MPID_Stream_blkidx(c->stream, base, leaf->offsets + b, NULL, bs, n);
    return MPID_Stream_strided(pack, c->streaming, c->stream, at_k(base, b, leaf->stride), leaf->stride, bs, n, 0,
                               1);
}

/* Full blocks [b, b + n) of bs bytes of a VECTOR or BLKIDX leaf. */
static void blocks(Ctx *c, const MPID_Loop *leaf, char *base, MPI_Count b, MPI_Count bs, MPI_Count n)
{
    bool pack = c->op == OP_PACK;
    if (pack || c->op == OP_UNPACK) {
        if (c->far && streamed_blocks(c, leaf, base, b, bs, n))
            ;
        else if (leaf->offsets32)
            (pack ? MPID_Kernels->pack_blkidx32 : MPID_Kernels->unpack_blkidx32)(c->stream, base, leaf->offsets32 + b,
                                                                              bs, n);
        else if (leaf->offsets)
            (pack ? MPID_Kernels->pack_blkidx : MPID_Kernels->unpack_blkidx)(c->stream, base, leaf->offsets + b, bs, n);
        else
            (pack ? MPID_Pack_strided : MPID_Unpack_strided)(c->stream, at_k(base, b, leaf->stride), leaf->stride, bs,
                                                             n, 0, 1);
        c->stream += n * bs;
        return;
    }
    for (MPI_Count i = b; i < b + n && !c->stopped; i++)
        run(c, leaf, block_addr(leaf, base, i), bs);
}

/* A leaf of equal blocks (VECTOR or BLKIDX): a partial first block, full blocks, a partial last. */
static void equal_blocks_leaf(const MPID_Loop *l, char *base, MPI_Count from, MPI_Count to, Ctx *c)
{
    MPI_Count bs = l->blocklen * l->el_size;
    /* the whole loop, the common case, needs no division (tens of cycles each) */
    bool whole = from == 0 && to == l->size;
    MPI_Count b = whole ? 0 : from / bs, off = whole ? 0 : from % bs;
    if (off) {
        MPI_Count n = min_c(bs - off, to - from);
        run(c, l, at(block_addr(l, base, b), off), n);
        from += n;
        b++;
    }
    MPI_Count full = whole ? l->count : (to - from) / bs;
    if (full) {
        blocks(c, l, base, b, bs, full);
        from += full * bs;
        b += full;
    }
    if (from < to)
        run(c, l, block_addr(l, base, b), to - from);
}

/* An indexed leaf, packed or unpacked: blocks of any length at explicit offsets, each copied
 * inline; the first and last may be cut by the range. */
static void indexed_leaf(const MPID_Loop *l, char *base, MPI_Count from, MPI_Count to, Ctx *c)
{
    const MPI_Count n = l->count;
    const bool pack = c->op == OP_PACK;
    char *stream = c->stream;
    MPI_Count b = find_block(l, from, c->hints);
    if (from > MPID_Loop_prefix(l, b)) {   /* the range starts inside block b */
        MPI_Count start = MPID_Loop_prefix(l, b), hi = min_c(to, MPID_Loop_prefix(l, b + 1));
        char *typed = at(base, MPID_Loop_offset(l, b) + (from - start));
        if (pack)
            copy_bytes(stream, typed, hi - from);
        else
            copy_bytes(typed, stream, hi - from);
        stream += hi - from;
        b++;
    }
    if (c->streaming)
        b = MPID_Stream_indexed(pack, &stream, base, l->offsets, l->prefix, l->offsets32, l->prefix32, b, n, to);
    else
        b = MPID_Copy_indexed(pack, &stream, base, l->offsets, l->prefix, l->offsets32, l->prefix32, b, n, to);
    if (b < n && MPID_Loop_prefix(l, b) < to) {   /* it ends inside block b */
        MPI_Count start = MPID_Loop_prefix(l, b);
        char *typed = at(base, MPID_Loop_offset(l, b));
        if (pack)
            copy_bytes(stream, typed, to - start);
        else
            copy_bytes(typed, stream, to - start);
        stream += to - start;
        b++;
    }
    if (c->hints && l->depth < MPID_SEGMENT_HINTS && b > 0)
        c->hints[l->depth] = b - 1;
    c->stream = stream;
}

/* ---- the walk ---- */

static void walk(const MPID_Loop *l, char *base, MPI_Count from, MPI_Count to, Ctx *c);

/* Indexed leaves of at most this many blocks are copied element after element, run by run. */
#define FLAT_MAX_BLOCKS 16

/* rows of n blocks of bs bytes, stride apart, from first on: one call of the strided kernels */
static void strided_blocks(Ctx *c, char *first, MPI_Aint stride, MPI_Count bs, MPI_Count n, MPI_Aint row_step,
                           MPI_Count rows)
{
    bool pack = c->op == OP_PACK;
    if (!c->far || !MPID_Stream_strided(pack, c->streaming, c->stream, first, stride, bs, n, row_step, rows))
        (pack ? MPID_Pack_strided : MPID_Unpack_strided)(c->stream, first, stride, bs, n, row_step, rows);
    c->stream += rows * n * bs;
}

/* Whole elements [e0, e1) of a small indexed leaf (a struct of basic entries), step bytes apart
 * from block, copied run by run without a walk per element: how padded structs move where they
 * have no windows (no AVX-512, or fields out of memory order). The runs are those of the first
 * element, merged where they touch as for MPID_Segment_to_iov: fields side by side, blocks of their
 * own for the types' sake, are one run. Where an element is one run, the elements are strided
 * blocks for the kernels (the padded struct {double; int; char[3]} of the benchmark without
 * windows, Zen 4 at half speed: 3.2 to 17.5 GB/s in the L2, where Open MPI runs 7 and the hand
 * loop 15). The runs are in a local array: stores through char * may alias the leaf's arrays,
 * which would be read again for every element. Only leaves of at most FLAT_MAX_BLOCKS blocks come
 * here (elements), so the runs always fit. */
static void flat_elements(const MPID_Loop *leaf, MPI_Aint step, char *block, MPI_Count e0, MPI_Count e1, Ctx *c)
{
    MPID_Iov runs[FLAT_MAX_BLOCKS];
    Ctx first = { .op = OP_IOV, .iov = runs, .max_iov = FLAT_MAX_BLOCKS };
    walk(leaf, at_k(block, e0, step), 0, leaf->size, &first);
    if (first.n_iov == 1) {
        strided_blocks(c, runs[0].base, step, runs[0].len, e1 - e0, 0, 1);
        return;
    }
    char *stream = c->stream;
    MPI_Aint d = 0;   /* from the first element to element e */
    if (c->op == OP_PACK)
        for (MPI_Count e = e0; e < e1; e++, d += step)
            for (MPI_Count r = 0; r < first.n_iov; stream += runs[r].len, r++)
                copy_bytes(stream, at(runs[r].base, d), runs[r].len);
    else
        for (MPI_Count e = e0; e < e1; e++, d += step)
            for (MPI_Count r = 0; r < first.n_iov; stream += runs[r].len, r++)
                copy_bytes(at(runs[r].base, d), stream, runs[r].len);
    c->stream = stream;
}

/* Whole elements [e0, e1) of a vector leaf, step bytes apart from block: rows of blocks for one
 * kernel call, which sees the whole shape (segment.c's only 2-D case; the unpack kernel throttles
 * by how many lines of all rows share cache sets, e.g. the x face of a 3-D array). */
static void strided_rows(const MPID_Loop *leaf, MPI_Aint step, char *block, MPI_Count e0, MPI_Count e1, Ctx *c)
{
    strided_blocks(c, at(at_k(block, e0, step), leaf->disp), leaf->stride, leaf->blocklen * leaf->el_size,
                   leaf->count, step, e1 - e0);
}

/* Elements [from, to) of a sequence of instances of child, step bytes apart from block. */
static void elements(const MPID_Loop *child, MPI_Aint step, char *block, MPI_Count from, MPI_Count to, Ctx *c)
{
    MPI_Count cs = child->size;
    const MPID_Windows *w = child->windows;
    bool copying = c->op == OP_PACK || c->op == OP_UNPACK;
    bool flat = copying && !w && is_leaf(child) && child->kind == MPID_LOOP_INDEXED && child->count <= FLAT_MAX_BLOCKS;
    bool rows = copying && !w && is_leaf(child) && child->kind == MPID_LOOP_VECTOR;
    /* instances of a type's root (the plans have no streaming stores) */
    bool planned = copying && !w && !flat && !rows && child->plan && !c->streaming;
    if (((w && copying) || flat || rows || planned) && cs > 0) {
        MPI_Count e0 = from == 0 ? 0 : (from + cs - 1) / cs, e1 = to / cs;
        if (e1 > e0) {
            if (from < e0 * cs)
                walk(child, at_k(block, e0 - 1, step), from - (e0 - 1) * cs, cs, c);
            if (flat) {
                flat_elements(child, step, block, e0, e1, c);
            } else if (rows) {
                strided_rows(child, step, block, e0, e1, c);
            } else if (planned) {
                for (MPI_Count e = e0; e < e1; e++, c->stream += cs)
                    MPID_Plan_run(child->plan, at_k(block, e, step), c->stream, c->op == OP_PACK);
            } else {
                if (c->op == OP_PACK)
                    MPID_Window_pack(w, c->stream, at_k(block, e0, step), step, e1 - e0);
                else
                    MPID_Window_unpack(w, c->stream, at_k(block, e0, step), step, e1 - e0);
                c->stream += (e1 - e0) * cs;
            }
            if (to > e1 * cs)
                walk(child, at_k(block, e1, step), 0, to - e1 * cs, c);
            return;
        }
    }
    for (MPI_Count e = from == 0 ? 0 : from / cs; e * cs < to && !c->stopped; e++) {
        MPI_Count s = e * cs;
        walk(child, at_k(block, e, step), max_c(from, s) - s, min_c(to, s + cs) - s, c);
    }
}

static void walk(const MPID_Loop *l, char *base, MPI_Count from, MPI_Count to, Ctx *c)
{
    base = at(base, l->disp);
    switch (l->kind) {
    case MPID_LOOP_CONTIG:
        if (is_leaf(l))
            run(c, l, at(base, from), to - from);
        else
            elements(l->child, l->child_extent, base, from, to, c);
        return;
    case MPID_LOOP_VECTOR:
    case MPID_LOOP_BLKIDX: {
        if (is_leaf(l)) {
            equal_blocks_leaf(l, base, from, to, c);
            return;
        }
        if (l->kind == MPID_LOOP_VECTOR && l->blocklen == 1) {
            /* one element per block: the blocks are elements stride apart */
            elements(l->child, l->stride, base, from, to, c);
            return;
        }
        MPI_Count bs = l->blocklen * l->child_size;
        for (MPI_Count b = from / bs; b * bs < to && !c->stopped; b++) {
            MPI_Count s = b * bs;
            char *block = block_addr(l, base, b);
            elements(l->child, l->child_extent, block, max_c(from, s) - s, min_c(to, s + bs) - s, c);
        }
        return;
    }
    case MPID_LOOP_INDEXED:
    case MPID_LOOP_STRUCT:
        if (l->kind == MPID_LOOP_INDEXED && is_leaf(l) && (c->op == OP_PACK || c->op == OP_UNPACK)) {
            indexed_leaf(l, base, from, to, c);
            return;
        }
        for (MPI_Count b = find_block(l, from, c->hints); b < l->count && MPID_Loop_prefix(l, b) < to && !c->stopped;
             b++) {
            MPI_Count s = MPID_Loop_prefix(l, b), e = MPID_Loop_prefix(l, b + 1);
            MPI_Count lo = max_c(from, s) - s, hi = min_c(to, e) - s;
            if (l->kind == MPID_LOOP_STRUCT)
                walk(l->children[b], base, lo, hi, c);
            else if (is_leaf(l))
                run_of_block(c, l, b, at(base, MPID_Loop_offset(l, b) + lo), hi - lo);
            else
                elements(l->child, l->child_extent, at(base, MPID_Loop_offset(l, b)), lo, hi, c);
            if (c->hints && l->depth < MPID_SEGMENT_HINTS)
                c->hints[l->depth] = b;
        }
        return;
    }
}

/* Bytes between the last basic-element boundary at or below pos and pos. */
static MPI_Count misalign(const MPID_Loop *l, MPI_Count pos, MPI_Count *hints)
{
    while (pos > 0 && pos < l->size) {
        if (is_leaf(l) && l->el_types) {
            MPI_Count k = find_block(l, pos, hints);
            return (pos - MPID_Loop_prefix(l, k)) % block_el_size(l, k);
        }
        if (is_leaf(l))
            return pos % l->el_size;
        if (l->kind == MPID_LOOP_STRUCT) {
            MPI_Count k = find_block(l, pos, hints);
            pos -= MPID_Loop_prefix(l, k);
            l = l->children[k];
        } else {
            pos %= l->child_size;   /* blocks and elements start at multiples of the element size */
            l = l->child;
        }
    }
    return 0;
}

/* Builds the windows of one instance of l if it is small and in memory order. */
static void set_windows(MPID_Loop *l)
{
    enum { MAX_RUNS = 64 };
    MPID_Iov runs[MAX_RUNS];
    char *origin = (char *) ((uintptr_t) 1 << 40);   /* any address: only differences are kept */
    Ctx c = { .op = OP_IOV, .iov = runs, .max_iov = MAX_RUNS };
    if (l->size == 0 || l->size > 64 * MAX_WINDOWS || (is_leaf(l) && l->kind == MPID_LOOP_CONTIG))
        return;   /* a run needs no windows */
    walk(l, origin, 0, l->size, &c);
    if (c.stopped)
        return;
    MPI_Aint start = (char *) runs[0].base - origin, end = start;
    for (MPI_Count k = 0; k < c.n_iov; k++) {
        MPI_Aint off = (char *) runs[k].base - origin;
        if (off < end && k > 0)
            return;   /* out of memory order, or overlapping */
        end = off + runs[k].len;
    }
    if (end - start > 64 * MAX_WINDOWS)
        return;
    MPID_Windows *w = calloc(1, sizeof *w);
    if (!w)
        return;   /* the walker still works */
    MPI_Aint span = end - start;
    w->start = start;
    w->width = span <= 16 ? 16 : span <= 32 ? 32 : 64;
    w->n = (int) ((span + w->width - 1) / w->width);
    for (MPI_Count k = 0; k < c.n_iov; k++) {
        MPI_Aint first = (char *) runs[k].base - origin - start;
        for (MPI_Aint b = first; b < first + runs[k].len; b++)
            w->mask[b / w->width] |= (uint64_t) 1 << (b % w->width);
    }
    for (int k = 0; k < w->n; k++) {
        w->count[k] = __builtin_popcountll(w->mask[k]);
        w->low[k] = w->count[k] == 64 ? ~(uint64_t) 0 : ((uint64_t) 1 << w->count[k]) - 1;
    }
    /* a whole-vector store may spill width bytes past its element's packed bytes */
    w->tail = (int) ((w->width + l->size - 1) / l->size);
    l->windows = w;
}

/* Windows for every loop whose instances are walked as elements, and for the root. Deep trees
 * (rare) get none: their elements are not small. */
static void add_windows(MPID_Loop *l)
{
    if (l->depth > MPIR_DEEP_THRESHOLD)
        return;
    set_windows(l);
    for (MPID_Loop *e = l; e; e = e->child) {
        if (e->child)
            set_windows(e->child);
        for (MPI_Count k = 0; e->kind == MPID_LOOP_STRUCT && k < e->count; k++)
            add_windows(e->children[k]);
    }
}

/* ---- segments ---- */

bool MPID_Datatype_one_run(MPID_Datatype *dt, MPI_Count count, MPI_Aint *offset)
{
    int err;
    const MPID_Loop *l = MPID_Datatype_loop(dt, &err);
    if (!l || l->kind != MPID_LOOP_CONTIG || l->child || (count > 1 && dt->extent != l->size))
        return false;
    *offset = l->disp;
    return true;
}

const MPID_Loop *MPID_Datatype_loop(MPID_Datatype *dt, int *err)
{
    MPID_Loop *loop = atomic_load_explicit(&dt->dataloop, memory_order_acquire);
    *err = MPI_SUCCESS;
    if (loop)
        return loop;
    if ((*err = MPID_Dataloop_build(dt, &loop)))
        return NULL;
    if (MPID_Have_window_unit())
        add_windows(loop);
    loop->plan = MPID_Plan_build(loop);
    /* two threads may build at once: the first to publish wins */
    MPID_Loop *expected = NULL;
    if (!atomic_compare_exchange_strong(&dt->dataloop, &expected, loop)) {
        MPID_Dataloop_free(loop);
        loop = expected;
    }
    return loop;
}

/* MPID_Stream_size, inline for the segment's own calls (a call on every MPI_Pack otherwise) */
static inline int stream_size(const MPID_Datatype *dt, MPI_Count count, MPI_Count *size)
{
    if (MPIR_Mul_overflows(count, dt->size, size))
        return MPIR_Err(MPI_ERR_COUNT, "count %lld of this datatype exceeds 2^63 bytes", (long long) count);
    int64_t reach, end;
    if (count > 1 && (MPIR_Mul_overflows(count - 1, dt->extent, &reach) || MPIR_Add_overflows(reach, dt->true_ub, &end)
                      || MPIR_Add_overflows(reach, dt->true_lb, &end)))
        return MPIR_Err(MPI_ERR_ARG, "%lld instances of a datatype of extent %ld span more than the address space",
                        (long long) count, (long) dt->extent);
    return MPI_SUCCESS;
}

int MPID_Stream_size(const MPID_Datatype *dt, MPI_Count count, MPI_Count *size)
{
    return stream_size(dt, count, size);
}

/* The loop of count instances of loop (dt's) at its extent, normalised like any loop: instances
 * that are single runs make one longer run, or a vector of runs. */
static void set_top(MPID_Loop *top, const MPID_Loop *loop, MPID_Datatype *dt, MPI_Count count, MPI_Count size)
{
    if (loop->kind == MPID_LOOP_CONTIG && loop->child == NULL) {
        *top = *loop;
        top->plan = NULL;   /* a plan copies one instance, the top may have more */
        top->size = size;
        if (count > 1 && dt->extent != loop->size) {
            top->kind = MPID_LOOP_VECTOR;
            top->blocklen = loop->count;
            top->stride = dt->extent;
            top->count = count;
        } else {
            top->count = count * loop->count;
        }
        return;
    }
    /* field by field: a compound literal zeroes the loop with a rep stos, tens of cycles on every
     * message */
    top->kind = MPID_LOOP_CONTIG;
    top->depth = loop->depth + 1;
    top->disp = 0;
    top->count = count;
    top->size = size;
    top->child = (MPID_Loop *) loop;
    top->children = NULL;
    top->child_extent = dt->extent;
    top->child_size = dt->size;
    top->offsets = NULL;
    top->offsets32 = NULL;
    top->prefix = NULL;
    top->prefix32 = NULL;
    top->el_types = NULL;
    top->windows = NULL;
    top->plan = NULL;
    top->blocklen = 0;
    top->stride = 0;
    top->el_type = MPI_DATATYPE_NULL;
    top->el_size = 0;
}

static int segment_init(MPID_Segment *seg, const void *buf, MPI_Count count, MPI_Datatype type, bool hold)
{
    MPID_Datatype *dt = MPID_Datatype_get(type);
    int err;
    const MPID_Loop *loop = MPID_Datatype_loop(dt, &err);
    if (!loop)
        return err;
    seg->buf = (char *) buf;
    seg->count = count;
    seg->type = dt;
    seg->pos = 0;
    seg->held = false;
    seg->turn_open = false;
    if ((err = stream_size(dt, count, &seg->size)))
        return err;
    seg->held = hold;
    if (hold)
        MPID_Datatype_add_ref(dt);
    set_top(&seg->top, loop, dt, count, seg->size);
    seg->plan = count == 1 ? loop->plan : NULL;
    /* the hints of the levels a walk reaches (loop depths 1..top.depth); the others are never read */
    int levels = seg->top.depth + 1 < MPID_SEGMENT_HINTS ? seg->top.depth + 1 : MPID_SEGMENT_HINTS;
    memset(seg->hints, 0, sizeof seg->hints[0] * (size_t) levels);
    return MPI_SUCCESS;
}

int MPID_Segment_init(MPID_Segment *seg, const void *buf, MPI_Count count, MPI_Datatype type)
{
    return segment_init(seg, buf, count, type, true);
}

int MPID_Segment_init_borrowed(MPID_Segment *seg, const void *buf, MPI_Count count, MPI_Datatype type)
{
    return segment_init(seg, buf, count, type, false);
}

static void close_turn(MPID_Segment *seg)
{
    MPID_Stream_turn_record(&seg->type->stream_trials[0], &seg->turn, seg->turn_bytes);
    seg->turn_open = false;
}

void MPID_Segment_free(MPID_Segment *seg)
{
    if (seg->type && seg->turn_open)   /* a message shorter than the buffer: time what came */
        close_turn(seg);
    if (seg->type && seg->held)
        MPID_Datatype_release(seg->type);
    seg->type = NULL;
}

/* Clamps *last into the stream and down to an element boundary; checks first. */
static int range(MPID_Segment *seg, MPI_Count first, MPI_Count *last)
{
    if (first < 0 || first > seg->size)
        return MPIR_Err(MPI_ERR_ARG, "segment offset %lld is outside the stream of %lld bytes",
                        (long long) first, (long long) seg->size);
    if (first != seg->pos && misalign(&seg->top, first, seg->hints))
        return MPIR_Err(MPI_ERR_ARG, "segment offset %lld is inside a basic element", (long long) first);
    MPI_Count to = max_c(first, min_c(*last, seg->size));
    MPI_Count scratch[MPID_SEGMENT_HINTS];   /* the walk from first needs the hints where they are */
    memcpy(scratch, seg->hints, sizeof scratch);
    to -= misalign(&seg->top, to, scratch);
    *last = max_c(first, to);
    return MPI_SUCCESS;
}

/* A walk of bytes [from, to) of loop over buf, run on a stack deep enough for the loop. */
typedef struct {
    const MPID_Loop *loop;
    char *buf;
    MPI_Count from, to;
    Ctx *c;
} Walk_call;

static void walk_call(void *p)
{
    Walk_call *w = p;
    walk(w->loop, w->buf, w->from, w->to, w->c);
}

static int walk_deep(const MPID_Loop *loop, char *buf, MPI_Count from, MPI_Count to, Ctx *c)
{
    Walk_call w = { loop, buf, from, to, c };
    return MPIR_Run_deep(loop->depth, walk_call, &w);
}

static int process(MPID_Segment *seg, MPI_Count first, MPI_Count *last, Ctx *c)
{
    int err = range(seg, first, last);
    if (err)
        return err;
    c->pos = first;
    c->hints = seg->hints;
    if (seg->plan && first == 0 && *last == seg->size && (c->op == OP_PACK || c->op == OP_UNPACK)) {
        MPID_Plan_run(seg->plan, seg->buf, c->stream, c->op == OP_PACK);
        seg->pos = *last;
        return MPI_SUCCESS;
    }
    if (*last > first && (err = walk_deep(&seg->top, seg->buf, first, *last, c)))
        return err;
    seg->pos = *last;
    return MPI_SUCCESS;
}

int MPID_Stream_copy(const void *buf, MPI_Count count, MPID_Datatype *dt, void *stream, bool pack)
{
    int err;
    const MPID_Loop *loop = MPID_Datatype_loop(dt, &err);
    MPI_Count size;
    if (!loop)
        return err;
    if (count == 1 && loop->plan && (size_t) dt->size < MPID_Stream_min) {   /* one instance: no size to check */
        MPID_Plan_run(loop->plan, (char *) buf, stream, pack);
        return MPI_SUCCESS;
    }
    if ((err = stream_size(dt, count, &size)) || size == 0)
        return err;
    Ctx c;
    copy_ctx(&c, pack ? OP_PACK : OP_UNPACK, stream);
    MPID_Stream_turn turn = { .timed = false };
    MPID_Stream_trial *trial = &dt->stream_trials[pack];
    c.far = (size_t) size >= MPID_Stream_min;
    c.streaming = c.far && MPID_Stream_turn_begin(trial, &turn);
    MPID_Loop top;
    if (count > 1)
        set_top(&top, loop, dt, count, size);
    err = walk_deep(count > 1 ? &top : loop, (char *) buf, 0, size, &c);
    if (c.streaming)
        MPID_Stream_end();
    MPID_Stream_turn_end(trial, &turn, size);
    return err;
}

int MPID_Segment_pack(MPID_Segment *seg, MPI_Count first, MPI_Count *last, void *dest)
{
    Ctx c;
    copy_ctx(&c, OP_PACK, dest);
    return process(seg, first, last, &c);
}

/* A typed buffer beyond the last-level cache is written with streaming stores (a large receive),
 * unless the type's trial found them slower. Unpacks from the stream's start take a turn of the
 * trial, as a whole unpack does (MPID_Stream_copy): its clock runs during the chunks only, and
 * the turn ends with the stream (or with the segment, for a shorter message). Packing leaves the
 * stream in the cache for whoever reads it next (the device's cells). */
int MPID_Segment_unpack(MPID_Segment *seg, MPI_Count first, MPI_Count *last, const void *src)
{
    Ctx c;
    copy_ctx(&c, OP_UNPACK, (char *) src);
    MPID_Stream_trial *trial = &seg->type->stream_trials[0];
    c.far = (size_t) seg->size >= MPID_Stream_min;
    if (c.far && first == 0 && !seg->turn_open) {
        MPID_Stream_turn_begin(trial, &seg->turn);
        seg->turn_open = true;
        seg->turn_bytes = 0;
    } else if (seg->turn_open) {
        MPID_Stream_turn_resume(&seg->turn);
    }
    c.streaming = c.far && (seg->turn_open ? seg->turn.streams : MPID_Stream_pays(trial));
    int err = process(seg, first, last, &c);
    if (c.streaming)
        MPID_Stream_end();
    if (seg->turn_open) {
        MPID_Stream_turn_pause(&seg->turn);
        seg->turn_bytes += err ? 0 : *last - first;
        if (seg->turn_bytes >= seg->size)
            close_turn(seg);
    }
    return err;
}

int MPID_Segment_for_each_run(MPID_Segment *seg, MPI_Count first, MPI_Count *last, MPID_Run_fn fn, void *state)
{
    Ctx c = { .op = OP_RUNS, .fn = fn, .state = state };
    int err = process(seg, first, last, &c);
    if (!err && c.stopped)
        *last = seg->pos = c.pos;
    return err ? err : c.err;
}

int MPID_Segment_to_iov(MPID_Segment *seg, MPI_Count first, MPI_Count *last, MPID_Iov *iov, MPI_Count max_iov,
                        MPI_Count *n_iov)
{
    Ctx c = { .op = OP_IOV, .iov = iov, .max_iov = max_iov };
    int err = process(seg, first, last, &c);
    if (err)
        return err;
    if (c.stopped)
        *last = seg->pos = c.pos;
    *n_iov = c.n_iov;
    return MPI_SUCCESS;
}

int MPID_Segment_count_blocks(MPID_Segment *seg, MPI_Count first, MPI_Count *last, MPI_Count *n_blocks)
{
    Ctx c = { .op = OP_COUNT };
    int err = process(seg, first, last, &c);
    *n_blocks = c.n_iov;
    return err;
}

static int count_run(void *state, char *addr, MPI_Datatype el_type, MPI_Count n)
{
    *(MPI_Count *) state += n;
    return 0;
}

MPI_Count MPID_Segment_count_elements(MPID_Segment *seg, MPI_Count nbytes)
{
    MPID_Datatype *dt = seg->type;
    if (dt->size == 0)
        return 0;
    nbytes = min_c(nbytes, seg->size);
    MPI_Count full = nbytes / dt->size, elements = full * dt->n_elements;
    MPI_Count first = full * dt->size, last = nbytes;
    if (last > first) {
        seg->pos = first;   /* an instance boundary: always an element boundary */
        MPID_Segment_for_each_run(seg, first, &last, count_run, &elements);
    }
    return elements;
}
