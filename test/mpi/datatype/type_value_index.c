/*
 * MPI_Type_get_value_index (MPI 4.1, "MINLOC and MAXLOC"): the predefined pair type for MPI_MINLOC/MPI_MAXLOC
 * whose value part is value_type and index part index_type. Every pair of the standard's table is
 * found; any other combination of valid types gives MPI_DATATYPE_NULL without an error.
 */
#include "mtest.h"

#define P(v, i, pair) { v, i, pair, #pair }

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    static const struct { MPI_Datatype value, index, pair; const char *name; } pairs[] = {
        P(MPI_FLOAT, MPI_INT, MPI_FLOAT_INT),
        P(MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT),
        P(MPI_LONG, MPI_INT, MPI_LONG_INT),
        P(MPI_INT, MPI_INT, MPI_2INT),
        P(MPI_SHORT, MPI_INT, MPI_SHORT_INT),
        P(MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT),
        P(MPI_REAL, MPI_REAL, MPI_2REAL),
        P(MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION),
        P(MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER),
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        MPI_Datatype t = MPI_DATATYPE_NULL;
        CHECK_MPI(MPI_Type_get_value_index(pairs[i].value, pairs[i].index, &t));
        if (t != pairs[i].pair)
            MTEST_FAIL("expected %s, got 0x%x", pairs[i].name, (unsigned) t);
    }

    /* no such predefined pair: MPI_DATATYPE_NULL, not an error */
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &vec));
    static const MPI_Datatype none[][2] = {
        { MPI_INT, MPI_FLOAT },             /* pair reversed */
        { MPI_FLOAT, MPI_FLOAT },
        { MPI_REAL, MPI_INT },              /* Fortran value, C index */
        { MPI_FLOAT, MPI_REAL },
        { MPI_INTEGER, MPI_INT },
        { MPI_DOUBLE, MPI_DOUBLE_PRECISION },
        { MPI_LONG_LONG, MPI_INT },
        { MPI_UNSIGNED, MPI_INT },
        { MPI_INT32_T, MPI_INT32_T },       /* same layout as 2INT, but not the standard's pair */
        { MPI_INT, MPI_LONG },
        { MPI_BYTE, MPI_INT },
        { MPI_2INT, MPI_INT },
        { MPI_LB, MPI_INT },
        { MPI_INT, MPI_UB },
    };
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        MPI_Datatype t = MPI_INT;
        CHECK_MPI(MPI_Type_get_value_index(none[i][0], none[i][1], &t));
        if (t != MPI_DATATYPE_NULL)
            MTEST_FAIL("case %zu: got 0x%x, expected MPI_DATATYPE_NULL", i, (unsigned) t);
    }
    MPI_Datatype t = MPI_INT;
    CHECK_MPI(MPI_Type_get_value_index(vec, MPI_INT, &t));        /* derived value type */
    CHECK(t == MPI_DATATYPE_NULL, "derived value type");
    t = MPI_INT;
    CHECK_MPI(MPI_Type_get_value_index(MPI_INT, vec, &t));        /* derived index type */
    CHECK(t == MPI_DATATYPE_NULL, "derived index type");

    /* invalid arguments are errors */
    CHECK_ERR(MPI_Type_get_value_index(MPI_DATATYPE_NULL, MPI_INT, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_value_index(MPI_INT, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_value_index(MPI_INT, MPI_INT, NULL), MPI_ERR_ARG);
    MPI_Datatype stale = vec;
    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_ERR(MPI_Type_get_value_index(stale, MPI_INT, &t), MPI_ERR_TYPE);

    return MTest_Finalize();
}
