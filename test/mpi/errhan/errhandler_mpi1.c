/* The MPI-1 forms of error handling that MPI 3.0 removed, kept for old programs:
 * MPI_Errhandler_create makes a handler that MPI_Errhandler_set attaches and MPI_Errhandler_get
 * returns, which is called on an error, and which the MPI-2 calls see as the same handler; their
 * argument errors are those of the MPI-2 calls. */
#include "mtest.h"

static int calls, seen_code;

static void handler(MPI_Comm *comm, int *code, ...)
{
    (void) comm;
    calls++;
    seen_code = *code;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL, got = MPI_ERRHANDLER_NULL;
    CHECK_MPI(MPI_Errhandler_create(handler, &eh));
    CHECK_MPI(MPI_Errhandler_set(dup, eh));
    CHECK_MPI(MPI_Errhandler_get(dup, &got));
    CHECK(got == eh, "MPI_Errhandler_get returned another handler");
    CHECK_MPI(MPI_Errhandler_free(&got));
    CHECK_MPI(MPI_Comm_get_errhandler(dup, &got));
    CHECK(got == eh, "MPI_Comm_get_errhandler does not see the handler MPI_Errhandler_set attached");
    CHECK_MPI(MPI_Errhandler_free(&got));

    int rank = -1;
    int rc = MPI_Comm_rank(dup, NULL);
    CHECK(rc != MPI_SUCCESS && calls == 1 && seen_code == rc, "handler: %d calls, code %d, returned %d", calls,
          seen_code, rc);

    /* MPI_Comm_set_errhandler's handler is what MPI_Errhandler_get returns */
    CHECK_MPI(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Errhandler_get(dup, &got));
    CHECK(got == MPI_ERRORS_RETURN, "MPI_Errhandler_get does not see MPI_Comm_set_errhandler's handler");
    CHECK_MPI(MPI_Errhandler_free(&got));

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_ERR(MPI_Errhandler_create(NULL, &eh), MPI_ERR_ARG);
    CHECK_ERR(MPI_Errhandler_set(MPI_COMM_NULL, MPI_ERRORS_RETURN), MPI_ERR_COMM);
    CHECK_ERR(MPI_Errhandler_set(dup, MPI_ERRHANDLER_NULL), MPI_ERR_ERRHANDLER);
    CHECK_ERR(MPI_Errhandler_get(dup, NULL), MPI_ERR_ARG);
    CHECK_MPI(MPI_Comm_rank(dup, &rank));

    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_MPI(MPI_Comm_free(&dup));
    return MTest_Finalize();
}
