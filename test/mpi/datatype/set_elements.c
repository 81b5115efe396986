/*
 * MPI_Status_set_elements (+_x, _c): the status then carries the bytes of exactly count basic
 * elements of the type (whole instances, then the first elements of one more), so that
 * MPI_Get_elements gives count back and MPI_Get_count(MPI_BYTE) shows the byte count chosen.
 *
 * Byte counts worked out by hand: struct {char, double, short} packs 1 + 8 + 2 = 11 bytes, so
 * 4 elements are 11 + 1 and 5 are 11 + 9; MPI_FLOAT_INT is 4 + 4, so 3 elements are 8 + 4.
 * A count whose bytes would not fit in a 64-bit count is MPI_ERR_ARG, as is MPI_STATUS_IGNORE,
 * and a count > 0 for a type with no elements.
 */
#include <limits.h>
#include <stddef.h>
#include "mtest.h"

static MPI_Count bytes_of(const MPI_Status *st)
{
    MPI_Count n = -1;
    CHECK_MPI(MPI_Get_count_c(st, MPI_BYTE, &n));
    return n;
}

/* Sets count elements of type through each binding; checks the bytes and the round trip. */
static void expect(int line, MPI_Datatype type, MPI_Count count, MPI_Count bytes)
{
    MPI_Status st;
    MPI_Count back = -1;
    memset(&st, 0, sizeof st);
    for (int binding = 0; binding < 3; binding++) {
        if (binding == 0 && count <= INT_MAX)
            CHECK_MPI(MPI_Status_set_elements(&st, type, (int) count));
        else if (binding == 1)
            CHECK_MPI(MPI_Status_set_elements_x(&st, type, count));
        else
            CHECK_MPI(MPI_Status_set_elements_c(&st, type, count));
        if (bytes_of(&st) != bytes)
            MTEST_FAIL("line %d, binding %d: %lld elements set %lld bytes, expected %lld", line, binding,
                       (long long) count, (long long) bytes_of(&st), (long long) bytes);
        CHECK_MPI(MPI_Get_elements_x(&st, type, &back));
        if (back != count)
            MTEST_FAIL("line %d, binding %d: Get_elements after setting %lld gives %lld", line, binding,
                       (long long) count, (long long) back);
    }
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    expect(__LINE__, MPI_INT, 5, 20);
    expect(__LINE__, MPI_BYTE, 0, 0);
    expect(__LINE__, MPI_DOUBLE, 3LL * 1000 * 1000 * 1000, 24LL * 1000 * 1000 * 1000);
    expect(__LINE__, MPI_FLOAT_INT, 3, 12);
    expect(__LINE__, MPI_FLOAT_INT, 4, 16);
    expect(__LINE__, MPI_SHORT_INT, 1, 2);
    expect(__LINE__, MPI_DOUBLE_INT, 5, 32);   /* 2 pairs (24) + a double */
    expect(__LINE__, MPI_2INT, 3, 12);

    struct s { char c; double d; short s; };
    int bl[3] = { 1, 1, 1 };
    MPI_Aint disp[3] = { offsetof(struct s, c), offsetof(struct s, d), offsetof(struct s, s) };
    MPI_Datatype types[3] = { MPI_CHAR, MPI_DOUBLE, MPI_SHORT }, st3, v, empty;
    CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &st3));
    CHECK_MPI(MPI_Type_commit(&st3));
    expect(__LINE__, st3, 0, 0);
    expect(__LINE__, st3, 1, 1);
    expect(__LINE__, st3, 2, 9);
    expect(__LINE__, st3, 3, 11);
    expect(__LINE__, st3, 4, 12);
    expect(__LINE__, st3, 5, 20);
    expect(__LINE__, st3, 6, 22);

    /* a vector of the struct (3 x 2 = 6 elements per instance, 22 bytes) */
    CHECK_MPI(MPI_Type_vector(2, 1, 3, st3, &v));
    CHECK_MPI(MPI_Type_commit(&v));
    expect(__LINE__, v, 7, 23);
    expect(__LINE__, v, 10, 34);   /* 22 + a whole struct (11) + a char */

    /* every count up to three instances round-trips */
    for (int k = 0; k <= 18; k++) {
        MPI_Status st;
        MPI_Count back = -1;
        CHECK_MPI(MPI_Status_set_elements(&st, v, k));
        CHECK_MPI(MPI_Get_elements_x(&st, v, &back));
        CHECK_EQ(back, k);
    }

    /* errors */
    MPI_Status st;
    memset(&st, 0, sizeof st);
    CHECK_ERR(MPI_Status_set_elements_x(&st, MPI_DOUBLE, LLONG_MAX / 4), MPI_ERR_ARG);
    CHECK_ERR(MPI_Status_set_elements_c(&st, st3, LLONG_MAX / 2), MPI_ERR_ARG);
    CHECK_ERR(MPI_Status_set_elements(MPI_STATUS_IGNORE, MPI_INT, 1), MPI_ERR_ARG);
    CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &empty));
    CHECK_MPI(MPI_Type_commit(&empty));
    CHECK_ERR(MPI_Status_set_elements(&st, empty, 1), MPI_ERR_ARG);
    CHECK_MPI(MPI_Status_set_elements(&st, empty, 0));
    CHECK_EQ(bytes_of(&st), 0);

    MPI_Type_free(&st3);
    MPI_Type_free(&v);
    MPI_Type_free(&empty);
    return MTest_Finalize();
}
