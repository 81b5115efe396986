/*
 * Error answers of the decoders and of the classic queries on large types:
 *   - max_* smaller than the envelope's numbers (or negative): MPI_ERR_ARG;
 *   - a NULL array where entries must be written: MPI_ERR_ARG;
 *   - a failed MPI_Type_get_contents hands out no type (the child's last user handle still dies
 *     when freed);
 *   - the classic decoders on a type made by a _c constructor whose arguments do not fit an int:
 *     MPI_ERR_TYPE; MPI_Type_size on a type whose size does not fit an int: MPI_UNDEFINED.
 */
#include "mtest.h"

#define INTS(...) ((int[]) { __VA_ARGS__ })
#define AINTS(...) ((MPI_Aint[]) { __VA_ARGS__ })
#define COUNTS(...) ((MPI_Count[]) { __VA_ARGS__ })
#define TYPES(...) ((MPI_Datatype[]) { __VA_ARGS__ })

#define BIG31 ((MPI_Count) 1 << 31)

static int i[16];
static MPI_Aint a[16];
static MPI_Count c[16];
static MPI_Datatype d[16];

/* s: struct(3, ...) with a derived child: ni 4, na 3, nd 3 (classic layout, no large counts). */
static void test_max_classic(MPI_Datatype s)
{
    CHECK_ERR(MPI_Type_get_contents(s, 3, 3, 3, i, a, d), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents(s, 4, 2, 3, i, a, d), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents(s, 4, 3, 2, i, a, d), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents(s, 0, 0, 0, i, a, d), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents(s, -1, 3, 3, i, a, d), MPI_ERR_ARG);

    CHECK_ERR(MPI_Type_get_contents_c(s, 3, 3, 0, 3, i, a, c, d), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents_c(s, 4, 2, 0, 3, i, a, c, d), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents_c(s, 4, 3, 0, 2, i, a, c, d), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents_c(s, 4, 3, -1, 3, i, a, c, d), MPI_ERR_ARG);

    /* NULL where entries must go */
    CHECK_ERR(MPI_Type_get_contents(s, 4, 3, 3, NULL, a, d), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents(s, 4, 3, 3, i, NULL, d), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents(s, 4, 3, 3, i, a, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents_c(s, 4, 3, 0, 3, NULL, a, c, d), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents_c(s, 4, 3, 0, 3, i, NULL, c, d), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents_c(s, 4, 3, 0, 3, i, a, c, NULL), MPI_ERR_ARG);
}

/* sc: struct_c(3, ...): nc 7, nd 3; sub: subarray_c(2, ...): ni 2, nc 6, nd 1. */
static void test_max_large(MPI_Datatype sc, MPI_Datatype sub)
{
    CHECK_ERR(MPI_Type_get_contents_c(sc, 0, 0, 6, 3, i, a, c, d), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents_c(sc, 0, 0, 7, 2, i, a, c, d), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents_c(sc, 0, 0, 7, 3, i, a, NULL, d), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents_c(sc, 0, 0, 7, 3, i, a, c, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents_c(sub, 1, 0, 6, 1, i, a, c, d), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents_c(sub, 2, 0, 5, 1, i, a, c, d), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents_c(sub, 2, 0, 6, 0, i, a, c, d), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_contents_c(sub, 2, 0, 6, 1, NULL, a, c, d), MPI_ERR_ARG);
}

/* Failed decodes hand out nothing: once the user frees the child's only handle it is dead, which
 * it would not be if a failed call had given the user another handle to it. */
static void test_no_leak_on_error(void)
{
    MPI_Datatype v, s, stale;
    CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_INT, &v));
    CHECK_MPI(MPI_Type_create_struct(3, INTS(1, 1, 1), AINTS(0, 64, 128), TYPES(MPI_CHAR, v, v),
                                     &s));
    test_max_classic(s);
    stale = v;
    CHECK_MPI(MPI_Type_free(&v));
    int size;
    CHECK_ERR(MPI_Type_size(stale, &size), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_free(&s));
}

/* Arguments beyond int: only the _c decoders can describe them. */
static void test_unfit(void)
{
    MPI_Datatype t;
    int ni, na, nd, comb, size;
    MPI_Count csize;

    CHECK_MPI(MPI_Type_contiguous_c(BIG31, MPI_CHAR, &t));
    CHECK_ERR(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_contents(t, 16, 16, 16, i, a, d), MPI_ERR_TYPE);
    /* The size query does not fail: it says the value is undefined in an int. */
    size = 0;
    CHECK_MPI(MPI_Type_size(t, &size));
    CHECK_EQ(size, MPI_UNDEFINED);
    CHECK_MPI(MPI_Type_size_c(t, &csize));
    CHECK_EQ(csize, BIG31);
    CHECK_MPI(MPI_Type_size_x(t, &csize));
    CHECK_EQ(csize, BIG31);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_vector_c(BIG31 + 1, 1, 2, MPI_CHAR, &t));
    CHECK_ERR(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_contents(t, 16, 16, 16, i, a, d), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_create_indexed_block_c(2, 1, COUNTS(0, -BIG31 - 1), MPI_CHAR, &t));
    CHECK_ERR(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_contents(t, 16, 16, 16, i, a, d), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_create_hindexed_block_c(1, BIG31, COUNTS(0), MPI_CHAR, &t));
    CHECK_ERR(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_contents(t, 16, 16, 16, i, a, d), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_create_subarray_c(1, COUNTS(BIG31), COUNTS(1), COUNTS(0), MPI_ORDER_C,
                                         MPI_CHAR, &t));
    CHECK_ERR(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_contents(t, 16, 16, 16, i, a, d), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_free(&t));

    /* The same constructors with small values decode classically. */
    CHECK_MPI(MPI_Type_contiguous_c(BIG31 - 1, MPI_CHAR, &t));
    CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_CONTIGUOUS && ni == 1 && na == 0 && nd == 1,
          "contiguous_c(2^31-1): envelope %d %d %d combiner %d", ni, na, nd, comb);
    CHECK_MPI(MPI_Type_get_contents(t, 1, 0, 1, i, NULL, d));
    CHECK_EQ(i[0], BIG31 - 1);
    CHECK_MPI(MPI_Type_size(t, &size));
    CHECK_EQ(size, BIG31 - 1);
    CHECK_MPI(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
    MPI_Datatype v, sc, sub;

    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    test_no_leak_on_error();

    CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_INT, &v));
    CHECK_MPI(MPI_Type_create_struct_c(3, COUNTS(1, 2, 1), COUNTS(0, 8, 40),
                                       TYPES(MPI_INT, v, MPI_CHAR), &sc));
    CHECK_MPI(MPI_Type_create_subarray_c(2, COUNTS(4, 5), COUNTS(2, 3), COUNTS(1, 2), MPI_ORDER_C,
                                         v, &sub));
    test_max_large(sc, sub);
    CHECK_MPI(MPI_Type_free(&sub));
    CHECK_MPI(MPI_Type_free(&sc));
    MPI_Datatype stale = v;
    CHECK_MPI(MPI_Type_free(&v));
    int size;
    CHECK_ERR(MPI_Type_size(stale, &size), MPI_ERR_TYPE);   /* nothing was handed out */

    test_unfit();

    return MTest_Finalize();
}
