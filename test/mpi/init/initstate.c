/* MPI_Initialized and MPI_Finalized before MPI_Init, between, and after MPI_Finalize. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int flag = -1;
    CHECK_MPI(MPI_Initialized(&flag));
    CHECK_EQ(flag, 0);
    CHECK_MPI(MPI_Finalized(&flag));
    CHECK_EQ(flag, 0);

    CHECK_MPI(MPI_Init(&argc, &argv));
    flag = -1;
    CHECK_MPI(MPI_Initialized(&flag));
    CHECK_EQ(flag, 1);
    CHECK_MPI(MPI_Finalized(&flag));
    CHECK_EQ(flag, 0);

    int rank = -1, size = -1;
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    CHECK(rank >= 0 && rank < size, "rank %d, size %d", rank, size);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_SELF, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_SELF, &size));
    CHECK_EQ(rank, 0);
    CHECK_EQ(size, 1);

    CHECK_MPI(MPI_Finalize());
    /* MPI_Initialized stays true after MPI_Finalize (MPI 4.1, 11.2.1). */
    flag = -1;
    CHECK_MPI(MPI_Initialized(&flag));
    CHECK_EQ(flag, 1);
    CHECK_MPI(MPI_Finalized(&flag));
    CHECK_EQ(flag, 1);

    if (mtest_errs == 0)
        printf(" No Errors\n");
    else
        printf(" Found %d errors\n", mtest_errs);
    return mtest_errs != 0;
}
