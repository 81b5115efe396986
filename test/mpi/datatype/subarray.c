/*
 * Size and bounds of MPI_Type_create_subarray (and _c) in both orders.
 *
 * MPI 4.1, 5.1.3: the subarray type selects the box starts[d] <= x_d < starts[d] + subsizes[d] of
 * the global array (row-major for MPI_ORDER_C, column-major for MPI_ORDER_FORTRAN) and has lb 0 and
 * extent product(sizes) * extent(oldtype); its size is product(subsizes) * size(oldtype) and its true
 * bounds are those of the first and last selected elements. The hand-computed cases are followed by
 * a sweep checked against the brute-force reference of arrayref.h.
 * Sizes: int 4, double 8. Linear index of (x0, x1) in a {4, 6} array: C x0*6 + x1, Fortran x0 + x1*4.
 */
#include "arrayref.h"

#define INTS(...) ((int[]) { __VA_ARGS__ })
#define COUNTS(...) ((MPI_Count[]) { __VA_ARGS__ })

/* A hand-computed case: the arguments, then the expected size, lb, extent, true_lb, true_extent. */
typedef struct {
    int line, ndims, sizes[3], subsizes[3], starts[3], order;
    MPI_Datatype old;
    MPI_Count size, lb, extent, true_lb, true_extent;
} Subarray_case;

static const Subarray_case hand[] = {
    /* 2-D C: rows 1-2, columns 2-4 -> elements 8..16 */
    { __LINE__, 2, { 4, 6 }, { 2, 3 }, { 1, 2 }, MPI_ORDER_C, MPI_INT, 24, 0, 96, 32, 36 },
    /* the same box, Fortran: elements 1+2*4 = 9 .. 2+4*4 = 18 */
    { __LINE__, 2, { 4, 6 }, { 2, 3 }, { 1, 2 }, MPI_ORDER_FORTRAN, MPI_INT, 24, 0, 96, 36, 40 },

    /* 3-D {3,4,5} box {2,2,3} at {1,2,2} of doubles.
     * C: (x0*4 + x1)*5 + x2: first (1,2,2) = 32, last (2,3,4) = 59 */
    { __LINE__, 3, { 3, 4, 5 }, { 2, 2, 3 }, { 1, 2, 2 }, MPI_ORDER_C, MPI_DOUBLE, 96, 0, 480, 256, 224 },
    /* Fortran: x0 + x1*3 + x2*12: first 1+6+24 = 31, last 2+9+48 = 59 */
    { __LINE__, 3, { 3, 4, 5 }, { 2, 2, 3 }, { 1, 2, 2 }, MPI_ORDER_FORTRAN, MPI_DOUBLE, 96, 0, 480, 248, 232 },

    /* starts at the edges: the last corner (2..3, 3..5) -> 15..23, the data ends at the extent */
    { __LINE__, 2, { 4, 6 }, { 2, 3 }, { 2, 3 }, MPI_ORDER_C, MPI_INT, 24, 0, 96, 60, 36 },
    /* the first corner: 0..8 */
    { __LINE__, 2, { 4, 6 }, { 2, 3 }, { 0, 0 }, MPI_ORDER_C, MPI_INT, 24, 0, 96, 0, 36 },
    /* the last corner in Fortran order: (2..3) + (3..5)*4 -> 14..23 */
    { __LINE__, 2, { 4, 6 }, { 2, 3 }, { 2, 3 }, MPI_ORDER_FORTRAN, MPI_INT, 24, 0, 96, 56, 40 },

    /* the full array: as large as a contiguous of 24 ints */
    { __LINE__, 2, { 4, 6 }, { 4, 6 }, { 0, 0 }, MPI_ORDER_C, MPI_INT, 96, 0, 96, 0, 96 },
    { __LINE__, 2, { 4, 6 }, { 4, 6 }, { 0, 0 }, MPI_ORDER_FORTRAN, MPI_INT, 96, 0, 96, 0, 96 },
    /* full rows only (C): rows 1-2 are one run of 12 ints */
    { __LINE__, 2, { 4, 6 }, { 2, 6 }, { 1, 0 }, MPI_ORDER_C, MPI_INT, 48, 0, 96, 24, 48 },

    /* one element: (3, 5) is the last one in both orders */
    { __LINE__, 2, { 4, 6 }, { 1, 1 }, { 3, 5 }, MPI_ORDER_C, MPI_INT, 4, 0, 96, 92, 4 },
    /* (1, 2): C 8, Fortran 9 */
    { __LINE__, 2, { 4, 6 }, { 1, 1 }, { 1, 2 }, MPI_ORDER_C, MPI_INT, 4, 0, 96, 32, 4 },
    { __LINE__, 2, { 4, 6 }, { 1, 1 }, { 1, 2 }, MPI_ORDER_FORTRAN, MPI_INT, 4, 0, 96, 36, 4 },

    /* 1-D: 4 of 10 ints from 3; the order does not matter */
    { __LINE__, 1, { 10 }, { 4 }, { 3 }, MPI_ORDER_C, MPI_INT, 16, 0, 40, 12, 16 },
    { __LINE__, 1, { 10 }, { 4 }, { 3 }, MPI_ORDER_FORTRAN, MPI_INT, 16, 0, 40, 12, 16 },
};

static void hand_cases(void)
{
    for (size_t i = 0; i < sizeof hand / sizeof hand[0]; i++) {
        const Subarray_case *c = &hand[i];
        MPI_Datatype t;
        CHECK_MPI(MPI_Type_create_subarray(c->ndims, c->sizes, c->subsizes, c->starts, c->order, c->old, &t));
        bounds_check(c->line, "MPI_Type_create_subarray", t, c->size, c->lb, c->extent, c->true_lb, c->true_extent);
        MPI_Type_free(&t);
    }
}

/* Old types that are not basic: the copies are extent(old) apart, and the data inside each copy
 * is where old puts it. */
static void derived_old(void)
{
    MPI_Datatype old, t;

    /* an int in a 12-byte cell starting 4 bytes before it: [-4, 8), data [0, 4).
     * 2 of 5 from 1: copies at 12 and 24, data [12, 16) and [24, 28); lb 0, extent 60 */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 12, &old));
    CHECK_NEW_BOUNDS(t, MPI_Type_create_subarray(1, INTS(5), INTS(2), INTS(1), MPI_ORDER_C, old, &t), 8, 0, 60, 12, 16);
    MPI_Type_free(&old);

    /* vector(2, 1, 2, int): size 8, extent 12, data [0, 12).
     * {3,4} box {2,2} at {1,1}, C: first 1*4+1 = 5 -> 60, last 2*4+2 = 10 -> [120, 132) */
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &old));
    CHECK_NEW_BOUNDS(t, MPI_Type_create_subarray(2, INTS(3, 4), INTS(2, 2), INTS(1, 1), MPI_ORDER_C, old, &t),
                     32, 0, 144, 60, 72);
    /* the old type may be freed while the subarray lives */
    CHECK_MPI(MPI_Type_create_subarray(2, INTS(3, 4), INTS(2, 2), INTS(1, 1), MPI_ORDER_FORTRAN, old, &t));
    MPI_Type_free(&old);
    /* Fortran: x0 + x1*3: first 1+3 = 4 -> 48, last 2+6 = 8 -> [96, 108) */
    CHECK_BOUNDS(t, 32, 0, 144, 48, 60);
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_BOUNDS(t, 32, 0, 144, 48, 60);
    MPI_Type_free(&t);

    /* a subarray of subarrays: the inner one (1 of {4} from 2, ints) has extent 16, data [8, 12);
     * outer 1-D: 2 of 3 from 1 -> copies at 16 and 32, data [24, 28) and [40, 44); extent 48 */
    CHECK_MPI(MPI_Type_create_subarray(1, INTS(4), INTS(1), INTS(2), MPI_ORDER_C, MPI_INT, &old));
    CHECK_NEW_BOUNDS(t, MPI_Type_create_subarray(1, INTS(3), INTS(2), INTS(1), MPI_ORDER_C, old, &t), 8, 0, 48, 24, 20);
    MPI_Type_free(&old);
}

/* The _c twin, with dimensions whose products do not fit an int. */
static void large(void)
{
    MPI_Datatype t;
    const MPI_Count M = (MPI_Count) 1 << 20;

    CHECK_NEW_BOUNDS(t, MPI_Type_create_subarray_c(2, COUNTS(4, 6), COUNTS(2, 3), COUNTS(1, 2), MPI_ORDER_C,
                                                   MPI_INT, &t),
                     24, 0, 96, 32, 36);

    /* {M, M, 4} doubles, box {M, 4096, 4} at {0, M/2, 0}, C order:
     * first (0, M/2, 0) = 2^21, last (M-1, M/2+4095, 3) = ((M-1)*M + M/2 + 4095)*4 + 3;
     * size 2^34 doubles = 2^37 bytes; extent 2^42 doubles = 2^45 bytes */
    MPI_Count first = (M / 2) * 4, last = ((M - 1) * M + M / 2 + 4095) * 4 + 3;
    CHECK_NEW_BOUNDS(t, MPI_Type_create_subarray_c(3, COUNTS(M, M, 4), COUNTS(M, 4096, 4), COUNTS(0, M / 2, 0),
                                                   MPI_ORDER_C, MPI_DOUBLE, &t),
                     (MPI_Count) 1 << 37, 0, (MPI_Count) 1 << 45, first * 8, (last - first + 1) * 8);
}

/* Every box of a few small shapes, both orders, against the brute-force reference. */
static void sweep(void)
{
    static const struct { int nd, sizes[3]; } shapes[] = {
        { 1, { 5 } }, { 2, { 3, 4 } }, { 2, { 1, 5 } }, { 3, { 2, 3, 2 } }, { 3, { 3, 1, 2 } },
    };
    long long idx[64];
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int nd = shapes[s].nd;
        const int *sizes = shapes[s].sizes;
        /* an odometer over (subsize - 1, start) of every dimension, each digit in [0, size) */
        int digits[6] = { 0 }, d = 0;
        while (d < 2 * nd) {
            int sub[3], st[3], valid = 1;
            for (int k = 0; k < nd; k++) {
                sub[k] = digits[2 * k] + 1;
                st[k] = digits[2 * k + 1];
                valid = valid && st[k] + sub[k] <= sizes[k];
            }
            for (int o = 0; valid && o < 2; o++) {
                int order = o ? MPI_ORDER_FORTRAN : MPI_ORDER_C;
                MPI_Datatype t, old = o ? MPI_DOUBLE : MPI_SHORT;
                char what[128];
                snprintf(what, sizeof what, "subarray shape %zu sub=%d,%d,%d starts=%d,%d,%d %s", s,
                         sub[0], nd > 1 ? sub[1] : 0, nd > 2 ? sub[2] : 0,
                         st[0], nd > 1 ? st[1] : 0, nd > 2 ? st[2] : 0, o ? "Fortran" : "C");
                long long n = ref_subarray(nd, sizes, sub, st, order, idx);
                CHECK_MPI(MPI_Type_create_subarray(nd, sizes, sub, st, order, old, &t));
                ref_check(__LINE__, what, t, old, ref_total(nd, sizes), n, idx);
                MPI_Type_free(&t);
            }
            for (d = 0; d < 2 * nd && ++digits[d] == sizes[d / 2]; d++)
                digits[d] = 0;
        }
    }
}

/* For ref_no_leak: a subarray the library composes from several types. */
static int make_subarray(MPI_Datatype *t)
{
    return MPI_Type_create_subarray(3, INTS(3, 4, 5), INTS(2, 2, 3), INTS(1, 2, 2), MPI_ORDER_C, MPI_INT, t);
}

int main(int argc, char **argv)
{
    bounds_init(&argc, &argv);
    hand_cases();
    derived_old();
    large();
    sweep();
    ref_no_leak(250000, make_subarray);
    return MTest_Finalize();
}
