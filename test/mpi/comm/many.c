/*
 * Context ids are recycled: thousands of communicators created and freed one after another, a few
 * hundred alive at once, then so many that the ids run out: MPI_Comm_dup fails on every process
 * with MPI_ERR_OTHER (not a hang, not a crash), and works again once some are freed. Run with 3
 * processes.
 */
#include <stdlib.h>
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* 1. create and free, over and over: the same ids come back */
    for (int i = 0; i < 5000; i++) {
        MPI_Comm c;
        int rc = MPI_Comm_dup(MPI_COMM_WORLD, &c);
        if (rc != MPI_SUCCESS) {
            MTEST_FAIL("dup %d failed", i);
            break;
        }
        MPI_Comm_free(&c);
    }

    /* 2. until the ids run out: each dup costs one id, and there are a few thousand */
    enum { MAX = 20000 };
    MPI_Comm *comms = malloc(MAX * sizeof *comms);
    int n = 0, rc = MPI_SUCCESS;
    while (n < MAX && (rc = MPI_Comm_dup(MPI_COMM_WORLD, &comms[n])) == MPI_SUCCESS)
        n++;
    CHECK(n >= 2000 && n < MAX, "created %d communicators before failing", n);
    int cls = -1;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    CHECK_EQ(cls, MPI_ERR_OTHER);
    /* every process failed at the same count */
    int lo, hi;
    CHECK_MPI(MPI_Allreduce(&n, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Allreduce(&n, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    CHECK_EQ(lo, hi);

    /* the newest ones still work */
    int sum = -1;
    if (n > 0) {
        CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comms[n - 1]));
        CHECK_EQ(sum, size * (size - 1) / 2);
    }

    /* 3. free every other one: splits work again, and messages keep to their communicators */
    for (int i = 0; i < n; i += 2)
        CHECK_MPI(MPI_Comm_free(&comms[i]));
    MPI_Comm s;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &s));
    int r;
    CHECK_MPI(MPI_Comm_rank(s, &r));
    CHECK_EQ(r, size - 1 - rank);
    CHECK_MPI(MPI_Comm_free(&s));
    for (int i = 1; i < n; i += 2)
        CHECK_MPI(MPI_Comm_free(&comms[i]));
    free(comms);
    return MTest_Finalize();
}
