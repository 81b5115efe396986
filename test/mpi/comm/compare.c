/*
 * MPI_Comm_compare (MPI 4.1, 7.4.1): MPI_IDENT for the same handle, MPI_CONGRUENT for the same
 * members in the same order, MPI_SIMILAR for the same members in another order, MPI_UNEQUAL
 * otherwise (also intra- against intercommunicator). Run with 4 processes.
 */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, size, result;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Comm same, reversed, halves, copy = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &same));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank < size / 2, rank, &halves));

    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, copy, &result));
    CHECK_EQ(result, MPI_IDENT);
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, same, &result));
    CHECK_EQ(result, MPI_CONGRUENT);
    CHECK_MPI(MPI_Comm_compare(reversed, MPI_COMM_WORLD, &result));
    CHECK_EQ(result, MPI_SIMILAR);
    CHECK_MPI(MPI_Comm_compare(reversed, same, &result));
    CHECK_EQ(result, MPI_SIMILAR);
    CHECK_MPI(MPI_Comm_compare(halves, MPI_COMM_WORLD, &result));
    CHECK_EQ(result, MPI_UNEQUAL);
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_SELF, MPI_COMM_WORLD, &result));
    CHECK_EQ(result, MPI_UNEQUAL);
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_SELF, MPI_COMM_SELF, &result));
    CHECK_EQ(result, MPI_IDENT);

    /* an intercommunicator is unequal to any intracommunicator, congruent to its dup */
    MPI_Comm inter, inter2;
    CHECK_MPI(MPI_Intercomm_create(halves, 0, MPI_COMM_WORLD, rank < size / 2 ? size / 2 : 0, 3, &inter));
    CHECK_MPI(MPI_Comm_dup(inter, &inter2));
    CHECK_MPI(MPI_Comm_compare(inter, halves, &result));
    CHECK_EQ(result, MPI_UNEQUAL);
    CHECK_MPI(MPI_Comm_compare(inter, inter2, &result));
    CHECK_EQ(result, MPI_CONGRUENT);
    CHECK_MPI(MPI_Comm_compare(inter, inter, &result));
    CHECK_EQ(result, MPI_IDENT);

    /* invalid arguments */
    CHECK_ERR(MPI_Comm_compare(MPI_COMM_NULL, MPI_COMM_WORLD, &result), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);

    CHECK_MPI(MPI_Comm_free(&inter2));
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&same));
    CHECK_MPI(MPI_Comm_free(&reversed));
    CHECK_MPI(MPI_Comm_free(&halves));
    return MTest_Finalize();
}
