/*
 * Size and bounds of MPI_Type_create_darray (and _c): block, cyclic(1), cyclic(k), none and
 * MPI_DISTRIBUTE_DFLT_DARG, in both orders, with uneven divisions where the last processes get
 * less or nothing.
 *
 * MPI 4.1, 5.1.4: the process grid is numbered row-major whatever the order; along each dimension
 * BLOCK(b) gives process c the indices [c*b, (c+1)*b) (b = ceil(gsize/psize) by default), CYCLIC(b)
 * gives it the blocks of b indices whose number is c modulo psize (b = 1 by default), NONE gives
 * every index. The type has lb 0 and extent product(gsizes) * extent(oldtype). One process builds
 * the type of every rank: their sizes must add up to the whole array. After the hand-computed
 * cases, a sweep compares every rank of many grids with the brute-force reference of arrayref.h.
 * Sizes: int 4, double 8.
 */
#include "arrayref.h"

#define INTS(...) ((int[]) { __VA_ARGS__ })
#define COUNTS(...) ((MPI_Count[]) { __VA_ARGS__ })
#define B MPI_DISTRIBUTE_BLOCK
#define C MPI_DISTRIBUTE_CYCLIC
#define N MPI_DISTRIBUTE_NONE
#define DFLT MPI_DISTRIBUTE_DFLT_DARG

/* CHECK_DARRAY(size, rank, ndims, gsizes, distribs, dargs, psizes, order, oldtype,
 *              expected size, true_lb, true_extent; extent): one rank's type. */
#define CHECK_DARRAY(sz, rk, nd, g, dist, darg, p, order, old, esize, etlb, etext, eext) do { \
        MPI_Datatype t_; \
        CHECK_MPI(MPI_Type_create_darray(sz, rk, nd, g, dist, darg, p, order, old, &t_)); \
        bounds_check(__LINE__, "darray rank " #rk, t_, esize, 0, eext, etlb, etext); \
        MPI_Type_free(&t_); \
    } while (0)

static void block(void)
{
    /* 10 ints over 3, default darg 4: [0,4) [4,8) [8,10) -- the last gets less */
    CHECK_DARRAY(3, 0, 1, INTS(10), INTS(B), INTS(DFLT), INTS(3), MPI_ORDER_C, MPI_INT, 16, 0, 16, 40);
    CHECK_DARRAY(3, 1, 1, INTS(10), INTS(B), INTS(DFLT), INTS(3), MPI_ORDER_C, MPI_INT, 16, 16, 16, 40);
    CHECK_DARRAY(3, 2, 1, INTS(10), INTS(B), INTS(DFLT), INTS(3), MPI_ORDER_C, MPI_INT, 8, 32, 8, 40);
    /* darg 5: [0,5) [5,10) and nothing for the last */
    CHECK_DARRAY(3, 1, 1, INTS(10), INTS(B), INTS(5), INTS(3), MPI_ORDER_FORTRAN, MPI_INT, 20, 20, 20, 40);
    CHECK_DARRAY(3, 2, 1, INTS(10), INTS(B), INTS(5), INTS(3), MPI_ORDER_FORTRAN, MPI_INT, 0, 0, 0, 40);
    /* 9 over 4 by default: blocks of 3, so rank 3 gets nothing */
    CHECK_DARRAY(4, 2, 1, INTS(9), INTS(B), INTS(DFLT), INTS(4), MPI_ORDER_C, MPI_INT, 12, 24, 12, 36);
    CHECK_DARRAY(4, 3, 1, INTS(9), INTS(B), INTS(DFLT), INTS(4), MPI_ORDER_C, MPI_INT, 0, 0, 0, 36);
    /* an exact division */
    CHECK_DARRAY(2, 1, 1, INTS(8), INTS(B), INTS(4), INTS(2), MPI_ORDER_C, MPI_DOUBLE, 32, 32, 32, 64);
}

static void cyclic(void)
{
    /* cyclic(1) (the default) of 10 over 3: {0,3,6,9} {1,4,7} {2,5,8} */
    CHECK_DARRAY(3, 0, 1, INTS(10), INTS(C), INTS(DFLT), INTS(3), MPI_ORDER_C, MPI_INT, 16, 0, 40, 40);
    CHECK_DARRAY(3, 1, 1, INTS(10), INTS(C), INTS(1), INTS(3), MPI_ORDER_C, MPI_INT, 12, 4, 28, 40);
    CHECK_DARRAY(3, 2, 1, INTS(10), INTS(C), INTS(DFLT), INTS(3), MPI_ORDER_FORTRAN, MPI_INT, 12, 8, 28, 40);
    /* cyclic(2) of 11 over 3: {0,1,6,7} {2,3,8,9} {4,5,10} -- the last block is short */
    CHECK_DARRAY(3, 0, 1, INTS(11), INTS(C), INTS(2), INTS(3), MPI_ORDER_C, MPI_INT, 16, 0, 32, 44);
    CHECK_DARRAY(3, 1, 1, INTS(11), INTS(C), INTS(2), INTS(3), MPI_ORDER_C, MPI_INT, 16, 8, 32, 44);
    CHECK_DARRAY(3, 2, 1, INTS(11), INTS(C), INTS(2), INTS(3), MPI_ORDER_C, MPI_INT, 12, 16, 28, 44);
    /* cyclic(4) of 5 over 3: {0..3} {4} and nothing */
    CHECK_DARRAY(3, 0, 1, INTS(5), INTS(C), INTS(4), INTS(3), MPI_ORDER_C, MPI_INT, 16, 0, 16, 20);
    CHECK_DARRAY(3, 1, 1, INTS(5), INTS(C), INTS(4), INTS(3), MPI_ORDER_C, MPI_INT, 4, 16, 4, 20);
    CHECK_DARRAY(3, 2, 1, INTS(5), INTS(C), INTS(4), INTS(3), MPI_ORDER_C, MPI_INT, 0, 0, 0, 20);
    /* cyclic(3) of 7 over 2: {0,1,2,6} {3,4,5}: rank 0 ends with a short block of 1 */
    CHECK_DARRAY(2, 0, 1, INTS(7), INTS(C), INTS(3), INTS(2), MPI_ORDER_C, MPI_DOUBLE, 32, 0, 56, 56);
    CHECK_DARRAY(2, 1, 1, INTS(7), INTS(C), INTS(3), INTS(2), MPI_ORDER_C, MPI_DOUBLE, 24, 24, 24, 56);
    /* a block larger than the dimension: all of it on rank 0 */
    CHECK_DARRAY(2, 0, 1, INTS(3), INTS(C), INTS(8), INTS(2), MPI_ORDER_C, MPI_INT, 12, 0, 12, 12);
    CHECK_DARRAY(2, 1, 1, INTS(3), INTS(C), INTS(8), INTS(2), MPI_ORDER_C, MPI_INT, 0, 0, 0, 12);
}

static void multi_dim(void)
{
    /* {4, 6} ints, BLOCK x CYCLIC(2) over a 2x2 grid; rank r is at (r/2, r%2) in both orders.
     * Dimension 0 (block 2): coordinate 0 -> rows 0,1; 1 -> rows 2,3.
     * Dimension 1 (cyclic 2): coordinate 0 -> columns 0,1,4,5; 1 -> columns 2,3. */
    const int *g = INTS(4, 6), *dist = INTS(B, C), *dargs = INTS(DFLT, 2), *p = INTS(2, 2);
    /* C (x0*6 + x1): rank 3 -> {14,15,20,21}; rank 0 -> {0,1,4,5,6,7,10,11} */
    CHECK_DARRAY(4, 3, 2, g, dist, dargs, p, MPI_ORDER_C, MPI_INT, 16, 56, 32, 96);
    CHECK_DARRAY(4, 0, 2, g, dist, dargs, p, MPI_ORDER_C, MPI_INT, 32, 0, 48, 96);
    /* Fortran (x0 + x1*4): rank 3 -> {10,11,14,15}; rank 1 -> {8,9,12,13};
     * rank 2 -> {2,3,6,7,18,19,22,23} */
    CHECK_DARRAY(4, 3, 2, g, dist, dargs, p, MPI_ORDER_FORTRAN, MPI_INT, 16, 40, 24, 96);
    CHECK_DARRAY(4, 1, 2, g, dist, dargs, p, MPI_ORDER_FORTRAN, MPI_INT, 16, 32, 24, 96);
    CHECK_DARRAY(4, 2, 2, g, dist, dargs, p, MPI_ORDER_FORTRAN, MPI_INT, 32, 8, 88, 96);

    /* NONE x BLOCK over a 1x4 grid, {3, 8} ints: rank 2 has columns 4,5 of every row.
     * C (x0*8 + x1): 4 .. 21; Fortran (x0 + x1*3): 12 .. 17 */
    CHECK_DARRAY(4, 2, 2, INTS(3, 8), INTS(N, B), INTS(DFLT, DFLT), INTS(1, 4), MPI_ORDER_C, MPI_INT,
                 24, 16, 72, 96);
    CHECK_DARRAY(4, 2, 2, INTS(3, 8), INTS(N, B), INTS(DFLT, DFLT), INTS(1, 4), MPI_ORDER_FORTRAN, MPI_INT,
                 24, 48, 24, 96);

    /* 3-D {2, 3, 4} ints: CYCLIC(1) x NONE x BLOCK(3) over 2x1x2; rank 3 = (1, 0, 1) has
     * (1, j, 3) for j = 0..2. C ((x0*3 + x1)*4 + x2): 15, 19, 23; Fortran (x0 + x1*2 + x2*6): 19, 21, 23 */
    const int *g3 = INTS(2, 3, 4), *dist3 = INTS(C, N, B), *dargs3 = INTS(1, DFLT, 3), *p3 = INTS(2, 1, 2);
    CHECK_DARRAY(4, 3, 3, g3, dist3, dargs3, p3, MPI_ORDER_C, MPI_INT, 12, 60, 36, 96);
    CHECK_DARRAY(4, 3, 3, g3, dist3, dargs3, p3, MPI_ORDER_FORTRAN, MPI_INT, 12, 76, 20, 96);
    /* rank 2 = (1, 0, 0): (1, j, 0..2). C: 12..22; Fortran: 1 + 2j + 6k -> 1 .. 17 */
    CHECK_DARRAY(4, 2, 3, g3, dist3, dargs3, p3, MPI_ORDER_C, MPI_INT, 36, 48, 44, 96);
    CHECK_DARRAY(4, 2, 3, g3, dist3, dargs3, p3, MPI_ORDER_FORTRAN, MPI_INT, 36, 4, 68, 96);
}

/* Old types that are not basic, and the _c twin. */
static void derived_and_large(void)
{
    MPI_Datatype old, t;

    /* an int in a 12-byte cell from -4: copies 12 bytes apart, data at +0 in each.
     * cyclic(1) of 5 over 2, rank 1: copies 1 and 3 -> data [12,16) and [36,40); extent 60 */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 12, &old));
    CHECK_DARRAY(2, 1, 1, INTS(5), INTS(C), INTS(1), INTS(2), MPI_ORDER_C, old, 8, 12, 28, 60);
    /* the old type may be freed while the darray lives */
    CHECK_MPI(MPI_Type_create_darray(2, 0, 1, INTS(5), INTS(B), INTS(DFLT), INTS(2), MPI_ORDER_C, old, &t));
    MPI_Type_free(&old);
    CHECK_MPI(MPI_Type_commit(&t));
    /* block 3: copies 0..2 -> data [0,4) .. [24,28) */
    CHECK_BOUNDS(t, 12, 0, 60, 0, 28);
    MPI_Type_free(&t);

    /* _c: 2^33 doubles in one dimension, block over 2: rank 1 has the upper half */
    const MPI_Count G = (MPI_Count) 1 << 33;
    CHECK_NEW_BOUNDS(t, MPI_Type_create_darray_c(2, 1, 1, COUNTS(G), INTS(B), INTS(DFLT), INTS(2), MPI_ORDER_C,
                                                 MPI_DOUBLE, &t),
                     G / 2 * 8, 0, G * 8, G / 2 * 8, G / 2 * 8);
    /* _c, small: the same as the classic call */
    CHECK_NEW_BOUNDS(t, MPI_Type_create_darray_c(3, 2, 1, COUNTS(11), INTS(C), INTS(2), INTS(3), MPI_ORDER_C,
                                                 MPI_INT, &t),
                     12, 0, 44, 16, 28);
}

/* Many grids: every rank against the reference, and the ranks' sizes add up to the array. */
static void sweep(void)
{
    static const int dists[] = { B, C, N };
    static const int dargs_of[] = { DFLT, 1, 2, 3 };
    long long idx[128];
    int cases = 0;

    for (int nd = 1; nd <= 3; nd++) {
        /* every combination of distribution and darg per dimension, for a few shapes and grids */
        int combos = 1;
        for (int d = 0; d < nd; d++)
            combos *= 3 * 4;
        for (int combo = 0; combo < combos; combo++) {
            int gs[3], dist[3], darg[3], ps[3], size = 1, rest = combo, valid = 1;
            for (int d = 0; d < nd; d++) {
                dist[d] = dists[rest % 3];
                darg[d] = dargs_of[(rest / 3) % 4];
                rest /= 12;
                gs[d] = (nd == 3 ? 3 : 7) + ((combo + d) % 3);     /* uneven sizes */
                ps[d] = dist[d] == N ? 1 : 2 + (d + combo / 7) % 2;
                /* BLOCK needs darg * psize >= gsize */
                if (dist[d] == B && darg[d] != DFLT && darg[d] * ps[d] < gs[d])
                    valid = 0;
                size *= ps[d];
            }
            if (!valid)
                continue;
            for (int o = 0; o < 2; o++) {
                int order = o ? MPI_ORDER_FORTRAN : MPI_ORDER_C;
                MPI_Datatype old = o ? MPI_DOUBLE : MPI_INT;
                long long sum = 0;
                for (int rank = 0; rank < size; rank++) {
                    MPI_Datatype t;
                    MPI_Count tsize = -1;
                    char what[160];
                    snprintf(what, sizeof what, "darray nd=%d g=%d,%d,%d dist=%d,%d,%d darg=%d,%d,%d p=%d,%d,%d "
                             "rank %d %s", nd, gs[0], nd > 1 ? gs[1] : 0, nd > 2 ? gs[2] : 0,
                             dist[0], nd > 1 ? dist[1] : 0, nd > 2 ? dist[2] : 0,
                             darg[0], nd > 1 ? darg[1] : 0, nd > 2 ? darg[2] : 0,
                             ps[0], nd > 1 ? ps[1] : 0, nd > 2 ? ps[2] : 0, rank, o ? "Fortran" : "C");
                    long long n = ref_darray(size, rank, nd, gs, dist, darg, ps, order, idx);
                    CHECK_MPI(MPI_Type_create_darray(size, rank, nd, gs, dist, darg, ps, order, old, &t));
                    ref_check(__LINE__, what, t, old, ref_total(nd, gs), n, idx);
                    CHECK_MPI(MPI_Type_size_c(t, &tsize));
                    sum += tsize;
                    MPI_Type_free(&t);
                }
                int osize;
                MPI_Type_size(old, &osize);
                CHECK(sum == ref_total(nd, gs) * osize, "darray nd=%d combo %d: the ranks hold %lld bytes, "
                      "the array %lld", nd, combo, sum, ref_total(nd, gs) * osize);
                cases++;
            }
        }
    }
    CHECK(cases > 500, "only %d grids were checked", cases);
}

/* For ref_no_leak: a darray the library composes from several types. */
static int make_darray(MPI_Datatype *t)
{
    return MPI_Type_create_darray(8, 5, 3, INTS(5, 6, 7), INTS(C, B, C), INTS(2, DFLT, 1), INTS(2, 2, 2),
                                  MPI_ORDER_FORTRAN, MPI_INT, t);
}

int main(int argc, char **argv)
{
    bounds_init(&argc, &argv);
    block();
    cyclic();
    multi_dim();
    derived_and_large();
    sweep();
    ref_no_leak(200000, make_darray);
    return MTest_Finalize();
}
