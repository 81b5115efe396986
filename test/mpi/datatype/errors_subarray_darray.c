/*
 * Bad arguments of MPI_Type_create_subarray / MPI_Type_create_darray (and their _c twins):
 * MPI_ERR_DIMS for ndims, MPI_ERR_RANK for rank, MPI_ERR_ARG for everything else the standard
 * rules out (sizes not positive, a subarray outside the array, a bad order or distribution, a
 * process grid that does not match size, a block distribution that does not cover its dimension).
 */
#include <limits.h>
#include "mtest.h"

#define INTS(...) ((int[]) { __VA_ARGS__ })
#define COUNTS(...) ((MPI_Count[]) { __VA_ARGS__ })

static const int B = MPI_DISTRIBUTE_BLOCK, C = MPI_DISTRIBUTE_CYCLIC, N = MPI_DISTRIBUTE_NONE;
static const int DF = MPI_DISTRIBUTE_DFLT_DARG;

/* Subarray of a 4 x 5 array of int; the arguments are the 2-d sizes, subsizes and starts. */
static int sub(int ndims, const int *sizes, const int *subsizes, const int *starts, int order)
{
    MPI_Datatype t;
    int rc = MPI_Type_create_subarray(ndims, sizes, subsizes, starts, order, MPI_INT, &t);
    if (rc == MPI_SUCCESS)
        MPI_Type_free(&t);
    return rc;
}

static int sub_c(int ndims, const MPI_Count *sizes, const MPI_Count *subsizes,
                 const MPI_Count *starts, int order)
{
    MPI_Datatype t;
    int rc = MPI_Type_create_subarray_c(ndims, sizes, subsizes, starts, order, MPI_INT, &t);
    if (rc == MPI_SUCCESS)
        MPI_Type_free(&t);
    return rc;
}

static void test_subarray(void)
{
    /* the valid base case, and the edges that are still legal */
    CHECK_MPI(sub(2, INTS(4, 5), INTS(2, 3), INTS(1, 2), MPI_ORDER_C));
    CHECK_MPI(sub(2, INTS(4, 5), INTS(4, 5), INTS(0, 0), MPI_ORDER_FORTRAN));
    CHECK_MPI(sub(2, INTS(4, 5), INTS(1, 1), INTS(3, 4), MPI_ORDER_C));

    CHECK_ERR(sub(0, INTS(4), INTS(2), INTS(1), MPI_ORDER_C), MPI_ERR_DIMS);
    CHECK_ERR(sub(-1, INTS(4), INTS(2), INTS(1), MPI_ORDER_C), MPI_ERR_DIMS);

    CHECK_ERR(sub(2, INTS(0, 5), INTS(1, 3), INTS(0, 2), MPI_ORDER_C), MPI_ERR_ARG);
    CHECK_ERR(sub(2, INTS(4, -5), INTS(2, 3), INTS(1, 2), MPI_ORDER_C), MPI_ERR_ARG);
    CHECK_ERR(sub(2, INTS(4, 5), INTS(0, 3), INTS(1, 2), MPI_ORDER_C), MPI_ERR_ARG);
    CHECK_ERR(sub(2, INTS(4, 5), INTS(2, -3), INTS(1, 2), MPI_ORDER_C), MPI_ERR_ARG);
    CHECK_ERR(sub(2, INTS(4, 5), INTS(5, 3), INTS(0, 0), MPI_ORDER_C), MPI_ERR_ARG);     /* > size */
    CHECK_ERR(sub(2, INTS(4, 5), INTS(2, 3), INTS(-1, 2), MPI_ORDER_C), MPI_ERR_ARG);
    CHECK_ERR(sub(2, INTS(4, 5), INTS(2, 3), INTS(3, 2), MPI_ORDER_C), MPI_ERR_ARG);    /* 3+2 > 4 */
    CHECK_ERR(sub(2, INTS(4, 5), INTS(2, 3), INTS(1, 3), MPI_ORDER_FORTRAN), MPI_ERR_ARG);
    CHECK_ERR(sub(2, INTS(4, 5), INTS(2, 3), INTS(1, 2), 0), MPI_ERR_ARG);
    CHECK_ERR(sub(2, INTS(4, 5), INTS(2, 3), INTS(1, 2), 12345), MPI_ERR_ARG);

    CHECK_MPI(sub_c(2, COUNTS(4, 5), COUNTS(2, 3), COUNTS(1, 2), MPI_ORDER_C));
    CHECK_ERR(sub_c(0, COUNTS(4), COUNTS(2), COUNTS(1), MPI_ORDER_C), MPI_ERR_DIMS);
    CHECK_ERR(sub_c(2, COUNTS(4, -((MPI_Count) 1 << 33)), COUNTS(2, 3), COUNTS(1, 2), MPI_ORDER_C),
              MPI_ERR_ARG);
    CHECK_ERR(sub_c(2, COUNTS(4, 5), COUNTS(0, 3), COUNTS(1, 2), MPI_ORDER_C), MPI_ERR_ARG);
    CHECK_ERR(sub_c(2, COUNTS(4, 5), COUNTS(2, 6), COUNTS(1, 0), MPI_ORDER_C), MPI_ERR_ARG);
    CHECK_ERR(sub_c(2, COUNTS(4, 5), COUNTS(2, 3), COUNTS(1, -2), MPI_ORDER_C), MPI_ERR_ARG);
    CHECK_ERR(sub_c(2, COUNTS(4, 5), COUNTS(2, 3), COUNTS(2, 3), MPI_ORDER_C), MPI_ERR_ARG);
    CHECK_ERR(sub_c(2, COUNTS(4, 5), COUNTS(2, 3), COUNTS(1, 2), -1), MPI_ERR_ARG);
    /* arrays whose extent overflows MPI_Aint: found after the first dimension, in its stride;
     * or in the second, whose 2^32 rows of 2^32 bytes each overflow while the type of the first
     * row already exists (and must be freed: the sanitizer build checks for leaks) */
    CHECK_ERR(sub_c(2, COUNTS(4, (MPI_Count) 1 << 61), COUNTS(1, 1), COUNTS(0, 0), MPI_ORDER_C), MPI_ERR_ARG);
    CHECK_ERR(sub_c(2, COUNTS((MPI_Count) 1 << 32, (MPI_Count) 1 << 30), COUNTS((MPI_Count) 1 << 32, 1),
                    COUNTS(0, 0), MPI_ORDER_C), MPI_ERR_ARG);
    CHECK_MPI(sub_c(2, COUNTS((MPI_Count) 1 << 30, (MPI_Count) 1 << 30), COUNTS((MPI_Count) 1 << 30, 1),
                    COUNTS(0, 0), MPI_ORDER_C));
    /* 3 * ndims + 2 contents entries must fit an int: refused before any array is read */
    CHECK_ERR(sub_c(INT_MAX / 3, COUNTS(4), COUNTS(2), COUNTS(1), MPI_ORDER_C), MPI_ERR_DIMS);
}

/* A darray of int over a process grid; by default 8 x 6 on a 2 x 2 grid, rank 1 of 4. */
typedef struct {
    int size, rank, ndims;
    int gsizes[3], distribs[3], dargs[3], psizes[3];
    int order;
} Darray;

static Darray base(void)
{
    return (Darray) { .size = 4, .rank = 1, .ndims = 2, .gsizes = { 8, 6 }, .distribs = { B, C },
        .dargs = { DF, 2 }, .psizes = { 2, 2 }, .order = MPI_ORDER_C };
}

/* Both bindings must give the same answer; returns the classic one. */
static int dar(Darray d)
{
    MPI_Datatype t;
    MPI_Count g[3] = { d.gsizes[0], d.gsizes[1], d.gsizes[2] };
    int rc = MPI_Type_create_darray(d.size, d.rank, d.ndims, d.gsizes, d.distribs, d.dargs,
                                    d.psizes, d.order, MPI_INT, &t);
    if (rc == MPI_SUCCESS)
        MPI_Type_free(&t);
    int rc_c = MPI_Type_create_darray_c(d.size, d.rank, d.ndims, g, d.distribs, d.dargs, d.psizes,
                                        d.order, MPI_INT, &t);
    if (rc_c == MPI_SUCCESS)
        MPI_Type_free(&t);
    int cls = -1, cls_c = -1;
    MPI_Error_class(rc, &cls);
    MPI_Error_class(rc_c, &cls_c);
    CHECK(cls == cls_c, "MPI_Type_create_darray gave class %d, the _c twin %d", cls, cls_c);
    return rc;
}

static void test_darray(void)
{
    Darray d;

    /* the valid base case, and legal variations */
    CHECK_MPI(dar(base()));
    d = base(), d.dargs[0] = 4;                 /* 4 * 2 covers 8 exactly */
    CHECK_MPI(dar(d));
    d = base(), d.distribs[0] = N, d.psizes[0] = 1, d.psizes[1] = 4;
    CHECK_MPI(dar(d));
    d = base(), d.dargs[1] = DF;
    CHECK_MPI(dar(d));

    d = base(), d.rank = -1;
    CHECK_ERR(dar(d), MPI_ERR_RANK);
    d = base(), d.rank = 4;
    CHECK_ERR(dar(d), MPI_ERR_RANK);

    d = base(), d.ndims = 0;
    CHECK_ERR(dar(d), MPI_ERR_DIMS);
    d = base(), d.ndims = -2;
    CHECK_ERR(dar(d), MPI_ERR_DIMS);
    /* more dimensions than the contents can record: refused before any array is read (the _c
     * binding only: the classic one widens its arrays first, and these hold three entries) */
    MPI_Datatype t;
    d = base();
    CHECK_ERR(MPI_Type_create_darray_c(d.size, d.rank, INT_MAX / 3, COUNTS(8, 6, 1), d.distribs, d.dargs, d.psizes,
                                       d.order, MPI_INT, &t), MPI_ERR_DIMS);

    d = base(), d.gsizes[0] = 0;
    CHECK_ERR(dar(d), MPI_ERR_ARG);
    d = base(), d.gsizes[1] = -6;
    CHECK_ERR(dar(d), MPI_ERR_ARG);
    d = base(), d.distribs[0] = 999;
    CHECK_ERR(dar(d), MPI_ERR_ARG);
    d = base(), d.dargs[1] = 0;                 /* neither positive nor MPI_DISTRIBUTE_DFLT_DARG */
    CHECK_ERR(dar(d), MPI_ERR_ARG);
    d = base(), d.dargs[1] = -3;
    CHECK_ERR(dar(d), MPI_ERR_ARG);
    d = base(), d.dargs[0] = 3;                 /* block: 3 * 2 < 8 leaves elements unowned */
    CHECK_ERR(dar(d), MPI_ERR_ARG);
    d = base(), d.psizes[0] = 0, d.psizes[1] = 4;
    CHECK_ERR(dar(d), MPI_ERR_ARG);
    d = base(), d.psizes[0] = -2, d.psizes[1] = -2;     /* the product is right, the signs not */
    CHECK_ERR(dar(d), MPI_ERR_ARG);
    d = base(), d.psizes[0] = 2, d.psizes[1] = 3;       /* 6 processes in a group of 4 */
    CHECK_ERR(dar(d), MPI_ERR_ARG);
    d = base(), d.distribs[0] = N;              /* an undistributed dimension needs psize 1 */
    CHECK_ERR(dar(d), MPI_ERR_ARG);
    d = base(), d.order = 7;
    CHECK_ERR(dar(d), MPI_ERR_ARG);

    /* A group size that is not positive: the size or the rank may be blamed. */
    int cls = -1;
    d = base(), d.size = 0, d.rank = 0;
    int rc = dar(d);
    MPI_Error_class(rc, &cls);
    CHECK(rc != MPI_SUCCESS && (cls == MPI_ERR_ARG || cls == MPI_ERR_RANK),
          "darray with size 0: class %d", cls);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    test_subarray();
    test_darray();

    return MTest_Finalize();
}
