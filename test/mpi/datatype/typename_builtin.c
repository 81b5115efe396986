/*
 * Every predefined datatype of mpi.h carries its standard name (MPI 4.1, "Naming Objects":
 * "Predefined datatypes have default names. For example, MPI_WCHAR has the default name of
 * MPI_WCHAR"), and MPI_DATATYPE_NULL is named too.
 */
#include "mtest.h"

#define T(type) { type, #type }

static const struct {
    MPI_Datatype type;
    const char *name;
} builtins[] = {
    T(MPI_CHAR), T(MPI_SIGNED_CHAR), T(MPI_UNSIGNED_CHAR), T(MPI_BYTE), T(MPI_WCHAR),
    T(MPI_SHORT), T(MPI_UNSIGNED_SHORT), T(MPI_INT), T(MPI_UNSIGNED), T(MPI_LONG),
    T(MPI_UNSIGNED_LONG), T(MPI_LONG_LONG_INT), T(MPI_UNSIGNED_LONG_LONG), T(MPI_FLOAT),
    T(MPI_DOUBLE), T(MPI_LONG_DOUBLE), T(MPI_C_BOOL),
    T(MPI_INT8_T), T(MPI_INT16_T), T(MPI_INT32_T), T(MPI_INT64_T),
    T(MPI_UINT8_T), T(MPI_UINT16_T), T(MPI_UINT32_T), T(MPI_UINT64_T),
    T(MPI_AINT), T(MPI_COUNT), T(MPI_OFFSET),
    T(MPI_C_COMPLEX), T(MPI_C_DOUBLE_COMPLEX), T(MPI_C_LONG_DOUBLE_COMPLEX),
    T(MPI_PACKED), T(MPI_LB), T(MPI_UB),
    T(MPI_CXX_BOOL), T(MPI_CXX_FLOAT_COMPLEX), T(MPI_CXX_DOUBLE_COMPLEX),
    T(MPI_CXX_LONG_DOUBLE_COMPLEX),
    T(MPI_CHARACTER), T(MPI_LOGICAL), T(MPI_INTEGER), T(MPI_REAL), T(MPI_DOUBLE_PRECISION),
    T(MPI_COMPLEX), T(MPI_DOUBLE_COMPLEX),
    T(MPI_INTEGER1), T(MPI_INTEGER2), T(MPI_INTEGER4), T(MPI_INTEGER8), T(MPI_INTEGER16),
    T(MPI_REAL2), T(MPI_REAL4), T(MPI_REAL8), T(MPI_REAL16),
    T(MPI_COMPLEX4), T(MPI_COMPLEX8), T(MPI_COMPLEX16), T(MPI_COMPLEX32),
    T(MPI_FLOAT_INT), T(MPI_DOUBLE_INT), T(MPI_LONG_INT), T(MPI_2INT), T(MPI_SHORT_INT),
    T(MPI_LONG_DOUBLE_INT), T(MPI_2REAL), T(MPI_2DOUBLE_PRECISION), T(MPI_2INTEGER),
    /* aliases in mpi.h share one handle, hence one name: the one listed first in MPI 4.1 Table 3.2 */
    { MPI_LONG_LONG, "MPI_LONG_LONG_INT" },
    { MPI_C_FLOAT_COMPLEX, "MPI_C_COMPLEX" },
};

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);

    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++) {
        char name[MPI_MAX_OBJECT_NAME];
        int len = -1;
        memset(name, '#', sizeof name);
        CHECK_MPI(MPI_Type_get_name(builtins[i].type, name, &len));
        if (strcmp(name, builtins[i].name) != 0)
            MTEST_FAIL("type 0x%x is named \"%.*s\", expected \"%s\"",
                       (unsigned) builtins[i].type, MPI_MAX_OBJECT_NAME - 1, name, builtins[i].name);
        CHECK_EQ(len, (int) strlen(builtins[i].name));
    }

    /* The null handle is predefined too and has a name. */
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_MPI(MPI_Type_get_name(MPI_DATATYPE_NULL, name, &len));
    if (strcmp(name, "MPI_DATATYPE_NULL") != 0)
        MTEST_FAIL("got \"%s\"", name);
    CHECK_EQ(len, 17);

    return MTest_Finalize();
}
