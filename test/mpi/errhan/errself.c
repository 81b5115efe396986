/* Errors tied to no communicator are raised on MPI_COMM_SELF once the user sets a handler there
 * (MPI-4), and on MPI_COMM_WORLD before that (what MPI-3 programs expect). */
#include "mtest.h"

static int world_calls, self_calls;

static void world_handler(MPI_Comm *comm, int *code, ...)
{
    world_calls++;
    CHECK(*comm == MPI_COMM_WORLD, "world handler got comm %#x", (unsigned) *comm);
}

static void self_handler(MPI_Comm *comm, int *code, ...)
{
    self_calls++;
    CHECK(*comm == MPI_COMM_SELF, "self handler got comm %#x", (unsigned) *comm);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Errhandler weh, seh;
    CHECK_MPI(MPI_Comm_create_errhandler(world_handler, &weh));
    CHECK_MPI(MPI_Comm_create_errhandler(self_handler, &seh));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, weh));

    MPI_Datatype t;
    CHECK_ERR(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_EQ(world_calls, 1);
    CHECK_EQ(self_calls, 0);

    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, seh));
    CHECK_ERR(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Error_class(-1, NULL), MPI_ERR_ARG);
    CHECK_EQ(world_calls, 1);
    CHECK_EQ(self_calls, 2);

    /* Errors on a communicator still go to that communicator. */
    int rank;
    CHECK_ERR(MPI_Comm_rank(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_EQ(world_calls, 2);
    CHECK_ERR(MPI_Comm_rank(MPI_COMM_SELF, NULL), MPI_ERR_ARG);
    CHECK_EQ(self_calls, 3);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_SELF, &rank));

    CHECK_MPI(MPI_Errhandler_free(&weh));
    CHECK_MPI(MPI_Errhandler_free(&seh));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    return MTest_Finalize();
}
