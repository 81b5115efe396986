/*
 * MPI_Get_count and MPI_Get_elements (+_x, _c) on statuses carrying a given number of bytes
 * (set with MPI_Status_set_elements_x on MPI_BYTE, which stores exactly that many bytes).
 *
 * Get_count: whole instances, MPI_UNDEFINED when the bytes are not a multiple of the size; a
 * zero-size type counts 0 when no bytes arrived (MPI 4.1) and MPI_UNDEFINED otherwise.
 * Get_elements: basic elements; a pair type counts 2, and bytes that end between its halves still
 * count the first half; bytes ending inside a basic element give MPI_UNDEFINED.
 * The int bindings answer MPI_UNDEFINED for counts beyond INT_MAX; _x and _c give them exactly.
 */
#include <limits.h>
#include <stddef.h>
#include "mtest.h"

static MPI_Status with_bytes(MPI_Count bytes)
{
    MPI_Status st;
    memset(&st, 0, sizeof st);
    CHECK_MPI(MPI_Status_set_elements_x(&st, MPI_BYTE, bytes));
    return st;
}

/* Checks every binding of both queries for one (bytes, type) pair. */
static void expect(int line, MPI_Count bytes, MPI_Datatype type, MPI_Count count, MPI_Count elements)
{
    MPI_Status st = with_bytes(bytes);
    int ic = -5, ie = -5;
    MPI_Count cc = -5, ce = -5, xe = -5;
    CHECK_MPI(MPI_Get_count(&st, type, &ic));
    CHECK_MPI(MPI_Get_count_c(&st, type, &cc));
    CHECK_MPI(MPI_Get_elements(&st, type, &ie));
    CHECK_MPI(MPI_Get_elements_c(&st, type, &ce));
    CHECK_MPI(MPI_Get_elements_x(&st, type, &xe));
    if (cc != count || ic != count)
        MTEST_FAIL("line %d: %lld bytes: Get_count = %d / _c %lld, expected %lld", line, (long long) bytes,
                   ic, (long long) cc, (long long) count);
    if (ce != elements || xe != elements || ie != elements)
        MTEST_FAIL("line %d: %lld bytes: Get_elements = %d / _c %lld / _x %lld, expected %lld", line,
                   (long long) bytes, ie, (long long) ce, (long long) xe, (long long) elements);
}

#define U MPI_UNDEFINED

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* predefined */
    expect(__LINE__, 12, MPI_INT, 3, 3);
    expect(__LINE__, 10, MPI_INT, U, U);
    expect(__LINE__, 0, MPI_DOUBLE, 0, 0);
    expect(__LINE__, 7, MPI_BYTE, 7, 7);

    /* pair types: FLOAT_INT is float (4) + int (4), DOUBLE_INT 8 + 4, SHORT_INT 2 + 4,
     * LONG_DOUBLE_INT 16 + 4 in the packed stream */
    expect(__LINE__, 16, MPI_FLOAT_INT, 2, 4);
    expect(__LINE__, 12, MPI_FLOAT_INT, U, 3);   /* ends between the halves: the float counts */
    expect(__LINE__, 10, MPI_FLOAT_INT, U, U);
    expect(__LINE__, 20, MPI_DOUBLE_INT, U, 3);
    expect(__LINE__, 14, MPI_DOUBLE_INT, U, U);
    expect(__LINE__, 8, MPI_SHORT_INT, U, 3);    /* 6 + 2: the short of the next pair counts */
    expect(__LINE__, 4, MPI_SHORT_INT, U, U);
    expect(__LINE__, 36, MPI_LONG_DOUBLE_INT, U, 3);
    expect(__LINE__, 12, MPI_2INT, U, 3);

    /* contiguous(3, int): 12 bytes, 3 elements */
    MPI_Datatype c3, st3, sp, empty;
    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &c3));
    CHECK_MPI(MPI_Type_commit(&c3));
    expect(__LINE__, 24, c3, 2, 6);
    expect(__LINE__, 20, c3, U, 5);
    expect(__LINE__, 22, c3, U, U);

    /* struct {char, double, short}: packed 1 + 8 + 2 = 11 bytes, 3 elements; boundaries at 1, 9, 11 */
    struct s { char c; double d; short s; };
    int bl[3] = { 1, 1, 1 };
    MPI_Aint disp[3] = { offsetof(struct s, c), offsetof(struct s, d), offsetof(struct s, s) };
    MPI_Datatype types[3] = { MPI_CHAR, MPI_DOUBLE, MPI_SHORT };
    CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &st3));
    CHECK_MPI(MPI_Type_commit(&st3));
    expect(__LINE__, 0, st3, 0, 0);
    expect(__LINE__, 1, st3, U, 1);
    expect(__LINE__, 5, st3, U, U);
    expect(__LINE__, 9, st3, U, 2);
    expect(__LINE__, 10, st3, U, U);
    expect(__LINE__, 11, st3, 1, 3);
    expect(__LINE__, 31, st3, U, 8);    /* 2 instances + char + double */
    expect(__LINE__, 33, st3, 3, 9);

    /* a struct holding pairs: {2 x FLOAT_INT, char}: 17 bytes, 5 elements */
    int pbl[2] = { 2, 1 };
    MPI_Aint pdisp[2] = { 0, 16 };
    MPI_Datatype ptypes[2] = { MPI_FLOAT_INT, MPI_CHAR };
    CHECK_MPI(MPI_Type_create_struct(2, pbl, pdisp, ptypes, &sp));
    CHECK_MPI(MPI_Type_commit(&sp));
    expect(__LINE__, 12, sp, U, 3);
    expect(__LINE__, 16, sp, U, 4);
    expect(__LINE__, 17, sp, 1, 5);
    expect(__LINE__, 21, sp, U, 6);
    expect(__LINE__, 18, sp, U, U);

    /* zero-size type */
    CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &empty));
    CHECK_MPI(MPI_Type_commit(&empty));
    expect(__LINE__, 0, empty, 0, 0);
    expect(__LINE__, 4, empty, U, U);

    /* beyond INT_MAX: the int bindings say MPI_UNDEFINED */
    MPI_Count big = 3LL * 1000 * 1000 * 1000;
    MPI_Status st = with_bytes(big);
    int ic = 0;
    MPI_Count cc = 0;
    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &ic));
    CHECK_EQ(ic, MPI_UNDEFINED);
    CHECK_MPI(MPI_Get_elements(&st, MPI_BYTE, &ic));
    CHECK_EQ(ic, MPI_UNDEFINED);
    CHECK_MPI(MPI_Get_count_c(&st, MPI_BYTE, &cc));
    CHECK_EQ(cc, big);
    CHECK_MPI(MPI_Get_elements_x(&st, MPI_SHORT, &cc));
    CHECK_EQ(cc, big / 2);
    CHECK_MPI(MPI_Get_count(&st, c3, &ic));
    CHECK_EQ(ic, 250 * 1000 * 1000);

    /* MPI_STATUS_IGNORE is not a status to read */
    CHECK_ERR(MPI_Get_count(MPI_STATUS_IGNORE, MPI_INT, &ic), MPI_ERR_ARG);
    CHECK_ERR(MPI_Get_elements(MPI_STATUS_IGNORE, MPI_INT, &ic), MPI_ERR_ARG);
    CHECK_ERR(MPI_Get_elements_x(MPI_STATUS_IGNORE, MPI_INT, &cc), MPI_ERR_ARG);

    MPI_Type_free(&c3);
    MPI_Type_free(&st3);
    MPI_Type_free(&sp);
    MPI_Type_free(&empty);
    return MTest_Finalize();
}
