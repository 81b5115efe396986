/*
 * A negative count or blocklength, given as a scalar or inside an array, in the classic or the
 * large-count (_c) binding, is answered with MPI_ERR_COUNT. Zero counts and negative strides or
 * displacements are legal.
 */
#include "mtest.h"

#define INTS(...) ((int[]) { __VA_ARGS__ })
#define AINTS(...) ((MPI_Aint[]) { __VA_ARGS__ })
#define COUNTS(...) ((MPI_Count[]) { __VA_ARGS__ })
#define TYPES(...) ((MPI_Datatype[]) { __VA_ARGS__ })

static void test_scalar(void)
{
    MPI_Datatype t;
    const MPI_Count big_neg = -((MPI_Count) 1 << 40);

    CHECK_ERR(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_contiguous_c(-1, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_contiguous_c(big_neg, MPI_INT, &t), MPI_ERR_COUNT);

    CHECK_ERR(MPI_Type_vector(-1, 1, 2, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_vector(2, -1, 2, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_vector_c(-3, 1, 2, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_vector_c(2, big_neg, 2, MPI_INT, &t), MPI_ERR_COUNT);

    CHECK_ERR(MPI_Type_create_hvector(-1, 1, 8, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_hvector(2, -1, 8, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_hvector_c(-1, 1, 8, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_hvector_c(2, -1, 8, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_hvector(-1, 1, 8, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_hvector(2, -1, 8, MPI_INT, &t), MPI_ERR_COUNT);

    CHECK_ERR(MPI_Type_indexed(-1, INTS(1), INTS(0), MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_indexed_c(-1, COUNTS(1), COUNTS(0), MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_hindexed(-1, INTS(1), AINTS(0), MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_hindexed_c(-1, COUNTS(1), COUNTS(0), MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_hindexed(-1, INTS(1), AINTS(0), MPI_INT, &t), MPI_ERR_COUNT);

    CHECK_ERR(MPI_Type_create_indexed_block(-1, 1, INTS(0), MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_indexed_block(2, -1, INTS(0, 4), MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_indexed_block_c(-1, 1, COUNTS(0), MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_indexed_block_c(2, -1, COUNTS(0, 4), MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_hindexed_block(-1, 1, AINTS(0), MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_hindexed_block(2, -1, AINTS(0, 16), MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_hindexed_block_c(-1, 1, COUNTS(0), MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_hindexed_block_c(2, -1, COUNTS(0, 16), MPI_INT, &t), MPI_ERR_COUNT);

    CHECK_ERR(MPI_Type_create_struct(-1, INTS(1), AINTS(0), TYPES(MPI_INT), &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_struct_c(-1, COUNTS(1), COUNTS(0), TYPES(MPI_INT), &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_struct(-1, INTS(1), AINTS(0), TYPES(MPI_INT), &t), MPI_ERR_COUNT);
}

/* A negative blocklength anywhere in the array, not only in the first entry. */
static void test_in_arrays(void)
{
    MPI_Datatype t;

    CHECK_ERR(MPI_Type_indexed(3, INTS(1, -1, 2), INTS(0, 4, 8), MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_indexed(3, INTS(1, 2, -7), INTS(0, 4, 8), MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_indexed_c(3, COUNTS(-1, 1, 2), COUNTS(0, 4, 8), MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_hindexed(3, INTS(1, -1, 2), AINTS(0, 16, 32), MPI_INT, &t),
              MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_hindexed_c(3, COUNTS(1, 1, -2), COUNTS(0, 16, 32), MPI_INT, &t),
              MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_hindexed(2, INTS(-5, 1), AINTS(0, 16), MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_struct(3, INTS(1, 1, -1), AINTS(0, 8, 16),
                                     TYPES(MPI_INT, MPI_INT, MPI_INT), &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_create_struct_c(2, COUNTS(1, -((MPI_Count) 1 << 35)), COUNTS(0, 8),
                                       TYPES(MPI_INT, MPI_INT), &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Type_struct(2, INTS(-1, 1), AINTS(0, 8), TYPES(MPI_INT, MPI_INT), &t),
              MPI_ERR_COUNT);
}

/* The checks are not overzealous: zero counts, zero blocklengths, negative strides and
 * displacements are all legal. */
static void test_legal(void)
{
    MPI_Datatype t;
    int size = -1;

    CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &t));
    CHECK_MPI(MPI_Type_size(t, &size));
    CHECK_EQ(size, 0);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_vector(0, 5, -3, MPI_INT, &t));
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_vector(2, 0, -3, MPI_INT, &t));
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_vector_c(2, 1, -3, MPI_INT, &t));
    CHECK_MPI(MPI_Type_size(t, &size));
    CHECK_EQ(size, 8);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_indexed(0, NULL, NULL, MPI_INT, &t));
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_indexed(2, INTS(0, 3), INTS(-4, -9), MPI_INT, &t));
    CHECK_MPI(MPI_Type_size(t, &size));
    CHECK_EQ(size, 12);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_create_struct(0, NULL, NULL, NULL, &t));
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_create_struct_c(2, COUNTS(0, 1), COUNTS(-8, -16), TYPES(MPI_INT, MPI_CHAR),
                                       &t));
    CHECK_MPI(MPI_Type_size(t, &size));
    CHECK_EQ(size, 1);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_create_hindexed_block(3, 0, AINTS(-8, 0, 8), MPI_DOUBLE, &t));
    CHECK_MPI(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    test_scalar();
    test_in_arrays();
    test_legal();

    return MTest_Finalize();
}
