/*
 * The indexed family near the ends of MPI_Aint and MPI_Count: a new type whose bound, size or any
 * copy's bound would not fit 64 bits is refused with MPI_ERR_ARG, and the limits themselves are
 * accepted. The engine folds the blocks of one child into their hull before it adds them to the
 * type (dt_create.c), so these check that every copy's bounds are still checked, not only the
 * hull's: with a negative extent, the copy between the lowest and the highest may overflow alone.
 * Nothing is committed or used: the types only describe memory.
 */
#include "bounds.h"

#define P61 ((MPI_Aint) 1 << 61)
#define P62 ((MPI_Aint) 1 << 62)
#define AMAX ((MPI_Aint) INT64_MAX)

int main(int argc, char **argv)
{
    MPI_Datatype t, neg, marker;
    bounds_init(&argc, &argv);

    /* a block whose data ends past MPI_Aint's end */
    CHECK_ERR(MPI_Type_create_hindexed_c(1, (MPI_Count[]) { 2 }, (MPI_Aint[]) { AMAX - 8 }, MPI_DOUBLE, &t),
              MPI_ERR_ARG);
    /* the same end reached exactly: accepted */
    CHECK_NEW_BOUNDS(t, MPI_Type_create_hindexed_c(1, (MPI_Count[]) { 1 }, (MPI_Aint[]) { AMAX - 8 }, MPI_DOUBLE, &t),
                     8, AMAX - 8, 8, AMAX - 8, 8);
    /* an extent below MPI_Aint's start; a displacement in extents of the child that overflows */
    CHECK_ERR(MPI_Type_create_hindexed_c(2, (MPI_Count[]) { 1, 1 }, (MPI_Aint[]) { 0, INT64_MIN }, MPI_INT, &t),
              MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_indexed_c(2, (MPI_Count[]) { 1, 1 }, (MPI_Count[]) { 0, INT64_MIN / 2 }, MPI_INT, &t),
              MPI_ERR_ARG);

    /* sizes that add up past MPI_Count: 2^62 + 2^62 chars; 2^61 + 2^61 are fine */
    CHECK_ERR(MPI_Type_create_hindexed_c(2, (MPI_Count[]) { P62, P62 }, (MPI_Aint[]) { 0, 0 }, MPI_CHAR, &t),
              MPI_ERR_ARG);
    CHECK_NEW_BOUNDS(t, MPI_Type_create_hindexed_c(2, (MPI_Count[]) { P61, P61 }, (MPI_Aint[]) { 0, 0 }, MPI_CHAR, &t),
                     P62, 0, P61, 0, P61);

    /* a child with a negative extent: lb 2^62, ub 0. One copy each at 0, 2^62 and 1: the hull
     * [0 + 2^62, 2^62 + 0] fits, but the copy at 2^62 has its lb at 2^63: refused */
    CHECK_MPI(MPI_Type_create_resized(MPI_CHAR, P62, -P62, &neg));
    CHECK_BOUNDS(neg, 1, P62, -P62, 0, 1);
    CHECK_ERR(MPI_Type_create_hindexed_c(3, (MPI_Count[]) { 1, 1, 1 }, (MPI_Aint[]) { 0, P62, 1 }, neg, &t),
              MPI_ERR_ARG);
    /* without that copy: markers at 2^62 and 1 + 2^62 (lb), 0 and 1 (ub) */
    CHECK_NEW_BOUNDS(t, MPI_Type_create_hindexed_c(2, (MPI_Count[]) { 1, 1 }, (MPI_Aint[]) { 0, 1 }, neg, &t),
                     2, P62, 1 - P62, 0, 2);
    MPI_Type_free(&neg);

    /* copies with no data, only markers: no bytes, so any number of them fits */
    CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &t));
    CHECK_MPI(MPI_Type_create_resized(t, 0, 0, &marker));
    MPI_Type_free(&t);
    CHECK_NEW_BOUNDS(t, MPI_Type_create_hindexed_c(2, (MPI_Count[]) { P62, P62 }, (MPI_Aint[]) { 0, 8 }, marker, &t),
                     0, 0, 8, 0, 0);
    MPI_Type_free(&marker);

    return MTest_Finalize();
}
