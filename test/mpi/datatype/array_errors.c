/*
 * Bad arguments of MPI_Type_create_subarray / MPI_Type_create_darray and their _c twins, answered
 * under MPI_ERRORS_RETURN: a bad ndims with MPI_ERR_DIMS, a bad darray rank with MPI_ERR_RANK, an
 * invalid oldtype with MPI_ERR_TYPE, every other bad argument (MPI 4.1, 5.1.3 and 5.1.4) and an
 * array whose extent overflows MPI_Aint with MPI_ERR_ARG. The limits themselves are accepted.
 */
#include "mtest.h"

#define INTS(...) ((int[]) { __VA_ARGS__ })
#define COUNTS(...) ((MPI_Count[]) { __VA_ARGS__ })
#define B MPI_DISTRIBUTE_BLOCK
#define C MPI_DISTRIBUTE_CYCLIC
#define N MPI_DISTRIBUTE_NONE
#define DFLT MPI_DISTRIBUTE_DFLT_DARG
#define CO MPI_ORDER_C
#define FO MPI_ORDER_FORTRAN

/* A call that must succeed; the type is freed. */
#define CHECK_OK(call) do { \
        t = MPI_DATATYPE_NULL; \
        CHECK_MPI(call); \
        if (t != MPI_DATATYPE_NULL) \
            MPI_Type_free(&t); \
    } while (0)

static void subarray_errors(void)
{
    MPI_Datatype t, freed;

    /* ndims */
    CHECK_ERR(MPI_Type_create_subarray(0, INTS(4), INTS(2), INTS(0), CO, MPI_INT, &t), MPI_ERR_DIMS);
    CHECK_ERR(MPI_Type_create_subarray(-1, INTS(4), INTS(2), INTS(0), CO, MPI_INT, &t), MPI_ERR_DIMS);
    CHECK_ERR(MPI_Type_create_subarray(0, NULL, NULL, NULL, CO, MPI_INT, &t), MPI_ERR_DIMS);
    CHECK_ERR(MPI_Type_create_subarray_c(0, COUNTS(4), COUNTS(2), COUNTS(0), CO, MPI_INT, &t), MPI_ERR_DIMS);

    /* sizes must be positive */
    CHECK_ERR(MPI_Type_create_subarray(2, INTS(4, 0), INTS(2, 0), INTS(0, 0), CO, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_subarray(2, INTS(-4, 4), INTS(2, 2), INTS(0, 0), CO, MPI_INT, &t), MPI_ERR_ARG);
    /* 1 <= subsizes <= sizes */
    CHECK_ERR(MPI_Type_create_subarray(2, INTS(4, 4), INTS(2, 0), INTS(0, 0), CO, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_subarray(2, INTS(4, 4), INTS(-1, 2), INTS(0, 0), CO, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_subarray(2, INTS(4, 4), INTS(2, 5), INTS(0, 0), FO, MPI_INT, &t), MPI_ERR_ARG);
    /* 0 <= starts <= sizes - subsizes */
    CHECK_ERR(MPI_Type_create_subarray(2, INTS(4, 4), INTS(2, 2), INTS(-1, 0), CO, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_subarray(2, INTS(4, 4), INTS(2, 2), INTS(0, 3), CO, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_subarray(1, INTS(4), INTS(4), INTS(1), FO, MPI_INT, &t), MPI_ERR_ARG);
    /* order */
    CHECK_ERR(MPI_Type_create_subarray(1, INTS(4), INTS(2), INTS(0), 0, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_subarray(1, INTS(4), INTS(2), INTS(0), CO + FO, MPI_INT, &t), MPI_ERR_ARG);
    /* oldtype */
    CHECK_ERR(MPI_Type_create_subarray(1, INTS(4), INTS(2), INTS(0), CO, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &freed));
    MPI_Datatype stale = freed;
    MPI_Type_free(&freed);
    CHECK_ERR(MPI_Type_create_subarray(1, INTS(4), INTS(2), INTS(0), CO, stale, &t), MPI_ERR_TYPE);

    /* _c: the same checks on wide values, and an extent beyond MPI_Aint */
    const MPI_Count big = (MPI_Count) 1 << 40;
    CHECK_ERR(MPI_Type_create_subarray_c(1, COUNTS(-big), COUNTS(1), COUNTS(0), CO, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_subarray_c(1, COUNTS(big), COUNTS(big + 1), COUNTS(0), CO, MPI_INT, &t),
              MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_subarray_c(1, COUNTS(big), COUNTS(1), COUNTS(big), CO, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_subarray_c(2, COUNTS(big, big), COUNTS(1, 1), COUNTS(0, 0), CO, MPI_INT, &t),
              MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_subarray_c(2, COUNTS(big, big), COUNTS(1, 1), COUNTS(0, 0), FO, MPI_INT, &t),
              MPI_ERR_ARG);

    /* the limits are legal */
    CHECK_OK(MPI_Type_create_subarray(2, INTS(1, 1), INTS(1, 1), INTS(0, 0), CO, MPI_INT, &t));
    CHECK_OK(MPI_Type_create_subarray(2, INTS(4, 4), INTS(4, 1), INTS(0, 3), FO, MPI_INT, &t));
    CHECK_OK(MPI_Type_create_subarray_c(1, COUNTS(big), COUNTS(big), COUNTS(0), CO, MPI_INT, &t));
}

static void darray_errors(void)
{
    MPI_Datatype t;

    /* size */
    CHECK_ERR(MPI_Type_create_darray(0, 0, 1, INTS(4), INTS(B), INTS(DFLT), INTS(1), CO, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_darray(-2, 0, 1, INTS(4), INTS(B), INTS(DFLT), INTS(1), CO, MPI_INT, &t), MPI_ERR_ARG);
    /* rank */
    CHECK_ERR(MPI_Type_create_darray(2, -1, 1, INTS(4), INTS(B), INTS(DFLT), INTS(2), CO, MPI_INT, &t), MPI_ERR_RANK);
    CHECK_ERR(MPI_Type_create_darray(2, 2, 1, INTS(4), INTS(B), INTS(DFLT), INTS(2), CO, MPI_INT, &t), MPI_ERR_RANK);
    CHECK_ERR(MPI_Type_create_darray_c(2, 5, 1, COUNTS(4), INTS(B), INTS(DFLT), INTS(2), CO, MPI_INT, &t),
              MPI_ERR_RANK);
    /* ndims */
    CHECK_ERR(MPI_Type_create_darray(1, 0, 0, INTS(4), INTS(B), INTS(DFLT), INTS(1), CO, MPI_INT, &t), MPI_ERR_DIMS);
    CHECK_ERR(MPI_Type_create_darray(1, 0, -3, NULL, NULL, NULL, NULL, CO, MPI_INT, &t), MPI_ERR_DIMS);
    /* gsizes must be positive */
    CHECK_ERR(MPI_Type_create_darray(1, 0, 2, INTS(4, 0), INTS(B, B), INTS(DFLT, DFLT), INTS(1, 1), CO, MPI_INT, &t),
              MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_darray_c(1, 0, 1, COUNTS(-1), INTS(B), INTS(DFLT), INTS(1), CO, MPI_INT, &t),
              MPI_ERR_ARG);
    /* the grid must have size processes */
    CHECK_ERR(MPI_Type_create_darray(4, 0, 2, INTS(4, 4), INTS(B, B), INTS(DFLT, DFLT), INTS(2, 1), CO, MPI_INT, &t),
              MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_darray(4, 0, 2, INTS(4, 4), INTS(B, B), INTS(DFLT, DFLT), INTS(2, 4), CO, MPI_INT, &t),
              MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_darray(1, 0, 1, INTS(4), INTS(B), INTS(DFLT), INTS(0), CO, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_darray(1, 0, 2, INTS(4, 4), INTS(C, C), INTS(1, 1), INTS(-1, -1), CO, MPI_INT, &t),
              MPI_ERR_ARG);
    /* distribution */
    CHECK_ERR(MPI_Type_create_darray(1, 0, 1, INTS(4), INTS(0), INTS(DFLT), INTS(1), CO, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_darray(1, 0, 1, INTS(4), INTS(CO), INTS(DFLT), INTS(1), CO, MPI_INT, &t), MPI_ERR_ARG);
    /* darg: positive or DFLT_DARG */
    CHECK_ERR(MPI_Type_create_darray(2, 0, 1, INTS(4), INTS(C), INTS(0), INTS(2), CO, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_darray(2, 0, 1, INTS(4), INTS(C), INTS(-1), INTS(2), CO, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_darray(2, 0, 1, INTS(4), INTS(B), INTS(-5), INTS(2), CO, MPI_INT, &t), MPI_ERR_ARG);
    /* BLOCK: darg * psize must cover gsize */
    CHECK_ERR(MPI_Type_create_darray(3, 0, 1, INTS(10), INTS(B), INTS(3), INTS(3), CO, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_darray_c(2, 0, 1, COUNTS((MPI_Count) 1 << 33), INTS(B), INTS(1 << 30), INTS(2), CO,
                                       MPI_INT, &t), MPI_ERR_ARG);
    /* NONE: the dimension is not distributed */
    CHECK_ERR(MPI_Type_create_darray(2, 0, 1, INTS(4), INTS(N), INTS(DFLT), INTS(2), CO, MPI_INT, &t), MPI_ERR_ARG);
    /* order */
    CHECK_ERR(MPI_Type_create_darray(1, 0, 1, INTS(4), INTS(B), INTS(DFLT), INTS(1), 0, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_darray(1, 0, 1, INTS(4), INTS(B), INTS(DFLT), INTS(1), B, MPI_INT, &t), MPI_ERR_ARG);
    /* oldtype */
    CHECK_ERR(MPI_Type_create_darray(1, 0, 1, INTS(4), INTS(B), INTS(DFLT), INTS(1), CO, MPI_DATATYPE_NULL, &t),
              MPI_ERR_TYPE);
    /* _c: an extent beyond MPI_Aint */
    const MPI_Count big = (MPI_Count) 1 << 40;
    CHECK_ERR(MPI_Type_create_darray_c(1, 0, 2, COUNTS(big, big), INTS(N, N), INTS(DFLT, DFLT), INTS(1, 1), FO,
                                       MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_darray_c(4, 3, 2, COUNTS(big, big), INTS(B, C), INTS(DFLT, 7), INTS(2, 2), CO,
                                       MPI_INT, &t), MPI_ERR_ARG);

    /* the limits are legal: the last rank, darg * psize == gsize, DFLT_DARG and any darg for NONE,
     * a 1x1 grid, a cyclic block longer than the dimension */
    CHECK_OK(MPI_Type_create_darray(2, 1, 1, INTS(4), INTS(B), INTS(DFLT), INTS(2), CO, MPI_INT, &t));
    CHECK_OK(MPI_Type_create_darray(3, 2, 1, INTS(9), INTS(B), INTS(3), INTS(3), FO, MPI_INT, &t));
    CHECK_OK(MPI_Type_create_darray(1, 0, 2, INTS(4, 4), INTS(N, N), INTS(DFLT, 3), INTS(1, 1), CO, MPI_INT, &t));
    CHECK_OK(MPI_Type_create_darray(2, 1, 1, INTS(4), INTS(C), INTS(100), INTS(2), CO, MPI_INT, &t));
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    subarray_errors();
    darray_errors();
    return MTest_Finalize();
}
