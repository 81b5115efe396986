/*
 * The random type generator of randtype.h.
 *
 * gen() picks a constructor, draws its arguments, makes the children (recursively, each with a
 * share of the parent's size budget), builds the type, frees the children, and checks the result
 * against the limits; a type over the limits is replaced by a basic one. Arguments favour small
 * and awkward values: zero counts, negative strides and displacements, strides shorter than a
 * block (overlapping copies), byte displacements that are not multiples of the element size.
 * Blocks and struct entries are mostly laid out apart (in memory order or shuffled), so that most
 * types can be unpacked into without overlap, and sometimes anywhere.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "randtype.h"

/* ---- random numbers: splitmix64 ---- */

void rt_seed(rt_rng *r, uint64_t seed)
{
    r->s = seed;
}

uint64_t rt_next(rt_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

long long rt_range(rt_rng *r, long long lo, long long hi)
{
    return lo + (long long) (rt_next(r) % (uint64_t) (hi - lo + 1));
}

int rt_chance(rt_rng *r, int percent)
{
    return rt_range(r, 0, 99) < percent;
}

long long rt_env(const char *name, long long def)
{
    const char *v = getenv(name);
    return v && *v ? strtoll(v, NULL, 0) : def;
}

/* ---- the generator ---- */

typedef struct {
    rt_rng *r;
    const rt_limits *lim;
    int top;            /* the depth of the outermost call, which always builds a derived type */
} gen_ctx;

#define MAXN 4          /* blocks or entries per constructor */

/* MPICH 4.0.2 (used to validate the model) crashes on empty entries in structs, misplaces copies
 * of a type with a negative extent and copies only the 10 significant bytes of a long double: for
 * it, no zero counts, no negative extents and no long double. */
#if defined(MPICH_VERSION)
#define MIN_COUNT 1
#define NEGATIVE_EXTENTS 0
#define LONG_DOUBLES
#else
#define MIN_COUNT 0
#define NEGATIVE_EXTENTS 1
#define LONG_DOUBLES MPI_LONG_DOUBLE, MPI_LONG_DOUBLE_INT,
#endif

static const MPI_Datatype basics[] = {
    LONG_DOUBLES
    MPI_CHAR, MPI_SHORT, MPI_INT, MPI_LONG, MPI_FLOAT, MPI_DOUBLE, MPI_BYTE,
    MPI_UNSIGNED_CHAR, MPI_INT8_T, MPI_UINT16_T, MPI_INT64_T, MPI_C_BOOL, MPI_WCHAR,
    MPI_UNSIGNED_LONG_LONG, MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX,
    /* pair types: two basic elements each, with a hole after the first in most */
    MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_2INT, MPI_SHORT_INT,
};

/* The common ones more often: doubles, ints and chars dominate real layouts. */
static MPI_Datatype basic(gen_ctx *g)
{
    static const MPI_Datatype common[] = { MPI_DOUBLE, MPI_INT, MPI_CHAR, MPI_FLOAT, MPI_SHORT };
    if (rt_chance(g->r, 50))
        return common[rt_range(g->r, 0, 4)];
    if (rt_chance(g->r, 3)) {
        MPI_Datatype t = MPI_DATATYPE_NULL;    /* a predefined type of its own, never freed */
        if (MPI_Type_create_f90_real(6, 30, &t) == MPI_SUCCESS)
            return t;
    }
    return basics[rt_range(g->r, 0, (long long) (sizeof basics / sizeof basics[0]) - 1)];
}

static int is_predefined(MPI_Datatype t)
{
    MPI_Count ni, na, nc, nd;
    int comb = MPI_COMBINER_NAMED;
    MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &comb);
    return comb == MPI_COMBINER_NAMED || comb == MPI_COMBINER_F90_REAL
        || comb == MPI_COMBINER_F90_COMPLEX || comb == MPI_COMBINER_F90_INTEGER;
}

static void drop(MPI_Datatype *t)
{
    if (*t != MPI_DATATYPE_NULL && !is_predefined(*t))
        MPI_Type_free(t);
    *t = MPI_DATATYPE_NULL;
}

static MPI_Aint extent_of(MPI_Datatype t)
{
    MPI_Aint lb = 0, ext = 0;
    MPI_Type_get_extent(t, &lb, &ext);
    return ext;
}

static MPI_Aint lb_of(MPI_Datatype t)
{
    MPI_Aint lb = 0, ext = 0;
    MPI_Type_get_extent(t, &lb, &ext);
    return lb;
}

static MPI_Aint abs_a(MPI_Aint a)
{
    return a < 0 ? -a : a;
}

/* A byte displacement in [-span, span]: mostly a multiple of 8 (aligned data), sometimes not. */
static MPI_Aint byte_disp(gen_ctx *g, MPI_Aint span)
{
    MPI_Aint d = (MPI_Aint) rt_range(g->r, -span, span);
    return rt_chance(g->r, 80) ? d / 8 * 8 : d;
}

static MPI_Count share(MPI_Count budget, MPI_Count copies)
{
    return copies > 1 ? budget / copies : budget;
}

/* Places n blocks one after another, without overlap: block k spans len[k] from disp[k] + lb[k].
 * The blocks go in increasing or in random order, from start, with gaps of 0 or a few units. */
static void layout(gen_ctx *g, int n, const MPI_Aint *len, const MPI_Aint *lb, MPI_Aint start,
                   MPI_Aint unit, MPI_Aint *disp)
{
    int order[MAXN + 2];
    for (int k = 0; k < n; k++)
        order[k] = k;
    if (rt_chance(g->r, 50))
        for (int k = n - 1; k > 0; k--) {
            int j = (int) rt_range(g->r, 0, k), o = order[k];
            order[k] = order[j];
            order[j] = o;
        }
    for (int k = 0; k < n; k++) {
        disp[order[k]] = start - lb[order[k]];
        start += len[order[k]] + (rt_chance(g->r, 50) ? 0 : rt_range(g->r, 1, 2) * unit);
    }
}

/* A count or block length in [0, max]: 0 now and then (never for MPICH), else uniform from 1.
 * Zeros compound over the levels, so they must be rare for most types to carry data. */
static int small_count(gen_ctx *g, int max)
{
    return MIN_COUNT == 0 && rt_chance(g->r, 3) ? 0 : (int) rt_range(g->r, 1, max);
}

static int within_limits(const gen_ctx *g, MPI_Datatype t)
{
    MPI_Count size, lb, ext, tlb, text;
    if (MPI_Type_size_c(t, &size) || MPI_Type_get_extent_c(t, &lb, &ext)
        || MPI_Type_get_true_extent_c(t, &tlb, &text))
        return 0;
    MPI_Aint m = g->lim->max_span;
    return (NEGATIVE_EXTENTS || ext >= 0) && size <= g->lim->max_size && abs_a(lb) <= m && abs_a(lb + ext) <= m && abs_a(tlb) <= m
        && abs_a(tlb + text) <= m;
}

static MPI_Datatype gen(gen_ctx *g, int depth, MPI_Count budget);

/* Each constructor below makes its children, builds the type into *t, frees the children and
 * returns the constructor's error code. */

static int make_contig(gen_ctx *g, int depth, MPI_Count budget, MPI_Datatype *t)
{
    int n = small_count(g, MAXN);
    MPI_Datatype c = gen(g, depth, share(budget, n));
    int rc = rt_chance(g->r, 25) ? MPI_Type_contiguous_c(n, c, t) : MPI_Type_contiguous(n, c, t);
    drop(&c);
    return rc;
}

static int make_vector(gen_ctx *g, int depth, MPI_Count budget, int bytes, MPI_Datatype *t)
{
    int n = small_count(g, MAXN), bl = small_count(g, 3);
    MPI_Datatype c = gen(g, depth, share(budget, (MPI_Count) n * bl));
    MPI_Aint ext = abs_a(extent_of(c));
    int rc, big = rt_chance(g->r, 25);
    if (bytes) {
        MPI_Aint stride = byte_disp(g, (bl + 1) * ext + 16);
        rc = big ? MPI_Type_create_hvector_c(n, bl, stride, c, t)
            : rt_chance(g->r, 10) ? MPI_Type_hvector(n, bl, stride, c, t)
            : MPI_Type_create_hvector(n, bl, stride, c, t);
    } else {
        /* mostly blocks that do not overlap, sometimes ones that do */
        int stride = (int) rt_range(g->r, rt_chance(g->r, 75) ? bl : 0, bl + 2);
        if (rt_chance(g->r, 40))
            stride = -stride;
        rc = big ? MPI_Type_vector_c(n, bl, stride, c, t) : MPI_Type_vector(n, bl, stride, c, t);
    }
    drop(&c);
    return rc;
}

/* indexed, hindexed (bytes), indexed_block and hindexed_block (block) */
static int make_indexed(gen_ctx *g, int depth, MPI_Count budget, int bytes, int block,
                        MPI_Datatype *t)
{
    int n = small_count(g, MAXN), bl[MAXN], idx[MAXN], copies = 0;
    MPI_Aint disp[MAXN];
    MPI_Count bl_c[MAXN], idx_c[MAXN];
    int same = small_count(g, 3);
    for (int k = 0; k < n; k++) {
        bl[k] = block ? same : small_count(g, 3);
        copies += bl[k];
    }
    MPI_Datatype c = gen(g, depth, share(budget, copies));
    MPI_Aint ext = abs_a(extent_of(c)), len[MAXN], lb[MAXN] = { 0 }, units[MAXN];
    int apart = rt_chance(g->r, 60);    /* else anywhere, overlaps allowed */
    for (int k = 0; k < n; k++)
        len[k] = bl[k], units[k] = 0;
    if (apart)
        layout(g, n, len, lb, rt_range(g->r, -6, 6), 1, units);
    for (int k = 0; k < n; k++)
        len[k] = bl[k] * ext;
    if (apart)
        layout(g, n, len, lb, byte_disp(g, 4 * ext + 16), 8, disp);
    for (int k = 0; k < n; k++) {
        idx[k] = apart ? (int) units[k] : (int) rt_range(g->r, -6, 6);
        if (!apart)
            disp[k] = byte_disp(g, 4 * ext + 16);
        bl_c[k] = bl[k];
        idx_c[k] = bytes ? disp[k] : idx[k];
    }
    int rc, big = rt_chance(g->r, 25);
    if (block && bytes)
        rc = big ? MPI_Type_create_hindexed_block_c(n, same, idx_c, c, t)
            : MPI_Type_create_hindexed_block(n, same, disp, c, t);
    else if (block)
        rc = big ? MPI_Type_create_indexed_block_c(n, same, idx_c, c, t)
            : MPI_Type_create_indexed_block(n, same, idx, c, t);
    else if (bytes)
        rc = big ? MPI_Type_create_hindexed_c(n, bl_c, idx_c, c, t)
            : rt_chance(g->r, 10) ? MPI_Type_hindexed(n, bl, disp, c, t)
            : MPI_Type_create_hindexed(n, bl, disp, c, t);
    else
        rc = big ? MPI_Type_indexed_c(n, bl_c, idx_c, c, t) : MPI_Type_indexed(n, bl, idx, c, t);
    drop(&c);
    return rc;
}

/* struct; with markers: the MPI-1 MPI_Type_struct with sticky MPI_LB / MPI_UB entries */
static int make_struct(gen_ctx *g, int depth, MPI_Count budget, int markers, MPI_Datatype *t)
{
    int n = rt_chance(g->r, 5) ? MIN_COUNT : (int) rt_range(g->r, 1, markers ? 2 : MAXN);
    int bl[MAXN + 2], owned[MAXN + 2] = { 0 };
    MPI_Aint disp[MAXN + 2];
    MPI_Datatype types[MAXN + 2];
    MPI_Count bl_c[MAXN + 2], disp_c[MAXN + 2];
    for (int k = 0; k < n; k++) {
        bl[k] = small_count(g, 3);
        if (k > 0 && rt_chance(g->r, 30)) {
            types[k] = types[rt_range(g->r, 0, k - 1)];     /* entries sharing a child */
        } else {
            types[k] = gen(g, depth, share(budget, 3 * n));
            owned[k] = 1;
        }
    }
    MPI_Aint len[MAXN + 2], lb[MAXN + 2], span = 32;
    for (int k = 0; k < n; k++) {
        len[k] = bl[k] * abs_a(extent_of(types[k]));
        lb[k] = lb_of(types[k]);
        span += len[k];
    }
    if (rt_chance(g->r, 60))
        layout(g, n, len, lb, byte_disp(g, span), 8, disp);
    else
        for (int k = 0; k < n; k++)
            disp[k] = byte_disp(g, 2 * abs_a(extent_of(types[k])) + 32);
    if (markers) {
        int lb = rt_chance(g->r, 70), ub = !lb || rt_chance(g->r, 70);
        MPI_Aint dlb = byte_disp(g, 48);
        if (lb) {
            bl[n] = 1, disp[n] = dlb, types[n] = MPI_LB;
            n++;
        }
        if (ub) {
            bl[n] = 1, disp[n] = (lb ? dlb : -16) + (MPI_Aint) rt_range(g->r, 0, 12) * 8;
            types[n] = MPI_UB;
            n++;
        }
        /* the markers anywhere among the entries */
        for (int k = n - 1; k > 0; k--) {
            int j = (int) rt_range(g->r, 0, k);
            int tb = bl[k], to = owned[k];
            MPI_Aint td = disp[k];
            MPI_Datatype tt = types[k];
            bl[k] = bl[j], disp[k] = disp[j], types[k] = types[j], owned[k] = owned[j];
            bl[j] = tb, disp[j] = td, types[j] = tt, owned[j] = to;
        }
    }
    for (int k = 0; k < n; k++)
        bl_c[k] = bl[k], disp_c[k] = disp[k];
    int rc;
    if (markers)
        rc = MPI_Type_struct(n, bl, disp, types, t);
    else if (rt_chance(g->r, 25))
        rc = MPI_Type_create_struct_c(n, bl_c, disp_c, types, t);
    else
        rc = MPI_Type_create_struct(n, bl, disp, types, t);
    for (int k = 0; k < n; k++)
        if (owned[k])
            drop(&types[k]);
    return rc;
}

static int make_subarray(gen_ctx *g, int depth, MPI_Count budget, MPI_Datatype *t)
{
    int nd = (int) rt_range(g->r, 1, 3), sizes[3], sub[3], start[3];
    MPI_Count sizes_c[3], sub_c[3], start_c[3], selected = 1;
    for (int k = 0; k < nd; k++) {
        sizes[k] = (int) rt_range(g->r, 1, 4);
        sub[k] = (int) rt_range(g->r, 1, sizes[k]);
        start[k] = (int) rt_range(g->r, 0, sizes[k] - sub[k]);
        sizes_c[k] = sizes[k], sub_c[k] = sub[k], start_c[k] = start[k];
        selected *= sub[k];
    }
    int order = rt_chance(g->r, 50) ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
    MPI_Datatype c = gen(g, depth, share(budget, selected));
    int rc = rt_chance(g->r, 25)
        ? MPI_Type_create_subarray_c(nd, sizes_c, sub_c, start_c, order, c, t)
        : MPI_Type_create_subarray(nd, sizes, sub, start, order, c, t);
    drop(&c);
    return rc;
}

static int make_darray(gen_ctx *g, int depth, MPI_Count budget, MPI_Datatype *t)
{
    int nd = (int) rt_range(g->r, 1, 3), gs[3], dist[3], darg[3], ps[3], size = 1;
    MPI_Count gs_c[3], total = 1;
    for (int k = 0; k < nd; k++) {
        static const int kinds[] = { MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE };
        dist[k] = kinds[rt_range(g->r, 0, 2)];
        gs[k] = (int) rt_range(g->r, 1, 6);
        /* mostly grids no larger than the array, so that most processes own something */
        ps[k] = dist[k] == MPI_DISTRIBUTE_NONE ? 1 : (int) rt_range(g->r, 1, 3);
        if (ps[k] > gs[k] && rt_chance(g->r, 80))
            ps[k] = gs[k];
        darg[k] = MPI_DISTRIBUTE_DFLT_DARG;
        if (dist[k] == MPI_DISTRIBUTE_BLOCK && rt_chance(g->r, 50)) {
            int min = (gs[k] + ps[k] - 1) / ps[k];     /* the blocks must cover the array */
            darg[k] = min + (int) rt_range(g->r, 0, 2);
        } else if (dist[k] == MPI_DISTRIBUTE_CYCLIC && rt_chance(g->r, 50)) {
            darg[k] = (int) rt_range(g->r, 1, 3);
        }
        gs_c[k] = gs[k];
        size *= ps[k];
        total *= gs[k];
    }
    int rank = (int) rt_range(g->r, 0, size - 1);
    int order = rt_chance(g->r, 50) ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
    MPI_Datatype c = gen(g, depth, share(budget, total / size + 1));
    int rc = rt_chance(g->r, 25)
        ? MPI_Type_create_darray_c(size, rank, nd, gs_c, dist, darg, ps, order, c, t)
        : MPI_Type_create_darray(size, rank, nd, gs, dist, darg, ps, order, c, t);
    drop(&c);
    return rc;
}

static int make_resized(gen_ctx *g, int depth, MPI_Count budget, MPI_Datatype *t)
{
    MPI_Datatype c = gen(g, depth, budget);
    MPI_Aint ext = abs_a(extent_of(c));
    MPI_Aint lb = rt_chance(g->r, 50) ? lb_of(c) + byte_disp(g, 24) : byte_disp(g, ext + 32);
    MPI_Aint extent = rt_chance(g->r, 5) ? 0 : (MPI_Aint) rt_range(g->r, 1, 2 * ext + 16);
    if (rt_chance(g->r, 70))
        extent = (extent + 7) / 8 * 8;
    if (NEGATIVE_EXTENTS && rt_chance(g->r, 4))
        extent = -extent;       /* copies go downwards */
    int rc = rt_chance(g->r, 25) ? MPI_Type_create_resized_c(c, lb, extent, t)
        : MPI_Type_create_resized(c, lb, extent, t);
    drop(&c);
    return rc;
}

static int make_dup(gen_ctx *g, int depth, MPI_Count budget, MPI_Datatype *t)
{
    MPI_Datatype c = gen(g, depth, budget);
    int rc = MPI_Type_dup(c, t);
    drop(&c);
    return rc;
}

/* A type with at most depth constructor levels and (roughly) at most budget packed bytes. The
 * result is always a new handle or a predefined type. */
static MPI_Datatype gen(gen_ctx *g, int depth, MPI_Count budget)
{
    if (depth <= 0 || budget < 32 || (depth < g->top && rt_chance(g->r, 12)))
        return basic(g);
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int rc, kind = (int) rt_range(g->r, 0, 13);
    depth--;
    switch (kind) {
    case 0: rc = make_contig(g, depth, budget, &t); break;
    case 1: rc = make_vector(g, depth, budget, 0, &t); break;
    case 2: rc = make_vector(g, depth, budget, 1, &t); break;
    case 3: rc = make_indexed(g, depth, budget, 0, 0, &t); break;
    case 4: rc = make_indexed(g, depth, budget, 1, 0, &t); break;
    case 5: rc = make_indexed(g, depth, budget, 0, 1, &t); break;
    case 6: rc = make_indexed(g, depth, budget, 1, 1, &t); break;
    case 7: case 8: rc = make_struct(g, depth, budget, 0, &t); break;
    case 9: rc = make_struct(g, depth, budget, 1, &t); break;
    case 10: rc = make_subarray(g, depth, budget, &t); break;
    case 11: rc = make_darray(g, depth, budget, &t); break;
    case 12: rc = make_resized(g, depth, budget, &t); break;
    default: rc = make_dup(g, depth, budget, &t); break;
    }
    if (rc != MPI_SUCCESS) {
        char msg[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, msg, &len);
        fprintf(stderr, "randtype: constructor %d failed: %s\n", kind, msg);
        return MPI_DATATYPE_NULL;
    }
    if (!within_limits(g, t)) {
        drop(&t);
        return basic(g);
    }
    return t;
}

MPI_Datatype rt_random_type(rt_rng *r, const rt_limits *lim)
{
    gen_ctx g = { r, lim, (int) rt_range(r, 1, lim->max_depth) };
    return gen(&g, g.top, lim->max_size);
}
