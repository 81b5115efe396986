/* MPI_Cancel of a receive that nothing matched: it completes, MPI_Test_cancelled says true, and
 * a message sent afterwards is not taken by it but by the next receive. A receive that has
 * already completed cannot be cancelled (MPI_Test_cancelled false, data in place). A send may not
 * be cancellable: then it completes normally and MPI_Test_cancelled says false, and the message
 * is delivered. MPI_Cancel(MPI_REQUEST_NULL) is MPI_ERR_REQUEST. One process, to itself. */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    /* an unmatched receive, cancelled and waited for */
    int v = -1, flag = -1;
    MPI_Request r;
    MPI_Status st;
    CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, rank, 5, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Cancel(&r));
    CHECK(r != MPI_REQUEST_NULL, "MPI_Cancel freed the request");
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK_EQ(flag, 1);
    CHECK_EQ(v, -1);

    /* the message sent now goes to the next receive, not to the cancelled one */
    int w = 55;
    MPI_Request s;     /* a blocking send to oneself before the receive is posted may never return */
    CHECK_MPI(MPI_Isend(&w, 1, MPI_INT, rank, 5, MPI_COMM_WORLD, &s));
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, rank, 5, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
    CHECK_EQ(v, 55);
    flag = -1;
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK_EQ(flag, 0);

    /* cancelled with MPI_Test polling and MPI_ANY_SOURCE */
    CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Cancel(&r));
    flag = 0;
    while (!flag)
        CHECK_MPI(MPI_Test(&r, &flag, &st));
    int cancelled = -1;
    CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
    CHECK_EQ(cancelled, 1);

    /* a completed receive is not cancelled */
    v = -1;
    CHECK_MPI(MPI_Isend(&w, 1, MPI_INT, rank, 7, MPI_COMM_WORLD, &s));
    CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, rank, 7, MPI_COMM_WORLD, &r));
    int complete = 0;
    while (!complete)
        CHECK_MPI(MPI_Request_get_status(r, &complete, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Cancel(&r));
    CHECK_MPI(MPI_Wait(&r, &st));
    cancelled = -1;
    CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
    CHECK_EQ(cancelled, 0);
    CHECK_EQ(v, 55);
    CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));

    /* a send: not cancelled here, so it is delivered */
    CHECK_MPI(MPI_Isend(&w, 1, MPI_INT, rank, 8, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Cancel(&r));
    CHECK_MPI(MPI_Wait(&r, &st));
    cancelled = -1;
    CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
    if (!cancelled) {
        v = -1;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, rank, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_EQ(v, 55);
    }

    MPI_Request null = MPI_REQUEST_NULL;
    CHECK_ERR(MPI_Cancel(&null), MPI_ERR_REQUEST);
    CHECK_ERR(MPI_Test_cancelled(MPI_STATUS_IGNORE, &flag), MPI_ERR_ARG);
    return MTest_Finalize();
}
