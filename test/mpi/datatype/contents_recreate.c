/*
 * Decoding is complete: a recursive decoder that rebuilds a type from MPI_Type_get_envelope /
 * MPI_Type_get_contents alone gets a type with the same size, bounds and true bounds, and whose
 * own decoding is the same tree. Done with the classic decoder (classic constructors) and with the
 * _c decoder (_c constructors for large layouts), on nested types whose intermediate handles were
 * freed right after use. Every derived type a decoder returns is freed.
 */
#include <stdlib.h>
#include "mtest.h"

#define BIG31 ((MPI_Count) 1 << 31)

/* One level of decoding. */
typedef struct {
    int comb;
    int ni, na, nc, nd;
    int *i;
    MPI_Aint *a;
    MPI_Count *c;
    MPI_Datatype *d;
} Decoded;

static int is_predefined_comb(int comb)
{
    return comb == MPI_COMBINER_NAMED || comb == MPI_COMBINER_F90_REAL ||
        comb == MPI_COMBINER_F90_COMPLEX || comb == MPI_COMBINER_F90_INTEGER;
}

static int is_predefined(MPI_Datatype t)
{
    MPI_Count ni, na, nc, nd;
    int comb = -1;
    CHECK_MPI(MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &comb));
    return is_predefined_comb(comb);
}

static void *xcalloc(MPI_Count n, size_t elem)
{
    return calloc((size_t) n + 1, elem);        /* +1: never a zero-size request */
}

/* Decodes one level of t with the classic (large = 0) or the _c decoder; 0 on failure. */
static int decode(MPI_Datatype t, int large, Decoded *x)
{
    memset(x, 0, sizeof *x);
    if (large) {
        MPI_Count ni, na, nc, nd;
        if (MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &x->comb) != MPI_SUCCESS)
            return 0;
        x->ni = (int) ni, x->na = (int) na, x->nc = (int) nc, x->nd = (int) nd;
    } else if (MPI_Type_get_envelope(t, &x->ni, &x->na, &x->nd, &x->comb) != MPI_SUCCESS) {
        return 0;
    }
    if (x->comb == MPI_COMBINER_NAMED)
        return 1;
    x->i = xcalloc(x->ni, sizeof(int));
    x->a = xcalloc(x->na, sizeof(MPI_Aint));
    x->c = xcalloc(x->nc, sizeof(MPI_Count));
    x->d = xcalloc(x->nd, sizeof(MPI_Datatype));
    int rc = large ? MPI_Type_get_contents_c(t, x->ni, x->na, x->nc, x->nd, x->i, x->a, x->c, x->d)
        : MPI_Type_get_contents(t, x->ni, x->na, x->nd, x->i, x->a, x->d);
    if (rc != MPI_SUCCESS) {
        x->nd = 0;      /* nothing was handed out */
        return 0;
    }
    return 1;
}

/* Frees the derived types the decoder handed out, and the arrays. */
static void release(Decoded *x)
{
    for (int k = 0; k < x->nd; k++)
        if (!is_predefined(x->d[k]))
            CHECK_MPI(MPI_Type_free(&x->d[k]));
    free(x->i);
    free(x->a);
    free(x->c);
    free(x->d);
}

/* Calls the constructor named by x on the children r[]; the large layout when x has large counts. */
static int construct(const Decoded *x, const MPI_Datatype *r, MPI_Datatype *out)
{
    const int *i = x->i;
    const MPI_Aint *a = x->a;
    const MPI_Count *c = x->c;
    int n;

    if (x->nc > 0) {
        switch (x->comb) {
        case MPI_COMBINER_CONTIGUOUS: return MPI_Type_contiguous_c(c[0], r[0], out);
        case MPI_COMBINER_VECTOR: return MPI_Type_vector_c(c[0], c[1], c[2], r[0], out);
        case MPI_COMBINER_HVECTOR: return MPI_Type_create_hvector_c(c[0], c[1], c[2], r[0], out);
        case MPI_COMBINER_INDEXED: return MPI_Type_indexed_c(c[0], c + 1, c + 1 + c[0], r[0], out);
        case MPI_COMBINER_HINDEXED:
            return MPI_Type_create_hindexed_c(c[0], c + 1, c + 1 + c[0], r[0], out);
        case MPI_COMBINER_INDEXED_BLOCK:
            return MPI_Type_create_indexed_block_c(c[0], c[1], c + 2, r[0], out);
        case MPI_COMBINER_HINDEXED_BLOCK:
            return MPI_Type_create_hindexed_block_c(c[0], c[1], c + 2, r[0], out);
        case MPI_COMBINER_STRUCT:
            return MPI_Type_create_struct_c(c[0], c + 1, c + 1 + c[0], r, out);
        case MPI_COMBINER_SUBARRAY:
            n = i[0];
            return MPI_Type_create_subarray_c(n, c, c + n, c + 2 * n, i[1], r[0], out);
        case MPI_COMBINER_DARRAY:
            n = i[2];
            return MPI_Type_create_darray_c(i[0], i[1], n, c, i + 3, i + 3 + n, i + 3 + 2 * n,
                                            i[3 + 3 * n], r[0], out);
        case MPI_COMBINER_RESIZED: return MPI_Type_create_resized_c(r[0], c[0], c[1], out);
        }
        MTEST_FAIL("combiner %d came with %d large counts", x->comb, x->nc);
        return MPI_ERR_OTHER;
    }
    switch (x->comb) {
    case MPI_COMBINER_DUP: return MPI_Type_dup(r[0], out);
    case MPI_COMBINER_CONTIGUOUS: return MPI_Type_contiguous(i[0], r[0], out);
    case MPI_COMBINER_VECTOR: return MPI_Type_vector(i[0], i[1], i[2], r[0], out);
    case MPI_COMBINER_HVECTOR: return MPI_Type_create_hvector(i[0], i[1], a[0], r[0], out);
    case MPI_COMBINER_INDEXED: return MPI_Type_indexed(i[0], i + 1, i + 1 + i[0], r[0], out);
    case MPI_COMBINER_HINDEXED: return MPI_Type_create_hindexed(i[0], i + 1, a, r[0], out);
    case MPI_COMBINER_INDEXED_BLOCK:
        return MPI_Type_create_indexed_block(i[0], i[1], i + 2, r[0], out);
    case MPI_COMBINER_HINDEXED_BLOCK:
        return MPI_Type_create_hindexed_block(i[0], i[1], a, r[0], out);
    case MPI_COMBINER_STRUCT: return MPI_Type_create_struct(i[0], i + 1, a, r, out);
    case MPI_COMBINER_SUBARRAY:
        n = i[0];
        return MPI_Type_create_subarray(n, i + 1, i + 1 + n, i + 1 + 2 * n, i[1 + 3 * n], r[0], out);
    case MPI_COMBINER_DARRAY:
        n = i[2];
        return MPI_Type_create_darray(i[0], i[1], n, i + 3, i + 3 + n, i + 3 + 2 * n, i + 3 + 3 * n,
                                      i[3 + 4 * n], r[0], out);
    case MPI_COMBINER_F90_REAL: return MPI_Type_create_f90_real(i[0], i[1], out);
    case MPI_COMBINER_F90_COMPLEX: return MPI_Type_create_f90_complex(i[0], i[1], out);
    case MPI_COMBINER_F90_INTEGER: return MPI_Type_create_f90_integer(i[0], out);
    case MPI_COMBINER_RESIZED: return MPI_Type_create_resized(r[0], a[0], a[1], out);
    }
    MTEST_FAIL("unknown combiner %d", x->comb);
    return MPI_ERR_OTHER;
}

/* A type built from t's decoding alone (t itself when t is named). */
static MPI_Datatype rebuild(MPI_Datatype t, int large)
{
    Decoded x;
    MPI_Datatype out = MPI_DATATYPE_NULL;

    if (!decode(t, large, &x)) {
        MTEST_FAIL("cannot decode %#x (large %d)", (unsigned) t, large);
        release(&x);
        return MPI_DATATYPE_NULL;
    }
    if (x.comb == MPI_COMBINER_NAMED)
        return t;
    MPI_Datatype *r = xcalloc(x.nd, sizeof(MPI_Datatype));
    for (int k = 0; k < x.nd; k++)
        r[k] = rebuild(x.d[k], large);
    CHECK_MPI(construct(&x, r, &out));
    for (int k = 0; k < x.nd; k++)
        if (r[k] != MPI_DATATYPE_NULL && !is_predefined(r[k]))
            CHECK_MPI(MPI_Type_free(&r[k]));
    free(r);
    release(&x);
    return out;
}

/* a and b decode to the same tree (predefined leaves compared by handle). */
static void check_same_tree(const char *name, MPI_Datatype a, MPI_Datatype b, int large, int depth)
{
    Decoded x, y;
    int okx = decode(a, large, &x), oky = decode(b, large, &y);

    if (!okx || !oky) {
        MTEST_FAIL("%s: depth %d: decode failed (original %d, rebuilt %d)", name, depth, okx, oky);
    } else if (x.comb != y.comb || x.ni != y.ni || x.na != y.na || x.nc != y.nc || x.nd != y.nd) {
        MTEST_FAIL("%s: depth %d: envelope (%d: %d %d %d %d) rebuilt as (%d: %d %d %d %d)", name,
                   depth, x.comb, x.ni, x.na, x.nc, x.nd, y.comb, y.ni, y.na, y.nc, y.nd);
    } else if (x.comb == MPI_COMBINER_NAMED) {
        CHECK(a == b, "%s: depth %d: named %#x rebuilt as %#x", name, depth, (unsigned) a,
              (unsigned) b);
    } else {
        for (int k = 0; k < x.ni; k++)
            CHECK(x.i[k] == y.i[k], "%s: depth %d: i[%d] %d vs %d", name, depth, k, x.i[k], y.i[k]);
        for (int k = 0; k < x.na; k++)
            CHECK(x.a[k] == y.a[k], "%s: depth %d: a[%d] %ld vs %ld", name, depth, k,
                  (long) x.a[k], (long) y.a[k]);
        for (int k = 0; k < x.nc; k++)
            CHECK(x.c[k] == y.c[k], "%s: depth %d: c[%d] %lld vs %lld", name, depth, k,
                  (long long) x.c[k], (long long) y.c[k]);
        for (int k = 0; k < x.nd; k++)
            check_same_tree(name, x.d[k], y.d[k], large, depth + 1);
    }
    release(&x);
    release(&y);
}

static void check_rebuild(const char *name, MPI_Datatype t, int large)
{
    MPI_Datatype r = rebuild(t, large);
    MPI_Count size[2];
    MPI_Count lb[2], ext[2], tlb[2], text[2];
    const MPI_Datatype both[2] = { t, r };

    if (r == MPI_DATATYPE_NULL)
        return;
    for (int k = 0; k < 2; k++) {
        size[k] = lb[k] = ext[k] = tlb[k] = text[k] = -1000 - k;
        CHECK_MPI(MPI_Type_size_c(both[k], &size[k]));
        CHECK_MPI(MPI_Type_get_extent_c(both[k], &lb[k], &ext[k]));
        CHECK_MPI(MPI_Type_get_true_extent_c(both[k], &tlb[k], &text[k]));
    }
    CHECK(size[0] == size[1] && lb[0] == lb[1] && ext[0] == ext[1] && tlb[0] == tlb[1] &&
          text[0] == text[1],
          "%s (large %d): size %lld lb %lld extent %lld true_lb %lld true_extent %lld, rebuilt "
          "as %lld %lld %lld %lld %lld", name, large, (long long) size[0], (long long) lb[0],
          (long long) ext[0], (long long) tlb[0], (long long) text[0], (long long) size[1],
          (long long) lb[1], (long long) ext[1], (long long) tlb[1], (long long) text[1]);
    check_same_tree(name, t, r, large, 0);
    CHECK_MPI(MPI_Type_commit(&r));
    CHECK_MPI(MPI_Type_free(&r));
}

/* ---- the nested types; each builder frees its intermediate handles at once ---- */

static MPI_Datatype keep(MPI_Datatype parent, MPI_Datatype *child)
{
    CHECK_MPI(MPI_Type_free(child));
    return parent;
}

#define INTS(...) ((const int[]) { __VA_ARGS__ })
#define AINTS(...) ((const MPI_Aint[]) { __VA_ARGS__ })
#define COUNTS(...) ((const MPI_Count[]) { __VA_ARGS__ })
#define TYPES(...) ((const MPI_Datatype[]) { __VA_ARGS__ })

/* struct of vector of resized of indexed of dup of contiguous */
static MPI_Datatype t_chain(void)
{
    MPI_Datatype c, d, x, r, v, s;
    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &c));
    CHECK_MPI(MPI_Type_dup(c, &d));
    keep(d, &c);
    CHECK_MPI(MPI_Type_indexed(2, INTS(1, 2), INTS(0, 4), d, &x));
    keep(x, &d);
    CHECK_MPI(MPI_Type_create_resized(x, -8, 200, &r));
    keep(r, &x);
    CHECK_MPI(MPI_Type_vector(3, 1, 2, r, &v));
    keep(v, &r);
    CHECK_MPI(MPI_Type_create_struct(2, INTS(1, 2), AINTS(0, 1000), TYPES(MPI_DOUBLE, v), &s));
    return keep(s, &v);
}

/* subarray of an MPI-1 struct with sticky MPI_LB/MPI_UB markers */
static MPI_Datatype t_subarray_of_sticky(void)
{
    MPI_Datatype s, a;
    CHECK_MPI(MPI_Type_struct(4, INTS(1, 2, 1, 1), AINTS(-4, 0, 12, 24),
                              TYPES(MPI_LB, MPI_SHORT, MPI_CHAR, MPI_UB), &s));
    CHECK_MPI(MPI_Type_create_subarray(2, INTS(5, 6), INTS(2, 3), INTS(3, 1), MPI_ORDER_C, s, &a));
    return keep(a, &s);
}

/* darray of resized double */
static MPI_Datatype t_darray_of_resized(void)
{
    MPI_Datatype r, a;
    CHECK_MPI(MPI_Type_create_resized(MPI_DOUBLE, 0, 16, &r));
    CHECK_MPI(MPI_Type_create_darray(6, 4, 2, INTS(10, 9),
                                     INTS(MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC),
                                     INTS(MPI_DISTRIBUTE_DFLT_DARG, 2), INTS(3, 2), MPI_ORDER_C,
                                     r, &a));
    return keep(a, &r);
}

/* hindexed_block of hvector of an f90 real */
static MPI_Datatype t_hblock_of_hvector_f90(void)
{
    MPI_Datatype f, h, b;
    CHECK_MPI(MPI_Type_create_f90_real(15, 300, &f));
    CHECK_MPI(MPI_Type_create_hvector(3, 2, 40, f, &h));
    CHECK_MPI(MPI_Type_create_hindexed_block(3, 2, AINTS(0, 300, -600), h, &b));
    return keep(b, &h);
}

/* the chain again, from the _c constructors */
static MPI_Datatype t_chain_c(void)
{
    MPI_Datatype c, x, r, v, s;
    CHECK_MPI(MPI_Type_contiguous_c(3, MPI_INT, &c));
    CHECK_MPI(MPI_Type_indexed_c(2, COUNTS(1, 2), COUNTS(0, 4), c, &x));
    keep(x, &c);
    CHECK_MPI(MPI_Type_create_resized_c(x, -8, 200, &r));
    keep(r, &x);
    CHECK_MPI(MPI_Type_vector_c(3, 1, -2, r, &v));
    keep(v, &r);
    CHECK_MPI(MPI_Type_create_struct_c(2, COUNTS(1, 2), COUNTS(0, 1000), TYPES(MPI_DOUBLE, v), &s));
    return keep(s, &v);
}

/* subarray_c of hindexed_c */
static MPI_Datatype t_subarray_c_of_hindexed_c(void)
{
    MPI_Datatype h, a;
    CHECK_MPI(MPI_Type_create_hindexed_c(3, COUNTS(1, 0, 2), COUNTS(8, 100, -16), MPI_INT, &h));
    CHECK_MPI(MPI_Type_create_subarray_c(3, COUNTS(3, 4, 5), COUNTS(1, 2, 3), COUNTS(2, 1, 0),
                                         MPI_ORDER_FORTRAN, h, &a));
    return keep(a, &h);
}

/* a 3-d darray_c */
static MPI_Datatype t_darray_c(void)
{
    MPI_Datatype a;
    CHECK_MPI(MPI_Type_create_darray_c(8, 5, 3, COUNTS(7, 4, 9),
                                       INTS(MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK,
                                            MPI_DISTRIBUTE_CYCLIC),
                                       INTS(1, MPI_DISTRIBUTE_DFLT_DARG, 3), INTS(2, 2, 2),
                                       MPI_ORDER_FORTRAN, MPI_INT, &a));
    return a;
}

/* dup of dup of dup */
static MPI_Datatype t_dups(void)
{
    MPI_Datatype t = MPI_FLOAT, n;
    for (int k = 0; k < 3; k++) {
        CHECK_MPI(MPI_Type_dup(t, &n));
        if (t != MPI_FLOAT)
            keep(n, &t);
        t = n;
    }
    return t;
}

/* hvector with a negative stride of indexed_block */
static MPI_Datatype t_neg_hvector(void)
{
    MPI_Datatype b, h;
    CHECK_MPI(MPI_Type_create_indexed_block(3, 2, INTS(5, 0, 10), MPI_SHORT, &b));
    CHECK_MPI(MPI_Type_create_hvector(4, 2, -64, b, &h));
    return keep(h, &b);
}

/* struct naming the same derived child twice, beside another one */
static MPI_Datatype t_struct_shared_child(void)
{
    MPI_Datatype v, c, s;
    CHECK_MPI(MPI_Type_vector(2, 3, 5, MPI_FLOAT, &v));
    CHECK_MPI(MPI_Type_contiguous(4, MPI_CHAR, &c));
    CHECK_MPI(MPI_Type_create_struct(3, INTS(1, 2, 1), AINTS(0, 64, 300), TYPES(v, c, v), &s));
    keep(s, &v);
    return keep(s, &c);
}

/* struct with an empty contiguous member */
static MPI_Datatype t_struct_empty(void)
{
    MPI_Datatype e, s;
    CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &e));
    CHECK_MPI(MPI_Type_create_struct(3, INTS(1, 5, 1), AINTS(0, 4, 8), TYPES(MPI_INT, e, MPI_CHAR),
                                     &s));
    return keep(s, &e);
}

/* hindexed with zero-length blocks of subarray */
static MPI_Datatype t_hindexed_of_subarray(void)
{
    MPI_Datatype a, h;
    CHECK_MPI(MPI_Type_create_subarray(2, INTS(4, 4), INTS(2, 2), INTS(1, 1), MPI_ORDER_C,
                                       MPI_DOUBLE, &a));
    CHECK_MPI(MPI_Type_create_hindexed(4, INTS(1, 0, 2, 0), AINTS(0, 7, 256, -9), a, &h));
    return keep(h, &a);
}

/* resized of a cyclic darray */
static MPI_Datatype t_resized_darray(void)
{
    MPI_Datatype a, r;
    CHECK_MPI(MPI_Type_create_darray(3, 2, 1, INTS(11), INTS(MPI_DISTRIBUTE_CYCLIC), INTS(2),
                                     INTS(3), MPI_ORDER_C, MPI_LONG, &a));
    CHECK_MPI(MPI_Type_create_resized(a, 8, 40, &r));
    return keep(r, &a);
}

/* vector_c with a stride beyond int: only the _c decoder can describe it */
static MPI_Datatype t_huge_stride(void)
{
    MPI_Datatype v;
    CHECK_MPI(MPI_Type_vector_c(2, 1, 4 * BIG31, MPI_CHAR, &v));
    return v;
}

/* indexed_block_c of hindexed_block_c of hvector_c */
static MPI_Datatype t_blocks_c(void)
{
    MPI_Datatype v, h, b;
    CHECK_MPI(MPI_Type_create_hvector_c(3, 2, -20, MPI_SHORT, &v));
    CHECK_MPI(MPI_Type_create_hindexed_block_c(2, 3, COUNTS(-24, 24), v, &h));
    keep(h, &v);
    CHECK_MPI(MPI_Type_create_indexed_block_c(3, 1, COUNTS(2, 0, 5), h, &b));
    return keep(b, &h);
}

/* struct of f90 complex, f90 integer and a pair type */
static MPI_Datatype t_struct_predefined(void)
{
    MPI_Datatype c, i, s;
    CHECK_MPI(MPI_Type_create_f90_complex(6, 30, &c));
    CHECK_MPI(MPI_Type_create_f90_integer(4, &i));
    CHECK_MPI(MPI_Type_create_struct(3, INTS(2, 1, 3), AINTS(0, 16, 24), TYPES(c, i, MPI_DOUBLE_INT),
                                     &s));
    return s;
}

/* twelve levels alternating contiguous and resized */
static MPI_Datatype t_deep(void)
{
    MPI_Datatype t = MPI_BYTE, n;
    for (int k = 0; k < 12; k++) {
        if (k % 2)
            CHECK_MPI(MPI_Type_create_resized(t, -k, 3 * k + 50, &n));
        else
            CHECK_MPI(MPI_Type_contiguous(2, t, &n));
        if (t != MPI_BYTE)
            keep(n, &t);
        t = n;
    }
    return t;
}

/* Fortran-order subarray of vector */
static MPI_Datatype t_subarray_fortran(void)
{
    MPI_Datatype v, a;
    CHECK_MPI(MPI_Type_vector(3, 1, 4, MPI_INT, &v));
    CHECK_MPI(MPI_Type_create_subarray(3, INTS(3, 2, 4), INTS(1, 2, 2), INTS(2, 0, 1),
                                       MPI_ORDER_FORTRAN, v, &a));
    return keep(a, &v);
}

/* the MPI-1 constructors: hindexed of hvector */
static MPI_Datatype t_mpi1(void)
{
    MPI_Datatype h, x;
    CHECK_MPI(MPI_Type_hvector(2, 3, 100, MPI_INT, &h));
    CHECK_MPI(MPI_Type_hindexed(2, INTS(1, 2), AINTS(1000, 0), h, &x));
    return keep(x, &h);
}

/* darray with an undistributed dimension, of struct */
static MPI_Datatype t_darray_none_of_struct(void)
{
    MPI_Datatype s, a;
    CHECK_MPI(MPI_Type_create_struct(2, INTS(1, 1), AINTS(0, 8), TYPES(MPI_DOUBLE, MPI_CHAR), &s));
    CHECK_MPI(MPI_Type_create_darray(2, 1, 2, INTS(5, 6),
                                     INTS(MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_BLOCK),
                                     INTS(MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG),
                                     INTS(1, 2), MPI_ORDER_C, s, &a));
    return keep(a, &s);
}

/* contiguous_c with a count beyond int, under a dup */
static MPI_Datatype t_huge_count(void)
{
    MPI_Datatype c, d;
    CHECK_MPI(MPI_Type_contiguous_c(BIG31 + 5, MPI_CHAR, &c));
    CHECK_MPI(MPI_Type_dup(c, &d));
    return keep(d, &c);
}

/* struct of two nested structs, one of them built with the _c constructors */
static MPI_Datatype t_mixed(void)
{
    MPI_Datatype a = t_chain(), b = t_chain_c(), s;
    CHECK_MPI(MPI_Type_create_struct(2, INTS(1, 1), AINTS(0, 4096), TYPES(a, b), &s));
    keep(s, &a);
    return keep(s, &b);
}

static const struct {
    const char *name;
    MPI_Datatype (*build)(void);
    int large_only;             /* arguments beyond int: the classic decoder refuses it */
} cases[] = {
    { "chain", t_chain, 0 },
    { "subarray_of_sticky", t_subarray_of_sticky, 0 },
    { "darray_of_resized", t_darray_of_resized, 0 },
    { "hblock_of_hvector_f90", t_hblock_of_hvector_f90, 0 },
    { "chain_c", t_chain_c, 0 },
    { "subarray_c_of_hindexed_c", t_subarray_c_of_hindexed_c, 0 },
    { "darray_c", t_darray_c, 0 },
    { "dups", t_dups, 0 },
    { "neg_hvector", t_neg_hvector, 0 },
    { "struct_shared_child", t_struct_shared_child, 0 },
    { "struct_empty", t_struct_empty, 0 },
    { "hindexed_of_subarray", t_hindexed_of_subarray, 0 },
    { "resized_darray", t_resized_darray, 0 },
    { "huge_stride", t_huge_stride, 1 },
    { "blocks_c", t_blocks_c, 0 },
    { "struct_predefined", t_struct_predefined, 0 },
    { "deep", t_deep, 0 },
    { "subarray_fortran", t_subarray_fortran, 0 },
    { "mpi1", t_mpi1, 0 },
    { "darray_none_of_struct", t_darray_none_of_struct, 0 },
    { "huge_count", t_huge_count, 1 },
    { "mixed", t_mixed, 0 },
};

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        MPI_Datatype t = cases[k].build();
        if (!cases[k].large_only)
            check_rebuild(cases[k].name, t, 0);
        check_rebuild(cases[k].name, t, 1);
        CHECK_MPI(MPI_Type_free(&t));
    }
    return MTest_Finalize();
}
