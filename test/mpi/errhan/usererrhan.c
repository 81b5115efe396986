/* A user error handler is called with the communicator and the error code of the failing call,
 * the call then returns that code, and the handler outlives MPI_Errhandler_free while attached. */
#include "mtest.h"

static int calls;
static MPI_Comm seen_comm;
static int seen_code;

static void handler(MPI_Comm *comm, int *code, ...)
{
    calls++;
    seen_comm = *comm;
    seen_code = *code;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL, got = MPI_ERRHANDLER_NULL;
    CHECK_MPI(MPI_Comm_create_errhandler(handler, &eh));
    CHECK(eh != MPI_ERRHANDLER_NULL && eh != MPI_ERRORS_RETURN && eh != MPI_ERRORS_ARE_FATAL,
          "new handler %#x", (unsigned) eh);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    CHECK(got == eh, "get gave %#x, set %#x", (unsigned) got, (unsigned) eh);

    /* An error on WORLD. */
    int rank;
    int rc = MPI_Comm_rank(MPI_COMM_WORLD, NULL);
    CHECK_EQ(calls, 1);
    CHECK(seen_comm == MPI_COMM_WORLD, "handler saw comm %#x", (unsigned) seen_comm);
    CHECK_EQ(seen_code, rc);
    CHECK_ERR(rc, MPI_ERR_ARG);

    /* An error tied to no communicator goes to WORLD while SELF has its default handler. */
    MPI_Datatype t;
    rc = MPI_Type_contiguous(-1, MPI_INT, &t);
    CHECK_EQ(calls, 2);
    CHECK(seen_comm == MPI_COMM_WORLD, "handler saw comm %#x", (unsigned) seen_comm);
    CHECK_EQ(seen_code, rc);
    CHECK_ERR(rc, MPI_ERR_COUNT);

    /* MPI_Comm_call_errhandler passes the code through and succeeds. */
    CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_TAG));
    CHECK_EQ(calls, 3);
    CHECK_EQ(seen_code, MPI_ERR_TAG);

    /* Both handles (create's and get's) may be freed; WORLD keeps the handler alive. */
    CHECK_MPI(MPI_Errhandler_free(&got));
    CHECK(got == MPI_ERRHANDLER_NULL, "free left %#x", (unsigned) got);
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK(eh == MPI_ERRHANDLER_NULL, "free left %#x", (unsigned) eh);
    rc = MPI_Comm_size(MPI_COMM_WORLD, NULL);
    CHECK_EQ(calls, 4);
    CHECK_EQ(seen_code, rc);
    CHECK_ERR(rc, MPI_ERR_ARG);

    /* Replacing it releases the last reference. */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    rc = MPI_Comm_rank(MPI_COMM_WORLD, NULL);
    CHECK_EQ(calls, 4);
    CHECK_ERR(rc, MPI_ERR_ARG);
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));

    /* A NULL function is refused. */
    CHECK_ERR(MPI_Comm_create_errhandler(NULL, &eh), MPI_ERR_ARG);

    return MTest_Finalize();
}
