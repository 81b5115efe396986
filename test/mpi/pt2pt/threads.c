/* MPI_THREAD_MULTIPLE: four threads per process talk at once, thread t of rank 0 with thread t
 * of rank 1 on tag t: blocking ping-pong, nonblocking exchange of large messages, MPI_Sendrecv,
 * and buffered sends through one shared attached buffer. Each thread checks its own data, so a
 * message delivered to the wrong thread or corrupted by a race shows. Run with 2 processes. */
#include "mtest.h"
#include <pthread.h>
#include <stdlib.h>

#define NTHREADS 4
#define ITERS 200
#define BIG 50000

static int rank;
static int errs[NTHREADS];

static void *worker(void *arg)
{
    int t = (int) (size_t) arg, peer = 1 - rank, *err = &errs[t];
    int *out = malloc(sizeof(int) * BIG), *in = malloc(sizeof(int) * BIG);
    for (int it = 0; it < ITERS; it++) {
        int v = t * 100000 + it, w = -1;
        if (rank == 0) {
            MPI_Send(&v, 1, MPI_INT, peer, t, MPI_COMM_WORLD);
            MPI_Recv(&w, 1, MPI_INT, peer, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&w, 1, MPI_INT, peer, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&w, 1, MPI_INT, peer, t, MPI_COMM_WORLD);
        }
        if (w != v)
            ++*err;
    }
    for (int it = 0; it < 5; it++) {
        for (int i = 0; i < BIG; i++) {
            out[i] = (rank * 10 + t) * 1000000 + i + it;
            in[i] = -1;
        }
        MPI_Request r[2];
        MPI_Irecv(in, BIG, MPI_INT, peer, t, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(out, BIG, MPI_INT, peer, t, MPI_COMM_WORLD, &r[1]);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        int first = (peer * 10 + t) * 1000000 + it;
        if (in[0] != first || in[BIG - 1] != first + BIG - 1)
            ++*err;
        int x = rank * 1000 + t, y = -1;
        MPI_Status st;
        MPI_Sendrecv(&x, 1, MPI_INT, peer, NTHREADS + t, &y, 1, MPI_INT, peer, NTHREADS + t, MPI_COMM_WORLD, &st);
        if (y != peer * 1000 + t || st.MPI_TAG != NTHREADS + t)
            ++*err;
    }
    for (int it = 0; it < 20; it++) {
        int v = t * 1000 + it, w = -1;
        if (rank == 0) {
            if (MPI_Bsend(&v, 1, MPI_INT, peer, 2 * NTHREADS + t, MPI_COMM_WORLD) != MPI_SUCCESS)
                ++*err;
        } else {
            MPI_Recv(&w, 1, MPI_INT, peer, 2 * NTHREADS + t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (w != v)
                ++*err;
        }
    }
    free(out);
    free(in);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK_EQ(provided, MPI_THREAD_MULTIPLE);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* room for every thread's buffered messages at once */
    int size = NTHREADS * 20 * (4 + MPI_BSEND_OVERHEAD);
    char *buffer = malloc((size_t) size);
    MPI_Buffer_attach(buffer, size);
    pthread_t th[NTHREADS];
    for (int t = 0; t < NTHREADS; t++)
        pthread_create(&th[t], NULL, worker, (void *) (size_t) t);
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
        CHECK(errs[t] == 0, "thread %d: %d wrong messages", t, errs[t]);
    }
    void *addr;
    MPI_Buffer_detach(&addr, &size);
    free(buffer);
    return MTest_Finalize();
}
