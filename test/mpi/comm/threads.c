/*
 * Communicators created concurrently by threads (MPI_THREAD_MULTIPLE): two threads per process
 * each duplicate and split their own parent communicator many times at once. The context ids
 * agreed by concurrent rounds must all differ, so messages on the communicators of one thread are
 * never received on those of the other, and nobody deadlocks. Run with 4 processes.
 */
#include <pthread.h>
#include "mtest.h"

#define ROUNDS 40

static MPI_Comm parents[2];
static int rank, size, errs[2];

static void *worker(void *arg)
{
    int t = (int) (long) arg;
    MPI_Comm parent = parents[t];
    for (int i = 0; i < ROUNDS; i++) {
        MPI_Comm c, s;
        if (MPI_Comm_dup(parent, &c) != MPI_SUCCESS || MPI_Comm_split(c, rank % 2, rank, &s) != MPI_SUCCESS) {
            errs[t]++;
            break;
        }
        /* a ring on the dup carrying the thread number: both threads use the same ranks and tag */
        int out = 1000 * t + i, in = -1;
        if (MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, 0, &in, 1, MPI_INT, (rank + size - 1) % size, 0, c,
                         MPI_STATUS_IGNORE) != MPI_SUCCESS || in != out)
            errs[t]++;
        int sum = -1, ss;
        MPI_Comm_size(s, &ss);
        if (MPI_Allreduce(&t, &sum, 1, MPI_INT, MPI_SUM, s) != MPI_SUCCESS || sum != t * ss)
            errs[t]++;
        MPI_Comm_free(&s);
        MPI_Comm_free(&c);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK_EQ(provided, MPI_THREAD_MULTIPLE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &parents[0]));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &parents[1]));

    pthread_t th[2];
    for (long t = 0; t < 2; t++)
        pthread_create(&th[t], NULL, worker, (void *) t);
    for (int t = 0; t < 2; t++)
        pthread_join(th[t], NULL);
    CHECK_EQ(errs[0], 0);
    CHECK_EQ(errs[1], 0);

    CHECK_MPI(MPI_Comm_free(&parents[0]));
    CHECK_MPI(MPI_Comm_free(&parents[1]));
    return MTest_Finalize();
}
