/*
 * MPI_Type_c2f and MPI_Type_f2c: the Fortran handle of a datatype converts back to the same C
 * handle, for predefined types and derived ones, and the converted handle is a working datatype
 * (its queries answer for the type it names). Distinct types get distinct Fortran handles.
 */
#include "mtest.h"

static void check_round_trip(MPI_Datatype t, const char *what, MPI_Count want_size)
{
    MPI_Fint f = MPI_Type_c2f(t);
    MPI_Datatype back = MPI_Type_f2c(f);
    CHECK(back == t, "%s: MPI_Type_f2c(MPI_Type_c2f(t)) is another handle", what);
    MPI_Count size = -1;
    CHECK_MPI(MPI_Type_size_c(back, &size));
    CHECK(size == want_size, "%s: the converted handle has size %lld, expected %lld", what, (long long) size,
          (long long) want_size);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    static const struct { MPI_Datatype t; const char *name; MPI_Count size; } predefined[] = {
        { MPI_CHAR, "MPI_CHAR", 1 }, { MPI_INT, "MPI_INT", sizeof(int) }, { MPI_DOUBLE, "MPI_DOUBLE", 8 },
        { MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", sizeof(long double) }, { MPI_INT64_T, "MPI_INT64_T", 8 },
        { MPI_DOUBLE_INT, "MPI_DOUBLE_INT", sizeof(double) + sizeof(int) }, { MPI_BYTE, "MPI_BYTE", 1 },
        { MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", 16 }, { MPI_AINT, "MPI_AINT", sizeof(MPI_Aint) },
    };
    const int n = (int) (sizeof predefined / sizeof predefined[0]);
    for (int i = 0; i < n; i++) {
        check_round_trip(predefined[i].t, predefined[i].name, predefined[i].size);
        for (int j = 0; j < i; j++)
            CHECK(MPI_Type_c2f(predefined[i].t) != MPI_Type_c2f(predefined[j].t), "%s and %s share a Fortran handle",
                  predefined[i].name, predefined[j].name);
    }

    MPI_Datatype vec, dup;
    CHECK_MPI(MPI_Type_vector(3, 2, 5, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_dup(vec, &dup));
    check_round_trip(vec, "a vector of 3 x 2 ints", 6 * sizeof(int));
    check_round_trip(dup, "its duplicate", 6 * sizeof(int));
    CHECK(MPI_Type_c2f(vec) != MPI_Type_c2f(dup), "a type and its duplicate share a Fortran handle");
    /* a type committed through its converted handle is committed */
    MPI_Datatype via = MPI_Type_f2c(MPI_Type_c2f(vec));
    CHECK_MPI(MPI_Type_commit(&via));
    int packed = -1;
    CHECK_MPI(MPI_Pack_size(1, vec, MPI_COMM_WORLD, &packed));
    CHECK_EQ(packed, (int) (6 * sizeof(int)));
    CHECK_MPI(MPI_Type_free(&dup));
    CHECK_MPI(MPI_Type_free(&vec));
    CHECK(MPI_Type_f2c(MPI_Type_c2f(MPI_DATATYPE_NULL)) == MPI_DATATYPE_NULL, "MPI_DATATYPE_NULL does not convert back");
    return MTest_Finalize();
}
