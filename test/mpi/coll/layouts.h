/*
 * Buffer layouts for the collective tests: the same logical data (a sequence of elements) laid out
 * in memory by different datatypes, so that a test can send with one layout and receive with
 * another of the same type signature, and check every element and every byte in between.
 *
 * Two families of elements:
 *   INTS     an element is one int;
 *   RECORDS  an element is a record {int a; double b; char c} (a struct of mixed types), filled
 *            from one value v as a = v, b = v + 0.25, c = v mod 128.
 * Element k of a block sits at origin + k * stride bytes from the block's address; the block
 * address of block i is chosen by the test (i * block for the regular collectives, displacements
 * for the v/w ones).
 *
 * Buffers start filled with a sentinel byte; check_buf verifies the elements a test expects and
 * that every other byte still holds the sentinel (nothing written outside the type map).
 */
#ifndef LAYOUTS_H_INCLUDED
#define LAYOUTS_H_INCLUDED

#include <stdlib.h>
#include "colltest.h"

enum { INTS, RECORDS };

typedef struct {
    const char *name;
    int family;
    MPI_Datatype type;      /* committed; freed by layouts_free */
    int count;              /* count argument for m elements */
    MPI_Aint origin, stride;
    MPI_Aint esize;         /* bytes from an element's address to the end of its data */
    MPI_Aint fa, fb, fc;    /* RECORDS: offsets of the fields a, b, c in an element */
    MPI_Aint block;         /* count * extent: bytes between regular blocks */
    MPI_Aint lo, hi;        /* bytes a block of m elements touches, relative to its address */
} Layout;

struct rec {
    int a;
    double b;
    char c;
};

#define SENTINEL 0xA5

/* A record type with the fields at a, b, c (type-map order a, b, c) and the given extent. */
static inline MPI_Datatype layouts_record_type(MPI_Aint a, MPI_Aint b, MPI_Aint c, MPI_Aint extent)
{
    int lens[3] = { 1, 1, 1 };
    MPI_Aint disps[3] = { a, b, c };
    MPI_Datatype types[3] = { MPI_INT, MPI_DOUBLE, MPI_CHAR }, t, r;
    MPI_Type_create_struct(3, lens, disps, types, &t);
    MPI_Type_create_resized(t, 0, extent, &r);
    MPI_Type_free(&t);
    return r;
}

static inline void layouts_add(Layout *ls, int *n, Layout l, int m)
{
    MPI_Aint lb, extent;
    MPI_Type_commit(&l.type);
    MPI_Type_get_extent(l.type, &lb, &extent);
    l.block = l.count * extent;
    MPI_Aint first = l.origin, last = l.origin + (m > 0 ? m - 1 : 0) * l.stride;
    l.lo = first < last ? first : last;
    l.hi = (first < last ? last : first) + l.esize;
    ls[(*n)++] = l;
}

#define REC_A offsetof(struct rec, a)
#define REC_B offsetof(struct rec, b)
#define REC_C offsetof(struct rec, c)

/* The layouts of a family for blocks of m elements. per_element_only: just those whose type is
 * one element (count = m works for any m: the v/w collectives). Returns how many it wrote. */
static inline int layouts_make(int family, int m, int per_element_only, Layout *ls)
{
    int n = 0;
    MPI_Datatype t;
    if (family == INTS) {
        MPI_Type_dup(MPI_INT, &t);
        layouts_add(ls, &n, (Layout) { .name = "dup(MPI_INT)", .family = INTS, .type = t, .count = m,
                                       .stride = 4, .esize = 4 }, m);
        MPI_Type_create_resized(MPI_INT, 0, 12, &t);
        layouts_add(ls, &n, (Layout) { .name = "resized(MPI_INT, extent 12)", .family = INTS, .type = t,
                                       .count = m, .stride = 12, .esize = 4 }, m);
        if (!per_element_only && m > 0) {
            MPI_Type_vector(m, 1, 2, MPI_INT, &t);
            layouts_add(ls, &n, (Layout) { .name = "vector(m, 1, 2, MPI_INT)", .family = INTS, .type = t,
                                           .count = 1, .stride = 8, .esize = 4 }, m);
            MPI_Type_contiguous(m, MPI_INT, &t);
            layouts_add(ls, &n, (Layout) { .name = "contiguous(m, MPI_INT)", .family = INTS, .type = t,
                                           .count = 1, .stride = 4, .esize = 4 }, m);
            /* type-map order opposite to memory order */
            int *displs = malloc((size_t) m * sizeof(int));
            for (int k = 0; k < m; k++)
                displs[k] = m - 1 - k;
            MPI_Type_create_indexed_block(m, 1, displs, MPI_INT, &t);
            free(displs);
            layouts_add(ls, &n, (Layout) { .name = "indexed_block(reversed)", .family = INTS, .type = t,
                                           .count = 1, .origin = (m - 1) * 4, .stride = -4, .esize = 4 }, m);
            /* negative stride: the data lies below the buffer address */
            MPI_Type_create_hvector(m, 1, -8, MPI_INT, &t);
            layouts_add(ls, &n, (Layout) { .name = "hvector(stride -8)", .family = INTS, .type = t,
                                           .count = 1, .stride = -8, .esize = 4 }, m);
        }
    } else {
        MPI_Aint rs = sizeof(struct rec);
        layouts_add(ls, &n, (Layout) { .name = "struct{int,double,char}", .family = RECORDS,
                                       .type = layouts_record_type(REC_A, REC_B, REC_C, rs), .count = m,
                                       .stride = rs, .esize = rs, .fa = REC_A, .fb = REC_B, .fc = REC_C }, m);
        layouts_add(ls, &n, (Layout) { .name = "struct{char@0,int@4,double@8} (type map int,double,char)",
                                       .family = RECORDS, .type = layouts_record_type(4, 8, 0, 16), .count = m,
                                       .stride = 16, .esize = 16, .fa = 4, .fb = 8, .fc = 0 }, m);
        layouts_add(ls, &n, (Layout) { .name = "struct resized to 2 records", .family = RECORDS,
                                       .type = layouts_record_type(REC_A, REC_B, REC_C, 2 * rs), .count = m,
                                       .stride = 2 * rs, .esize = rs, .fa = REC_A, .fb = REC_B, .fc = REC_C }, m);
        if (!per_element_only && m > 0) {
            MPI_Datatype rec = layouts_record_type(REC_A, REC_B, REC_C, rs);
            MPI_Type_contiguous(m, rec, &t);
            MPI_Type_free(&rec);
            layouts_add(ls, &n, (Layout) { .name = "contiguous(m, struct)", .family = RECORDS, .type = t,
                                           .count = 1, .stride = rs, .esize = rs, .fa = REC_A, .fb = REC_B,
                                           .fc = REC_C }, m);
        }
    }
    return n;
}

static inline void layouts_free(Layout *ls, int n)
{
    for (int i = 0; i < n; i++)
        MPI_Type_free(&ls[i].type);
}

/* ---- buffers ---- */

typedef struct {
    char *mem;
    size_t size;
    char *base;             /* the address handed to MPI */
} Buf;

#define LAYOUTS_PAD 64

/* A buffer for bytes [lo, hi) relative to its base address, sentinel-filled. */
static inline void buf_alloc(Buf *b, MPI_Aint lo, MPI_Aint hi)
{
    b->size = (size_t) (hi - lo) + 2 * LAYOUTS_PAD;
    b->mem = malloc(b->size);
    memset(b->mem, SENTINEL, b->size);
    b->base = b->mem + LAYOUTS_PAD - lo;
}

/* A buffer for nblocks regular blocks of layout l. */
static inline void buf_alloc_blocks(Buf *b, const Layout *l, int nblocks)
{
    buf_alloc(b, l->lo, (nblocks > 0 ? nblocks - 1 : 0) * l->block + l->hi);
}

static inline void buf_free(Buf *b)
{
    free(b->mem);
}

static inline void buf_reset(Buf *b)
{
    memset(b->mem, SENTINEL, b->size);
}

static inline char *elem_addr(const Layout *l, char *block, int k)
{
    return block + l->origin + (MPI_Aint) k * l->stride;
}

static inline void put_elem(const Layout *l, char *block, int k, int v)
{
    char *p = elem_addr(l, block, k);
    if (l->family == INTS) {
        memcpy(p, &v, sizeof v);
    } else {
        double d = v + 0.25;
        char c = (char) (v & 0x7f);
        memcpy(p + l->fa, &v, sizeof v);
        memcpy(p + l->fb, &d, sizeof d);
        memcpy(p + l->fc, &c, 1);
    }
}

/* The value stored in element k, or a description of the inconsistency (returns 0 then). */
static inline int get_elem(const Layout *l, char *block, int k, int *v)
{
    char *p = elem_addr(l, block, k);
    if (l->family == INTS) {
        memcpy(v, p, sizeof *v);
        return 1;
    }
    double d;
    char c;
    memcpy(v, p + l->fa, sizeof *v);
    memcpy(&d, p + l->fb, sizeof d);
    memcpy(&c, p + l->fc, 1);
    return d == *v + 0.25 && c == (char) (*v & 0x7f);
}

/* Marks the bytes of the elements of a block in a map of the buffer (1 = element byte). */
static inline void mark_block(const Buf *b, unsigned char *map, const Layout *l, char *block, int m)
{
    for (int k = 0; k < m; k++) {
        char *p = elem_addr(l, block, k);
        if (l->family == INTS) {
            memset(map + (p - b->mem), 1, sizeof(int));
        } else {
            memset(map + (p + l->fa - b->mem), 1, sizeof(int));
            memset(map + (p + l->fb - b->mem), 1, sizeof(double));
            map[p + l->fc - b->mem] = 1;
        }
    }
}

/* Every byte outside the marked elements still holds the sentinel; returns the failures. */
static inline int check_gaps(const Buf *b, const unsigned char *map, const char *what)
{
    for (size_t i = 0; i < b->size; i++)
        if (!map[i] && (unsigned char) b->mem[i] != SENTINEL) {
            MTEST_FAIL("%s: byte %ld outside the data was overwritten", what, (long) i - LAYOUTS_PAD);
            return 1;
        }
    return 0;
}

/* ---- blocks of the v/w collectives: per-element layouts, one block per rank ---- */

typedef struct {
    const Layout *l;
    int count;              /* elements */
    MPI_Aint off;           /* bytes from the buffer address; a multiple of the layout's extent */
} Vblock;

/* Places the blocks in reverse rank order, one element apart (a gap the collective must not
 * touch); each offset is a multiple of its block's extent. Returns the
 * end of the last block's data. */
static inline MPI_Aint vblocks_place(Vblock *vb, int n)
{
    MPI_Aint end = 0;
    for (int i = n - 1; i >= 0; i--) {
        MPI_Aint step = vb[i].l->stride;        /* the extent of a per-element layout */
        MPI_Aint off = (end + step - 1) / step * step;
        vb[i].off = off;
        end = off + (vb[i].count + 1) * step;   /* one element of gap after the block */
    }
    return end;
}

static inline void vblock_fill(const Buf *b, const Vblock *v, int (*value)(int, int, int), int x, int y)
{
    for (int k = 0; k < v->count; k++)
        put_elem(v->l, b->base + v->off, k, value(x, y, k));
}

/* Checks the elements of a block against value(x, y, k); returns the failures. */
static inline int vblock_check(const Buf *b, const Vblock *v, int (*value)(int, int, int), int x, int y,
                               const char *what)
{
    for (int k = 0; k < v->count; k++) {
        int got;
        int ok = get_elem(v->l, b->base + v->off, k, &got);
        if (!ok || got != value(x, y, k)) {
            MTEST_FAIL("%s, layout %s, element %d: got %d, expected %d", what, v->l->name, k, got,
                       value(x, y, k));
            return 1;
        }
    }
    return 0;
}

/* Checks a receive buffer holding the n blocks vb, block i filled with value(i * key_scale +
 * key_base, y, k) (the sender's rank, or a code of the pair), and that no byte outside them
 * changed; what names the call in the messages. Returns the failures. */
static inline int vblocks_check(const Buf *b, const Vblock *vb, int n, int (*value)(int, int, int), int key_scale,
                                int key_base, int y, const char *what)
{
    unsigned char *map = calloc(b->size, 1);
    char msg[256];
    int fails = 0;
    for (int i = 0; i < n; i++) {
        mark_block(b, map, vb[i].l, b->base + vb[i].off, vb[i].count);
        snprintf(msg, sizeof msg, "%s, block from %d", what, i);
        fails += vblock_check(b, &vb[i], value, i * key_scale + key_base, y, msg);
    }
    fails += check_gaps(b, map, what);
    free(map);
    return fails;
}

/* The same for the regular collectives: n blocks of m elements of layout l, block i at i * l->block
 * and filled with value(i * key_scale + key_base, y, k). Returns the failures. */
static inline int blocks_check(const Buf *b, const Layout *l, int n, int m, int (*value)(int, int, int),
                               int key_scale, int key_base, int y, const char *what)
{
    Vblock *vb = malloc((size_t) (n > 0 ? n : 1) * sizeof(Vblock));
    for (int i = 0; i < n; i++)
        vb[i] = (Vblock) { l, m, i * l->block };
    int fails = vblocks_check(b, vb, n, value, key_scale, key_base, y, what);
    free(vb);
    return fails;
}

/* ---- running the tests ---- */

/* One test of a collective: fn(comm, family, m, in_place) with blocks of m elements. */
typedef struct {
    void (*fn)(MPI_Comm comm, int family, int m, int in_place);
    int m;
} Layouts_case;

/* Runs every case on every communicator of colltest_comms, with both families, out of place and
 * in place. */
static inline void layouts_run(const Layouts_case *cases, int n)
{
    Colltest_comms cs;
    colltest_comms(&cs);
    for (int i = 0; i < cs.n; i++)
        for (int family = INTS; family <= RECORDS; family++)
            for (int in_place = 0; in_place < 2; in_place++)
                for (int c = 0; c < n; c++)
                    cases[c].fn(cs.comms[i], family, cases[c].m, in_place);
    colltest_free(&cs);
}

/* How many elements rank i contributes to a v collective of base count m (uneven, 0 included). */
static inline int vblock_count(int i, int m)
{
    return (i * 5) % 4 + m;
}

/* The n blocks of a v collective's buffer, all in layout l, block i of vblock_count(i, m) elements:
 * placed in vb, a new buffer b for them, and the counts and displacements (in extents of l) that
 * describe them. */
static inline void vblocks_make(Vblock *vb, int n, const Layout *l, int m, Buf *b, int *counts, int *displs)
{
    for (int i = 0; i < n; i++)
        vb[i] = (Vblock) { l, vblock_count(i, m), 0 };
    buf_alloc(b, 0, vblocks_place(vb, n));
    for (int i = 0; i < n; i++) {
        counts[i] = vb[i].count;
        displs[i] = (int) (vb[i].off / l->stride);
    }
}

#endif
