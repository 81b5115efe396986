/*
 * MPI_Type_match_size (MPI 4.1, "Support for Size-specific MPI Datatypes"): the predefined named type of a typeclass and a size in
 * bytes. Every (class, size) that exists, by hand:
 *   REAL 4, 8, 16 -> MPI_REAL4, MPI_REAL8, MPI_REAL16
 *   INTEGER 1, 2, 4, 8, 16 -> MPI_INTEGER1 ... MPI_INTEGER16
 *   COMPLEX 8, 16, 32 -> MPI_COMPLEX8, MPI_COMPLEX16, MPI_COMPLEX32
 * Any other size, or another typeclass, is MPI_ERR_ARG.
 */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    static const struct { int typeclass, size; MPI_Datatype want; const char *name; } found[] = {
        { MPI_TYPECLASS_REAL, 4, MPI_REAL4, "MPI_REAL4" },
        { MPI_TYPECLASS_REAL, 8, MPI_REAL8, "MPI_REAL8" },
        { MPI_TYPECLASS_REAL, 16, MPI_REAL16, "MPI_REAL16" },
        { MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1, "MPI_INTEGER1" },
        { MPI_TYPECLASS_INTEGER, 2, MPI_INTEGER2, "MPI_INTEGER2" },
        { MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER4, "MPI_INTEGER4" },
        { MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8, "MPI_INTEGER8" },
        { MPI_TYPECLASS_INTEGER, 16, MPI_INTEGER16, "MPI_INTEGER16" },
        { MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX8, "MPI_COMPLEX8" },
        { MPI_TYPECLASS_COMPLEX, 16, MPI_COMPLEX16, "MPI_COMPLEX16" },
        { MPI_TYPECLASS_COMPLEX, 32, MPI_COMPLEX32, "MPI_COMPLEX32" },
    };
    for (size_t i = 0; i < sizeof found / sizeof found[0]; i++) {
        MPI_Datatype t = MPI_DATATYPE_NULL;
        int size = -1;
        CHECK_MPI(MPI_Type_match_size(found[i].typeclass, found[i].size, &t));
        if (t != found[i].want)
            MTEST_FAIL("class %d size %d: got 0x%x, expected %s", found[i].typeclass,
                       found[i].size, (unsigned) t, found[i].name);
        if (t != MPI_DATATYPE_NULL) {
            CHECK_MPI(MPI_Type_size(t, &size));
            CHECK_EQ(size, found[i].size);
        }
    }

    /* the standard's use: the type of a local variable */
    double x;
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_REAL, sizeof x, &t));
    CHECK(t == MPI_REAL8, "sizeof(double)");

    static const struct { int typeclass, size; } missing[] = {
        { MPI_TYPECLASS_REAL, 0 }, { MPI_TYPECLASS_REAL, 1 }, { MPI_TYPECLASS_REAL, 2 },
        { MPI_TYPECLASS_REAL, 10 }, { MPI_TYPECLASS_REAL, 32 }, { MPI_TYPECLASS_REAL, -4 },
        { MPI_TYPECLASS_INTEGER, 0 }, { MPI_TYPECLASS_INTEGER, 3 }, { MPI_TYPECLASS_INTEGER, 32 },
        { MPI_TYPECLASS_INTEGER, MPI_UNDEFINED },
        { MPI_TYPECLASS_COMPLEX, 4 }, { MPI_TYPECLASS_COMPLEX, 12 }, { MPI_TYPECLASS_COMPLEX, 64 },
        { 0, 4 }, { 4, 4 }, { -1, 8 }, { MPI_UNDEFINED, 8 },
    };
    for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++) {
        t = MPI_DATATYPE_NULL;
        CHECK_ERR(MPI_Type_match_size(missing[i].typeclass, missing[i].size, &t), MPI_ERR_ARG);
    }
    CHECK_ERR(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, NULL), MPI_ERR_ARG);

    return MTest_Finalize();
}
