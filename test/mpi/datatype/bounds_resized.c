/*
 * Size and bounds of MPI_Type_create_resized: negative lb, larger and smaller extents, resized of
 * resized, of a type with markers, of an empty type, and resized types inside contiguous/vector
 * (the FFT2D pattern of DDTBench).
 *
 * resized(old, lb, extent) is old with every previous lb/ub marker erased and new markers at lb
 * and lb + extent (MPI 4.1, 5.1.7): lb and extent are exactly the arguments; size and true bounds
 * are old's. Copies of a resized type inside a vector/contiguous are placed extent apart and each
 * spans [o + lb, o + lb + extent).
 * Sizes: int 4, double 8; complex = contiguous(2, DOUBLE) = 16 bytes.
 */
#include "bounds.h"

static void simple_cases(void)
{
    MPI_Datatype r, rr;

    /* an int with room around it: [-4, 8), data [0, 4) */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 12, &r));
    CHECK_BOUNDS(r, 4, -4, 12, 0, 4);

    /* resized of resized: the old markers are erased, [2, 8); data unchanged */
    CHECK_NEW_BOUNDS(rr, MPI_Type_create_resized(r, 2, 6, &rr), 4, 2, 6, 0, 4);
    /* ... also when the new bounds are inside the old ones */
    CHECK_NEW_BOUNDS(rr, MPI_Type_create_resized(r, 0, 1, &rr), 4, 0, 1, 0, 4);
    MPI_Type_free(&r);

    /* smaller than the data: a double with extent 4 */
    CHECK_NEW_BOUNDS(r, MPI_Type_create_resized(MPI_DOUBLE, 0, 4, &r), 8, 0, 4, 0, 8);

    /* bounds entirely above the data */
    CHECK_NEW_BOUNDS(r, MPI_Type_create_resized(MPI_INT, 10, 2, &r), 4, 10, 2, 0, 4);

    /* extent 0 */
    CHECK_NEW_BOUNDS(r, MPI_Type_create_resized(MPI_INT, 0, 0, &r), 4, 0, 0, 0, 4);

    /* a pair type: MPI_DOUBLE_INT [0, 16) data [0, 12) shrunk to its data: [0, 12) */
    CHECK_NEW_BOUNDS(r, MPI_Type_create_resized(MPI_DOUBLE_INT, 0, 12, &r), 12, 0, 12, 0, 12);

    /* a type with negative true lb: vector(2, 1, -3, INT) has data [-12, 4);
     * resized to [-100, 100) */
    {
        MPI_Datatype v;
        CHECK_MPI(MPI_Type_vector(2, 1, -3, MPI_INT, &v));
        CHECK_NEW_BOUNDS(r, MPI_Type_create_resized(v, -100, 200, &r), 8, -100, 200, -12, 16);
        MPI_Type_free(&v);
    }
}

/* Resizing replaces markers of any origin, and padding. */
static void marker_cases(void)
{
    MPI_Datatype m, r, e;

    /* M = {LB@-4, int@0, UB@12}; resized(M, 1, 2): [1, 3), data [0, 4) */
    {
        int bl[3] = { 1, 1, 1 };
        MPI_Aint disp[3] = { -4, 0, 12 };
        MPI_Datatype types[3] = { MPI_LB, MPI_INT, MPI_UB };
        CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &m));
        CHECK_NEW_BOUNDS(r, MPI_Type_create_resized(m, 1, 2, &r), 4, 1, 2, 0, 4);
        MPI_Type_free(&m);
    }

    /* a padded struct S = {double@0, char@8} (extent 16, data [0, 9)) resized to its data, the
     * packed-records idiom: [0, 9); contiguous(2, .) puts the copies at 0 and 9: [0, 18) */
    {
        int bl[2] = { 1, 1 };
        MPI_Aint disp[2] = { 0, 8 };
        MPI_Datatype types[2] = { MPI_DOUBLE, MPI_CHAR }, c;
        CHECK_MPI(MPI_Type_create_struct(2, bl, disp, types, &m));
        CHECK_BOUNDS(m, 9, 0, 16, 0, 9);
        CHECK_MPI(MPI_Type_create_resized(m, 0, 9, &r));
        CHECK_BOUNDS(r, 9, 0, 9, 0, 9);
        CHECK_NEW_BOUNDS(c, MPI_Type_contiguous(2, r, &c), 18, 0, 18, 0, 18);
        MPI_Type_free(&r);
        MPI_Type_free(&m);
    }

    /* an empty type resized: markers but no data: [-2, 8), true bounds 0, 0 (decision).
     * contiguous(2, .): copies at 0 and 10: [-2, 18), still no data. (MPICH 4.0.2 gives the
     * contiguous type lb 0, extent 0: it drops the markers of a type without data.) */
    {
        MPI_Datatype c;
        CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &e));
        CHECK_MPI(MPI_Type_create_resized(e, -2, 10, &r));
        CHECK_BOUNDS(r, 0, -2, 10, 0, 0);
        CHECK_NEW_BOUNDS(c, MPI_Type_contiguous(2, r, &c), 0, -2, 20, 0, 0);
        MPI_Type_free(&r);
        MPI_Type_free(&e);
    }
}

/* Resized types repeated by contiguous/vector: copies every extent. */
static void repeated_cases(void)
{
    MPI_Datatype r, t;

    /* r = resized(INT, -4, 12): contiguous(3, r): copies at 0, 12, 24:
     * [-4, 24 + 8 = 32); data [0, 28) */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 12, &r));
    CHECK_NEW_BOUNDS(t, MPI_Type_contiguous(3, r, &t), 12, -4, 36, 0, 28);
    /* vector(2, 1, 3, r): copies at 0 and 36: [-4, 44); data [0, 40) */
    CHECK_NEW_BOUNDS(t, MPI_Type_vector(2, 1, 3, r, &t), 8, -4, 48, 0, 40);
    /* vector(2, 1, -1, r): copies at 0 and -12: [-16, 8); data [-12, 4) */
    CHECK_NEW_BOUNDS(t, MPI_Type_vector(2, 1, -1, r, &t), 8, -16, 24, -12, 16);
    MPI_Type_free(&r);

    /* extent 0: contiguous(3, resized(INT, 0, 0)) has every copy at 0: [0, 0), data [0, 4) */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 0, &r));
    CHECK_NEW_BOUNDS(t, MPI_Type_contiguous(3, r, &t), 12, 0, 0, 0, 4);
    MPI_Type_free(&r);
}

/* FFT2D (DDTBench): an N x N complex matrix distributed by rows over P processes, transposed with
 * MPI_Alltoall. n = N/P.
 *   send = resized(vector(n, n, N, complex), 0, n*16): an n x n block; consecutive blocks (one per
 *          destination) start n complexes apart.
 *   recv = contiguous(n, resized(vector(n, 1, N, complex), 0, 16)): n columns, each a column of
 *          the local matrix, starting one complex apart. */
static void fft2d(int N, int P, MPI_Count send_true_extent)
{
    const int n = N / P;
    MPI_Datatype complex, v, send, col, recv, all;

    CHECK_MPI(MPI_Type_contiguous(2, MPI_DOUBLE, &complex));

    /* the block: n rows of n complexes, rows N*16 bytes apart:
     * ub = (n-1)*N*16 + n*16, size n*n*16 */
    CHECK_MPI(MPI_Type_vector(n, n, N, complex, &v));
    CHECK_BOUNDS(v, (MPI_Count) n * n * 16, 0, send_true_extent, 0, send_true_extent);
    CHECK_MPI(MPI_Type_create_resized(v, 0, n * 16, &send));
    CHECK_BOUNDS(send, (MPI_Count) n * n * 16, 0, n * 16, 0, send_true_extent);
    /* Alltoall sends P such blocks: copies at 0, n*16, ..: [0, P*n*16); data up to
     * (P-1)*n*16 + send_true_extent = the whole local matrix, (n-1)*N*16 + N*16 */
    CHECK_NEW_BOUNDS(all, MPI_Type_contiguous(P, send, &all),
                     (MPI_Count) n * N * 16, 0, (MPI_Count) P * n * 16, 0, (MPI_Count) n * N * 16);

    /* a column: n complexes N*16 apart: ub (n-1)*N*16 + 16, resized to one complex */
    CHECK_MPI(MPI_Type_vector(n, 1, N, complex, &col));
    CHECK_MPI(MPI_Type_create_resized(col, 0, 16, &recv));
    CHECK_BOUNDS(recv, n * 16, 0, 16, 0, (MPI_Count) (n - 1) * N * 16 + 16);
    MPI_Type_free(&col);
    col = recv;
    /* n columns one complex apart: [0, n*16); data up to (n-1)*16 + (n-1)*N*16 + 16, which is
     * the extent of the n x n block again */
    CHECK_MPI(MPI_Type_contiguous(n, col, &recv));
    CHECK_BOUNDS(recv, (MPI_Count) n * n * 16, 0, n * 16, 0, send_true_extent);

    MPI_Type_free(&recv);
    MPI_Type_free(&col);
    MPI_Type_free(&send);
    MPI_Type_free(&v);
    MPI_Type_free(&complex);
}

int main(int argc, char **argv)
{
    bounds_init(&argc, &argv);
    simple_cases();
    marker_cases();
    repeated_cases();
    /* N = 8, P = 2, n = 4: block ub = 3*128 + 64 = 448 */
    fft2d(8, 2, 448);
    /* N = 256, P = 4, n = 64 (a DDTBench class): 63*4096 + 1024 = 259072 */
    fft2d(256, 4, 259072);
    return MTest_Finalize();
}
