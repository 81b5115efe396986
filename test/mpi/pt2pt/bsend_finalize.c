/* Buffered messages still in flight when a process heads for MPI_Finalize are delivered: rank 0
 * attaches a buffer, MPI_Bsends a large message and a small one on a duplicate of MPI_COMM_WORLD,
 * frees that communicator and finalizes without detaching; rank 1 receives only after a pause.
 * Also a send freed with MPI_Request_free before completing. All must arrive intact, and rank 0's
 * finalize must neither hang nor touch freed memory: the buffered sends hold the last reference
 * to the freed communicator (run under the sanitizers). */
#include "mtest.h"
#include <stdlib.h>
#include <time.h>

#define N 300000

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    static int data[N];
    MPI_Comm comm;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    if (rank == 0) {
        int size = 2 * (N * (int) sizeof(int) + MPI_BSEND_OVERHEAD);
        char *buffer = malloc((size_t) size);     /* attached until exit: never freed */
        for (int i = 0; i < N; i++)
            data[i] = 7 * i;
        CHECK_MPI(MPI_Buffer_attach(buffer, size));
        CHECK_MPI(MPI_Bsend(data, N, MPI_INT, 1, 1, comm));
        CHECK_MPI(MPI_Bsend(data, 3, MPI_INT, 1, 2, comm));
        MPI_Request r;
        CHECK_MPI(MPI_Isend(data, N, MPI_INT, 1, 3, comm, &r));
        CHECK_MPI(MPI_Request_free(&r));
        /* data is not modified: the freed send may still read it */
    } else if (rank == 1) {
        struct timespec pause = { 0, 300000000 };
        nanosleep(&pause, NULL);
        int *in = malloc(sizeof(int) * N);
        for (int tag = 1; tag <= 3; tag++) {
            int n = tag == 2 ? 3 : N;
            for (int i = 0; i < n; i++)
                in[i] = -1;
            CHECK_MPI(MPI_Recv(in, n, MPI_INT, 0, tag, comm, MPI_STATUS_IGNORE));
            CHECK(in[0] == 0 && in[n - 1] == 7 * (n - 1), "tag %d: %d .. %d", tag, in[0], in[n - 1]);
        }
        free(in);
    }
    CHECK_MPI(MPI_Comm_free(&comm));
    return MTest_Finalize();
}
