/*
 * MPI_Comm_split_type (MPI 4.1, 7.4.2): every process of a job shares one machine's memory, so
 * MPI_COMM_TYPE_SHARED keeps everyone, ordered by key; MPI_UNDEFINED gives MPI_COMM_NULL; an
 * unknown type is MPI_ERR_ARG on every process. Run with 4 processes.
 */
#include "mtest.h"

#ifndef MPI_COMM_TYPE_SHARED
#define MPI_COMM_TYPE_SHARED 1     /* the library's value until mpi.h defines the constant */
#endif

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, size, r, s;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Comm node;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, size - rank, MPI_INFO_NULL, &node));
    CHECK_MPI(MPI_Comm_rank(node, &r));
    CHECK_MPI(MPI_Comm_size(node, &s));
    CHECK_EQ(s, size);
    CHECK_EQ(r, size - 1 - rank);
    CHECK_MPI(MPI_Comm_free(&node));

    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED, 0,
                                  MPI_INFO_NULL, &node));
    if (rank == 0) {
        CHECK(node == MPI_COMM_NULL, "MPI_UNDEFINED gave %#x", (unsigned) node);
    } else {
        CHECK_MPI(MPI_Comm_size(node, &s));
        CHECK_EQ(s, size - 1);
        CHECK_MPI(MPI_Comm_free(&node));
    }

    CHECK_ERR(MPI_Comm_split_type(MPI_COMM_WORLD, rank == size - 1 ? 12345 : MPI_COMM_TYPE_SHARED, 0,
                                  MPI_INFO_NULL, &node), MPI_ERR_ARG);
    return MTest_Finalize();
}
