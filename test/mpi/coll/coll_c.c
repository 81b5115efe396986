/*
 * The large-count bindings (MPI 4.1 _c functions): every collective with MPI_Count counts and
 * MPI_Aint displacements gives the same results as its int twin. Rank r contributes the values
 * 100 * r + k (k = element), and rank r receives 2 + r % 2 elements in the v/w forms.
 */
#include "colltest.h"

static int val(int r, int k)
{
    return 100 * r + k;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    size_t n = (size_t) size;
    int *in = malloc(8 * n * sizeof(int)), *out = malloc(8 * n * sizeof(int));
    MPI_Count *counts = malloc(n * sizeof(MPI_Count)), *counts2 = malloc(n * sizeof(MPI_Count));
    MPI_Aint *displs = malloc(n * sizeof(MPI_Aint)), *bdispls = malloc(n * sizeof(MPI_Aint));
    MPI_Aint *bdispls2 = malloc(n * sizeof(MPI_Aint));
    MPI_Datatype *types = malloc(n * sizeof(MPI_Datatype));
    int root = size - 1;

    /* bcast, reduce, allreduce */
    for (int k = 0; k < 3; k++)
        in[k] = rank == root ? val(root, k) : -1;
    CHECK_MPI(MPI_Bcast_c(in, (MPI_Count) 3, MPI_INT, root, MPI_COMM_WORLD));
    for (int k = 0; k < 3; k++)
        CHECK_EQ(in[k], val(root, k));
    for (int k = 0; k < 3; k++)
        in[k] = val(rank, k);
    CHECK_MPI(MPI_Reduce_c(in, out, (MPI_Count) 3, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD));
    if (rank == root)
        for (int k = 0; k < 3; k++)
            CHECK_EQ(out[k], val(size - 1, k));
    CHECK_MPI(MPI_Allreduce_c(in, out, (MPI_Count) 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    for (int k = 0; k < 3; k++)
        CHECK_EQ(out[k], 100 * size * (size - 1) / 2 + size * k);

    /* gather, allgather, scatter: 2 elements per rank */
    for (int k = 0; k < 2; k++)
        in[k] = val(rank, k);
    CHECK_MPI(MPI_Gather_c(in, (MPI_Count) 2, MPI_INT, out, (MPI_Count) 2, MPI_INT, root, MPI_COMM_WORLD));
    if (rank == root)
        for (int i = 0; i < size; i++)
            for (int k = 0; k < 2; k++)
                CHECK_EQ(out[2 * i + k], val(i, k));
    CHECK_MPI(MPI_Allgather_c(in, (MPI_Count) 2, MPI_INT, out, (MPI_Count) 2, MPI_INT, MPI_COMM_WORLD));
    for (int i = 0; i < size; i++)
        for (int k = 0; k < 2; k++)
            CHECK_EQ(out[2 * i + k], val(i, k));
    for (int i = 0; i < size; i++)
        for (int k = 0; k < 2; k++)
            in[2 * i + k] = val(i, k);
    CHECK_MPI(MPI_Scatter_c(in, (MPI_Count) 2, MPI_INT, out, (MPI_Count) 2, MPI_INT, root, MPI_COMM_WORLD));
    for (int k = 0; k < 2; k++)
        CHECK_EQ(out[k], val(rank, k));

    /* v forms: rank i's block holds 2 + i % 2 elements at displacement 4 * (size - 1 - i) */
    for (int i = 0; i < size; i++) {
        counts[i] = 2 + i % 2;
        displs[i] = 4 * (MPI_Aint) (size - 1 - i);
    }
    int mine = 2 + rank % 2;
    for (int k = 0; k < mine; k++)
        in[k] = val(rank, k);
    for (size_t i = 0; i < 4 * n; i++)
        out[i] = -1;
    CHECK_MPI(MPI_Gatherv_c(in, (MPI_Count) mine, MPI_INT, out, counts, displs, MPI_INT, root, MPI_COMM_WORLD));
    if (rank == root)
        for (int i = 0; i < size; i++)
            for (int k = 0; k < 4; k++)
                CHECK_EQ(out[displs[i] + k], k < counts[i] ? val(i, k) : -1);
    CHECK_MPI(MPI_Allgatherv_c(in, (MPI_Count) mine, MPI_INT, out, counts, displs, MPI_INT, MPI_COMM_WORLD));
    for (int i = 0; i < size; i++)
        for (int k = 0; k < counts[i]; k++)
            CHECK_EQ(out[displs[i] + k], val(i, k));
    for (int i = 0; i < size; i++)
        for (int k = 0; k < 4; k++)
            in[displs[i] + k] = val(i, k);
    CHECK_MPI(MPI_Scatterv_c(in, counts, displs, MPI_INT, out, (MPI_Count) mine, MPI_INT, root, MPI_COMM_WORLD));
    for (int k = 0; k < mine; k++)
        CHECK_EQ(out[k], val(rank, k));

    /* all-to-all: rank r sends 2 elements val(r, 10 * d + k) to d */
    for (int d = 0; d < size; d++)
        for (int k = 0; k < 2; k++)
            in[2 * d + k] = val(rank, 10 * d + k);
    CHECK_MPI(MPI_Alltoall_c(in, (MPI_Count) 2, MPI_INT, out, (MPI_Count) 2, MPI_INT, MPI_COMM_WORLD));
    for (int s = 0; s < size; s++)
        for (int k = 0; k < 2; k++)
            CHECK_EQ(out[2 * s + k], val(s, 10 * rank + k));
    /* v: send 1 + d % 2 to d at displacement 2 * d, receive 1 + rank % 2 from each at 2 * (size-1-s) */
    for (int p = 0; p < size; p++) {
        counts[p] = 1 + p % 2;
        displs[p] = 2 * (MPI_Aint) p;
        counts2[p] = 1 + rank % 2;
        bdispls[p] = 2 * (MPI_Aint) (size - 1 - p);
    }
    CHECK_MPI(MPI_Alltoallv_c(in, counts, displs, MPI_INT, out, counts2, bdispls, MPI_INT, MPI_COMM_WORLD));
    for (int s = 0; s < size; s++)
        for (int k = 0; k < 1 + rank % 2; k++)
            CHECK_EQ(out[bdispls[s] + k], val(s, 10 * rank + k));
    /* w: the same in byte displacements */
    for (int p = 0; p < size; p++) {
        bdispls2[p] = displs[p] * (MPI_Aint) sizeof(int);
        bdispls[p] *= (MPI_Aint) sizeof(int);
        types[p] = MPI_INT;
    }
    for (size_t i = 0; i < 2 * n; i++)
        out[i] = -1;
    CHECK_MPI(MPI_Alltoallw_c(in, counts, bdispls2, types, out, counts2, bdispls, types, MPI_COMM_WORLD));
    for (int s = 0; s < size; s++)
        for (int k = 0; k < 1 + rank % 2; k++)
            CHECK_EQ(out[bdispls[s] / (MPI_Aint) sizeof(int) + k], val(s, 10 * rank + k));

    free(in), free(out), free(counts), free(counts2), free(displs), free(bdispls), free(bdispls2), free(types);
    return MTest_Finalize();
}
