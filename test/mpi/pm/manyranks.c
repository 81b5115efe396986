/*
 * 72 ranks, many more than the cores: MPI_COMM_WORLD has them all, and while rank 0 sleeps 2 s
 * the 71 others wait in MPI_Barrier without burning the cores: together they use well under one
 * core-second (spinning, they would use every core for the whole 2 s).
 */
#include "mtest.h"

#include <sys/resource.h>
#include <time.h>

#define NRANKS 72
#define SLEEP_SECONDS 2

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double) ru.ru_utime.tv_sec + 1e-6 * (double) ru.ru_utime.tv_usec + (double) ru.ru_stime.tv_sec +
           1e-6 * (double) ru.ru_stime.tv_usec;
}

int main(int argc, char **argv)
{
    int rank, size, sum = 0;
    MTest_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_EQ(size, NRANKS);
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK_EQ(sum, NRANKS * (NRANKS - 1) / 2);

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    double t0 = cpu_seconds();
    if (rank == 0)
        nanosleep(&(struct timespec) { SLEEP_SECONDS, 0 }, NULL);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    double used = cpu_seconds() - t0, total = 0;
    CHECK_MPI(MPI_Reduce(&used, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD));
    if (rank == 0)
        CHECK(total < 1.0, "the waiting ranks used %.2f s of CPU in %d s", total, SLEEP_SECONDS);
    return MTest_Finalize();
}
