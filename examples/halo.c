/*
 * Halo exchange with derived datatypes: each rank owns a block of an N x N grid of doubles and
 * swaps its boundary rows and columns with its neighbours. The faces are described once, as
 * subarray types, and sent straight from (and received straight into) the grid: no hand packing.
 * Run with any number of ranks: mpiexec -n 4 ./halo
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 64            /* interior points per side of each rank's block */
#define W (N + 2)       /* with one layer of halo on each side */

static double *at(double *g, int i, int j) { return &g[i * W + j]; }

/* A (rows x cols) window of the W x W grid starting at (r0, c0). */
static MPI_Datatype window(int rows, int cols, int r0, int c0)
{
    int sizes[2] = { W, W }, sub[2] = { rows, cols }, start[2] = { r0, c0 };
    MPI_Datatype t;
    MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    return t;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* ranks in a ring along the rows, and along the columns of a second ring: a periodic 1-D
     * decomposition in each direction, so every rank has four neighbours */
    int up = (rank + size - 1) % size, down = (rank + 1) % size;
    double *g = malloc(sizeof(double) * W * W);
    for (int i = 0; i < W; i++)
        for (int j = 0; j < W; j++)
            *at(g, i, j) = (i >= 1 && i <= N && j >= 1 && j <= N) ? rank * 1e6 + i * 1000 + j : -1;

    /* faces of the interior and the halo layers they fill */
    MPI_Datatype top = window(1, N, 1, 1), bottom = window(1, N, N, 1);
    MPI_Datatype halo_top = window(1, N, 0, 1), halo_bottom = window(1, N, N + 1, 1);
    MPI_Datatype left = window(N, 1, 1, 1), right = window(N, 1, 1, N);
    MPI_Datatype halo_left = window(N, 1, 1, 0), halo_right = window(N, 1, 1, N + 1);

    MPI_Sendrecv(g, 1, top, up, 0, g, 1, halo_bottom, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(g, 1, bottom, down, 1, g, 1, halo_top, up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(g, 1, left, up, 2, g, 1, halo_right, down, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(g, 1, right, down, 3, g, 1, halo_left, up, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    /* every halo point must hold the neighbour's boundary value */
    int errors = 0;
    for (int k = 1; k <= N; k++) {
        errors += *at(g, N + 1, k) != down * 1e6 + 1 * 1000 + k;   /* their top row */
        errors += *at(g, 0, k) != up * 1e6 + N * 1000 + k;         /* their bottom row */
        errors += *at(g, k, N + 1) != down * 1e6 + k * 1000 + 1;   /* their left column */
        errors += *at(g, k, 0) != up * 1e6 + k * 1000 + N;         /* their right column */
    }
    int total = 0;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

    int face_size;
    MPI_Aint lb, extent;
    MPI_Type_size(left, &face_size);
    MPI_Type_get_extent(left, &lb, &extent);
    if (rank == 0)
        printf("%d ranks exchanged %d-byte column faces (type extent %ld bytes): %s\n", size, face_size,
               (long) extent, total ? "WRONG HALOS" : "all halos correct");

    MPI_Datatype types[] = { top, bottom, halo_top, halo_bottom, left, right, halo_left, halo_right };
    for (int i = 0; i < 8; i++)
        MPI_Type_free(&types[i]);
    free(g);
    MPI_Finalize();
    return total != 0;
}
