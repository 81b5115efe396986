/*
 * The reference model of the fuzzer (fuzz.h): the basic elements of a type the program made, in
 * type-map order, computed from the constructor arguments by the standard's definitions alone
 * (MPI 4.1 section 5.1): contiguous/vector/indexed/struct repeat their children at the child's
 * extent, resized and dup keep the map, subarray and darray place the elements of a box or of one
 * process's share of a distributed array. The extents of the children are taken from the library
 * (asked when each type was made): the model checks where the engine puts the data, not the lb/ub
 * rules, which other tests cover.
 */
#include <stddef.h>
#include "fuzz.h"

static bool push_el(Elems *e, int64_t off, int32_t size)
{
    if (e->n == e->cap)
        return false;
    e->off[e->n] = off;
    e->size[e->n++] = size;
    return true;
}

static const Model *model_of(const Prog *P, MPI_Datatype h)
{
    for (int i = P->nowned - 1; i >= 0; i--)
        if (P->owned[i].h == h)
            return &P->owned[i].model;
    return NULL;
}

/* Size and extent of a child: from its model, or asked (predefined and f90 types live forever). */
static bool child_info(const Prog *P, MPI_Datatype h, MPI_Count *size, MPI_Count *extent)
{
    const Model *m = model_of(P, h);
    MPI_Count lb;
    if (m) {
        *size = m->size;
        *extent = m->extent;
        return true;
    }
    return MPI_Type_size_x(h, size) == MPI_SUCCESS && MPI_Type_get_extent_x(h, &lb, extent) == MPI_SUCCESS;
}

/* The members of the pair types, from the C layout the standard gives them. */
#define PAIR(t, V, I) { t, sizeof(V), offsetof(struct { V v; I i; }, i), sizeof(I) }
static const struct {
    MPI_Datatype type;
    int vsize, ioff, isize;
} pairs[] = {
    PAIR(MPI_FLOAT_INT, float, int), PAIR(MPI_DOUBLE_INT, double, int), PAIR(MPI_LONG_INT, long, int),
    PAIR(MPI_SHORT_INT, short, int), PAIR(MPI_2INT, int, int), PAIR(MPI_LONG_DOUBLE_INT, long double, int),
    PAIR(MPI_2DOUBLE_PRECISION, double, double),
};
#undef PAIR

/* n copies of child, extent apart, from byte off. */
static bool expand_copies(const Prog *P, MPI_Datatype child, int64_t base, int64_t off, int64_t n, Elems *e)
{
    MPI_Count size, extent;
    int64_t at, step;
    if (!child_info(P, child, &size, &extent))
        return false;
    if (n <= 0 || size == 0)
        return n >= 0;
    if (n > e->cap)     /* more elements than the stream holds */
        return false;
    for (int64_t i = 0; i < n; i++)
        if (__builtin_mul_overflow(i, extent, &step) || __builtin_add_overflow(base, off, &at)
            || __builtin_add_overflow(at, step, &at) || !model_expand(P, child, at, e))
            return false;
    return true;
}

static bool expand_subarray(const Prog *P, const Model *m, int64_t base, Elems *e)
{
    int nd = (int) m->n;
    MPI_Count size, extent;
    int64_t total = 1;
    if (nd < 1 || nd > 3 || !child_info(P, m->types[0], &size, &extent))
        return false;
    for (int d = 0; d < nd; d++)
        if (__builtin_mul_overflow(total, m->subsizes[d], &total) || total > e->cap)
            return false;
    for (int64_t c = 0; c < total; c++) {
        /* the c-th element of the box, in type-map order: the last dimension varies fastest in C
         * order, the first in Fortran order */
        int64_t x[3], rest = c, linear = 0;
        for (int k = 0; k < nd; k++) {
            int d = m->order == MPI_ORDER_C ? nd - 1 - k : k;
            x[d] = m->starts[d] + rest % m->subsizes[d];
            rest /= m->subsizes[d];
        }
        for (int k = 0; k < nd; k++) {
            int d = m->order == MPI_ORDER_C ? k : nd - 1 - k;
            linear = linear * m->sizes[d] + x[d];
        }
        if (__builtin_mul_overflow(linear, extent, &linear) || !expand_copies(P, m->types[0], base, linear, 1, e))
            return false;
    }
    return true;
}

/* The global indices along dimension d that process coordinate coord owns, in increasing order. */
#define MAX_LOCAL 128
static bool darray_indices(const Model *m, int d, int coord, int64_t *list, int *n)
{
    int64_t g = m->sizes[d], p = m->psizes[d], a = m->dargs[d];
    *n = 0;
    if (g > 100000)
        return false;
    for (int64_t i = 0; i < g; i++) {
        bool mine;
        if (m->distribs[d] == MPI_DISTRIBUTE_NONE)
            mine = true;
        else if (m->distribs[d] == MPI_DISTRIBUTE_BLOCK) {
            int64_t b = a == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : a;
            mine = i / b == coord;
        } else {
            int64_t b = a == MPI_DISTRIBUTE_DFLT_DARG ? 1 : a;
            mine = (i / b) % p == coord;
        }
        if (mine) {
            if (*n == MAX_LOCAL)
                return false;
            list[(*n)++] = i;
        }
    }
    return true;
}

/* The standard's darray: the elements this rank owns in each dimension (the process grid is
 * row-major), in the array's order, each at its place in the whole array. */
static bool expand_darray(const Prog *P, const Model *m, int64_t base, Elems *e)
{
    int nd = (int) m->n, count[3], coord[3];
    int64_t list[3][MAX_LOCAL], total = 1;
    MPI_Count size, extent;
    if (nd < 1 || nd > 3 || !child_info(P, m->types[0], &size, &extent))
        return false;
    for (int d = nd - 1, r = m->rank; d >= 0; d--) {
        coord[d] = r % m->psizes[d];
        r /= m->psizes[d];
    }
    for (int d = 0; d < nd; d++) {
        if (!darray_indices(m, d, coord[d], list[d], &count[d]))
            return false;
        total *= count[d];
    }
    if (total > e->cap)
        return false;
    for (int64_t c = 0; c < total; c++) {
        int64_t x[3], rest = c, linear = 0;
        for (int k = 0; k < nd; k++) {
            int d = m->order == MPI_ORDER_C ? nd - 1 - k : k;
            x[d] = list[d][rest % count[d]];
            rest /= count[d];
        }
        for (int k = 0; k < nd; k++) {
            int d = m->order == MPI_ORDER_C ? k : nd - 1 - k;
            linear = linear * m->sizes[d] + x[d];
        }
        if (__builtin_mul_overflow(linear, extent, &linear) || !expand_copies(P, m->types[0], base, linear, 1, e))
            return false;
    }
    return true;
}

bool model_expand(const Prog *P, MPI_Datatype h, int64_t base, Elems *e)
{
    const Model *m = model_of(P, h);
    if (!m) {
        MPID_Datatype *dt = MPID_Datatype_get(h);
        if (!dt || !(MPID_Datatype_is_builtin(h) || dt->is_permanent))
            return false;
        if (dt->n_elements == 1)
            return push_el(e, base, (int32_t) dt->size);
        for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
            if (pairs[i].type == h)
                return push_el(e, base, pairs[i].vsize) && push_el(e, base + pairs[i].ioff, pairs[i].isize);
        return dt->n_elements == 0;     /* MPI_LB, MPI_UB; other pairs are not modelled */
    }
    MPI_Count size, extent;
    int64_t off;
    switch (m->kind) {
    case M_SAME:
        return model_expand(P, m->types[0], base, e);
    case M_VECTOR:
        if (!child_info(P, m->types[0], &size, &extent))
            return false;
        if (m->len == 0 || size == 0)
            return true;
        if (m->n > e->cap)
            return false;
        for (int64_t j = 0; j < m->n; j++)
            if (__builtin_mul_overflow(j, m->stride, &off)
                || (m->in_extents && __builtin_mul_overflow(off, extent, &off))
                || !expand_copies(P, m->types[0], base, off, m->len, e))
                return false;
        return true;
    case M_BLOCKS:
        for (int64_t k = 0; k < m->n && k < MAX_ARRAY; k++) {
            if (m->lens[k] == 0)
                continue;
            off = m->offs[k];
            if (m->in_extents && (!child_info(P, m->types[k], &size, &extent)
                                  || __builtin_mul_overflow(off, extent, &off)))
                return false;
            if (!expand_copies(P, m->types[k], base, off, m->lens[k], e))
                return false;
        }
        return m->n <= MAX_ARRAY;
    case M_SUBARRAY:
        return expand_subarray(P, m, base, e);
    case M_DARRAY:
        return expand_darray(P, m, base, e);
    default:
        return false;
    }
}
