/*
 * Size and bounds of MPI_Type_contiguous, MPI_Type_vector and MPI_Type_create_hvector:
 * negative strides, stride smaller than the block (overlap), zero counts and blocklengths,
 * count 1, nested vectors.
 *
 * vector(count, bl, stride, old) places copies of old at (i*stride + j) * extent(old) bytes
 * (hvector: i*stride + j*extent(old)), i < count, j < bl. Its lb/ub are the min/max over the copies'
 * [o + lb(old), o + ub(old)), its true bounds the same with old's true bounds. Project decision:
 * vectors and contiguous types never add alignment padding (only structs do).
 * Sizes: int 4, double 8, short 2 (x86-64).
 */
#include "bounds.h"

/* A type with lb != 0 for nesting: ints at 0 and -12, so [-12, 4), size 8. */
static MPI_Datatype neg_pair(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK_MPI(MPI_Type_vector(2, 1, -3, MPI_INT, &t));
    return t;
}

static void contiguous_cases(void)
{
    MPI_Datatype t, inner;

    /* 5 ints at 0..16: [0, 20) */
    CHECK_NEW_BOUNDS(t, MPI_Type_contiguous(5, MPI_INT, &t), 20, 0, 20, 0, 20);

    /* count 1 is the old type itself */
    CHECK_NEW_BOUNDS(t, MPI_Type_contiguous(1, MPI_DOUBLE, &t), 8, 0, 8, 0, 8);

    /* count 0: an empty type map (decision: no data, no markers => every bound 0) */
    CHECK_NEW_EMPTY(t, MPI_Type_contiguous(0, MPI_INT, &t));

    /* 3 MPI_DOUBLE_INT (extent 16, data [0, 12)) at 0, 16, 32: bounds [0, 48), data up to
     * 32 + 12 = 44, size 3 * 12 = 36. The pair's trailing padding is part of its extent. */
    CHECK_NEW_BOUNDS(t, MPI_Type_contiguous(3, MPI_DOUBLE_INT, &t), 36, 0, 48, 0, 44);

    /* contiguous of an empty type is empty */
    CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &inner));
    CHECK_NEW_EMPTY(t, MPI_Type_contiguous(3, inner, &t));
    MPI_Type_free(&inner);

    /* contiguous of a type with negative lb: neg_pair spans [-12, 4), extent 16; copies at
     * 0, 16, 32 span [-12, 36); size 3 * 8 = 24. */
    inner = neg_pair();
    CHECK_NEW_BOUNDS(t, MPI_Type_contiguous(3, inner, &t), 24, -12, 48, -12, 48);
    MPI_Type_free(&inner);
}

static void vector_cases(void)
{
    MPI_Datatype t;

    /* 3 blocks of 2 ints, stride 4 ints: blocks [0,8) [16,24) [32,40) */
    CHECK_NEW_BOUNDS(t, MPI_Type_vector(3, 2, 4, MPI_INT, &t), 24, 0, 40, 0, 40);

    /* negative stride: blocks [0,8) [-16,-8) [-32,-24), so lb -32, ub 8 */
    CHECK_NEW_BOUNDS(t, MPI_Type_vector(3, 2, -4, MPI_INT, &t), 24, -32, 40, -32, 40);

    /* count 1: the stride never applies, one block [0, 12) */
    CHECK_NEW_BOUNDS(t, MPI_Type_vector(1, 3, 100, MPI_INT, &t), 12, 0, 12, 0, 12);
    CHECK_NEW_BOUNDS(t, MPI_Type_vector(1, 2, -5, MPI_INT, &t), 8, 0, 8, 0, 8);

    /* count 0 and blocklength 0: empty type maps (decision: all bounds 0).
     * MPICH 4.0.2 differs for blocklength 0: it reports extent (count-1)*stride*4 (60 here) as
     * if the empty blocks had positions. */
    CHECK_NEW_EMPTY(t, MPI_Type_vector(0, 3, 5, MPI_INT, &t));
    CHECK_NEW_EMPTY(t, MPI_Type_vector(4, 0, 5, MPI_INT, &t));

    /* stride < blocklength: blocks of 3 ints at 0, 8, 16 bytes overlap; [0, 28), and the size
     * counts every element, overlapping or not: 9 * 4 = 36 > extent */
    CHECK_NEW_BOUNDS(t, MPI_Type_vector(3, 3, 2, MPI_INT, &t), 36, 0, 28, 0, 28);

    /* stride 0: every block at 0, [0, 8), size 24 */
    CHECK_NEW_BOUNDS(t, MPI_Type_vector(3, 2, 0, MPI_INT, &t), 24, 0, 8, 0, 8);

    /* stride counts in extents of old: MPI_DOUBLE_INT has extent 16, so blocks of 2 pairs at 0
     * and 48: pairs at 0, 16, 48, 64; bounds [0, 80), data up to 64 + 12 = 76; size 4 * 12 */
    CHECK_NEW_BOUNDS(t, MPI_Type_vector(2, 2, 3, MPI_DOUBLE_INT, &t), 48, 0, 80, 0, 76);
}

static void hvector_cases(void)
{
    MPI_Datatype t;

    /* 3 blocks of 2 ints every 20 bytes: [0,8) [20,28) [40,48) */
    CHECK_NEW_BOUNDS(t, MPI_Type_create_hvector(3, 2, 20, MPI_INT, &t), 24, 0, 48, 0, 48);

    /* negative byte stride: doubles at 0, -12, -24: [-24, 8) */
    CHECK_NEW_BOUNDS(t, MPI_Type_create_hvector(3, 1, -12, MPI_DOUBLE, &t), 24, -24, 32, -24, 32);

    /* doubles at 0 and 1 (overlapping, misaligned): [0, 9). Decision: no padding for vectors
     * (the standard's epsilon would round the extent to 16; MPICH also gives 9). */
    CHECK_NEW_BOUNDS(t, MPI_Type_create_hvector(2, 1, 1, MPI_DOUBLE, &t), 16, 0, 9, 0, 9);

    /* ints at 0, 6, 12: [0, 16), no rounding to a multiple of 4 */
    CHECK_NEW_BOUNDS(t, MPI_Type_create_hvector(3, 1, 6, MPI_INT, &t), 12, 0, 16, 0, 16);

    /* empty: count 0, blocklength 0 (MPICH 4.0.2: lb -32, extent 32 for the latter) */
    CHECK_NEW_EMPTY(t, MPI_Type_create_hvector(0, 1, 8, MPI_INT, &t));
    CHECK_NEW_EMPTY(t, MPI_Type_create_hvector(5, 0, -8, MPI_INT, &t));

    /* stride 0 with one-element blocks: all at 0 */
    CHECK_NEW_BOUNDS(t, MPI_Type_create_hvector(4, 1, 0, MPI_SHORT, &t), 8, 0, 2, 0, 2);
}

static void nested_cases(void)
{
    MPI_Datatype inner, t;

    /* neg_pair = [-12, 4), extent 16, size 8.
     * vector(3, 1, 2, .): copies every 2 * 16 = 32 bytes at 0, 32, 64: [-12, 68). */
    inner = neg_pair();
    CHECK_BOUNDS(inner, 8, -12, 16, -12, 16);
    CHECK_NEW_BOUNDS(t, MPI_Type_vector(3, 1, 2, inner, &t), 24, -12, 80, -12, 80);

    /* hvector(2, 2, -100, .): blocks at 0 and -100, each 2 copies 16 apart:
     * copies at 0, 16, -100, -84 span [-12,4) [4,20) [-112,-96) [-96,-80): [-112, 20) */
    CHECK_NEW_BOUNDS(t, MPI_Type_create_hvector(2, 2, -100, inner, &t), 32, -112, 132, -112, 132);

    /* vector(2, 1, -1, .): copies at 0 and -16: [-28, 4) */
    CHECK_NEW_BOUNDS(t, MPI_Type_vector(2, 1, -1, inner, &t), 16, -28, 32, -28, 32);
    MPI_Type_free(&inner);

    /* NAS_MG_x with (DIM1, DIM2, DIM3) = (34, 18, 18), DDTBench:
     * inner = vector(16, 1, 34, DOUBLE): doubles every 272 bytes, ub 15 * 272 + 8 = 4088, size 128;
     * outer = hvector(16, 1, 34 * 18 * 8 = 4896, inner): ub 15 * 4896 + 4088 = 77528,
     * size 16 * 128 = 2048. */
    CHECK_MPI(MPI_Type_vector(18 - 2, 1, 34, MPI_DOUBLE, &inner));
    CHECK_BOUNDS(inner, 128, 0, 4088, 0, 4088);
    CHECK_NEW_BOUNDS(t, MPI_Type_create_hvector(18 - 2, 1, 34 * 18 * 8, inner, &t), 2048, 0, 77528, 0, 77528);
    MPI_Type_free(&inner);

    /* NAS_LU_y with DIM2 = DIM3 = 12: vector(12, 1, 14, contiguous(5, DOUBLE)):
     * 40-byte elements every 14 * 40 = 560 bytes: ub 11 * 560 + 40 = 6200, size 12 * 40 = 480 */
    CHECK_MPI(MPI_Type_contiguous(5, MPI_DOUBLE, &inner));
    CHECK_NEW_BOUNDS(t, MPI_Type_vector(12, 1, 12 + 2, inner, &t), 480, 0, 6200, 0, 6200);
    MPI_Type_free(&inner);
}

/* A padded struct inside vectors: its padding belongs to its extent and travels with each copy.
 * S = struct {double@0, char@8}: size 9, data [0, 9), extent 16 (struct padding to 8). */
static void padded_child_cases(void)
{
    MPI_Datatype s, t;
    int bl[2] = { 1, 1 };
    MPI_Aint disp[2] = { 0, 8 };
    MPI_Datatype types[2] = { MPI_DOUBLE, MPI_CHAR };

    CHECK_MPI(MPI_Type_create_struct(2, bl, disp, types, &s));
    CHECK_BOUNDS(s, 9, 0, 16, 0, 9);

    /* copies at 0 and 16: bounds [0, 32), data [0, 25) */
    CHECK_NEW_BOUNDS(t, MPI_Type_contiguous(2, s, &t), 18, 0, 32, 0, 25);

    /* vector(2, 2, 3, S): blocks at 0 and 48, copies at 0, 16, 48, 64: bounds [0, 80),
     * data up to 64 + 9 = 73 */
    CHECK_NEW_BOUNDS(t, MPI_Type_vector(2, 2, 3, s, &t), 36, 0, 80, 0, 73);

    /* hvector(2, 1, -20, S): copies at 0 and -20: bounds [-20, 16), data [-20, 9) */
    CHECK_NEW_BOUNDS(t, MPI_Type_create_hvector(2, 1, -20, s, &t), 18, -20, 36, -20, 29);
    MPI_Type_free(&s);
}

int main(int argc, char **argv)
{
    bounds_init(&argc, &argv);
    contiguous_cases();
    vector_cases();
    hvector_cases();
    nested_cases();
    padded_child_cases();
    return MTest_Finalize();
}
