/*
 * Under mpiexec -n 4 the ranks form one MPI_COMM_WORLD of 4: MPI_Comm_size is 4, the ranks are
 * 0..3 once each (gathered everywhere), each rank's MPI rank is the one mpiexec gave it, and its
 * parent is the mpiexec named in its environment.
 */
#include "mtest.h"

#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size, all[4] = { -1, -1, -1, -1 };
    MTest_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_EQ(size, 4);
    const char *loom_rank = getenv("LOOM_RANK"), *pid = getenv("LOOM_MPIEXEC_PID");
    CHECK(loom_rank && atoi(loom_rank) == rank, "rank %d has LOOM_RANK=%s", rank, loom_rank ? loom_rank : "(unset)");
    CHECK(pid && atoi(pid) == (int) getppid(), "rank %d: LOOM_MPIEXEC_PID=%s, parent %d", rank, pid ? pid : "(unset)",
          (int) getppid());
    if (size == 4) {
        CHECK_MPI(MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD));
        for (int r = 0; r < 4; r++)
            CHECK(all[r] == r, "rank %d gathered %d from rank %d", rank, all[r], r);
    }
    return MTest_Finalize();
}
