/*
 * Error handlers of new communicators (MPI 4.1, 9.3): a communicator made from another inherits
 * its error handler (dup, split, create, intercommunicators and their merge), not the handler the
 * parent gets later; a user handler lives as long as a communicator uses it, even after
 * MPI_Errhandler_free; the handler receives the new communicator's handle. Run with 4 processes.
 */
#include "mtest.h"

static int calls;
static MPI_Comm last_comm;

static void counting_handler(MPI_Comm *comm, int *code, ...)
{
    calls++;
    last_comm = *comm;
}

static MPI_Errhandler handler_of(MPI_Comm comm)
{
    MPI_Errhandler h = MPI_ERRHANDLER_NULL;
    CHECK_MPI(MPI_Comm_get_errhandler(comm, &h));
    MPI_Errhandler copy = h;
    CHECK_MPI(MPI_Errhandler_free(&h));     /* get hands out a reference */
    return copy;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, size, v;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* 1. predefined handlers are inherited; later changes of the parent are not */
    MPI_Comm a, b;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    CHECK(handler_of(a) == MPI_ERRORS_RETURN, "dup has %#x", (unsigned) handler_of(a));
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, 0, &b));
    CHECK(handler_of(b) == MPI_ERRORS_RETURN, "split has %#x", (unsigned) handler_of(b));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    CHECK(handler_of(a) == MPI_ERRORS_RETURN, "dup changed with its parent");
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(handler_of(MPI_COMM_SELF) == MPI_ERRORS_ARE_FATAL, "SELF has %#x", (unsigned) handler_of(MPI_COMM_SELF));

    /* 2. a user handler, freed by the user at once, goes on to the children of a */
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Comm_create_errhandler(counting_handler, &eh));
    CHECK_MPI(MPI_Comm_set_errhandler(a, eh));
    CHECK_MPI(MPI_Errhandler_free(&eh));
    MPI_Comm c, inter, merged;
    CHECK_MPI(MPI_Comm_dup(a, &c));
    CHECK(MPI_Comm_rank(c, NULL) != MPI_SUCCESS, "a NULL rank pointer was accepted");
    CHECK_EQ(calls, 1);
    CHECK(last_comm == c, "handler got %#x, expected %#x", (unsigned) last_comm, (unsigned) c);
    CHECK_MPI(MPI_Comm_free(&a));   /* c keeps the handler alive */
    CHECK(MPI_Comm_size(c, NULL) != MPI_SUCCESS, "a NULL size pointer was accepted");
    CHECK_EQ(calls, 2);

    /* intercommunicators inherit from local_comm, their merge from the intercommunicator */
    MPI_Comm half;
    CHECK_MPI(MPI_Comm_split(c, rank % 2, 0, &half));
    if (size > 1) {
        CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 1, &inter));
        CHECK(MPI_Comm_remote_size(inter, NULL) != MPI_SUCCESS, "a NULL pointer was accepted");
        CHECK_EQ(calls, 3);
        CHECK(last_comm == inter, "handler got %#x, expected the intercommunicator", (unsigned) last_comm);
        CHECK_MPI(MPI_Intercomm_merge(inter, 0, &merged));
        CHECK(MPI_Send(&v, 1, MPI_INT, size, 0, merged) != MPI_SUCCESS, "rank %d was accepted", size);
        CHECK_EQ(calls, 4);
        CHECK(last_comm == merged, "handler got %#x, expected the merged communicator", (unsigned) last_comm);
        CHECK_MPI(MPI_Comm_free(&merged));
        CHECK_MPI(MPI_Comm_free(&inter));
    }
    CHECK_MPI(MPI_Comm_free(&half));
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Comm_free(&b));
    return MTest_Finalize();
}
