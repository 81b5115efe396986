/*
 * MPI_Barrier: no rank leaves before the last one arrives (ranks in turn arrive late), on groups of
 * every size; and collective traffic never matches user messages: a receive for any source and
 * tag posted before collectives still gets only the user's message sent after them.
 */
#include "colltest.h"

#define LATE 0.02   /* seconds */

/* MPI_Wtime is CLOCK_MONOTONIC, one clock for all processes of the machine: every rank's exit
 * from the barrier must come after the late rank's arrival. */
static void test_wait(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int late = 0; late < size && late < 4; late++) {
        CHECK_MPI(MPI_Barrier(comm));
        double arrived = 0;
        if (rank == late) {
            double t0 = MPI_Wtime();
            while (MPI_Wtime() - t0 < LATE)
                ;
            arrived = MPI_Wtime();
        }
        CHECK_MPI(MPI_Barrier(comm));
        double left = MPI_Wtime();
        CHECK_MPI(MPI_Bcast(&arrived, 1, MPI_DOUBLE, late, comm));
        CHECK(left >= arrived, "rank %d left the barrier %.6f s before rank %d arrived in %s", rank, arrived - left,
              late, colltest_name(comm));
    }
}

static void test_isolation(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (size < 2)
        return;
    int got = -1, x = 0, sum = 0;
    MPI_Request req;
    MPI_Status st;
    /* rank 1 posts a wildcard receive, then everyone runs collectives, then rank 0 sends */
    if (rank == 1)
        CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &req));
    CHECK_MPI(MPI_Barrier(comm));
    CHECK_MPI(MPI_Bcast(&x, 1, MPI_INT, 0, comm));
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm));
    if (rank == 0)
        CHECK_MPI(MPI_Send(&(int) { 4242 }, 1, MPI_INT, 1, 7, comm));
    if (rank == 1) {
        CHECK_MPI(MPI_Wait(&req, &st));
        CHECK(got == 4242 && st.MPI_SOURCE == 0 && st.MPI_TAG == 7,
              "the wildcard receive got %d from %d with tag %d, expected 4242 from 0 with tag 7", got, st.MPI_SOURCE,
              st.MPI_TAG);
    }
    CHECK_EQ(sum, size * (size - 1) / 2);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    Colltest_comms cs;
    colltest_comms(&cs);
    for (int i = 0; i < cs.n; i++) {
        test_wait(cs.comms[i]);
        test_isolation(cs.comms[i]);
    }
    for (int i = 0; i < 100; i++)
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Barrier(MPI_COMM_SELF));
    colltest_free(&cs);
    return MTest_Finalize();
}
