/*
 * Collectives on large buffers (tens of MB per rank, so the device pipelines them): a broadcast
 * sent as a strided vector and received contiguous; an allreduce of 4 M doubles; a reduce over a
 * strided derived type of 2 M ints (the reduction engine works through it chunk by chunk); an
 * all-to-all of 2 MB blocks. Every element is checked.
 */
#include "colltest.h"

#define BIG (4 * 1024 * 1024)

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int root = size / 2;

    /* bcast: the root's vector of every other int, everyone else's contiguous ints */
    int *v = malloc(2 * (size_t) BIG * sizeof(int));
    MPI_Datatype vec;
    MPI_Type_vector(BIG, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    if (rank == root) {
        for (size_t i = 0; i < 2 * (size_t) BIG; i++)
            v[i] = i % 2 ? -1 : (int) (i / 2) * 3;
        CHECK_MPI(MPI_Bcast(v, 1, vec, root, MPI_COMM_WORLD));
    } else {
        for (size_t i = 0; i < BIG; i++)
            v[i] = -7;
        CHECK_MPI(MPI_Bcast(v, BIG, MPI_INT, root, MPI_COMM_WORLD));
        int bad = 0;
        for (size_t i = 0; i < BIG && bad < 3; i++)
            if (v[i] != (int) i * 3) {
                MTEST_FAIL("bcast element %zu is %d, expected %d", i, v[i], (int) i * 3);
                bad++;
            }
    }

    /* allreduce of doubles */
    double *d = malloc((size_t) BIG * sizeof(double)), *dsum = malloc((size_t) BIG * sizeof(double));
    for (size_t i = 0; i < BIG; i++)
        d[i] = (double) (i % 1000) + rank;
    CHECK_MPI(MPI_Allreduce(d, dsum, BIG, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    int bad = 0;
    for (size_t i = 0; i < BIG && bad < 3; i++) {
        double want = (double) (i % 1000) * size + size * (size - 1) / 2.0;
        if (dsum[i] != want) {
            MTEST_FAIL("allreduce element %zu is %g, expected %g", i, dsum[i], want);
            bad++;
        }
    }
    free(d);
    free(dsum);

    /* reduce over the vector type: every other int of 2 * BIG / 2 */
    MPI_Datatype half;
    MPI_Type_vector(BIG / 2, 1, 2, MPI_INT, &half);
    MPI_Type_commit(&half);
    int *r = malloc((size_t) BIG * sizeof(int));
    for (size_t i = 0; i < BIG; i++)
        v[i] = i % 2 ? rank : (int) (i % 5000) + rank;
    for (size_t i = 0; i < BIG; i++)
        r[i] = -3;
    CHECK_MPI(MPI_Reduce(v, r, 1, half, MPI_SUM, root, MPI_COMM_WORLD));
    if (rank == root) {
        bad = 0;
        for (size_t i = 0; i < BIG && bad < 3; i++) {
            int want = i % 2 ? -3 : (int) (i % 5000) * size + size * (size - 1) / 2;
            if (r[i] != want) {
                MTEST_FAIL("reduce int %zu is %d, expected %d", i, r[i], want);
                bad++;
            }
        }
    }
    free(r);

    /* all-to-all of 2 MB blocks */
    size_t blk = (size_t) 512 * 1024;
    int *s = malloc(blk * (size_t) size * sizeof(int)), *a = malloc(blk * (size_t) size * sizeof(int));
    for (size_t i = 0; i < blk * (size_t) size; i++)
        s[i] = (int) (i / blk) * 1000000 + rank * 10000 + (int) (i % blk % 9999);
    CHECK_MPI(MPI_Alltoall(s, (int) blk, MPI_INT, a, (int) blk, MPI_INT, MPI_COMM_WORLD));
    bad = 0;
    for (size_t i = 0; i < blk * (size_t) size && bad < 3; i++) {
        int want = rank * 1000000 + (int) (i / blk) * 10000 + (int) (i % blk % 9999);
        if (a[i] != want) {
            MTEST_FAIL("alltoall int %zu is %d, expected %d", i, a[i], want);
            bad++;
        }
    }
    free(s);
    free(a);
    free(v);
    MPI_Type_free(&vec);
    MPI_Type_free(&half);
    return MTest_Finalize();
}
