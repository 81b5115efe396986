/*
 * Copy plans: one instance of a dataloop flattened into the kernel calls that copy it whole.
 *
 * A type whose loop is a leaf, or a struct (of structs) of leaves, is copied whole by a few kernel
 * calls whose arguments never change: the plan keeps them in one small array. Rows of a vector
 * leaf (a vector of vectors, a 3-D face) count as a leaf: one call of the strided kernel. Packing
 * one instance (MPI_Pack, a whole eager message) then runs that array instead of walking the loop
 * tree, whose nodes are separate allocations that the copied data evicts from the L1 on every
 * call: following them costs a chain of L2 hits per leaf (LAMMPS atomic, a struct of four gathers
 * of 243 blocks: the walk took 6% of the call). Leaves of one struct that gather at the same
 * offsets (one index list over several arrays) share one offset array in the plan, so the kernels
 * read it from the cache after its first use.
 */
#include "mpiimpl.h"
#include "mpid_dataloop.h"
#include "copy_kernels.h"

/* Beyond this many leaves a struct is walked: its per-leaf work hides the walk. */
#define PLAN_MAX_STEPS 32

/* Strided leaves of at most FEW_BLOCKS blocks and FEW_BYTES bytes are copied by the plan's own
 * loop (STEP_FEW): the strided entry points choose among their kernels on every call, which for a
 * few short blocks costs more than the copies. */
#define FEW_BLOCKS 16
#define FEW_BYTES 256

typedef enum { STEP_RUN, STEP_STRIDED, STEP_FEW, STEP_BLKIDX32, STEP_BLKIDX, STEP_INDEXED } Step_kind;

typedef struct {
    Step_kind kind;
    MPI_Aint disp;              /* of the leaf's base from the instance's origin */
    MPI_Count n;                /* blocks */
    MPI_Count bs;               /* bytes per block (RUN: the run; INDEXED: unused) */
    MPI_Count bytes;            /* packed bytes of the leaf */
    union {
        struct {                /* STRIDED and FEW: rows of n blocks, row_step apart */
            MPI_Aint stride, row_step;
            MPI_Count rows;
            MPID_Row_kernel row[2];   /* the kernel for unpack ([0]) and pack, if the strided
                                         entry point would only pass each row on to it */
        };
        const void *offsets;      /* BLKIDX32: int32_t, BLKIDX: MPI_Aint */
        const MPID_Loop *leaf;    /* INDEXED: its arrays, of either width */
    };
} Step;

struct MPID_Plan {
    int n;
    Step steps[];
};

static bool is_leaf(const MPID_Loop *l)
{
    return l->child == NULL && l->kind != MPID_LOOP_STRUCT;
}

/* Whether a strided step is a FEW one. In a test program, one vector per MPI_Pack or MPI_Unpack
 * call (Zen 5): 4 doubles 32 bytes apart packed in 10.4-10.7 ns instead of 18.2-18.3 and unpacked
 * in 10.3-10.4 instead of 20.7-20.8 (a contiguous type of the same size: 6); 16 of them in 15 and
 * 14.6 instead of 20 and 23; 8 blocks of 32 bytes in 15-16 and 15 instead of 18-19 and 21-22; 4
 * of 64 bytes in 16-17.5 and 17-18 instead of 18 and 21. Not more bytes (16 blocks of 64 bytes:
 * 38 instead of 22-26 and 26-28), nor where a row kernel was chosen here (16 doubles 16 bytes
 * apart: 15 instead of 13). */
static bool few_blocks(const Step *s)
{
    return !s->row[0] && !s->row[1] && s->bytes <= FEW_BYTES && s->n > 0 && s->n <= FEW_BLOCKS
        && s->rows <= FEW_BLOCKS / s->n;
}

/* An earlier step's offsets if they equal these (n int32_t values), else these. */
static const void *shared_offsets(const MPID_Plan *p, const int32_t *offs, MPI_Count n)
{
    for (int k = 0; k < p->n; k++) {
        const Step *s = &p->steps[k];
        if (s->kind == STEP_BLKIDX32 && s->n == n && memcmp(s->offsets, offs, (size_t) n * sizeof *offs) == 0)
            return s->offsets;
    }
    return offs;
}

/* Appends the steps of one instance of l at disp; false if l is not made of leaves and structs,
 * or has too many. */
static bool add_steps(MPID_Plan *p, const MPID_Loop *l, MPI_Aint disp)
{
    /* each struct level has two entries or more, so a deeper tree has too many leaves: said
     * before descending it, which keeps this recursion shallow whatever the type's depth */
    if (l->depth > PLAN_MAX_STEPS)
        return false;
    disp += l->disp;
    if (l->kind == MPID_LOOP_STRUCT) {
        for (MPI_Count k = 0; k < l->count; k++)
            if (!add_steps(p, l->children[k], disp))
                return false;
        return true;
    }
    /* elements of a vector leaf, one after the other, as the walk moves them (strided_rows) */
    const MPID_Loop *row = l->child;
    bool rows = row && is_leaf(row) && row->kind == MPID_LOOP_VECTOR && !row->windows
        && (l->kind == MPID_LOOP_CONTIG || (l->kind == MPID_LOOP_VECTOR && l->blocklen == 1));
    if ((!is_leaf(l) && !rows) || p->n == PLAN_MAX_STEPS)
        return false;
    Step *s = &p->steps[p->n];
    *s = (Step) { .disp = disp, .n = l->count, .bytes = l->size, .rows = 1 };
    if (rows) {
        s->disp += row->disp;
        s->n = row->count;
        s->rows = l->count;
        s->row_step = l->kind == MPID_LOOP_CONTIG ? l->child_extent : l->stride;
        l = row;
    }
    switch (l->kind) {
    case MPID_LOOP_CONTIG:
        s->kind = STEP_RUN;
        s->bs = l->size;
        break;
    case MPID_LOOP_VECTOR:
        s->kind = STEP_STRIDED;
        s->bs = l->blocklen * l->el_size;
        s->stride = l->stride;
        s->row[0] = MPID_Strided_row_kernel(false, s->stride, s->bs, s->n * s->rows);
        s->row[1] = MPID_Strided_row_kernel(true, s->stride, s->bs, s->n * s->rows);
        if (few_blocks(s))
            s->kind = STEP_FEW;
        break;
    case MPID_LOOP_BLKIDX:
        s->kind = l->offsets32 ? STEP_BLKIDX32 : STEP_BLKIDX;
        s->bs = l->blocklen * l->el_size;
        s->offsets = l->offsets32 ? shared_offsets(p, l->offsets32, l->count) : (const void *) l->offsets;
        break;
    default:
        s->kind = STEP_INDEXED;
        s->leaf = l;
        break;
    }
    p->n++;
    return true;
}

MPID_Plan *MPID_Plan_build(const MPID_Loop *loop)
{
    MPID_Plan *p = malloc(sizeof *p + PLAN_MAX_STEPS * sizeof p->steps[0]);
    if (!p)
        return NULL;   /* the walk still works */
    p->n = 0;
    if (!add_steps(p, loop, 0) || p->n == 0) {
        free(p);
        return NULL;
    }
    MPID_Plan *fit = realloc(p, sizeof *p + (size_t) p->n * sizeof p->steps[0]);
    return fit ? fit : p;
}

/* A FEW step's blocks; inlined with pack and (for the usual sizes) bs constant, so that each
 * block is one or two moves. */
static inline __attribute__((always_inline)) void copy_few(const Step *s, char *packed, char *base, bool pack,
                                                           MPI_Count bs)
{
    for (MPI_Count r = 0; r < s->rows; r++) {
        char *typed = at_k(base, r, s->row_step);
        for (MPI_Count i = 0; i < s->n; i++, packed += bs, typed = at(typed, s->stride))
            if (pack)
                copy_bytes(packed, typed, bs);
            else
                copy_bytes(typed, packed, bs);
    }
}

void MPID_Plan_run(const MPID_Plan *p, char *buf, char *stream, bool pack)
{
    const MPID_Kernel_set *k = MPID_Kernels;
    for (const Step *s = p->steps; s < p->steps + p->n; s++) {
        char *base = at(buf, s->disp);
        switch (s->kind) {
        case STEP_RUN:
            if (pack)
                copy_bytes(stream, base, s->bs);
            else
                copy_bytes(base, stream, s->bs);
            break;
        case STEP_STRIDED:   /* as MPID_Pack_strided and MPID_Unpack_strided, with their choice made */
            if (s->row[pack])
                MPID_Each_row(s->row[pack], stream, base, s->stride, s->bs, s->n, s->row_step, s->rows);
            else
                (pack ? MPID_Pack_rows : MPID_Unpack_rows)(stream, base, s->stride, s->bs, s->n, s->row_step, s->rows);
            break;
        case STEP_FEW:
            if (s->bs == 8)
                pack ? copy_few(s, stream, base, true, 8) : copy_few(s, stream, base, false, 8);
            else if (s->bs == 16)
                pack ? copy_few(s, stream, base, true, 16) : copy_few(s, stream, base, false, 16);
            else
                pack ? copy_few(s, stream, base, true, s->bs) : copy_few(s, stream, base, false, s->bs);
            break;
        case STEP_BLKIDX32:
            (pack ? k->pack_blkidx32 : k->unpack_blkidx32)(stream, base, s->offsets, s->bs, s->n);
            break;
        case STEP_BLKIDX:
            (pack ? k->pack_blkidx : k->unpack_blkidx)(stream, base, s->offsets, s->bs, s->n);
            break;
        case STEP_INDEXED: {
            char *end = stream;
            const MPID_Loop *l = s->leaf;
            MPID_Copy_indexed(pack, &end, base, l->offsets, l->prefix, l->offsets32, l->prefix32, 0, s->n, s->bytes);
            break;
        }
        }
        stream += s->bytes;
    }
}
