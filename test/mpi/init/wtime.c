/* MPI_Wtime advances, measures a known sleep, and MPI_Wtick is a plausible resolution. */
#include "mtest.h"
#include <time.h>

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);

    double tick = MPI_Wtick();
    CHECK(tick > 0.0 && tick <= 0.01, "MPI_Wtick() = %g", tick);

    /* The clock moves: some later reading differs from the first, and never goes back. */
    double t0 = MPI_Wtime(), t1 = t0;
    for (long i = 0; i < 100000000 && t1 == t0; i++)
        t1 = MPI_Wtime();
    CHECK(t1 > t0, "MPI_Wtime() did not advance (%.9f)", t0);

    /* A 50 ms sleep measures as at least 50 ms and (on a sane machine) well under 5 s. */
    struct timespec d = { 0, 50 * 1000 * 1000 };
    double before = MPI_Wtime();
    nanosleep(&d, NULL);
    double elapsed = MPI_Wtime() - before;
    CHECK(elapsed >= 0.05 - tick && elapsed < 5.0, "50 ms sleep measured as %.6f s", elapsed);

    return MTest_Finalize();
}
