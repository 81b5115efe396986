/*
 * The reference model of reftype.h: type maps from decoding, and the operations on them.
 * Written for obviousness, not speed: every operation is a loop over the entries.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reftype.h"

/* arrayref.h brings the brute-force subarray/darray selection (and, through bounds.h, helpers
 * this file does not use). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-variable"
#include "arrayref.h"
#pragma GCC diagnostic pop

/* Brute force visits every element of the global array: keep that bounded. */
#define REF_MAX_GLOBAL ((long long) 1 << 22)

static int ref_fail(const char *msg, MPI_Datatype type)
{
    fprintf(stderr, "reftype: %s (type 0x%x)\n", msg, (unsigned) type);
    return -1;
}

/* ---- one level of decoding ---- */

/* The arguments of one constructor, read back in the order of the standard's decoding table. A
 * type made by a large-count (_c) constructor keeps its counts and displacements in
 * array_of_large_counts; the others keep counts in array_of_integers and byte displacements in
 * array_of_addresses. The readers hide that difference. */
typedef struct {
    int comb;
    MPI_Count ni, na, nc, nd;
    int *ints;
    MPI_Aint *addrs;
    MPI_Count *counts;
    MPI_Datatype *types;
    MPI_Count pi, pa, pc;       /* read cursors */
    int large, bad;             /* bad: a read went past the arrays */
} decoded;

static int is_predefined_comb(int comb)
{
    return comb == MPI_COMBINER_NAMED || comb == MPI_COMBINER_F90_REAL
        || comb == MPI_COMBINER_F90_COMPLEX || comb == MPI_COMBINER_F90_INTEGER;
}

static int decode(MPI_Datatype type, decoded *d)
{
    memset(d, 0, sizeof *d);
    if (MPI_Type_get_envelope_c(type, &d->ni, &d->na, &d->nc, &d->nd, &d->comb) != MPI_SUCCESS)
        return ref_fail("MPI_Type_get_envelope_c failed", type);
    if (is_predefined_comb(d->comb))
        return 0;
    d->ints = calloc((size_t) d->ni + 1, sizeof *d->ints);
    d->addrs = calloc((size_t) d->na + 1, sizeof *d->addrs);
    d->counts = calloc((size_t) d->nc + 1, sizeof *d->counts);
    d->types = calloc((size_t) d->nd + 1, sizeof *d->types);
    if (!d->ints || !d->addrs || !d->counts || !d->types) {
        d->nd = 0;
        return ref_fail("out of memory", type);
    }
    if (MPI_Type_get_contents_c(type, d->ni, d->na, d->nc, d->nd, d->ints, d->addrs, d->counts,
                                d->types) != MPI_SUCCESS) {
        d->nd = 0;
        return ref_fail("MPI_Type_get_contents_c failed", type);
    }
    d->large = d->nc > 0;
    return 0;
}

static void release(decoded *d)
{
    for (MPI_Count k = 0; k < d->nd; k++) {
        MPI_Count ni, na, nc, nd;
        int comb = MPI_COMBINER_NAMED;
        MPI_Type_get_envelope_c(d->types[k], &ni, &na, &nc, &nd, &comb);
        if (!is_predefined_comb(comb))
            MPI_Type_free(&d->types[k]);
    }
    free(d->ints);
    free(d->addrs);
    free(d->counts);
    free(d->types);
}

static MPI_Count rd_int(decoded *d)
{
    if (d->pi < d->ni)
        return d->ints[d->pi++];
    d->bad = 1;
    return 0;
}

static MPI_Count rd_large(decoded *d)
{
    if (d->pc < d->nc)
        return d->counts[d->pc++];
    d->bad = 1;
    return 0;
}

/* A count-like argument (count, blocklength, index displacement, array size). */
static MPI_Count rd_count(decoded *d)
{
    return d->large ? rd_large(d) : rd_int(d);
}

/* A byte displacement or stride (MPI_Aint in the classic constructors). */
static MPI_Count rd_addr(decoded *d)
{
    if (d->large)
        return rd_large(d);
    if (d->pa < d->na)
        return d->addrs[d->pa++];
    d->bad = 1;
    return 0;
}

static MPI_Datatype rd_type(decoded *d, MPI_Count k)
{
    if (k < d->nd)
        return d->types[k];
    d->bad = 1;
    return MPI_DATATYPE_NULL;
}

/* ---- maps ---- */

static int push(ref_map *m, MPI_Aint disp, MPI_Datatype type, int size)
{
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 64;
        ref_entry *e = realloc(m->e, cap * sizeof *e);
        if (!e)
            return ref_fail("out of memory", type);
        m->e = e;
        m->cap = cap;
    }
    m->e[m->n].disp = disp;
    m->e[m->n].type = type;
    m->e[m->n].size = size;
    m->n++;
    m->size += size;
    return 0;
}

/* Appends n copies of child, copy k at disp + k * step. */
static int push_copies(ref_map *m, const ref_map *child, MPI_Count n, MPI_Aint disp, MPI_Aint step)
{
    for (MPI_Count k = 0; k < n; k++)
        for (size_t j = 0; j < child->n; j++)
            if (push(m, disp + k * step + child->e[j].disp, child->e[j].type, child->e[j].size))
                return -1;
    return 0;
}

static MPI_Aint extent_of(MPI_Datatype type)
{
    MPI_Count lb = 0, extent = 0;
    MPI_Type_get_extent_c(type, &lb, &extent);
    return (MPI_Aint) extent;
}

/* The predefined pair types: the C struct {value; index}, whose members are laid out as C does. */
#define PAIR(pt, vt, it, ctype, itype) \
    { pt, vt, it, offsetof(struct { ctype v; itype i; }, i) }
static const struct {
    MPI_Datatype pair, value, index;
    size_t index_offset;
} pairs[] = {
    PAIR(MPI_FLOAT_INT, MPI_FLOAT, MPI_INT, float, int),
    PAIR(MPI_DOUBLE_INT, MPI_DOUBLE, MPI_INT, double, int),
    PAIR(MPI_LONG_INT, MPI_LONG, MPI_INT, long, int),
    PAIR(MPI_2INT, MPI_INT, MPI_INT, int, int),
    PAIR(MPI_SHORT_INT, MPI_SHORT, MPI_INT, short, int),
    PAIR(MPI_LONG_DOUBLE_INT, MPI_LONG_DOUBLE, MPI_INT, long double, int),
    PAIR(MPI_2REAL, MPI_REAL, MPI_REAL, float, float),
    PAIR(MPI_2DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, double, double),
    PAIR(MPI_2INTEGER, MPI_INTEGER, MPI_INTEGER, int, int),
};

static int map_named(MPI_Datatype type, ref_map *m)
{
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        if (pairs[k].pair == type) {
            int vs, is;
            MPI_Type_size(pairs[k].value, &vs);
            MPI_Type_size(pairs[k].index, &is);
            return push(m, 0, pairs[k].value, vs) || push(m, (MPI_Aint) pairs[k].index_offset,
                                                           pairs[k].index, is) ? -1 : 0;
        }
    }
    int size = 0;
    if (MPI_Type_size(type, &size) != MPI_SUCCESS)
        return ref_fail("MPI_Type_size of a named type failed", type);
    return size > 0 ? push(m, 0, type, size) : 0;      /* MPI_LB, MPI_UB: no entry */
}

static int map_of(MPI_Datatype type, ref_map *m);

/* Blocks of copies of one child (contiguous, vector, indexed and their h/block variants):
 * block b has blocklens[b] copies at disps[b] bytes, each copy one extent after the previous. */
static int map_blocks(MPI_Datatype child, MPI_Count nblocks, const MPI_Count *blocklens,
                      const MPI_Aint *disps, ref_map *m)
{
    ref_map c = { 0 };
    int err = map_of(child, &c);
    MPI_Aint ext = extent_of(child);
    for (MPI_Count b = 0; !err && b < nblocks; b++)
        err = push_copies(m, &c, blocklens[b], disps[b], ext);
    ref_map_free(&c);
    return err;
}

/* Subarray and darray: copies of old at the selected linear indices (increasing). */
static int map_selected(MPI_Datatype old, long long n, const long long *idx, ref_map *m)
{
    ref_map c = { 0 };
    int err = map_of(old, &c);
    MPI_Aint ext = extent_of(old);
    for (long long k = 0; !err && k < n; k++)
        err = push_copies(m, &c, 1, (MPI_Aint) (idx[k] * ext), 0);
    ref_map_free(&c);
    return err;
}

/* Reads ndims array sizes into an int array for arrayref.h; checks the global size is small. */
static int rd_dims(decoded *d, int ndims, int *out, long long *total)
{
    for (int k = 0; k < ndims; k++) {
        MPI_Count v = rd_count(d);
        if (v < 0 || v > REF_MAX_GLOBAL)
            return -1;
        out[k] = (int) v;
        if (total) {
            *total *= v;
            if (*total > REF_MAX_GLOBAL)
                return -1;
        }
    }
    return 0;
}

static int map_array(MPI_Datatype type, decoded *d, ref_map *m)
{
    int sizes[REF_MAXDIMS], subsizes[REF_MAXDIMS], starts[REF_MAXDIMS];
    int distribs[REF_MAXDIMS], dargs[REF_MAXDIMS], psizes[REF_MAXDIMS];
    long long total = 1, n;
    int size = 0, rank = 0, order, ndims;

    if (d->comb == MPI_COMBINER_DARRAY) {
        size = (int) rd_int(d);
        rank = (int) rd_int(d);
    }
    ndims = (int) rd_int(d);
    if (ndims < 0 || ndims > REF_MAXDIMS)
        return ref_fail("too many dimensions for the brute-force reference", type);
    if (rd_dims(d, ndims, sizes, &total))
        return ref_fail("global array too large for the brute-force reference", type);
    if (d->comb == MPI_COMBINER_SUBARRAY) {
        if (rd_dims(d, ndims, subsizes, NULL) || rd_dims(d, ndims, starts, NULL))
            return ref_fail("bad subarray arguments", type);
    } else {
        for (int k = 0; k < ndims; k++)
            distribs[k] = (int) rd_int(d);
        for (int k = 0; k < ndims; k++)
            dargs[k] = (int) rd_int(d);
        for (int k = 0; k < ndims; k++)
            psizes[k] = (int) rd_int(d);
    }
    order = (int) rd_int(d);
    if (d->bad)
        return ref_fail("short contents", type);

    long long *idx = malloc(((size_t) total + 1) * sizeof *idx);
    if (!idx)
        return ref_fail("out of memory", type);
    if (d->comb == MPI_COMBINER_SUBARRAY)
        n = ref_subarray(ndims, sizes, subsizes, starts, order, idx);
    else
        n = ref_darray(size, rank, ndims, sizes, distribs, dargs, psizes, order, idx);
    int err = map_selected(rd_type(d, 0), n, idx, m);
    free(idx);
    return err;
}

static int map_struct(MPI_Datatype type, decoded *d, ref_map *m)
{
    MPI_Count n = rd_count(d);
    if (n < 0 || n > d->nd)
        return ref_fail("bad struct count", type);
    MPI_Count *bl = malloc(((size_t) n + 1) * sizeof *bl);
    MPI_Aint *disp = malloc(((size_t) n + 1) * sizeof *disp);
    int err = !bl || !disp;
    for (MPI_Count k = 0; !err && k < n; k++)
        bl[k] = rd_count(d);
    for (MPI_Count k = 0; !err && k < n; k++)
        disp[k] = d->comb == MPI_COMBINER_STRUCT_INTEGER ? rd_int(d) : rd_addr(d);
    if (d->bad)
        err = ref_fail("short contents", type);
    for (MPI_Count k = 0; !err && k < n; k++)
        err = map_blocks(d->types[k], 1, &bl[k], &disp[k], m);
    free(bl);
    free(disp);
    return err ? -1 : 0;
}

/* contiguous, vector, hvector, indexed, hindexed, indexed_block, hindexed_block */
static int map_one_child(MPI_Datatype type, decoded *d, ref_map *m)
{
    MPI_Datatype old = rd_type(d, 0);
    MPI_Aint ext = extent_of(old);
    MPI_Count n = 1, bl = 0;
    int comb = d->comb;

    if (comb == MPI_COMBINER_CONTIGUOUS) {
        bl = rd_count(d);           /* one block of count copies */
    } else {
        n = rd_count(d);
        if (comb != MPI_COMBINER_INDEXED && comb != MPI_COMBINER_HINDEXED
            && comb != MPI_COMBINER_HINDEXED_INTEGER)
            bl = rd_count(d);
    }
    if (d->bad || n < 0 || n > ((MPI_Count) 1 << 30))
        return ref_fail("bad count", type);
    MPI_Count *bls = malloc(((size_t) n + 1) * sizeof *bls);
    MPI_Aint *disps = malloc(((size_t) n + 1) * sizeof *disps);
    if (!bls || !disps) {
        free(bls);
        free(disps);
        return ref_fail("out of memory", type);
    }
    MPI_Aint stride = 0;
    switch (comb) {
    case MPI_COMBINER_VECTOR:
        stride = (MPI_Aint) rd_count(d) * ext;
        break;
    case MPI_COMBINER_HVECTOR:
        stride = (MPI_Aint) rd_addr(d);
        break;
    case MPI_COMBINER_HVECTOR_INTEGER:
        stride = (MPI_Aint) rd_int(d);
        break;
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED:
    case MPI_COMBINER_HINDEXED_INTEGER:
        for (MPI_Count k = 0; k < n; k++)
            bls[k] = rd_count(d);
        break;
    }
    for (MPI_Count k = 0; k < n; k++) {
        switch (comb) {
        case MPI_COMBINER_CONTIGUOUS:
            disps[k] = 0;
            break;
        case MPI_COMBINER_VECTOR:
        case MPI_COMBINER_HVECTOR:
        case MPI_COMBINER_HVECTOR_INTEGER:
            disps[k] = k * stride;
            break;
        case MPI_COMBINER_INDEXED:
        case MPI_COMBINER_INDEXED_BLOCK:
            disps[k] = (MPI_Aint) rd_count(d) * ext;
            break;
        case MPI_COMBINER_HINDEXED:
        case MPI_COMBINER_HINDEXED_BLOCK:
            disps[k] = (MPI_Aint) rd_addr(d);
            break;
        case MPI_COMBINER_HINDEXED_INTEGER:
            disps[k] = (MPI_Aint) rd_int(d);
            break;
        }
        if (comb != MPI_COMBINER_INDEXED && comb != MPI_COMBINER_HINDEXED
            && comb != MPI_COMBINER_HINDEXED_INTEGER)
            bls[k] = bl;
    }
    int err = d->bad ? ref_fail("short contents", type) : map_blocks(old, n, bls, disps, m);
    free(bls);
    free(disps);
    return err;
}

/* Appends the map of one instance of type at displacement 0. */
static int map_of(MPI_Datatype type, ref_map *m)
{
    decoded d;
    int err = decode(type, &d);
    if (err)
        return err;
    switch (d.comb) {
    case MPI_COMBINER_NAMED:
        return map_named(type, m);
    case MPI_COMBINER_F90_REAL:
    case MPI_COMBINER_F90_COMPLEX:
    case MPI_COMBINER_F90_INTEGER: {
        int size = 0;
        MPI_Type_size(type, &size);     /* a predefined type of its own: one basic element */
        return push(m, 0, type, size);
    }
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:
        err = map_of(rd_type(&d, 0), m);
        break;
    case MPI_COMBINER_CONTIGUOUS:
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR:
    case MPI_COMBINER_HVECTOR_INTEGER:
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED:
    case MPI_COMBINER_HINDEXED_INTEGER:
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK:
        err = map_one_child(type, &d, m);
        break;
    case MPI_COMBINER_STRUCT:
    case MPI_COMBINER_STRUCT_INTEGER:
        err = map_struct(type, &d, m);
        break;
    case MPI_COMBINER_SUBARRAY:
    case MPI_COMBINER_DARRAY:
        err = map_array(type, &d, m);
        break;
    default:
        err = ref_fail("unknown combiner", type);
    }
    release(&d);
    return err;
}

int ref_map_build(MPI_Datatype type, MPI_Count count, ref_map *map)
{
    ref_map one = { 0 };
    memset(map, 0, sizeof *map);
    int err = map_of(type, &one) || push_copies(map, &one, count, 0, extent_of(type));
    ref_map_free(&one);
    if (err) {
        ref_map_free(map);
        return -1;
    }
    for (size_t k = 0; k < map->n; k++) {
        MPI_Aint lo = map->e[k].disp, hi = lo + map->e[k].size;
        map->true_lb = k == 0 || lo < map->true_lb ? lo : map->true_lb;
        map->true_ub = k == 0 || hi > map->true_ub ? hi : map->true_ub;
    }
    return 0;
}

void ref_map_free(ref_map *map)
{
    free(map->e);
    memset(map, 0, sizeof *map);
}

/* ---- operations on a map ---- */

/* buf + disp without pointer arithmetic on a null MPI_BOTTOM */
static char *at(const void *buf, MPI_Aint disp)
{
    return (char *) ((uintptr_t) buf + (uintptr_t) disp);
}

void ref_pack(const ref_map *map, const void *buf, void *out)
{
    char *o = out;
    for (size_t k = 0; k < map->n; k++) {
        memcpy(o, at(buf, map->e[k].disp), (size_t) map->e[k].size);
        o += map->e[k].size;
    }
}

void ref_unpack(const ref_map *map, const void *in, void *buf)
{
    const char *i = in;
    for (size_t k = 0; k < map->n; k++) {
        memcpy(at(buf, map->e[k].disp), i, (size_t) map->e[k].size);
        i += map->e[k].size;
    }
}

MPI_Count ref_elements(const ref_map *map, MPI_Count nbytes)
{
    MPI_Count pos = 0, n = 0;
    for (size_t k = 0; k < map->n && pos + map->e[k].size <= nbytes; k++) {
        pos += map->e[k].size;
        n++;
    }
    return n;
}

MPI_Count ref_floor_boundary(const ref_map *map, MPI_Count pos)
{
    MPI_Count b = 0;
    for (size_t k = 0; k < map->n && b + map->e[k].size <= pos; k++)
        b += map->e[k].size;
    return b;
}

long ref_entry_at(const ref_map *map, MPI_Count pos, int *offset_in_entry)
{
    MPI_Count b = 0;
    for (size_t k = 0; k < map->n; k++) {
        if (pos < b + map->e[k].size) {
            *offset_in_entry = (int) (pos - b);
            return (long) k;
        }
        b += map->e[k].size;
    }
    *offset_in_entry = 0;
    return -1;
}

void ref_write_counts(const ref_map *map, MPI_Aint lo, MPI_Aint hi, unsigned char *writes)
{
    memset(writes, 0, (size_t) (hi - lo));
    for (size_t k = 0; k < map->n; k++)
        for (int b = 0; b < map->e[k].size; b++) {
            unsigned char *w = &writes[map->e[k].disp + b - lo];
            if (*w < 255)
                (*w)++;
        }
}

/* ---- buffers and comparisons ---- */

void ref_fill(void *p, size_t n, uint64_t seed)
{
    unsigned char *c = p;
    for (size_t k = 0; k < n; k++) {
        uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        c[k] = (unsigned char) (z ^ (z >> 31));
    }
}

int ref_buf_alloc(ref_buf *b, const ref_map *map, uint64_t seed)
{
    b->len = (size_t) (map->true_ub - map->true_lb) + 2 * REF_GUARD + 16;
    b->mem = malloc(b->len);
    if (!b->mem)
        return -1;
    ref_fill(b->mem, b->len, seed);
    uintptr_t base = (uintptr_t) b->mem + REF_GUARD - (uintptr_t) map->true_lb;
    base = (base + 15) & ~(uintptr_t) 15;
    b->base = (char *) base;
    b->mem_disp = (MPI_Aint) ((uintptr_t) b->mem - base);
    return 0;
}

int ref_buf_clone(ref_buf *b, const ref_buf *src)
{
    *b = *src;
    b->mem = malloc(src->len);
    if (!b->mem)
        return -1;
    memcpy(b->mem, src->mem, src->len);
    b->base = (char *) ((uintptr_t) b->mem - (uintptr_t) src->mem_disp);
    return 0;
}

void ref_buf_free(ref_buf *b)
{
    free(b->mem);
    b->mem = NULL;
}

unsigned char *ref_buf_writes(const ref_map *map, const ref_buf *b)
{
    unsigned char *w = malloc(b->len);
    if (w)
        ref_write_counts(map, b->mem_disp, b->mem_disp + (MPI_Aint) b->len, w);
    return w;
}

static void print_entry(const ref_map *map, long k)
{
    fprintf(stderr, "entry %ld (%s at displacement %ld)", k, ref_type_name(map->e[k].type),
            (long) map->e[k].disp);
}

long ref_cmp_stream(const ref_map *map, MPI_Count first, MPI_Count n, const void *want,
                    const void *got, const char *what)
{
    const unsigned char *w = want, *g = got;
    long diffs = 0;
    for (MPI_Count k = 0; k < n; k++) {
        if (w[k] == g[k])
            continue;
        if (diffs++ == 0) {
            int off;
            long e = ref_entry_at(map, first + k, &off);
            fprintf(stderr, "  %s: packed byte %lld differs: expected 0x%02x, got 0x%02x; byte %d of ",
                    what, (long long) (first + k), w[k], g[k], off);
            print_entry(map, e);
            fputc('\n', stderr);
        }
    }
    if (diffs > 1)
        fprintf(stderr, "  %s: %ld bytes differ in all\n", what, diffs);
    return diffs;
}

long ref_cmp_buf(const ref_map *map, const ref_buf *want, const ref_buf *got,
                 const unsigned char *writes, const char *what)
{
    long diffs = 0;
    for (size_t k = 0; k < want->len; k++) {
        if (want->mem[k] == got->mem[k] || (writes && writes[k] > 1))
            continue;
        if (diffs++ == 0) {
            MPI_Aint disp = want->mem_disp + (MPI_Aint) k;
            fprintf(stderr, "  %s: buffer byte at displacement %ld differs: expected 0x%02x, got 0x%02x; ",
                    what, (long) disp, want->mem[k], got->mem[k]);
            long e = -1;
            for (size_t j = 0; j < map->n && e < 0; j++)
                if (disp >= map->e[j].disp && disp < map->e[j].disp + map->e[j].size)
                    e = (long) j;
            if (e < 0)
                fprintf(stderr, "a gap byte (no entry covers it)");
            else
                print_entry(map, e);
            fputc('\n', stderr);
        }
    }
    if (diffs > 1)
        fprintf(stderr, "  %s: %ld bytes differ in all\n", what, diffs);
    return diffs;
}

/* ---- descriptions ---- */

const char *ref_type_name(MPI_Datatype type)
{
    static char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    name[0] = '\0';
    if (MPI_Type_get_name(type, name, &len) != MPI_SUCCESS || name[0] == '\0')
        snprintf(name, sizeof name, "type 0x%x", (unsigned) type);
    return name;
}

typedef struct {
    char *p;
    size_t left;        /* room for characters, excluding the terminating NUL */
    int truncated;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    size_t n = strlen(tmp);
    if (n > t->left) {
        n = t->left;
        t->truncated = 1;
    }
    memcpy(t->p, tmp, n);
    t->p += n;
    t->left -= n;
    *t->p = '\0';
}

static void put_list(text *t, decoded *d, MPI_Count n, MPI_Count (*rd)(decoded *))
{
    put(t, "[");
    for (MPI_Count k = 0; k < n; k++)
        put(t, k ? ",%lld" : "%lld", (long long) rd(d));
    put(t, "]");
}

static const char *order_name(MPI_Count order)
{
    return order == MPI_ORDER_C ? "C" : order == MPI_ORDER_FORTRAN ? "F" : "?";
}

static void describe(MPI_Datatype type, text *t, int depth)
{
    decoded d;
    if (t->truncated)
        return;
    if (depth > 64 || decode(type, &d)) {
        put(t, "?");
        return;
    }
    const char *c = d.large ? "_c" : "";
    MPI_Count n, bl;
    switch (d.comb) {
    case MPI_COMBINER_NAMED:
        put(t, "%s", ref_type_name(type));
        return;
    case MPI_COMBINER_F90_REAL:
    case MPI_COMBINER_F90_COMPLEX:
    case MPI_COMBINER_F90_INTEGER:
        put(t, "f90(%s)", ref_type_name(type));
        return;
    case MPI_COMBINER_DUP:
        put(t, "dup(");
        break;
    case MPI_COMBINER_RESIZED:
        put(t, "resized%s(%lld,", c, (long long) rd_addr(&d));
        put(t, "%lld; ", (long long) rd_addr(&d));
        break;
    case MPI_COMBINER_CONTIGUOUS:
        put(t, "contig%s(%lld; ", c, (long long) rd_count(&d));
        break;
    case MPI_COMBINER_VECTOR:
        n = rd_count(&d), bl = rd_count(&d);
        put(t, "vector%s(%lld,%lld,%lld; ", c, (long long) n, (long long) bl, (long long) rd_count(&d));
        break;
    case MPI_COMBINER_HVECTOR:
    case MPI_COMBINER_HVECTOR_INTEGER:
        n = rd_count(&d), bl = rd_count(&d);
        put(t, "hvector%s(%lld,%lld,%lldB; ", c, (long long) n, (long long) bl,
            (long long) (d.comb == MPI_COMBINER_HVECTOR ? rd_addr(&d) : rd_int(&d)));
        break;
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED:
    case MPI_COMBINER_HINDEXED_INTEGER:
        n = rd_count(&d);
        put(t, "%sindexed%s(bl=", d.comb == MPI_COMBINER_INDEXED ? "" : "h", c);
        put_list(t, &d, n, rd_count);
        put(t, d.comb == MPI_COMBINER_INDEXED ? " d=" : " dB=");
        put_list(t, &d, n, d.comb == MPI_COMBINER_INDEXED ? rd_count
                 : d.comb == MPI_COMBINER_HINDEXED ? rd_addr : rd_int);
        put(t, "; ");
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK:
        n = rd_count(&d), bl = rd_count(&d);
        put(t, "%sindexed_block%s(bl=%lld ", d.comb == MPI_COMBINER_INDEXED_BLOCK ? "" : "h", c,
            (long long) bl);
        put(t, d.comb == MPI_COMBINER_INDEXED_BLOCK ? "d=" : "dB=");
        put_list(t, &d, n, d.comb == MPI_COMBINER_INDEXED_BLOCK ? rd_count : rd_addr);
        put(t, "; ");
        break;
    case MPI_COMBINER_STRUCT:
    case MPI_COMBINER_STRUCT_INTEGER: {
        n = rd_count(&d);
        MPI_Count first_disp = d.large ? d.pc + n : 0;
        put(t, "struct%s(", c);
        for (MPI_Count k = 0; k < n && k < d.nd; k++) {
            MPI_Count blk = rd_count(&d), disp;
            if (d.large)
                disp = first_disp + k < d.nc ? d.counts[first_disp + k] : 0;
            else
                disp = d.comb == MPI_COMBINER_STRUCT ? (k < d.na ? d.addrs[k] : 0)
                    : (1 + n + k < d.ni ? d.ints[1 + n + k] : 0);
            put(t, "%s%lld@%lld ", k ? ", " : "", (long long) blk, (long long) disp);
            describe(d.types[k], t, depth + 1);
        }
        put(t, ")");
        release(&d);
        return;
    }
    case MPI_COMBINER_SUBARRAY: {
        int nd = (int) rd_int(&d);
        put(t, "subarray%s(sizes=", c);
        put_list(t, &d, nd, rd_count);
        put(t, " sub=");
        put_list(t, &d, nd, rd_count);
        put(t, " start=");
        put_list(t, &d, nd, rd_count);
        put(t, " %s; ", order_name(rd_int(&d)));
        break;
    }
    case MPI_COMBINER_DARRAY: {
        int size = (int) rd_int(&d), rank = (int) rd_int(&d), nd = (int) rd_int(&d);
        put(t, "darray%s(%d/%d gsizes=", c, rank, size);
        put_list(t, &d, nd, rd_count);
        put(t, " dist=[");
        MPI_Count dist0 = d.pi;
        for (int k = 0; k < nd; k++) {
            MPI_Count dist = dist0 + k < d.ni ? d.ints[dist0 + k] : 0;
            MPI_Count darg = dist0 + nd + k < d.ni ? d.ints[dist0 + nd + k] : 0;
            const char *name = dist == MPI_DISTRIBUTE_BLOCK ? "B" : dist == MPI_DISTRIBUTE_CYCLIC ? "C" : "N";
            if (darg == MPI_DISTRIBUTE_DFLT_DARG)
                put(t, "%s%s", k ? "," : "", name);
            else
                put(t, "%s%s%lld", k ? "," : "", name, (long long) darg);
        }
        d.pi += 2 * nd;
        put(t, "] psizes=");
        put_list(t, &d, nd, rd_int);
        put(t, " %s; ", order_name(rd_int(&d)));
        break;
    }
    default:
        put(t, "combiner%d(", d.comb);
        break;
    }
    if (d.nd > 0)
        describe(d.types[0], t, depth + 1);
    put(t, ")");
    release(&d);
}

char *ref_describe(MPI_Datatype type, char *out, size_t len)
{
    text t = { out, len > 4 ? len - 4 : 0, 0 };
    if (len == 0)
        return out;
    out[0] = '\0';
    describe(type, &t, 0);
    if (t.truncated)
        strcat(t.p, "...");
    return out;
}
