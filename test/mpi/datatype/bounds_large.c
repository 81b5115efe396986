/*
 * Sizes and bounds beyond 2^31: the large-count constructors (_c) with counts, blocklengths and
 * displacements that do not fit an int, and classic constructors whose overlap makes the size
 * huge. CHECK_BOUNDS (bounds.h) checks the _c and _x queries exactly, MPI_Type_size giving
 * MPI_UNDEFINED when the size exceeds INT_MAX (MPI 4.1, 5.1.5), and MPI_Type_get_extent /
 * get_true_extent returning the values, which fit MPI_Aint (64 bits).
 * Nothing here is committed or used: the types only describe memory.
 * Sizes: char 1, short 2, int 4, double 8.
 */
#include "bounds.h"

#define K30 ((MPI_Count) 1 << 30)
#define K31 ((MPI_Count) 1 << 31)
#define K32 ((MPI_Count) 1 << 32)

static void size_limit_cases(void)
{
    MPI_Datatype t;

    /* INT_MAX bytes: the int query still answers */
    CHECK_NEW_BOUNDS(t, MPI_Type_contiguous(INT_MAX, MPI_CHAR, &t), 2147483647, 0, 2147483647, 0, 2147483647);

    /* 2^31 bytes: one too many for an int */
    CHECK_NEW_BOUNDS(t, MPI_Type_contiguous_c(K31, MPI_CHAR, &t), 2147483648, 0, 2147483648, 0, 2147483648);

    /* 3 * 2^30 ints = 12 GiB */
    CHECK_NEW_BOUNDS(t, MPI_Type_contiguous_c(3 * K30, MPI_INT, &t), 12884901888, 0, 12884901888, 0, 12884901888);

    /* contiguous of contiguous: 2^20 blocks of 2^20 ints = 2^42 bytes */
    {
        MPI_Datatype inner;
        CHECK_MPI(MPI_Type_contiguous(1 << 20, MPI_INT, &inner));
        CHECK_NEW_BOUNDS(t, MPI_Type_contiguous_c(1 << 20, inner, &t),
                         4398046511104, 0, 4398046511104, 0, 4398046511104);
        MPI_Type_free(&inner);
    }
}

static void large_constructor_cases(void)
{
    MPI_Datatype t;

    /* small values through a _c constructor agree with the classic one:
     * vector(3, 2, -4, INT) = [-32, 8) */
    CHECK_NEW_BOUNDS(t, MPI_Type_vector_c(3, 2, -4, MPI_INT, &t), 24, -32, 40, -32, 40);

    /* vector_c(2^31 + 1, 1, 2, CHAR): chars every 2 bytes, the last at 2^32:
     * [0, 2^32 + 1), size 2^31 + 1 */
    CHECK_NEW_BOUNDS(t, MPI_Type_vector_c(K31 + 1, 1, 2, MPI_CHAR, &t), 2147483649, 0, 4294967297, 0, 4294967297);

    /* hvector_c(2, 2^31, -2^33, DOUBLE): blocks of 2^34 bytes at 0 and -2^33 (overlapping):
     * [0, 2^34) and [-2^33, 2^33): [-2^33, 2^34), extent 3 * 2^33; size 2^35 */
    CHECK_NEW_BOUNDS(t, MPI_Type_create_hvector_c(2, K31, -(K32 * 2), MPI_DOUBLE, &t),
                     34359738368, -8589934592, 25769803776, -8589934592, 25769803776);

    /* indexed_c(2, {2^31, 1}, {-2^31, 2^32}, SHORT): block 0 = 2^32 bytes at -2^32: [-2^32, 0);
     * block 1 = one short at 2^33: [2^33, 2^33 + 2). Extent 3 * 2^32 + 2, size 2^32 + 2 */
    {
        MPI_Count bl[2] = { K31, 1 }, disp[2] = { -K31, K32 };
        CHECK_NEW_BOUNDS(t, MPI_Type_indexed_c(2, bl, disp, MPI_SHORT, &t),
                         4294967298, -4294967296, 12884901890, -4294967296, 12884901890);
    }

    /* hindexed_c(2, {2^32, 0}, {8, -2^50}, BYTE): the zero-length block bounds nothing:
     * [8, 2^32 + 8) */
    {
        MPI_Count bl[2] = { K32, 0 }, disp[2] = { 8, -((MPI_Count) 1 << 50) };
        CHECK_NEW_BOUNDS(t, MPI_Type_create_hindexed_c(2, bl, disp, MPI_BYTE, &t),
                         4294967296, 8, 4294967296, 8, 4294967296);
    }

    /* indexed_block_c(3, 3, {-2^40, 0, 5}, CHAR): a small size over a huge extent:
     * [-2^40, -2^40 + 3) [0, 3) [5, 8): [-2^40, 8), size 9 (the int query answers 9) */
    {
        MPI_Count disp[3] = { -((MPI_Count) 1 << 40), 0, 5 };
        CHECK_NEW_BOUNDS(t, MPI_Type_create_indexed_block_c(3, 3, disp, MPI_CHAR, &t),
                         9, -1099511627776, 1099511627784, -1099511627776, 1099511627784);
    }

    /* hindexed_block_c(2, 2^30, {0, 2^40}, INT): blocks of 2^32 bytes at 0 and 2^40:
     * [0, 2^40 + 2^32), size 2^33 */
    {
        MPI_Count disp[2] = { 0, (MPI_Count) 1 << 40 };
        CHECK_NEW_BOUNDS(t, MPI_Type_create_hindexed_block_c(2, K30, disp, MPI_INT, &t),
                         8589934592, 0, 1103806595072, 0, 1103806595072);
    }

    /* struct_c({2^31 doubles @0, char @2^35}): data [0, 2^34) and [2^35, 2^35 + 1); padding to 8:
     * extent 2^35 + 8; true extent 2^35 + 1; size 2^34 + 1 */
    {
        MPI_Count bl[2] = { K31, 1 }, disp[2] = { 0, (MPI_Count) 1 << 35 };
        MPI_Datatype types[2] = { MPI_DOUBLE, MPI_CHAR };
        CHECK_NEW_BOUNDS(t, MPI_Type_create_struct_c(2, bl, disp, types, &t),
                         17179869185, 0, 34359738376, 0, 34359738369);
    }

    /* resized_c(INT, -2^40, 2^41): bounds are the arguments, data [0, 4) */
    CHECK_NEW_BOUNDS(t, MPI_Type_create_resized_c(MPI_INT, -((MPI_Count) 1 << 40), (MPI_Count) 1 << 41, &t),
                     4, -1099511627776, 2199023255552, 0, 4);
}

/* Classic constructors, int arguments, sizes past 2^31 through overlap: the size counts every
 * element however the blocks overlap; the extent only spans them. */
static void overlap_cases(void)
{
    MPI_Datatype t;

    /* vector(2^16, 2^16, 0, DOUBLE): 2^16 blocks of 2^16 doubles all at 0: [0, 2^19), size 2^35 */
    CHECK_NEW_BOUNDS(t, MPI_Type_vector(1 << 16, 1 << 16, 0, MPI_DOUBLE, &t), 34359738368, 0, 524288, 0, 524288);

    /* hvector(2^16, 2^16, 1, CHAR): block k = [k, k + 2^16): [0, 2^17 - 1), size 2^32 */
    CHECK_NEW_BOUNDS(t, MPI_Type_create_hvector(1 << 16, 1 << 16, 1, MPI_CHAR, &t), 4294967296, 0, 131071, 0, 131071);

    /* vector(2^30, 1, -2, SHORT): shorts at -4k: [-(2^30 - 1) * 4, 2), extent 2^32 - 2,
     * size 2^31 (MPI_UNDEFINED for the int query) */
    CHECK_NEW_BOUNDS(t, MPI_Type_vector(1 << 30, 1, -2, MPI_SHORT, &t),
                     2147483648, -4294967292, 4294967294, -4294967292, 4294967294);

    /* indexed with one block of INT_MAX ints twice at 0: size 2 * (2^31 - 1) * 4, extent
     * (2^31 - 1) * 4 = 8589934588 */
    {
        int bl[2] = { INT_MAX, INT_MAX }, disp[2] = { 0, 0 };
        CHECK_NEW_BOUNDS(t, MPI_Type_indexed(2, bl, disp, MPI_INT, &t), 17179869176, 0, 8589934588, 0, 8589934588);
    }
}

int main(int argc, char **argv)
{
    bounds_init(&argc, &argv);
    size_limit_cases();
    large_constructor_cases();
    overlap_cases();
    return MTest_Finalize();
}
