/*
 * Size and bounds of MPI_Type_indexed, MPI_Type_create_hindexed, MPI_Type_create_indexed_block and
 * MPI_Type_create_hindexed_block: negative and unsorted displacements, zero-length blocks,
 * overlapping blocks, children with lb != 0 and with padding.
 *
 * Block i holds bl[i] copies of old, extent(old) apart, starting at disp[i] * extent(old) bytes
 * (indexed, indexed_block) or disp[i] bytes (hindexed, hindexed_block). The bounds are the min/max
 * over every copy's [o + lb(old), o + ub(old)); the true bounds likewise with the true bounds.
 * A block of length 0 holds no copies, so it bounds nothing wherever it is (project decision:
 * entries with an empty type map contribute nothing). Indexed types never pad.
 * Sizes: short 2, int 4, float 4, double 8 (x86-64).
 */
#include "bounds.h"

static void indexed_cases(void)
{
    MPI_Datatype t;

    /* unsorted, negative: ints [16,24) [0,4) [-8,4): [-8, 24), 6 ints */
    {
        int bl[3] = { 2, 1, 3 }, disp[3] = { 4, 0, -2 };
        CHECK_NEW_BOUNDS(t, MPI_Type_indexed(3, bl, disp, MPI_INT, &t), 24, -8, 32, -8, 32);
    }
    /* a zero-length block far above the data: [0,4) [8,12) only */
    {
        int bl[3] = { 1, 0, 1 }, disp[3] = { 0, 100, 2 };
        CHECK_NEW_BOUNDS(t, MPI_Type_indexed(3, bl, disp, MPI_INT, &t), 8, 0, 12, 0, 12);
    }
    /* a zero-length block below the data: the lb is that of the data, 4 */
    {
        int bl[2] = { 0, 1 }, disp[2] = { -50, 1 };
        CHECK_NEW_BOUNDS(t, MPI_Type_indexed(2, bl, disp, MPI_INT, &t), 4, 4, 4, 4, 4);
    }
    /* only zero-length blocks, and count 0: empty */
    {
        int bl[2] = { 0, 0 }, disp[2] = { 5, 7 };
        CHECK_NEW_EMPTY(t, MPI_Type_indexed(2, bl, disp, MPI_INT, &t));
        CHECK_NEW_EMPTY(t, MPI_Type_indexed(0, bl, disp, MPI_INT, &t));
    }
    /* overlapping blocks: [0,16) and [8,24): [0, 24), but 8 ints counted */
    {
        int bl[2] = { 4, 4 }, disp[2] = { 0, 2 };
        CHECK_NEW_BOUNDS(t, MPI_Type_indexed(2, bl, disp, MPI_INT, &t), 32, 0, 24, 0, 24);
    }
    /* displacements count in extents of old: MPI_SHORT_INT has extent 8 and data [0, 8):
     * blocks at -8 (1 pair) and 16 (2 pairs at 16, 24): [-8, 32), 3 * 6 bytes of data */
    {
        int bl[2] = { 1, 2 }, disp[2] = { -1, 2 };
        CHECK_NEW_BOUNDS(t, MPI_Type_indexed(2, bl, disp, MPI_SHORT_INT, &t), 18, -8, 40, -8, 40);
    }
    /* a child with lb != 0: c = ints at 0 and -8 = [-8, 4), extent 12, size 8.
     * indexed({1, 2}, {1, -1}): one copy at 12 -> [4, 16); two at -12, 0 -> [-20, 4):
     * [-20, 16), 3 copies = 24 bytes */
    {
        MPI_Datatype c;
        int bl[2] = { 1, 2 }, disp[2] = { 1, -1 };
        CHECK_MPI(MPI_Type_vector(2, 1, -2, MPI_INT, &c));
        CHECK_BOUNDS(c, 8, -8, 12, -8, 12);
        CHECK_NEW_BOUNDS(t, MPI_Type_indexed(2, bl, disp, c, &t), 24, -20, 36, -20, 36);
        MPI_Type_free(&c);
    }
}

static void hindexed_cases(void)
{
    MPI_Datatype t;

    /* byte displacements, misaligned and overlapping: doubles [10,18) [-6,10) [0,8):
     * [-6, 18), no padding */
    {
        int bl[3] = { 1, 2, 1 };
        MPI_Aint disp[3] = { 10, -6, 0 };
        CHECK_NEW_BOUNDS(t, MPI_Type_create_hindexed(3, bl, disp, MPI_DOUBLE, &t), 32, -6, 24, -6, 24);
    }
    /* zero-length block at -1000: [8, 24) only */
    {
        int bl[2] = { 0, 2 };
        MPI_Aint disp[2] = { -1000, 8 };
        CHECK_NEW_BOUNDS(t, MPI_Type_create_hindexed(2, bl, disp, MPI_DOUBLE, &t), 16, 8, 16, 8, 16);
    }
    /* empty */
    {
        int bl[1] = { 0 };
        MPI_Aint disp[1] = { 64 };
        CHECK_NEW_EMPTY(t, MPI_Type_create_hindexed(1, bl, disp, MPI_DOUBLE, &t));
    }
    /* a padded child: S = struct {double@0, char@8}, extent 16, data [0, 9).
     * Copies at 0 and -40: bounds [-40, 16), data [-40, 9) */
    {
        MPI_Datatype s;
        int sbl[2] = { 1, 1 }, bl[2] = { 1, 1 };
        MPI_Aint sdisp[2] = { 0, 8 }, disp[2] = { 0, -40 };
        MPI_Datatype stypes[2] = { MPI_DOUBLE, MPI_CHAR };
        CHECK_MPI(MPI_Type_create_struct(2, sbl, sdisp, stypes, &s));
        CHECK_NEW_BOUNDS(t, MPI_Type_create_hindexed(2, bl, disp, s, &t), 18, -40, 56, -40, 49);
        MPI_Type_free(&s);
    }
}

static void block_cases(void)
{
    MPI_Datatype t;

    /* blocks of 2 shorts at 6, -2, 0, 14 bytes: [6,10) [-2,2) [0,4) [14,18): [-2, 18) */
    {
        int disp[4] = { 3, -1, 0, 7 };
        CHECK_NEW_BOUNDS(t, MPI_Type_create_indexed_block(4, 2, disp, MPI_SHORT, &t), 16, -2, 20, -2, 20);
    }
    /* SPECFEM3D_oc shape: a permutation of 0..4, one float each: [0, 20) */
    {
        int disp[5] = { 4, 1, 3, 0, 2 };
        CHECK_NEW_BOUNDS(t, MPI_Type_create_indexed_block(5, 1, disp, MPI_FLOAT, &t), 20, 0, 20, 0, 20);
    }
    /* overlapping blocks of 3 ints at displacements 1 and 0 (ints): [4,16) [0,12) -> [0, 16) */
    {
        int disp[2] = { 1, 0 };
        CHECK_NEW_BOUNDS(t, MPI_Type_create_indexed_block(2, 3, disp, MPI_INT, &t), 24, 0, 16, 0, 16);
    }
    /* blocklength 0: empty wherever the displacements are (MPICH 4.0.2 differs: it reports the
     * span of the displacements, lb -36 extent 4036) */
    {
        int disp[3] = { -9, 4, 1000 };
        CHECK_NEW_EMPTY(t, MPI_Type_create_indexed_block(3, 0, disp, MPI_INT, &t));
    }
    /* hindexed_block of MPI_DOUBLE_INT (extent 16, data [0, 12)) at 16, -24, 4:
     * bounds [16,32) [-24,-8) [4,20) -> [-24, 32); data ends at max(28, -12, 16) = 28 */
    {
        MPI_Aint disp[3] = { 16, -24, 4 };
        CHECK_NEW_BOUNDS(t, MPI_Type_create_hindexed_block(3, 1, disp, MPI_DOUBLE_INT, &t), 36, -24, 56, -24, 52);
    }
    /* hindexed_block with 2-copy blocks of a negative-lb child c = [-8, 4) (extent 12):
     * block at 100: copies at 100, 112 -> [92, 116); block at -3: copies at -3, 9 -> [-11, 13):
     * [-11, 116), 4 copies of 8 bytes */
    {
        MPI_Datatype c;
        MPI_Aint disp[2] = { 100, -3 };
        CHECK_MPI(MPI_Type_vector(2, 1, -2, MPI_INT, &c));
        CHECK_NEW_BOUNDS(t, MPI_Type_create_hindexed_block(2, 2, disp, c, &t), 32, -11, 127, -11, 127);
        MPI_Type_free(&c);
    }
    /* hindexed_block, blocklength 0 and count 0: empty (MPICH 4.0.2: lb -8, extent 16 for the
     * former) */
    {
        MPI_Aint disp[2] = { 8, -8 };
        CHECK_NEW_EMPTY(t, MPI_Type_create_hindexed_block(2, 0, disp, MPI_DOUBLE, &t));
        CHECK_NEW_EMPTY(t, MPI_Type_create_hindexed_block(0, 4, disp, MPI_DOUBLE, &t));
    }
}

int main(int argc, char **argv)
{
    bounds_init(&argc, &argv);
    indexed_cases();
    hindexed_cases();
    block_cases();
    return MTest_Finalize();
}
