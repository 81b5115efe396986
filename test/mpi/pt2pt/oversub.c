/* More ranks than cores (run with 8 on a 2-core machine): every rank exchanges messages with every
 * other at once (nonblocking, small and large), then passes a token around the ring with blocking
 * calls many times. Waiting ranks must back off, not spin, or this takes minutes instead of
 * seconds; the runner's time limit catches that. */
#include "mtest.h"
#include <stdlib.h>

#define N 50000

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *out = malloc(sizeof(int) * (size_t) size * N), *in = malloc(sizeof(int) * (size_t) size * N);
    MPI_Request *reqs = malloc(sizeof(MPI_Request) * 2 * (size_t) size);

    for (int iter = 0; iter < 3; iter++) {
        int n = iter == 1 ? N : 10;
        for (int p = 0; p < size; p++)
            for (int i = 0; i < n; i++) {
                out[p * N + i] = (rank * 100 + p) * 1000 + i + iter;
                in[p * N + i] = -1;
            }
        for (int p = 0; p < size; p++)
            CHECK_MPI(MPI_Irecv(&in[p * N], n, MPI_INT, p, iter, MPI_COMM_WORLD, &reqs[p]));
        for (int p = 0; p < size; p++)
            CHECK_MPI(MPI_Isend(&out[p * N], n, MPI_INT, p, iter, MPI_COMM_WORLD, &reqs[size + p]));
        CHECK_MPI(MPI_Waitall(2 * size, reqs, MPI_STATUSES_IGNORE));
        for (int p = 0; p < size; p++) {
            int first = (p * 100 + rank) * 1000 + iter;
            CHECK(in[p * N] == first && in[p * N + n - 1] == first + n - 1, "iter %d from %d: %d .. %d", iter, p,
                  in[p * N], in[p * N + n - 1]);
        }
    }

    /* the token: rank 0 starts it, each rank adds its rank */
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    for (int lap = 0; lap < 50; lap++) {
        int token = 0;
        if (rank == 0) {
            CHECK_MPI(MPI_Send(&token, 1, MPI_INT, next, 7, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_EQ(token, size * (size - 1) / 2);
        } else {
            CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            token += rank;
            CHECK_MPI(MPI_Send(&token, 1, MPI_INT, next, 7, MPI_COMM_WORLD));
        }
    }
    free(out);
    free(in);
    free(reqs);
    return MTest_Finalize();
}
