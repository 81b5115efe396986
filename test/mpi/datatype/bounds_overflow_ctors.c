/*
 * The other constructors near the ends of MPI_Aint and MPI_Count (bounds_overflow.c covers the
 * indexed family's hull): contiguous, vector and hvector (the block, then the blocks), struct (an
 * entry's bounds, its data's true bounds, the alignment padding), resized, and indexed blocks of a
 * child whose extent is less than its size (the blocks' bytes, not their bounds, overflow). Each
 * overflow is refused with MPI_ERR_ARG and the nearest case that fits is accepted with the bounds
 * worked out by hand. Nothing is committed or used: the types only describe memory.
 */
#include "bounds.h"

#define P61 ((MPI_Aint) 1 << 61)
#define P62 ((MPI_Aint) 1 << 62)
#define AMAX ((MPI_Aint) INT64_MAX)

static void contiguous_and_vectors(void)
{
    MPI_Datatype t;
    /* 2^61 ints are 2^63 bytes, one more than MPI_Count holds */
    CHECK_ERR(MPI_Type_contiguous_c(P61, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_NEW_BOUNDS(t, MPI_Type_contiguous_c(P61 - 1, MPI_INT, &t), AMAX - 3, 0, AMAX - 3, 0, AMAX - 3);

    /* one block too large; then blocks whose last copy starts past MPI_Aint's end */
    CHECK_ERR(MPI_Type_vector_c(1, P61, 1, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_hvector_c(3, 1, P62, MPI_CHAR, &t), MPI_ERR_ARG);
    CHECK_NEW_BOUNDS(t, MPI_Type_create_hvector_c(2, 1, P62, MPI_CHAR, &t), 2, 0, P62 + 1, 0, P62 + 1);
    /* the same with the stride in elements: the stride in bytes itself overflows */
    CHECK_ERR(MPI_Type_vector_c(2, 1, P62, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_NEW_BOUNDS(t, MPI_Type_vector_c(2, 1, P61 / 2, MPI_INT, &t), 8, 0, P62 + 4, 0, P62 + 4);
    /* and downwards: a negative stride whose last block starts below MPI_Aint's start, or whose
     * blocks span more than an MPI_Aint */
    CHECK_ERR(MPI_Type_create_hvector_c(3, 1, -P62 - 1, MPI_CHAR, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_hvector_c(3, 1, -P62, MPI_CHAR, &t), MPI_ERR_ARG);
    CHECK_NEW_BOUNDS(t, MPI_Type_create_hvector_c(2, 1, -P62 - 1, MPI_CHAR, &t), 2, -P62 - 1, P62 + 2, -P62 - 1,
                     P62 + 2);
}

static void structs(void)
{
    MPI_Datatype t;
    /* a double whose end is past MPI_Aint's; the last one that fits */
    CHECK_ERR(MPI_Type_create_struct_c(1, (MPI_Count[]) { 1 }, (MPI_Count[]) { AMAX - 4 }, (MPI_Datatype[]) { MPI_DOUBLE },
                                       &t), MPI_ERR_ARG);
    CHECK_NEW_BOUNDS(t, MPI_Type_create_struct_c(1, (MPI_Count[]) { 1 }, (MPI_Count[]) { AMAX - 8 },
                                                 (MPI_Datatype[]) { MPI_DOUBLE }, &t),
                     8, AMAX - 8, 8, AMAX - 8, 8);

    /* entries whose sizes add up past MPI_Count, each fine alone */
    CHECK_ERR(MPI_Type_create_struct_c(2, (MPI_Count[]) { P62, P62 }, (MPI_Count[]) { 0, 0 },
                                       (MPI_Datatype[]) { MPI_CHAR, MPI_BYTE }, &t), MPI_ERR_ARG);
    CHECK_NEW_BOUNDS(t, MPI_Type_create_struct_c(2, (MPI_Count[]) { P61, P61 }, (MPI_Count[]) { 0, 0 },
                                                 (MPI_Datatype[]) { MPI_CHAR, MPI_BYTE }, &t),
                     P62, 0, P61, 0, P61);

    /* the extent fits, but not once padded to the double's alignment: [0, 2^63 - 1) pads to 2^63 */
    CHECK_ERR(MPI_Type_create_struct_c(2, (MPI_Count[]) { 1, 1 }, (MPI_Count[]) { 0, AMAX - 1 },
                                       (MPI_Datatype[]) { MPI_DOUBLE, MPI_CHAR }, &t), MPI_ERR_ARG);
    CHECK_NEW_BOUNDS(t, MPI_Type_create_struct_c(2, (MPI_Count[]) { 1, 1 }, (MPI_Count[]) { 0, AMAX - 8 },
                                                 (MPI_Datatype[]) { MPI_DOUBLE, MPI_CHAR }, &t),
                     9, 0, AMAX - 7, 0, AMAX - 7);

    /* children whose data lies far from their markers: [0, 1) with data at 2^62 alone (far), or
     * also at 0 (gap). Placed at 2^62, the entry's bounds fit but its data does not: far's starts
     * at 2^63, gap's ends at 2^63 + 8. Lower, they fit. */
    MPI_Datatype at, both, far, gap;
    CHECK_MPI(MPI_Type_create_hindexed(1, (int[]) { 1 }, (MPI_Aint[]) { P62 }, MPI_DOUBLE, &at));
    CHECK_MPI(MPI_Type_create_hindexed(2, (int[]) { 1, 1 }, (MPI_Aint[]) { 0, P62 }, MPI_DOUBLE, &both));
    CHECK_MPI(MPI_Type_create_resized(at, 0, 1, &far));
    CHECK_MPI(MPI_Type_create_resized(both, 0, 1, &gap));
    CHECK_ERR(MPI_Type_create_struct(1, (int[]) { 1 }, (MPI_Aint[]) { P62 }, &far, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_struct(1, (int[]) { 1 }, (MPI_Aint[]) { P62 }, &gap, &t), MPI_ERR_ARG);
    CHECK_NEW_BOUNDS(t, MPI_Type_create_struct(1, (int[]) { 1 }, (MPI_Aint[]) { P62 - 16 }, &far, &t),
                     8, P62 - 16, 1, 2 * P62 - 16, 8);
    CHECK_NEW_BOUNDS(t, MPI_Type_create_struct(1, (int[]) { 1 }, (MPI_Aint[]) { P62 - 16 }, &gap, &t),
                     16, P62 - 16, 1, P62 - 16, P62 + 8);
    MPI_Type_free(&at);
    MPI_Type_free(&both);
    MPI_Type_free(&far);
    MPI_Type_free(&gap);
}

static void resized_and_blocks(void)
{
    MPI_Datatype t, squeezed;
    /* ub = lb + extent */
    CHECK_ERR(MPI_Type_create_resized(MPI_INT, AMAX, 8, &t), MPI_ERR_ARG);
    CHECK_NEW_BOUNDS(t, MPI_Type_create_resized(MPI_INT, AMAX - 8, 8, &t), 4, AMAX - 8, 8, 0, 4);
    CHECK_ERR(MPI_Type_create_resized_c(MPI_INT, -P62, -P62 - 1, &t), MPI_ERR_ARG);

    /* an int resized to an extent of 1: 2^61 copies are 2^61 bytes apart in all but 2^63 bytes
     * of data; 2^61 - 1 copies are 2^63 - 4 bytes, which fit at 0 but not from 2^62 on */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 1, &squeezed));
    CHECK_ERR(MPI_Type_create_hindexed_c(1, (MPI_Count[]) { P61 }, (MPI_Count[]) { 0 }, squeezed, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_hindexed_c(1, (MPI_Count[]) { P61 - 1 }, (MPI_Count[]) { P62 }, squeezed, &t),
              MPI_ERR_ARG);
    CHECK_NEW_BOUNDS(t, MPI_Type_create_hindexed_c(1, (MPI_Count[]) { P61 - 1 }, (MPI_Count[]) { 0 }, squeezed, &t),
                     AMAX - 3, 0, P61 - 1, 0, P61 + 2);
    /* an int block of 2^62 elements: its last element's offset overflows */
    CHECK_ERR(MPI_Type_create_hindexed_c(1, (MPI_Count[]) { P62 }, (MPI_Count[]) { 0 }, MPI_INT, &t), MPI_ERR_ARG);
    MPI_Type_free(&squeezed);
}

int main(int argc, char **argv)
{
    bounds_init(&argc, &argv);
    contiguous_and_vectors();
    structs();
    resized_and_blocks();
    return MTest_Finalize();
}
