/*
 * MPI_Type_get_envelope / MPI_Type_get_contents and their _c twins return exactly the table of
 * MPI 4.1 ("Decoding a Datatype") for every combiner:
 *   - types from the classic constructors: both decoders give the classic layout (the _c decoder
 *     with num_large_counts = 0);
 *   - types from the _c constructors: the _c decoder gives the large layout (every count-like
 *     argument in array_of_large_counts, in argument order); the classic decoder gives the classic
 *     layout when every value fits an int, else MPI_ERR_TYPE.
 * Returned derived types are new handles the caller frees; returned predefined types are the very
 * handles given to the constructor. Arrays whose length is 0 may be NULL.
 */
#include <stdlib.h>
#include "mtest.h"

#define BIG31 ((MPI_Count) 1 << 31)

static int combiner_of(MPI_Datatype t)
{
    MPI_Count ni, na, nc, nd;
    int comb = -1;
    CHECK_MPI(MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &comb));
    return comb;
}

/* Named types and the unnamed predefined f90 types come back as themselves and are not freed. */
static int is_predefined(MPI_Datatype t)
{
    int c = combiner_of(t);
    return c == MPI_COMBINER_NAMED || c == MPI_COMBINER_F90_REAL ||
        c == MPI_COMBINER_F90_COMPLEX || c == MPI_COMBINER_F90_INTEGER;
}

/* d[k] as returned by a decoder against the type given to the constructor; frees it if derived. */
static void check_returned(const char *name, int k, MPI_Datatype got, MPI_Datatype want)
{
    if (is_predefined(want)) {
        CHECK(got == want, "%s: d[%d] = %#x, expected the predefined %#x", name, k,
              (unsigned) got, (unsigned) want);
        return;
    }
    MPI_Count gsize = -1, wsize = -2;
    MPI_Count glb = -1, gext = -1, wlb = -2, wext = -2;
    CHECK(got != MPI_DATATYPE_NULL, "%s: d[%d] is MPI_DATATYPE_NULL", name, k);
    CHECK_EQ(combiner_of(got), combiner_of(want));
    CHECK_MPI(MPI_Type_size_c(got, &gsize));
    CHECK_MPI(MPI_Type_size_c(want, &wsize));
    CHECK_MPI(MPI_Type_get_extent_c(got, &glb, &gext));
    CHECK_MPI(MPI_Type_get_extent_c(want, &wlb, &wext));
    CHECK(gsize == wsize && glb == wlb && gext == wext,
          "%s: d[%d] has size %lld lb %lld extent %lld, expected %lld %lld %lld", name, k,
          (long long) gsize, (long long) glb, (long long) gext,
          (long long) wsize, (long long) wlb, (long long) wext);
    CHECK_MPI(MPI_Type_free(&got));
    CHECK(got == MPI_DATATYPE_NULL, "%s: MPI_Type_free left d[%d] set", name, k);
}

static void compare_ints(const char *name, const char *arr, const int *got, const int *want, int n)
{
    for (int k = 0; k < n; k++)
        CHECK(got[k] == want[k], "%s: %s[%d] = %d, expected %d", name, arr, k, got[k], want[k]);
}

static void compare_aints(const char *name, const MPI_Aint *got, const MPI_Aint *want, int n)
{
    for (int k = 0; k < n; k++)
        CHECK(got[k] == want[k], "%s: a[%d] = %lld, expected %lld", name, k,
              (long long) got[k], (long long) want[k]);
}

static void compare_counts(const char *name, const MPI_Count *got, const MPI_Count *want, int n)
{
    for (int k = 0; k < n; k++)
        CHECK(got[k] == want[k], "%s: c[%d] = %lld, expected %lld", name, k,
              (long long) got[k], (long long) want[k]);
}

/* Room for n entries filled with junk; NULL when there is nothing to hold. */
static void *junk_array(int n, size_t elem)
{
    if (n == 0)
        return NULL;
    void *p = malloc((size_t) n * elem);
    memset(p, 0x5a, (size_t) n * elem);
    return p;
}

/* The classic decoder on t must give combiner comb and exactly these arguments. Contents are read
 * twice: with max_* equal to the envelope's numbers and with room to spare. */
static void expect_classic(const char *name, MPI_Datatype t, int comb, int ni, const int *ints,
                           int na, const MPI_Aint *addrs, int nd, const MPI_Datatype *types)
{
    int gi = -1, ga = -1, gd = -1, gc = -1;
    int rc = MPI_Type_get_envelope(t, &gi, &ga, &gd, &gc);
    if (rc != MPI_SUCCESS) {
        MTEST_FAIL("%s: MPI_Type_get_envelope failed (%d)", name, rc);
        return;
    }
    if (gc != comb || gi != ni || ga != na || gd != nd) {
        MTEST_FAIL("%s: envelope (ni %d, na %d, nd %d, combiner %d), expected (%d, %d, %d, %d)",
                   name, gi, ga, gd, gc, ni, na, nd, comb);
        return;
    }
    if (comb == MPI_COMBINER_NAMED)
        return;
    for (int extra = 0; extra <= 2; extra += 2) {
        int mi = ni ? ni + extra : 0, ma = na ? na + extra : 0, md = nd ? nd + extra : 0;
        int *i = junk_array(mi, sizeof(int));
        MPI_Aint *a = junk_array(ma, sizeof(MPI_Aint));
        MPI_Datatype *d = junk_array(md, sizeof(MPI_Datatype));
        rc = MPI_Type_get_contents(t, mi, ma, md, i, a, d);
        if (rc != MPI_SUCCESS) {
            MTEST_FAIL("%s: MPI_Type_get_contents(max %d %d %d) failed (%d)", name, mi, ma, md, rc);
        } else {
            compare_ints(name, "i", i, ints, ni);
            compare_aints(name, a, addrs, na);
            for (int k = 0; k < nd; k++)
                check_returned(name, k, d[k], types[k]);
        }
        free(i);
        free(a);
        free(d);
    }
}

/* The _c decoder on t must give combiner comb and exactly these arguments. */
static void expect_large(const char *name, MPI_Datatype t, int comb, int ni, const int *ints,
                         int na, const MPI_Aint *addrs, int nc, const MPI_Count *counts,
                         int nd, const MPI_Datatype *types)
{
    MPI_Count gi = -1, ga = -1, gn = -1, gd = -1;
    int gc = -1;
    int rc = MPI_Type_get_envelope_c(t, &gi, &ga, &gn, &gd, &gc);
    if (rc != MPI_SUCCESS) {
        MTEST_FAIL("%s: MPI_Type_get_envelope_c failed (%d)", name, rc);
        return;
    }
    if (gc != comb || gi != ni || ga != na || gn != nc || gd != nd) {
        MTEST_FAIL("%s: envelope_c (ni %lld, na %lld, nc %lld, nd %lld, combiner %d), "
                   "expected (%d, %d, %d, %d, %d)", name, (long long) gi, (long long) ga,
                   (long long) gn, (long long) gd, gc, ni, na, nc, nd, comb);
        return;
    }
    if (comb == MPI_COMBINER_NAMED)
        return;
    int *i = junk_array(ni, sizeof(int));
    MPI_Aint *a = junk_array(na, sizeof(MPI_Aint));
    MPI_Count *c = junk_array(nc, sizeof(MPI_Count));
    MPI_Datatype *d = junk_array(nd, sizeof(MPI_Datatype));
    rc = MPI_Type_get_contents_c(t, ni, na, nc, nd, i, a, c, d);
    if (rc != MPI_SUCCESS) {
        MTEST_FAIL("%s: MPI_Type_get_contents_c failed (%d)", name, rc);
    } else {
        compare_ints(name, "i", i, ints, ni);
        compare_aints(name, a, addrs, na);
        compare_counts(name, c, counts, nc);
        for (int k = 0; k < nd; k++)
            check_returned(name, k, d[k], types[k]);
    }
    free(i);
    free(a);
    free(c);
    free(d);
}

/* A type from a classic constructor: the same classic layout from both decoders. */
static void expect_both(const char *name, MPI_Datatype t, int comb, int ni, const int *ints,
                        int na, const MPI_Aint *addrs, int nd, const MPI_Datatype *types)
{
    expect_classic(name, t, comb, ni, ints, na, addrs, nd, types);
    expect_large(name, t, comb, ni, ints, na, addrs, 0, NULL, nd, types);
}

/* A type from a _c constructor whose arguments do not fit the classic layout. */
static void expect_classic_refused(const char *name, MPI_Datatype t)
{
    int ni, na, nd, comb;
    int i[16];
    MPI_Aint a[16];
    MPI_Datatype d[16];
    int rc = MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_TYPE,
          "%s: MPI_Type_get_envelope gave class %d, expected MPI_ERR_TYPE", name, cls);
    rc = MPI_Type_get_contents(t, 16, 16, 16, i, a, d);
    cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_TYPE,
          "%s: MPI_Type_get_contents gave class %d, expected MPI_ERR_TYPE", name, cls);
}

#define INTS(...) ((const int[]) { __VA_ARGS__ })
#define AINTS(...) ((const MPI_Aint[]) { __VA_ARGS__ })
#define COUNTS(...) ((const MPI_Count[]) { __VA_ARGS__ })
#define TYPES(...) ((const MPI_Datatype[]) { __VA_ARGS__ })

static void free_type(MPI_Datatype *t)
{
    CHECK_MPI(MPI_Type_free(t));
}

static void test_named(void)
{
    const MPI_Datatype named[] = { MPI_INT, MPI_DOUBLE, MPI_FLOAT_INT, MPI_PACKED, MPI_LB };
    for (size_t k = 0; k < sizeof named / sizeof named[0]; k++)
        expect_both("named", named[k], MPI_COMBINER_NAMED, 0, NULL, 0, NULL, 0, NULL);

    int i[4];
    MPI_Aint a[4];
    MPI_Count c[4];
    MPI_Datatype d[4];
    CHECK_ERR(MPI_Type_get_contents(MPI_INT, 4, 4, 4, i, a, d), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_contents_c(MPI_INT, 4, 4, 4, 4, i, a, c, d), MPI_ERR_TYPE);
}

/* vec: 2 ints with stride 3 (size 8, extent 16), the derived child used below. */
static void test_classic(MPI_Datatype vec)
{
    MPI_Datatype t;

    CHECK_MPI(MPI_Type_dup(MPI_INT, &t));
    expect_both("dup(int)", t, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, TYPES(MPI_INT));
    free_type(&t);
    CHECK_MPI(MPI_Type_dup(vec, &t));
    expect_both("dup(vec)", t, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, TYPES(vec));
    free_type(&t);

    CHECK_MPI(MPI_Type_contiguous(5, MPI_DOUBLE, &t));
    expect_both("contiguous", t, MPI_COMBINER_CONTIGUOUS, 1, INTS(5), 0, NULL, 1, TYPES(MPI_DOUBLE));
    free_type(&t);
    CHECK_MPI(MPI_Type_contiguous(0, vec, &t));
    expect_both("contiguous(0)", t, MPI_COMBINER_CONTIGUOUS, 1, INTS(0), 0, NULL, 1, TYPES(vec));
    free_type(&t);

    CHECK_MPI(MPI_Type_vector(3, 2, -4, MPI_INT, &t));
    expect_both("vector", t, MPI_COMBINER_VECTOR, 3, INTS(3, 2, -4), 0, NULL, 1, TYPES(MPI_INT));
    free_type(&t);

    CHECK_MPI(MPI_Type_create_hvector(3, 2, -40, vec, &t));
    expect_both("create_hvector", t, MPI_COMBINER_HVECTOR, 2, INTS(3, 2), 1, AINTS(-40),
                1, TYPES(vec));
    free_type(&t);
    /* The MPI-1 call from C gives the same combiner (HVECTOR_INTEGER is for Fortran). */
    CHECK_MPI(MPI_Type_hvector(4, 1, 24, MPI_DOUBLE, &t));
    expect_both("hvector", t, MPI_COMBINER_HVECTOR, 2, INTS(4, 1), 1, AINTS(24),
                1, TYPES(MPI_DOUBLE));
    free_type(&t);

    CHECK_MPI(MPI_Type_indexed(3, INTS(1, 2, 3), INTS(0, 5, -2), MPI_INT, &t));
    expect_both("indexed", t, MPI_COMBINER_INDEXED, 7, INTS(3, 1, 2, 3, 0, 5, -2), 0, NULL,
                1, TYPES(MPI_INT));
    free_type(&t);
    CHECK_MPI(MPI_Type_indexed(0, NULL, NULL, vec, &t));
    expect_both("indexed(0)", t, MPI_COMBINER_INDEXED, 1, INTS(0), 0, NULL, 1, TYPES(vec));
    free_type(&t);

    CHECK_MPI(MPI_Type_create_hindexed(3, INTS(1, 0, 2), AINTS(0, 16, -8), MPI_SHORT, &t));
    expect_both("create_hindexed", t, MPI_COMBINER_HINDEXED, 4, INTS(3, 1, 0, 2),
                3, AINTS(0, 16, -8), 1, TYPES(MPI_SHORT));
    free_type(&t);
    CHECK_MPI(MPI_Type_hindexed(2, INTS(2, 1), AINTS(8, 0), vec, &t));
    expect_both("hindexed", t, MPI_COMBINER_HINDEXED, 3, INTS(2, 2, 1), 2, AINTS(8, 0),
                1, TYPES(vec));
    free_type(&t);

    CHECK_MPI(MPI_Type_create_indexed_block(3, 2, INTS(0, 4, 9), MPI_INT, &t));
    expect_both("indexed_block", t, MPI_COMBINER_INDEXED_BLOCK, 5, INTS(3, 2, 0, 4, 9), 0, NULL,
                1, TYPES(MPI_INT));
    free_type(&t);

    CHECK_MPI(MPI_Type_create_hindexed_block(2, 3, AINTS(0, 64), MPI_DOUBLE, &t));
    expect_both("hindexed_block", t, MPI_COMBINER_HINDEXED_BLOCK, 2, INTS(2, 3), 2, AINTS(0, 64),
                1, TYPES(MPI_DOUBLE));
    free_type(&t);

    CHECK_MPI(MPI_Type_create_struct(3, INTS(1, 2, 1), AINTS(0, 8, 40),
                                     TYPES(MPI_INT, vec, MPI_CHAR), &t));
    expect_both("create_struct", t, MPI_COMBINER_STRUCT, 4, INTS(3, 1, 2, 1), 3, AINTS(0, 8, 40),
                3, TYPES(MPI_INT, vec, MPI_CHAR));
    free_type(&t);
    CHECK_MPI(MPI_Type_create_struct(0, INTS(1), AINTS(8), TYPES(vec), &t));
    expect_both("create_struct(0)", t, MPI_COMBINER_STRUCT, 1, INTS(0), 0, NULL, 0, NULL);
    free_type(&t);
    /* The MPI-1 call from C gives STRUCT; the MPI_LB/MPI_UB markers come back as themselves. */
    CHECK_MPI(MPI_Type_struct(3, INTS(1, 1, 1), AINTS(-8, 0, 32), TYPES(MPI_LB, MPI_DOUBLE, MPI_UB),
                              &t));
    expect_both("struct", t, MPI_COMBINER_STRUCT, 4, INTS(3, 1, 1, 1), 3, AINTS(-8, 0, 32),
                3, TYPES(MPI_LB, MPI_DOUBLE, MPI_UB));
    free_type(&t);

    CHECK_MPI(MPI_Type_create_subarray(3, INTS(4, 5, 6), INTS(2, 3, 4), INTS(1, 0, 2), MPI_ORDER_C,
                                       MPI_INT, &t));
    expect_both("subarray3", t, MPI_COMBINER_SUBARRAY, 11,
                INTS(3, 4, 5, 6, 2, 3, 4, 1, 0, 2, MPI_ORDER_C), 0, NULL, 1, TYPES(MPI_INT));
    free_type(&t);
    CHECK_MPI(MPI_Type_create_subarray(2, INTS(10, 8), INTS(3, 8), INTS(7, 0), MPI_ORDER_FORTRAN,
                                       vec, &t));
    expect_both("subarray2", t, MPI_COMBINER_SUBARRAY, 8,
                INTS(2, 10, 8, 3, 8, 7, 0, MPI_ORDER_FORTRAN), 0, NULL, 1, TYPES(vec));
    free_type(&t);

    CHECK_MPI(MPI_Type_create_darray(4, 1, 2, INTS(8, 6),
                                     INTS(MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC),
                                     INTS(MPI_DISTRIBUTE_DFLT_DARG, 2), INTS(2, 2), MPI_ORDER_C,
                                     MPI_INT, &t));
    expect_both("darray2", t, MPI_COMBINER_DARRAY, 12,
                INTS(4, 1, 2, 8, 6, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC,
                     MPI_DISTRIBUTE_DFLT_DARG, 2, 2, 2, MPI_ORDER_C), 0, NULL, 1, TYPES(MPI_INT));
    free_type(&t);
    CHECK_MPI(MPI_Type_create_darray(2, 1, 3, INTS(4, 3, 5),
                                     INTS(MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_BLOCK,
                                          MPI_DISTRIBUTE_CYCLIC),
                                     INTS(MPI_DISTRIBUTE_DFLT_DARG, 2, MPI_DISTRIBUTE_DFLT_DARG),
                                     INTS(1, 2, 1), MPI_ORDER_FORTRAN, MPI_DOUBLE, &t));
    expect_both("darray3", t, MPI_COMBINER_DARRAY, 16,
                INTS(2, 1, 3, 4, 3, 5, MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_BLOCK,
                     MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_DFLT_DARG, 2, MPI_DISTRIBUTE_DFLT_DARG,
                     1, 2, 1, MPI_ORDER_FORTRAN), 0, NULL, 1, TYPES(MPI_DOUBLE));
    free_type(&t);

    CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 16, &t));
    expect_both("resized(int)", t, MPI_COMBINER_RESIZED, 0, NULL, 2, AINTS(-4, 16),
                1, TYPES(MPI_INT));
    free_type(&t);
    CHECK_MPI(MPI_Type_create_resized(vec, 0, 100, &t));
    expect_both("resized(vec)", t, MPI_COMBINER_RESIZED, 0, NULL, 2, AINTS(0, 100), 1, TYPES(vec));
    free_type(&t);
}

/* The f90 types are unnamed predefined types: decodable, no datatype arguments, never freed. */
static void test_f90(void)
{
    MPI_Datatype r, c, i, r2, s;
    CHECK_MPI(MPI_Type_create_f90_real(6, 30, &r));
    expect_both("f90_real", r, MPI_COMBINER_F90_REAL, 2, INTS(6, 30), 0, NULL, 0, NULL);
    CHECK_MPI(MPI_Type_create_f90_real(MPI_UNDEFINED, 30, &r2));
    expect_both("f90_real(undef p)", r2, MPI_COMBINER_F90_REAL, 2, INTS(MPI_UNDEFINED, 30),
                0, NULL, 0, NULL);
    CHECK_MPI(MPI_Type_create_f90_complex(15, 300, &c));
    expect_both("f90_complex", c, MPI_COMBINER_F90_COMPLEX, 2, INTS(15, 300), 0, NULL, 0, NULL);
    CHECK_MPI(MPI_Type_create_f90_integer(9, &i));
    expect_both("f90_integer", i, MPI_COMBINER_F90_INTEGER, 1, INTS(9), 0, NULL, 0, NULL);

    /* As a child it comes back as itself. */
    CHECK_MPI(MPI_Type_create_struct(2, INTS(1, 1), AINTS(0, 8), TYPES(r, i), &s));
    expect_both("struct(f90)", s, MPI_COMBINER_STRUCT, 3, INTS(2, 1, 1), 2, AINTS(0, 8),
                2, TYPES(r, i));
    free_type(&s);
}

static void test_large(MPI_Datatype vec)
{
    MPI_Datatype t;
    const int B = MPI_DISTRIBUTE_BLOCK, C = MPI_DISTRIBUTE_CYCLIC, DF = MPI_DISTRIBUTE_DFLT_DARG;

    CHECK_MPI(MPI_Type_contiguous_c(5, MPI_INT, &t));
    expect_large("contiguous_c", t, MPI_COMBINER_CONTIGUOUS, 0, NULL, 0, NULL, 1, COUNTS(5),
                 1, TYPES(MPI_INT));
    expect_classic("contiguous_c", t, MPI_COMBINER_CONTIGUOUS, 1, INTS(5), 0, NULL,
                   1, TYPES(MPI_INT));
    free_type(&t);

    CHECK_MPI(MPI_Type_vector_c(3, 2, -4, MPI_INT, &t));
    expect_large("vector_c", t, MPI_COMBINER_VECTOR, 0, NULL, 0, NULL, 3, COUNTS(3, 2, -4),
                 1, TYPES(MPI_INT));
    expect_classic("vector_c", t, MPI_COMBINER_VECTOR, 3, INTS(3, 2, -4), 0, NULL,
                   1, TYPES(MPI_INT));
    free_type(&t);

    CHECK_MPI(MPI_Type_create_hvector_c(3, 2, -40, vec, &t));
    expect_large("hvector_c", t, MPI_COMBINER_HVECTOR, 0, NULL, 0, NULL, 3, COUNTS(3, 2, -40),
                 1, TYPES(vec));
    expect_classic("hvector_c", t, MPI_COMBINER_HVECTOR, 2, INTS(3, 2), 1, AINTS(-40),
                   1, TYPES(vec));
    free_type(&t);

    CHECK_MPI(MPI_Type_indexed_c(3, COUNTS(1, 2, 3), COUNTS(0, 5, -2), MPI_INT, &t));
    expect_large("indexed_c", t, MPI_COMBINER_INDEXED, 0, NULL, 0, NULL, 7,
                 COUNTS(3, 1, 2, 3, 0, 5, -2), 1, TYPES(MPI_INT));
    expect_classic("indexed_c", t, MPI_COMBINER_INDEXED, 7, INTS(3, 1, 2, 3, 0, 5, -2), 0, NULL,
                   1, TYPES(MPI_INT));
    free_type(&t);

    CHECK_MPI(MPI_Type_create_hindexed_c(3, COUNTS(1, 0, 2), COUNTS(0, 16, -8), MPI_SHORT, &t));
    expect_large("hindexed_c", t, MPI_COMBINER_HINDEXED, 0, NULL, 0, NULL, 7,
                 COUNTS(3, 1, 0, 2, 0, 16, -8), 1, TYPES(MPI_SHORT));
    expect_classic("hindexed_c", t, MPI_COMBINER_HINDEXED, 4, INTS(3, 1, 0, 2), 3,
                   AINTS(0, 16, -8), 1, TYPES(MPI_SHORT));
    free_type(&t);

    CHECK_MPI(MPI_Type_create_indexed_block_c(3, 2, COUNTS(0, 4, 9), MPI_INT, &t));
    expect_large("indexed_block_c", t, MPI_COMBINER_INDEXED_BLOCK, 0, NULL, 0, NULL, 5,
                 COUNTS(3, 2, 0, 4, 9), 1, TYPES(MPI_INT));
    expect_classic("indexed_block_c", t, MPI_COMBINER_INDEXED_BLOCK, 5, INTS(3, 2, 0, 4, 9),
                   0, NULL, 1, TYPES(MPI_INT));
    free_type(&t);

    CHECK_MPI(MPI_Type_create_hindexed_block_c(2, 3, COUNTS(0, 64), MPI_DOUBLE, &t));
    expect_large("hindexed_block_c", t, MPI_COMBINER_HINDEXED_BLOCK, 0, NULL, 0, NULL, 4,
                 COUNTS(2, 3, 0, 64), 1, TYPES(MPI_DOUBLE));
    expect_classic("hindexed_block_c", t, MPI_COMBINER_HINDEXED_BLOCK, 2, INTS(2, 3), 2,
                   AINTS(0, 64), 1, TYPES(MPI_DOUBLE));
    free_type(&t);

    CHECK_MPI(MPI_Type_create_struct_c(3, COUNTS(1, 2, 1), COUNTS(0, 8, 40),
                                       TYPES(MPI_INT, vec, MPI_CHAR), &t));
    expect_large("struct_c", t, MPI_COMBINER_STRUCT, 0, NULL, 0, NULL, 7,
                 COUNTS(3, 1, 2, 1, 0, 8, 40), 3, TYPES(MPI_INT, vec, MPI_CHAR));
    expect_classic("struct_c", t, MPI_COMBINER_STRUCT, 4, INTS(3, 1, 2, 1), 3, AINTS(0, 8, 40),
                   3, TYPES(MPI_INT, vec, MPI_CHAR));
    free_type(&t);

    CHECK_MPI(MPI_Type_create_subarray_c(3, COUNTS(4, 5, 6), COUNTS(2, 3, 4), COUNTS(1, 0, 2),
                                         MPI_ORDER_C, MPI_INT, &t));
    expect_large("subarray_c", t, MPI_COMBINER_SUBARRAY, 2, INTS(3, MPI_ORDER_C), 0, NULL, 9,
                 COUNTS(4, 5, 6, 2, 3, 4, 1, 0, 2), 1, TYPES(MPI_INT));
    expect_classic("subarray_c", t, MPI_COMBINER_SUBARRAY, 11,
                   INTS(3, 4, 5, 6, 2, 3, 4, 1, 0, 2, MPI_ORDER_C), 0, NULL, 1, TYPES(MPI_INT));
    free_type(&t);

    CHECK_MPI(MPI_Type_create_darray_c(4, 1, 2, COUNTS(8, 6), INTS(B, C), INTS(DF, 2), INTS(2, 2),
                                       MPI_ORDER_C, MPI_INT, &t));
    expect_large("darray_c", t, MPI_COMBINER_DARRAY, 10,
                 INTS(4, 1, 2, B, C, DF, 2, 2, 2, MPI_ORDER_C), 0, NULL, 2, COUNTS(8, 6),
                 1, TYPES(MPI_INT));
    expect_classic("darray_c", t, MPI_COMBINER_DARRAY, 12,
                   INTS(4, 1, 2, 8, 6, B, C, DF, 2, 2, 2, MPI_ORDER_C), 0, NULL, 1, TYPES(MPI_INT));
    free_type(&t);

    CHECK_MPI(MPI_Type_create_resized_c(MPI_INT, -4, 16, &t));
    expect_large("resized_c", t, MPI_COMBINER_RESIZED, 0, NULL, 0, NULL, 2, COUNTS(-4, 16),
                 1, TYPES(MPI_INT));
    expect_classic("resized_c", t, MPI_COMBINER_RESIZED, 0, NULL, 2, AINTS(-4, 16),
                   1, TYPES(MPI_INT));
    free_type(&t);
}

/* Arguments beyond int: only the _c decoder can describe them. */
static void test_large_values(void)
{
    MPI_Datatype t, dup;
    const int B = MPI_DISTRIBUTE_BLOCK, DF = MPI_DISTRIBUTE_DFLT_DARG;

    CHECK_MPI(MPI_Type_contiguous_c(BIG31 + 5, MPI_CHAR, &t));
    expect_large("contiguous_c(2^31+5)", t, MPI_COMBINER_CONTIGUOUS, 0, NULL, 0, NULL, 1,
                 COUNTS(BIG31 + 5), 1, TYPES(MPI_CHAR));
    expect_classic_refused("contiguous_c(2^31+5)", t);
    /* A dup has no arguments of its own, so even the classic decoder describes it. */
    CHECK_MPI(MPI_Type_dup(t, &dup));
    expect_both("dup(contiguous_c(2^31+5))", dup, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, TYPES(t));
    free_type(&dup);
    free_type(&t);

    CHECK_MPI(MPI_Type_vector_c(2, 1, 4 * BIG31, MPI_CHAR, &t));
    expect_large("vector_c(stride 2^33)", t, MPI_COMBINER_VECTOR, 0, NULL, 0, NULL, 3,
                 COUNTS(2, 1, 4 * BIG31), 1, TYPES(MPI_CHAR));
    expect_classic_refused("vector_c(stride 2^33)", t);
    free_type(&t);

    CHECK_MPI(MPI_Type_indexed_c(2, COUNTS(1, 1), COUNTS(0, BIG31), MPI_CHAR, &t));
    expect_large("indexed_c(disp 2^31)", t, MPI_COMBINER_INDEXED, 0, NULL, 0, NULL, 5,
                 COUNTS(2, 1, 1, 0, BIG31), 1, TYPES(MPI_CHAR));
    expect_classic_refused("indexed_c(disp 2^31)", t);
    free_type(&t);

    CHECK_MPI(MPI_Type_create_struct_c(1, COUNTS(BIG31), COUNTS(0), TYPES(MPI_CHAR), &t));
    expect_large("struct_c(blocklength 2^31)", t, MPI_COMBINER_STRUCT, 0, NULL, 0, NULL, 3,
                 COUNTS(1, BIG31, 0), 1, TYPES(MPI_CHAR));
    expect_classic_refused("struct_c(blocklength 2^31)", t);
    free_type(&t);

    CHECK_MPI(MPI_Type_create_subarray_c(2, COUNTS(BIG31 + 10, 4), COUNTS(1, 4), COUNTS(BIG31, 0),
                                         MPI_ORDER_C, MPI_CHAR, &t));
    expect_large("subarray_c(2^31)", t, MPI_COMBINER_SUBARRAY, 2, INTS(2, MPI_ORDER_C), 0, NULL, 6,
                 COUNTS(BIG31 + 10, 4, 1, 4, BIG31, 0), 1, TYPES(MPI_CHAR));
    expect_classic_refused("subarray_c(2^31)", t);
    free_type(&t);

    CHECK_MPI(MPI_Type_create_darray_c(1, 0, 1, COUNTS(BIG31 + 1), INTS(B), INTS(DF), INTS(1),
                                       MPI_ORDER_C, MPI_CHAR, &t));
    expect_large("darray_c(2^31+1)", t, MPI_COMBINER_DARRAY, 7, INTS(1, 0, 1, B, DF, 1, MPI_ORDER_C),
                 0, NULL, 1, COUNTS(BIG31 + 1), 1, TYPES(MPI_CHAR));
    expect_classic_refused("darray_c(2^31+1)", t);
    free_type(&t);
}

int main(int argc, char **argv)
{
    MPI_Datatype vec;

    MTest_Init(&argc, &argv);
    /* Errors must come back as codes (errors not tied to a communicator go to MPI_COMM_SELF's
     * handler in MPI 4, to MPI_COMM_WORLD's before). */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_INT, &vec));
    test_named();
    test_classic(vec);
    test_f90();
    test_large(vec);
    test_large_values();
    /* The user's own handle survived every decode and free of the copies handed out. */
    MPI_Count size = -1;
    CHECK_MPI(MPI_Type_size_c(vec, &size));
    CHECK_EQ(size, 8);
    free_type(&vec);

    return MTest_Finalize();
}
