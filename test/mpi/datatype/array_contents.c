/*
 * Decoding subarray and darray types (MPI 4.1, "Decoding a Datatype"): the envelope is
 * ni = 3*ndims+2 (subarray) or 4*ndims+4 (darray), na = 0, nd = 1, and MPI_Type_get_contents gives
 * back exactly the arguments of the call -- not the constructors the library composed them from.
 * For types made by the _c constructors the _c decoder moves sizes/subsizes/starts (subarray) or
 * gsizes (darray) to array_of_large_counts; the classic decoder fails with MPI_ERR_TYPE when one of
 * them does not fit an int. A derived oldtype comes back as a new handle to the same type, even
 * after the user freed theirs.
 */
#include <stdlib.h>
#include "mtest.h"

#define INTS(...) ((int[]) { __VA_ARGS__ })
#define COUNTS(...) ((MPI_Count[]) { __VA_ARGS__ })
#define B MPI_DISTRIBUTE_BLOCK
#define C MPI_DISTRIBUTE_CYCLIC
#define N MPI_DISTRIBUTE_NONE
#define DFLT MPI_DISTRIBUTE_DFLT_DARG

/* The classic decoders on t: combiner, exactly ni ints equal to want[], no addresses, one datatype
 * (returned in *old; the caller frees it if derived). */
static void expect_classic(const char *what, MPI_Datatype t, int combiner, int ni, const int *want,
                           MPI_Datatype *old)
{
    int gni = -1, gna = -1, gnd = -1, gcomb = -1;
    CHECK_MPI(MPI_Type_get_envelope(t, &gni, &gna, &gnd, &gcomb));
    CHECK(gcomb == combiner, "%s: combiner %d, expected %d", what, gcomb, combiner);
    CHECK(gni == ni && gna == 0 && gnd == 1, "%s: envelope ni=%d na=%d nd=%d, expected %d 0 1", what,
          gni, gna, gnd, ni);
    if (gni != ni || gnd != 1)
        return;
    int *ints = malloc((size_t) ni * sizeof *ints);
    MPI_Aint addr;
    CHECK_MPI(MPI_Type_get_contents(t, ni, 0, 1, ints, &addr, old));
    for (int k = 0; k < ni; k++)
        CHECK(ints[k] == want[k], "%s: i[%d] = %d, expected %d", what, k, ints[k], want[k]);
    free(ints);
}

/* The _c decoders on t: ni ints and nc large counts. */
static void expect_large(const char *what, MPI_Datatype t, int combiner, int ni, const int *want_i,
                         int nc, const MPI_Count *want_c, MPI_Datatype *old)
{
    MPI_Count gni = -1, gna = -1, gnc = -1, gnd = -1;
    int gcomb = -1;
    CHECK_MPI(MPI_Type_get_envelope_c(t, &gni, &gna, &gnc, &gnd, &gcomb));
    CHECK(gcomb == combiner, "%s: combiner %d, expected %d", what, gcomb, combiner);
    CHECK(gni == ni && gna == 0 && gnc == nc && gnd == 1, "%s: envelope_c ni=%lld na=%lld nc=%lld nd=%lld, "
          "expected %d 0 %d 1", what, (long long) gni, (long long) gna, (long long) gnc, (long long) gnd, ni, nc);
    if (gni != ni || gnc != nc || gnd != 1)
        return;
    int *ints = malloc((size_t) ni * sizeof *ints);
    MPI_Count *counts = malloc((size_t) nc * sizeof *counts);
    MPI_Aint addr;
    CHECK_MPI(MPI_Type_get_contents_c(t, ni, 0, nc, 1, ints, &addr, counts, old));
    for (int k = 0; k < ni; k++)
        CHECK(ints[k] == want_i[k], "%s: i[%d] = %d, expected %d", what, k, ints[k], want_i[k]);
    for (int k = 0; k < nc; k++)
        CHECK(counts[k] == want_c[k], "%s: c[%d] = %lld, expected %lld", what, k, (long long) counts[k],
              (long long) want_c[k]);
    free(ints);
    free(counts);
}

static void subarray(void)
{
    MPI_Datatype t, old, got;

    /* ndims 1..4: ni = 3*ndims + 2 */
    CHECK_MPI(MPI_Type_create_subarray(1, INTS(7), INTS(3), INTS(4), MPI_ORDER_FORTRAN, MPI_SHORT, &t));
    expect_classic("subarray1", t, MPI_COMBINER_SUBARRAY, 5, INTS(1, 7, 3, 4, MPI_ORDER_FORTRAN), &got);
    CHECK(got == MPI_SHORT, "subarray1: d[0] = %#x, expected MPI_SHORT", (unsigned) got);
    /* the _c decoder on a classic type gives the classic layout */
    expect_large("subarray1 (_c decoder)", t, MPI_COMBINER_SUBARRAY, 5, INTS(1, 7, 3, 4, MPI_ORDER_FORTRAN),
                 0, NULL, &got);
    MPI_Type_free(&t);

    CHECK_MPI(MPI_Type_create_subarray(4, INTS(2, 3, 4, 5), INTS(1, 2, 3, 4), INTS(1, 1, 1, 1), MPI_ORDER_C,
                                       MPI_INT, &t));
    expect_classic("subarray4", t, MPI_COMBINER_SUBARRAY, 14,
                   INTS(4, 2, 3, 4, 5, 1, 2, 3, 4, 1, 1, 1, 1, MPI_ORDER_C), &got);
    CHECK(got == MPI_INT, "subarray4: d[0] = %#x, expected MPI_INT", (unsigned) got);
    MPI_Type_free(&t);

    /* a derived oldtype the user has already freed comes back as a usable handle */
    CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_DOUBLE, &old));
    CHECK_MPI(MPI_Type_create_subarray(2, INTS(5, 6), INTS(5, 1), INTS(0, 5), MPI_ORDER_C, old, &t));
    MPI_Type_free(&old);
    expect_classic("subarray of vector", t, MPI_COMBINER_SUBARRAY, 8,
                   INTS(2, 5, 6, 5, 1, 0, 5, MPI_ORDER_C), &got);
    int comb = -1, ni, na, nd;
    MPI_Count size = -1;
    CHECK_MPI(MPI_Type_get_envelope(got, &ni, &na, &nd, &comb));
    CHECK_MPI(MPI_Type_size_c(got, &size));
    CHECK(comb == MPI_COMBINER_VECTOR && size == 16, "subarray of vector: d[0] has combiner %d size %lld",
          comb, (long long) size);
    MPI_Type_free(&got);
    MPI_Type_free(&t);

    /* _c: wide arguments in the large counts; the classic decoder needs them to fit an int */
    const MPI_Count big = (MPI_Count) 3 << 31;
    CHECK_MPI(MPI_Type_create_subarray_c(2, COUNTS(big, 8), COUNTS(2, 8), COUNTS(big - 2, 0), MPI_ORDER_C,
                                         MPI_CHAR, &t));
    expect_large("subarray_c", t, MPI_COMBINER_SUBARRAY, 2, INTS(2, MPI_ORDER_C), 6,
                 COUNTS(big, 8, 2, 8, big - 2, 0), &got);
    int ints[8];
    MPI_Aint addr;
    CHECK_ERR(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_contents(t, 8, 0, 1, ints, &addr, &got), MPI_ERR_TYPE);
    MPI_Type_free(&t);
    /* ... and gives the classic layout when they do */
    CHECK_MPI(MPI_Type_create_subarray_c(2, COUNTS(4, 8), COUNTS(2, 8), COUNTS(1, 0), MPI_ORDER_FORTRAN,
                                         MPI_CHAR, &t));
    expect_classic("subarray_c small", t, MPI_COMBINER_SUBARRAY, 8,
                   INTS(2, 4, 8, 2, 8, 1, 0, MPI_ORDER_FORTRAN), &got);
    MPI_Type_free(&t);
}

static void darray(void)
{
    MPI_Datatype t, old, got;

    /* ndims 1: ni = 8 */
    CHECK_MPI(MPI_Type_create_darray(3, 2, 1, INTS(10), INTS(C), INTS(2), INTS(3), MPI_ORDER_C, MPI_FLOAT, &t));
    expect_classic("darray1", t, MPI_COMBINER_DARRAY, 8, INTS(3, 2, 1, 10, C, 2, 3, MPI_ORDER_C), &got);
    CHECK(got == MPI_FLOAT, "darray1: d[0] = %#x, expected MPI_FLOAT", (unsigned) got);
    MPI_Type_free(&t);

    /* ndims 3 with every distribution: ni = 16 */
    CHECK_MPI(MPI_Type_create_darray(4, 3, 3, INTS(2, 3, 4), INTS(C, N, B), INTS(1, DFLT, 3), INTS(2, 1, 2),
                                     MPI_ORDER_FORTRAN, MPI_INT, &t));
    expect_classic("darray3", t, MPI_COMBINER_DARRAY, 16,
                   INTS(4, 3, 3, 2, 3, 4, C, N, B, 1, DFLT, 3, 2, 1, 2, MPI_ORDER_FORTRAN), &got);
    expect_large("darray3 (_c decoder)", t, MPI_COMBINER_DARRAY, 16,
                 INTS(4, 3, 3, 2, 3, 4, C, N, B, 1, DFLT, 3, 2, 1, 2, MPI_ORDER_FORTRAN), 0, NULL, &got);
    MPI_Type_free(&t);

    /* a freed derived oldtype */
    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &old));
    CHECK_MPI(MPI_Type_create_darray(2, 0, 1, INTS(5), INTS(B), INTS(DFLT), INTS(2), MPI_ORDER_C, old, &t));
    MPI_Type_free(&old);
    expect_classic("darray of contiguous", t, MPI_COMBINER_DARRAY, 8,
                   INTS(2, 0, 1, 5, B, DFLT, 2, MPI_ORDER_C), &got);
    int comb = -1, ni, na, nd;
    MPI_Count size = -1;
    CHECK_MPI(MPI_Type_get_envelope(got, &ni, &na, &nd, &comb));
    CHECK_MPI(MPI_Type_size_c(got, &size));
    CHECK(comb == MPI_COMBINER_CONTIGUOUS && size == 12, "darray of contiguous: d[0] has combiner %d size %lld",
          comb, (long long) size);
    MPI_Type_free(&got);
    MPI_Type_free(&t);

    /* _c: gsizes are the large counts */
    const MPI_Count big = (MPI_Count) 5 << 31;
    CHECK_MPI(MPI_Type_create_darray_c(2, 1, 2, COUNTS(big, 3), INTS(C, N), INTS(DFLT, DFLT), INTS(2, 1),
                                       MPI_ORDER_C, MPI_BYTE, &t));
    expect_large("darray_c", t, MPI_COMBINER_DARRAY, 10, INTS(2, 1, 2, C, N, DFLT, DFLT, 2, 1, MPI_ORDER_C),
                 2, COUNTS(big, 3), &got);
    CHECK_ERR(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb), MPI_ERR_TYPE);
    MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    subarray();
    darray();
    return MTest_Finalize();
}
