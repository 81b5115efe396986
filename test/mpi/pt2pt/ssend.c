/* A synchronous send completes only once the receive has matched it (MPI 4.1, 3.4), even for a
 * message small enough to travel eagerly. Rank 0 starts MPI_Issend of one int and tests it for a
 * while: it must stay incomplete, since rank 1 does not receive until told to. Rank 0 then tells
 * rank 1 (another tag), and the Issend completes once rank 1 receives it. MPI_Ssend blocks the
 * same way; a standard send of one int, in contrast, is free to complete at once. */
#include "mtest.h"
#include <time.h>

static double now(void)
{
    return MPI_Wtime();
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int round = 0; round < 3; round++) {
        if (rank == 0) {
            int v = 100 + round, go = 1, flag = 0;
            MPI_Request r;
            CHECK_MPI(MPI_Issend(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &r));
            double t0 = now();
            while (now() - t0 < 0.2) {
                CHECK_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
                if (flag)
                    break;
            }
            CHECK(!flag, "round %d: MPI_Issend completed before the receive was posted", round);
            CHECK(r != MPI_REQUEST_NULL, "round %d: the request is gone while incomplete", round);
            CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 1, 2, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
            /* MPI_Ssend: rank 1 posts its receive only after a delay, so a blocking synchronous send
             * that returns early is seen by the time it took */
            t0 = now();
            CHECK_MPI(MPI_Ssend(&v, 1, MPI_INT, 1, 3, MPI_COMM_WORLD));
            double took = now() - t0;
            CHECK(took > 0.1, "round %d: MPI_Ssend returned after %.3f s, before the receive (posted after 0.5 s)",
                  round, took);
        } else if (rank == 1) {
            int v = 0, go = 0;
            CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_EQ(v, 100 + round);
            struct timespec pause = { 0, 500000000 };
            nanosleep(&pause, NULL);    /* no MPI call: nothing matches the Ssend meanwhile */
            CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_EQ(v, 100 + round);
        }
    }
    return MTest_Finalize();
}
