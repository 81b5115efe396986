/*
 * MPI_Reduce_local (inout = in op inout) with derived datatypes built from one basic type: strided
 * vectors longer than the reduction engine's 64 KB chunks, resized and indexed types, a struct of
 * one basic type, a contiguous type; the gaps of inout stay untouched and in is only read. Then its
 * argument errors.
 */
#include <stdlib.h>
#include "mtest.h"

static int failures_before;

/* int buffers: in[i] = i % 100 + 1, inout[i] = 3 * (i % 50); element positions from a predicate */
static void test_int(const char *name, MPI_Datatype type, int count, size_t nints, int (*is_data)(size_t),
                     MPI_Op op, int (*combine)(int, int))
{
    int *in = malloc(nints * sizeof(int)), *inout = malloc(nints * sizeof(int));
    for (size_t i = 0; i < nints; i++) {
        in[i] = (int) (i % 100) + 1;
        inout[i] = 3 * (int) (i % 50);
    }
    CHECK_MPI(MPI_Reduce_local(in, inout, count, type, op));
    failures_before = mtest_errs;
    for (size_t i = 0; i < nints && mtest_errs - failures_before < 5; i++) {
        int a = (int) (i % 100) + 1, b = 3 * (int) (i % 50);
        int want = is_data(i) ? combine(a, b) : b;
        CHECK(inout[i] == want, "%s: int %zu is %d, expected %d", name, i, inout[i], want);
        CHECK(in[i] == a, "%s: in[%zu] changed to %d", name, i, in[i]);
    }
    free(in);
    free(inout);
}

static int sum(int a, int b) { return a + b; }
static int bor(int a, int b) { return a | b; }
static int every_third(size_t i) { return i % 3 == 0; }
static int all(size_t i) { (void) i; return 1; }
static int struct_pos(size_t i) { return i % 4 == 0 || i % 4 == 3; }     /* ints at 0 and 12 of 16 bytes */
static int indexed_pos(size_t i) { size_t k = i % 16; return k == 1 || k == 2 || k == 9; }

static void test_doubles(void)
{
    /* resized(MPI_DOUBLE, extent 3 doubles) x 10000: MAX and PROD */
    enum { N = 10000 };
    double *in = malloc(3 * N * sizeof(double)), *inout = malloc(3 * N * sizeof(double));
    MPI_Datatype t;
    MPI_Type_create_resized(MPI_DOUBLE, 0, 3 * sizeof(double), &t);
    MPI_Type_commit(&t);
    for (int op = 0; op < 2; op++) {
        for (int i = 0; i < 3 * N; i++) {
            in[i] = (i % 7) - 3.0;
            inout[i] = (i % 5) * 0.5;
        }
        CHECK_MPI(MPI_Reduce_local(in, inout, N, t, op ? MPI_PROD : MPI_MAX));
        failures_before = mtest_errs;
        for (int i = 0; i < 3 * N && mtest_errs - failures_before < 5; i++) {
            double a = (i % 7) - 3.0, b = (i % 5) * 0.5;
            double want = i % 3 ? b : op ? a * b : a > b ? a : b;
            CHECK(inout[i] == want, "resized doubles %s: element %d is %g, expected %g", op ? "PROD" : "MAX", i,
                  inout[i], want);
        }
    }
    MPI_Type_free(&t);
    free(in);
    free(inout);
}

static void test_errors(void)
{
    int a[4] = { 1, 2, 3, 4 }, b[4] = { 0 };
    MPI_Datatype uncommitted, mixed;
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    int lens[2] = { 1, 1 };
    MPI_Aint disps[2] = { 0, 8 };
    MPI_Datatype types[2] = { MPI_INT, MPI_DOUBLE };
    MPI_Type_create_struct(2, lens, disps, types, &mixed);
    MPI_Type_commit(&mixed);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_ERR(MPI_Reduce_local(MPI_IN_PLACE, b, 4, MPI_INT, MPI_SUM), MPI_ERR_BUFFER);
    CHECK_ERR(MPI_Reduce_local(a, a, 4, MPI_INT, MPI_SUM), MPI_ERR_BUFFER);
    CHECK_ERR(MPI_Reduce_local(a, b, -1, MPI_INT, MPI_SUM), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Reduce_local(a, b, 4, MPI_DATATYPE_NULL, MPI_SUM), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Reduce_local(a, b, 2, uncommitted, MPI_SUM), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Reduce_local(a, b, 4, MPI_INT, MPI_OP_NULL), MPI_ERR_OP);
    CHECK_ERR(MPI_Reduce_local(a, b, 1, mixed, MPI_SUM), MPI_ERR_OP);
    CHECK_ERR(MPI_Reduce_local(a, b, 4, MPI_INT, MPI_REPLACE), MPI_ERR_OP);
    for (int i = 0; i < 4; i++)
        CHECK(b[i] == 0, "a failed call wrote b[%d] = %d", i, b[i]);
    /* the message names the function and says why */
    int rc = MPI_Reduce_local(a, b, 4, MPI_FLOAT, MPI_BAND), len = 0;
    char msg[MPI_MAX_ERROR_STRING];
    MPI_Error_string(rc, msg, &len);
    CHECK(strstr(msg, "MPI_Reduce_local") && strstr(msg, "MPI_BAND") && strstr(msg, "MPI_FLOAT"),
          "unhelpful message: %s", msg);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Type_free(&uncommitted);
    MPI_Type_free(&mixed);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Datatype t;

    /* vector of every third int: 40 x 1000 elements, 160 KB packed */
    MPI_Type_vector(1000, 1, 3, MPI_INT, &t);
    MPI_Datatype r;
    MPI_Type_create_resized(t, 0, 3000 * sizeof(int), &r);
    MPI_Type_free(&t);
    MPI_Type_commit(&r);
    test_int("vector(1000, 1, 3) x 40", r, 40, 40 * 3000, every_third, MPI_SUM, sum);
    MPI_Type_free(&r);

    MPI_Type_contiguous(5, MPI_INT, &t);
    MPI_Type_commit(&t);
    test_int("contiguous(5) x 7", t, 7, 35, all, MPI_SUM, sum);
    MPI_Type_free(&t);

    int blens[2] = { 2, 1 }, displs[2] = { 1, 9 };
    MPI_Type_indexed(2, blens, displs, MPI_INT, &t);
    MPI_Type_create_resized(t, 0, 16 * sizeof(int), &r);
    MPI_Type_free(&t);
    MPI_Type_commit(&r);
    test_int("indexed {1, 2, 9} of 16 ints x 9", r, 9, 9 * 16, indexed_pos, MPI_BOR, bor);
    MPI_Type_free(&r);

    int lens[2] = { 1, 1 };
    MPI_Aint sdisps[2] = { 0, 12 };
    MPI_Datatype types[2] = { MPI_INT, MPI_INT };
    MPI_Type_create_struct(2, lens, sdisps, types, &t);
    MPI_Type_commit(&t);
    test_int("struct {int@0, int@12} x 20000", t, 20000, 20000 * 4, struct_pos, MPI_SUM, sum);
    MPI_Type_free(&t);

    test_doubles();

    /* the large-count binding */
    long long x[3] = { 1, 2, 3 }, y[3] = { 10, 20, 30 };
    CHECK_MPI(MPI_Reduce_local_c(x, y, (MPI_Count) 3, MPI_LONG_LONG, MPI_SUM));
    CHECK(y[0] == 11 && y[1] == 22 && y[2] == 33, "MPI_Reduce_local_c: %lld %lld %lld", y[0], y[1], y[2]);

    test_errors();
    return MTest_Finalize();
}
