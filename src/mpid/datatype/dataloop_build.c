/*
 * Building dataloops at commit (see mpid_dataloop.h for the representation).
 *
 * build() turns one instance of a type into a loop, bottom up, from the stored constructor
 * arguments. Every constructor reduces to "blocks of elements of a child": make_blocks() takes the
 * child's loop and normalises as it goes:
 *   1. a child that is one run of basic elements ("a run": a CONTIG leaf) whose instances abut
 *      (extent == run bytes) melts into its parent's blocks, so blocks become runs;
 *   2. a child run whose instances do not abut still becomes a leaf when each block holds one child;
 *   3. blocks of runs that touch are merged; empty blocks vanish;
 *   4. what remains regular stays a CONTIG or VECTOR loop (no per-block arrays), the rest becomes
 *      BLKIDX (equal blocks) or INDEXED.
 * Structs whose blocks are all runs of basic elements become one indexed leaf (recording each
 * block's type when they differ); other structs keep one loop per block.
 */
#include <limits.h>
#include "mpiimpl.h"
#include "mpid_dataloop.h"

static MPID_Loop *loop_new(MPID_Loop_kind kind)
{
    MPID_Loop *l = calloc(1, sizeof *l);
    if (l)
        l->kind = kind;
    return l;
}

static void add_dead(MPID_Loop *l, MPID_Loop **dead)
{
    if (l) {
        l->next_dead = *dead;
        *dead = l;
    }
}

/* Frees a loop tree (each loop has one parent). Loops waiting to be freed are listed through
 * their own next_dead: deep trees free without deep recursion, and freeing needs no memory. */
void MPID_Dataloop_free(MPID_Loop *l)
{
    if (l)
        l->next_dead = NULL;
    for (MPID_Loop *dead = l; dead != NULL;) {
        MPID_Loop *x = dead;
        dead = x->next_dead;
        add_dead(x->child, &dead);
        for (MPI_Count k = 0; x->children && k < x->count; k++)
            add_dead(x->children[k], &dead);
        free(x->children);
        free(x->offsets);
        free(x->offsets32);
        free(x->prefix);
        free(x->prefix32);
        free(x->el_types);
        free(x->windows);
        free(x->plan);
        free(x);
    }
}

static bool is_leaf(const MPID_Loop *l)
{
    return l->child == NULL && l->kind != MPID_LOOP_STRUCT;
}

/* One run: n basic elements of el_type, back to back, at disp. */
static MPID_Loop *run_new(MPI_Count n, MPI_Datatype el_type, int el_size, MPI_Aint disp)
{
    MPID_Loop *l = loop_new(MPID_LOOP_CONTIG);
    if (!l)
        return NULL;
    l->depth = 1;
    l->count = n;
    l->disp = disp;
    l->el_type = el_type;
    l->el_size = el_size;
    l->child_extent = l->child_size = el_size;
    l->size = n * el_size;
    return l;
}

static bool is_run(const MPID_Loop *l)
{
    return l->kind == MPID_LOOP_CONTIG && l->child == NULL;
}

/* Blocks as the constructors describe them: block k holds lens[k] (or len) elements of the child,
 * starting at disps[k] * unit (or k * stride) bytes. The stored arguments are read in place. */
typedef struct {
    MPI_Count count;
    const int64_t *lens;        /* NULL: every block has len elements */
    MPI_Count len;
    const int64_t *disps;       /* NULL: block k at k * stride */
    MPI_Aint unit;
    MPI_Aint stride;
    const MPI_Datatype *types;  /* leaf_from_blocks only: block k's basic type (a struct's) */
} Blocks;

static MPI_Count block_len(const Blocks *b, MPI_Count k) { return b->lens ? b->lens[k] : b->len; }
static MPI_Aint block_off(const Blocks *b, MPI_Count k) { return b->disps ? b->disps[k] * b->unit : k * b->stride; }

static int oom(void)
{
    return MPIR_Err(MPI_ERR_NO_MEM, "out of memory building a dataloop");
}

/* Fills the prefix array (packed bytes before each block) of an INDEXED or STRUCT loop. */
static int set_prefix(MPID_Loop *l, MPI_Count n, MPI_Count (*bytes)(const MPID_Loop *, MPI_Count))
{
    l->prefix = malloc((size_t) (n + 1) * sizeof *l->prefix);
    if (!l->prefix)
        return oom();
    l->prefix[0] = 0;
    for (MPI_Count k = 0; k < n; k++)
        l->prefix[k + 1] = l->prefix[k] + bytes(l, k);
    l->size = l->prefix[n];
    return MPI_SUCCESS;
}

static MPI_Count struct_block_bytes(const MPID_Loop *l, MPI_Count k) { return l->children[k]->size; }

/* Whether offsets from lo to hi fit 32 bits as distances from lo (span less than 2 GiB). */
static bool span_fits32(MPI_Aint lo, MPI_Aint hi)
{
    return (uintptr_t) hi - (uintptr_t) lo <= INT32_MAX;
}

/* n 64-bit values, each minus lo, rewritten as 32-bit ones in the first half of their own array,
 * which is then shrunk to them (no second array at the peak; copying into one measured no faster).
 * Value k goes to bytes 4k, below its own 8k, so each is read before anything overwrites it;
 * memcpy, as the array changes type. */
static void *narrow_in_place(void *v, MPI_Count n, int64_t lo)
{
    for (MPI_Count k = 0; k < n; k++) {
        int64_t wide;
        memcpy(&wide, (char *) v + 8 * k, sizeof wide);
        uint32_t x = (uint32_t) (wide - lo);
        memcpy((char *) v + 4 * k, &x, sizeof x);
    }
    void *fit = realloc(v, (size_t) (n ? n : 1) * sizeof(uint32_t));
    return fit ? fit : v;   /* a failed shrink leaves the values where they are */
}

/* A BLKIDX leaf's offsets in 32 bits where they fit: the kernels that gather scattered small
 * blocks read half the bytes per block, which leaves more of the L1 to the blocks (LAMMPS +5-8%,
 * SPECFEM oc +3-6%, in one process next to 64-bit offsets), and the leaf takes half the memory. */
static void compact_offsets(MPID_Loop *l, MPI_Aint lo, MPI_Aint hi)
{
    if (!span_fits32(lo, hi))
        return;
    l->disp += lo;
    l->offsets32 = narrow_in_place(l->offsets, l->count, lo);
    l->offsets = NULL;
}

/* An INDEXED loop's offsets and prefix sums in 32 bits where both fit (offsets spanning less than
 * 2 GiB, data under 4 GiB): 8 bytes per block instead of 16, which takes a 1M-block indexed type
 * from 32 to 24 bytes per block with its arguments (MPICH 24) and a struct of 1M basic entries
 * from 40 to 32 (MPICH 40), and the kernels read half the bytes. Leaves are gathered in this form
 * from the start (gather_runs); this narrows the indexed loops of general children afterwards. */
static void compact_indexed(MPID_Loop *l, MPI_Aint lo, MPI_Aint hi)
{
    if (l->size > UINT32_MAX || !span_fits32(lo, hi))
        return;
    l->disp += lo;
    l->offsets32 = narrow_in_place(l->offsets, l->count, lo);
    l->prefix32 = narrow_in_place(l->prefix, l->count + 1, 0);
    l->offsets = NULL;
    l->prefix = NULL;
}

/* The runs of a leaf being built: their offsets and prefix sums (packed bytes before each run,
 * m + 1 values), either in 64 bits or narrow, as MPID_Loop keeps them where they fit: int32_t
 * offsets from base, spanning less than 2 GiB, and uint32_t prefix sums; with t, their types. */
typedef struct {
    bool narrow;
    void *off, *pre;
    MPI_Datatype *t;
    MPI_Count m;        /* number of runs */
    MPI_Aint base;      /* narrow: the first run's offset, which the others are relative to */
    MPI_Aint lo, hi;    /* of the offsets */
    bool mixed;         /* the runs' types differ */
} Runs;

static MPI_Aint run_off(const Runs *r, MPI_Count k)
{
    return r->narrow ? r->base + ((const int32_t *) r->off)[k] : ((const MPI_Aint *) r->off)[k];
}
static MPI_Count run_pre(const Runs *r, MPI_Count k)
{
    return r->narrow ? ((const uint32_t *) r->pre)[k] : ((const MPI_Count *) r->pre)[k];
}

static void runs_free(Runs *r)
{
    free(r->off);
    free(r->pre);
    free(r->t);
    r->off = r->pre = r->t = NULL;
}

/* Room for room runs; false when out of memory. */
static bool runs_alloc(Runs *r, size_t room, bool narrow, bool typed)
{
    size_t w = narrow ? 4 : 8;
    *r = (Runs) { .narrow = narrow, .off = malloc(room * w), .pre = malloc((room + 1) * w),
                  .t = typed ? malloc(room * sizeof(MPI_Datatype)) : NULL };
    if (r->off && r->pre && (r->t || !typed))
        return true;
    runs_free(r);
    return false;
}

/* Gathers into r the runs of blocks whose every element is a run of n basic elements at d: runs
 * that touch merge (of one type, when typed: b->types gives each block's); narrow, false when an
 * offset or a prefix sum does not fit. Written once and inlined for each case, so every loop keeps
 * its state in registers, and the narrow one writes each run once, in its final form.
 * Before, the runs were gathered in 64 bits and narrowed in two more passes, with the last run's
 * end read back from the arrays: commit of a 1M-block indexed type 3.3-3.7 ns per block, now
 * 2.4-2.5; of a struct of 1M basic entries 5.7-6.2, now 5.1-5.3 (bench/ddtbench, next to it). */
static inline __attribute__((always_inline)) bool
gather_runs(const Blocks *b, MPI_Count n, MPI_Aint d, int el_size, bool typed, bool narrow, bool listed, Runs *r)
{
    /* listed: b has lens and disps (an indexed type's blocks), read through locals, with the
     * run's bytes multiplied out once (commit of a 1M-block indexed type: 31 instead of 38
     * instructions per block in this loop) */
    const int64_t *lens = b->lens, *disps = b->disps;
    const MPI_Aint unit = b->unit;
    const MPI_Count run_bytes = n * el_size;
    MPI_Aint *o = r->off;
    MPI_Count *pre = r->pre;
    int32_t *o32 = r->off;
    uint32_t *pre32 = r->pre;
    MPI_Count m = 0, total = 0;   /* runs so far; their bytes (prefix m) */
    MPI_Aint end = 0, base = 0, lo = LONG_MAX, hi = LONG_MIN;   /* end: where run m - 1 ends */
    MPI_Datatype last = MPI_DATATYPE_NULL;
    bool mixed = false;
    if (narrow)
        pre32[0] = 0;
    else
        pre[0] = 0;
    for (MPI_Count k = 0; k < b->count; k++) {
        MPI_Datatype type = typed ? b->types[k] : MPI_DATATYPE_NULL;
        MPI_Count size = typed ? MPID_Datatype_get(type)->size : el_size;
        MPI_Count bytes = listed ? lens[k] * run_bytes : block_len(b, k) * n * size;
        if (bytes == 0)
            continue;
        MPI_Aint off = (listed ? disps[k] * unit : block_off(b, k)) + d;
        bool same = !typed || m == 0 || last == type;
        total += bytes;
        if (m > 0 && same && end == off) {
            if (narrow)
                pre32[m] = (uint32_t) total;
            else
                pre[m] = total;
            end += bytes;
            continue;
        }
        if (typed) {
            r->t[m] = last = type;
            mixed = mixed || !same;
        }
        if (m == 0)
            base = off;
        if (narrow) {
            /* wrong when the offsets span 2 GiB or more, which the test after the loop finds */
            o32[m] = (int32_t) ((uintptr_t) off - (uintptr_t) base);
            pre32[m + 1] = (uint32_t) total;
        } else {
            o[m] = off;
            pre[m + 1] = total;
        }
        m++;
        end = off + bytes;
        lo = off < lo ? off : lo;
        hi = off > hi ? off : hi;
    }
    if (narrow && (total > UINT32_MAX || !span_fits32(lo, hi)))
        return false;
    r->m = m;
    r->base = base;
    r->lo = lo;
    r->hi = hi;
    r->mixed = mixed;
    return true;
}

/* gather_runs for r's width and b's form, each of the six its own inlined loop. */
static bool gather(const Blocks *b, MPI_Count n, MPI_Aint d, int el_size, Runs *r)
{
    if (b->types)
        return r->narrow ? gather_runs(b, n, d, el_size, true, true, false, r)
                         : gather_runs(b, n, d, el_size, true, false, false, r);
    if (b->lens && b->disps)
        return r->narrow ? gather_runs(b, n, d, el_size, false, true, true, r)
                         : gather_runs(b, n, d, el_size, false, false, true, r);
    return r->narrow ? gather_runs(b, n, d, el_size, false, true, false, r)
                     : gather_runs(b, n, d, el_size, false, false, false, r);
}

/* The runs of b: narrow where they fit, else in 64 bits (which always fit); false when out of
 * memory. */
static bool runs_of(const Blocks *b, MPI_Count n, MPI_Aint d, int el_size, Runs *r)
{
    size_t room = (size_t) (b->count ? b->count : 1);
    bool typed = b->types != NULL;
    if (!runs_alloc(r, room, true, typed))
        return false;
    if (gather(b, n, d, el_size, r))
        return true;
    runs_free(r);
    return runs_alloc(r, room, false, typed) && gather(b, n, d, el_size, r);
}

/* The first n values of w bytes of the array a, in an allocation of their size (a itself if the
 * shrink fails). */
static void *shrunk(void *a, size_t n, size_t w)
{
    void *fit = realloc(a, (n ? n : 1) * w);
    return fit ? fit : a;
}

/* A leaf from blocks whose every element is a run of n basic elements at d (one pass: runs that
 * touch merge; a run's length is the difference of two prefix sums, so no length array is kept).
 * Equal runs at a constant distance become a vector, equal runs a blkidx, others an indexed leaf.
 * With b->types (a struct's basic types), a block's elements are of its own type; runs of
 * different types never merge, and mixed types give an indexed leaf that records them. */
static int leaf_from_blocks(const Blocks *b, MPI_Count n, MPI_Aint d, MPI_Datatype el_type, int el_size,
                            MPID_Loop **out)
{
    Runs r;
    if (!runs_of(b, n, d, el_size, &r))
        return oom();
    MPI_Count m = r.m;
    if (r.t && !r.mixed && m > 0) {
        el_type = r.t[0];
        el_size = (int) MPID_Datatype_get(el_type)->size;
    }
    bool equal = !r.mixed, regular = true;
    MPI_Count len0 = m ? run_pre(&r, 1) : 0;
    MPI_Aint off0 = m ? run_off(&r, 0) : 0, step = m > 1 ? run_off(&r, 1) - off0 : 0;
    for (MPI_Count k = 1; k < m && equal; k++) {
        equal = run_pre(&r, k + 1) - run_pre(&r, k) == len0;
        regular = regular && run_off(&r, k) - run_off(&r, k - 1) == step;
    }
    MPID_Loop *l = run_new(m ? len0 / el_size : 0, el_type, el_size, off0);
    size_t w = r.narrow ? 4 : 8;
    if (l && m > 1) {
        l->count = m;
        l->size = run_pre(&r, m);
        if (equal) {
            l->blocklen = len0 / el_size;
            if (regular) {
                l->kind = MPID_LOOP_VECTOR;
                l->stride = step;
            } else {
                l->kind = MPID_LOOP_BLKIDX;
                if (r.narrow) {
                    l->offsets32 = shrunk(r.off, (size_t) m, w);
                } else {
                    l->disp = 0;
                    l->offsets = r.off;
                    compact_offsets(l, r.lo, r.hi);
                }
                r.off = NULL;
            }
        } else {
            l->kind = MPID_LOOP_INDEXED;
            if (r.narrow) {
                l->offsets32 = shrunk(r.off, (size_t) m, w);
                l->prefix32 = shrunk(r.pre, (size_t) m + 1, w);
            } else {
                l->disp = 0;
                l->offsets = r.off;
                l->prefix = r.pre;
            }
            r.off = r.pre = NULL;   /* wide only where they do not fit 32 bits */
            if (r.mixed) {
                l->el_types = shrunk(r.t, (size_t) m, sizeof(MPI_Datatype));
                l->el_type = MPI_DATATYPE_NULL;
                l->el_size = 0;
                r.t = NULL;
            }
        }
    }
    runs_free(&r);
    if (!l)
        return oom();
    *out = l;
    return MPI_SUCCESS;
}

/* The blocks that hold elements, counted up to enough: uniform ones without a loop (a vector may
 * have 2^40); listed ones stop there, so that asking whether any block holds elements (enough 1)
 * reads one length, where counting them all read every length once more (commit of a 1M-block
 * indexed type: 7 of 45 instructions per block). */
static MPI_Count nonempty_blocks(const Blocks *b, MPI_Count enough)
{
    if (!b->lens)
        return b->len > 0 ? (b->count < enough ? b->count : enough) : 0;
    MPI_Count nonempty = 0;
    for (MPI_Count k = 0; k < b->count && nonempty < enough; k++)
        nonempty += block_len(b, k) > 0;
    return nonempty;
}

/* Blocks of elements of child (a built loop, consumed), child instances extent bytes apart. */
static int make_blocks(const Blocks *b, MPID_Loop *child, MPI_Aint extent, MPID_Loop **out)
{
    if (nonempty_blocks(b, 1) == 0 || child->size == 0) {
        MPID_Dataloop_free(child);
        *out = run_new(0, MPI_BYTE, 1, 0);
        return *out ? MPI_SUCCESS : oom();
    }

    if (is_run(child)) {
        MPI_Count n = child->count;
        MPI_Datatype el_type = child->el_type;
        int el_size = child->el_size;
        MPI_Aint d = child->disp;
        bool abut = extent == n * el_size;
        bool single = b->lens ? true : b->len <= 1;   /* every block holds one child */
        for (MPI_Count k = 0; b->lens && k < b->count && single; k++)
            single = block_len(b, k) <= 1;
        if (abut || single) {
            MPID_Dataloop_free(child);
            /* every block is one run: (offset + d, len * n elements) */
            if (!b->disps && !b->lens) {
                MPID_Loop *l = run_new(0, el_type, el_size, d);
                if (!l)
                    return oom();
                MPI_Count run = b->len * n;
                if (b->count == 1 || b->stride == run * el_size) {
                    l->count = b->count * run;
                } else {
                    l->kind = MPID_LOOP_VECTOR;
                    l->count = b->count;
                    l->blocklen = run;
                    l->stride = b->stride;
                }
                l->size = b->count * run * el_size;
                *out = l;
                return MPI_SUCCESS;
            }
            return leaf_from_blocks(b, n, d, el_type, el_size, out);
        }
    }

    /* a single element of a general child is that child, moved */
    if (b->count == 1 && block_len(b, 0) == 1) {
        child->disp += block_off(b, 0);
        *out = child;
        return MPI_SUCCESS;
    }

    /* a general child: the loop keeps it and walks its elements */
    MPID_Loop *l = loop_new(MPID_LOOP_CONTIG);
    if (!l) {
        MPID_Dataloop_free(child);
        return oom();
    }
    l->child = child;
    l->child_extent = extent;
    l->child_size = child->size;
    l->depth = child->depth + 1;
    MPI_Aint run;   /* the bytes of a block when its elements touch; no overflow on absurd extents */
    if (!b->disps && !b->lens
        && (b->count == 1 || (!MPIR_Mul_overflows(b->len, extent, &run) && b->stride == run))) {
        l->count = b->count * b->len;
    } else if (!b->disps && !b->lens) {
        l->kind = MPID_LOOP_VECTOR;
        l->count = b->count;
        l->blocklen = b->len;
        l->stride = b->stride;
    } else {
        /* explicit blocks: drop the empty ones */
        MPI_Count nonempty = nonempty_blocks(b, b->count);
        l->offsets = malloc((size_t) nonempty * sizeof *l->offsets);
        l->prefix = malloc((size_t) (nonempty + 1) * sizeof *l->prefix);
        if (!l->offsets || !l->prefix) {
            MPID_Dataloop_free(l);
            return oom();
        }
        MPI_Count m = 0;
        bool equal = true;
        MPI_Aint lo = LONG_MAX, hi = LONG_MIN;   /* of the offsets, for compact_indexed */
        l->prefix[0] = 0;
        for (MPI_Count k = 0; k < b->count; k++) {
            MPI_Count len = block_len(b, k);
            if (len == 0)
                continue;
            l->offsets[m] = block_off(b, k);
            lo = l->offsets[m] < lo ? l->offsets[m] : lo;
            hi = l->offsets[m] > hi ? l->offsets[m] : hi;
            l->prefix[m + 1] = l->prefix[m] + len * l->child_size;
            if (m > 0)
                equal = equal && l->prefix[m + 1] - l->prefix[m] == l->prefix[1];
            m++;
        }
        l->count = m;
        l->size = l->prefix[m];
        if (equal) {
            l->kind = MPID_LOOP_BLKIDX;
            l->blocklen = l->prefix[1] / l->child_size;
            free(l->prefix);
            l->prefix = NULL;
        } else {
            l->kind = MPID_LOOP_INDEXED;
            compact_indexed(l, lo, hi);
        }
    }
    if (l->kind == MPID_LOOP_CONTIG)
        l->size = l->count * l->child_size;
    else if (l->kind == MPID_LOOP_VECTOR || l->kind == MPID_LOOP_BLKIDX)
        l->size = l->count * l->blocklen * l->child_size;
    *out = l;
    return MPI_SUCCESS;
}

static int build(MPID_Datatype *dt, MPID_Loop **out);

/* blocks of a child type (the common case of every constructor but struct) */
static int child_blocks(const Blocks *b, MPI_Datatype type, MPID_Loop **out)
{
    MPID_Datatype *child_dt = MPID_Datatype_get(type);
    MPID_Loop *child = NULL;
    int err = build(child_dt, &child);
    if (err)
        return err;
    return make_blocks(b, child, child_dt->extent, out);
}

static int build_pair(MPI_Datatype type, MPID_Loop **out)
{
    MPI_Datatype vt, it;
    MPI_Aint ioff;
    MPID_Builtin_pair_layout(type, &vt, &it, &ioff);
    int vs = (int) MPID_Datatype_get(vt)->size, is = (int) MPID_Datatype_get(it)->size;
    if (vt == it && ioff == vs) {
        *out = run_new(2, vt, vs, 0);
        return *out ? MPI_SUCCESS : oom();
    }
    MPID_Loop *l = loop_new(MPID_LOOP_STRUCT);
    if (!l)
        return oom();
    l->count = 2;
    l->depth = 2;
    l->children = calloc(2, sizeof *l->children);
    if (!l->children || !(l->children[0] = run_new(1, vt, vs, 0)) || !(l->children[1] = run_new(1, it, is, ioff))
        || set_prefix(l, 2, struct_block_bytes)) {
        MPID_Dataloop_free(l);
        return oom();
    }
    *out = l;
    return MPI_SUCCESS;
}

/* Whether every entry of a struct that has data is of a basic type (not a pair type). */
static bool entries_basic(MPI_Count count, const int64_t *lens, const MPI_Datatype *types)
{
    for (MPI_Count k = 0; k < count; k++) {
        MPID_Datatype *t = MPID_Datatype_get(types[k]);
        if (lens[k] != 0 && t->size != 0 && (!MPID_Datatype_is_builtin(types[k]) || t->n_elements != 1))
            return false;
    }
    return true;
}

static int build_struct(MPI_Count count, const int64_t *lens, const int64_t *offs, const MPI_Datatype *types,
                        MPID_Loop **out)
{
    /* entries of basic types: the leaf comes straight from the arguments, no loop per entry */
    if (entries_basic(count, lens, types)) {
        Blocks b = { .count = count, .lens = lens, .disps = offs, .unit = 1, .types = types };
        return leaf_from_blocks(&b, 1, 0, MPI_BYTE, 1, out);
    }
    int err = MPI_SUCCESS;
    MPID_Loop **blocks = calloc((size_t) (count ? count : 1), sizeof *blocks);
    if (!blocks)
        return oom();
    MPI_Count m = 0;
    bool all_runs = true;
    for (MPI_Count k = 0; k < count && !err; k++) {
        MPID_Datatype *t = MPID_Datatype_get(types[k]);
        if (lens[k] == 0 || t->size == 0)
            continue;
        Blocks one = { .count = 1, .len = lens[k] };
        if ((err = child_blocks(&one, types[k], &blocks[m])))
            break;
        blocks[m]->disp += offs[k];
        all_runs = all_runs && is_run(blocks[m]);
        m++;
    }
    if (!err && m == 0) {
        *out = run_new(0, MPI_BYTE, 1, 0);
        err = *out ? MPI_SUCCESS : oom();
    } else if (!err && m == 1) {
        *out = blocks[0];
        blocks[0] = NULL;
    } else if (!err && all_runs) {
        /* every entry is a run of basic elements: one leaf */
        int64_t *o = malloc((size_t) m * sizeof *o);
        int64_t *n = malloc((size_t) m * sizeof *n);
        MPI_Datatype *t = malloc((size_t) m * sizeof *t);
        if (o && n && t) {
            for (MPI_Count k = 0; k < m; k++) {
                o[k] = blocks[k]->disp;
                n[k] = blocks[k]->count;
                t[k] = blocks[k]->el_type;
            }
            Blocks runs = { .count = m, .lens = n, .disps = o, .unit = 1, .types = t };
            err = leaf_from_blocks(&runs, 1, 0, MPI_BYTE, 1, out);
        } else
            err = oom();
        free(o);
        free(n);
        free(t);
    } else if (!err) {
        MPID_Loop *l = loop_new(MPID_LOOP_STRUCT);
        if (!l)
            err = oom();
        else {
            l->count = m;
            l->children = blocks;
            blocks = NULL;
            for (MPI_Count k = 0; k < m; k++)
                if (l->children[k]->depth + 1 > l->depth)
                    l->depth = l->children[k]->depth + 1;
            if ((err = set_prefix(l, m, struct_block_bytes)))
                MPID_Dataloop_free(l);
            else
                *out = l;
        }
    }
    for (MPI_Count k = 0; blocks && k < m; k++)
        MPID_Dataloop_free(blocks[k]);
    free(blocks);
    return err;
}

static int build(MPID_Datatype *dt, MPID_Loop **out)
{
    MPI_Datatype handle = MPID_Datatype_handle(dt);
    if (dt->size == 0) {
        *out = run_new(0, MPI_BYTE, 1, 0);
        return *out ? MPI_SUCCESS : oom();
    }
    if (MPID_Datatype_is_builtin(handle)) {
        if (dt->n_elements == 2)
            return build_pair(handle, out);
        *out = run_new(1, handle, (int) dt->size, 0);
        return *out ? MPI_SUCCESS : oom();
    }
    if (dt->impl_type)   /* dup, subarray, darray, f90: the internal equivalent */
        return build(dt->impl_type, out);

    const int64_t *v;
    const MPI_Datatype *types;
    int nvals, ntypes;
    int combiner = MPID_Contents_get(dt, &v, &nvals, &types, &ntypes);
    MPID_Datatype *old = ntypes ? MPID_Datatype_get(types[0]) : NULL;
    switch (combiner) {
    case MPI_COMBINER_RESIZED:
        return build(old, out);   /* the new extent only matters to whoever repeats this type */
    case MPI_COMBINER_CONTIGUOUS: {
        Blocks b = { .count = 1, .len = v[0] };
        return child_blocks(&b, types[0], out);
    }
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR: {
        MPI_Aint stride = combiner == MPI_COMBINER_VECTOR ? v[2] * old->extent : v[2];
        Blocks b = { .count = v[0], .len = v[1], .stride = stride };
        return child_blocks(&b, types[0], out);
    }
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED: {
        MPI_Count n = v[0];
        Blocks b = { .count = n, .lens = v + 1, .disps = v + 1 + n,
                     .unit = combiner == MPI_COMBINER_INDEXED ? old->extent : 1 };
        return child_blocks(&b, types[0], out);
    }
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK: {
        Blocks b = { .count = v[0], .len = v[1], .disps = v + 2,
                     .unit = combiner == MPI_COMBINER_INDEXED_BLOCK ? old->extent : 1 };
        return child_blocks(&b, types[0], out);
    }
    case MPI_COMBINER_STRUCT:
        return build_struct(v[0], v + 1, v + 1 + v[0], types, out);
    default:
        return MPIR_Err(MPI_ERR_INTERN, "no dataloop for combiner %d", combiner);
    }
}

typedef struct {
    MPID_Datatype *dt;
    MPID_Loop *loop;
    int err;
} Build_call;

static void build_call(void *p)
{
    Build_call *b = p;
    b->err = build(b->dt, &b->loop);
}

int MPID_Dataloop_build(MPID_Datatype *dt, MPID_Loop **loop)
{
    Build_call b = { dt, NULL, MPI_SUCCESS };
    int err = MPIR_Run_deep(dt->depth, build_call, &b);
    *loop = b.loop;
    if (!err && b.err && dt->depth > MPIR_DEEP_THRESHOLD)   /* the reason was recorded on the other thread */
        err = MPIR_Err(b.err, "could not build the dataloop of a datatype nested %d deep", dt->depth);
    return err ? err : b.err;
}

static void print(const MPID_Loop *l, FILE *out, int indent)
{
    static const char *names[] = { "contig", "vector", "blkidx", "indexed", "struct" };
    fprintf(out, "%*s%s count=%lld disp=%ld size=%lld", indent, "", names[l->kind], (long long) l->count,
            (long) l->disp, (long long) l->size);
    if (l->kind == MPID_LOOP_VECTOR || l->kind == MPID_LOOP_BLKIDX)
        fprintf(out, " blocklen=%lld", (long long) l->blocklen);
    if (l->kind == MPID_LOOP_VECTOR)
        fprintf(out, " stride=%ld", (long) l->stride);
    if (is_leaf(l) && l->el_types)
        fprintf(out, " leaf mixed types\n");
    else if (is_leaf(l))
        fprintf(out, " leaf el_size=%d\n", l->el_size);
    else
        fprintf(out, " child_extent=%ld\n", (long) l->child_extent);
    if (l->child)
        print(l->child, out, indent + 2);
    for (MPI_Count k = 0; l->kind == MPID_LOOP_STRUCT && k < l->count; k++)
        print(l->children[k], out, indent + 2);
}

/* Debugging aid: recursive, so meant for the types a person reads, not for million-deep ones. */
void MPID_Dataloop_print(const MPID_Loop *loop, FILE *out)
{
    print(loop, out, 0);
}
