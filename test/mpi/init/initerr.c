/* Initializing twice, or calling MPI after MPI_Finalize, is reported as MPI_ERR_OTHER with a
 * message that says which (the handler on MPI_COMM_WORLD is MPI_ERRORS_RETURN). */
#include "mtest.h"

static void check_message(int code, const char *want)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(code, msg, &len);
    CHECK(strstr(msg, want) != NULL, "message \"%s\" lacks \"%s\"", msg, want);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    int rc = MPI_Init(&argc, &argv);
    CHECK_ERR(rc, MPI_ERR_OTHER);
    check_message(rc, "MPI_Init(");
    check_message(rc, "already initialized");
    int provided;
    CHECK_ERR(MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided), MPI_ERR_OTHER);

    CHECK_MPI(MPI_Finalize());

    int rank = -1;
    rc = MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_ERR(rc, MPI_ERR_OTHER);
    check_message(rc, "MPI_Comm_rank(comm=MPI_COMM_WORLD");
    check_message(rc, "after MPI_Finalize");
    CHECK_EQ(rank, -1);
    CHECK_ERR(MPI_Finalize(), MPI_ERR_OTHER);
    rc = MPI_Init(&argc, &argv);
    CHECK_ERR(rc, MPI_ERR_OTHER);
    check_message(rc, "after MPI_Finalize");

    if (mtest_errs == 0)
        printf(" No Errors\n");
    else
        printf(" Found %d errors\n", mtest_errs);
    return mtest_errs != 0;
}
