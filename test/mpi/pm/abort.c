/*
 * A rank that calls MPI_Abort ends the job: the others, blocked in a receive that will never be
 * matched, are ended within seconds, and mpiexec's exit status is the abort code.
 */
#include "pmtest.h"

static int child(char **argv)
{
    int rank, size, x;
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 1 || size == 1)
        MPI_Abort(MPI_COMM_WORLD, 7);
    MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return 0;
}

static void driver(void)
{
    struct pm_job job;
    pm_run(&job, (const char *[]) { "-n", "3", pm_self, "child", "x", NULL }, NULL, NULL, 60);
    int before = mtest_errs;
    CHECK_EQ(pm_exit_code(&job), 7);
    CHECK(job.seconds < 15, "the job took %.1f s to end", job.seconds);
    pm_done(&job, before);
}

int main(int argc, char **argv)
{
    return pm_main(argc, argv, child, driver);
}
