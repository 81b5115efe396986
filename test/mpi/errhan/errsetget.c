/* Setting and getting the error handlers of MPI_COMM_WORLD and MPI_COMM_SELF, and the errors of
 * doing it wrong. */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Errhandler h = MPI_ERRHANDLER_NULL;

    /* Both start with MPI_ERRORS_ARE_FATAL. */
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &h));
    CHECK(h == MPI_ERRORS_ARE_FATAL, "WORLD starts with %#x", (unsigned) h);
    /* What get returns may be freed, even a predefined handler. */
    CHECK_MPI(MPI_Errhandler_free(&h));
    CHECK(h == MPI_ERRHANDLER_NULL, "free left %#x", (unsigned) h);
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_SELF, &h));
    CHECK(h == MPI_ERRORS_ARE_FATAL, "SELF starts with %#x", (unsigned) h);
    CHECK_MPI(MPI_Errhandler_free(&h));

    /* Setting WORLD changes WORLD only. */
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &h));
    CHECK(h == MPI_ERRORS_RETURN, "WORLD has %#x after set", (unsigned) h);
    CHECK_MPI(MPI_Errhandler_free(&h));
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_SELF, &h));
    CHECK(h == MPI_ERRORS_ARE_FATAL, "SELF has %#x after setting WORLD", (unsigned) h);
    CHECK_MPI(MPI_Errhandler_free(&h));

    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ABORT));
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_SELF, &h));
    CHECK(h == MPI_ERRORS_ABORT, "SELF has %#x after set", (unsigned) h);
    CHECK_MPI(MPI_Errhandler_free(&h));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

    /* Errors (WORLD and SELF now return them). */
    CHECK_ERR(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL), MPI_ERR_ERRHANDLER);
    CHECK_ERR(MPI_Comm_set_errhandler(MPI_COMM_WORLD, (MPI_Errhandler) 0x50000003), MPI_ERR_ERRHANDLER);
    CHECK_ERR(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_COMM_WORLD), MPI_ERR_ERRHANDLER);
    CHECK_ERR(MPI_Comm_set_errhandler(MPI_COMM_NULL, MPI_ERRORS_RETURN), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_get_errhandler(MPI_COMM_NULL, &h), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_get_errhandler(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    /* A predefined handler that did not come from get cannot be freed; the handle is kept. */
    h = MPI_ERRORS_RETURN;
    CHECK_ERR(MPI_Errhandler_free(&h), MPI_ERR_ARG);
    CHECK(h == MPI_ERRORS_RETURN, "failed free changed the handle to %#x", (unsigned) h);
    h = MPI_ERRHANDLER_NULL;
    CHECK_ERR(MPI_Errhandler_free(&h), MPI_ERR_ERRHANDLER);
    /* The failures left WORLD's handler alone. */
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &h));
    CHECK(h == MPI_ERRORS_RETURN, "WORLD has %#x after failed sets", (unsigned) h);
    CHECK_MPI(MPI_Errhandler_free(&h));

    return MTest_Finalize();
}
