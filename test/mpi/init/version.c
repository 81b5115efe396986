/* MPI_Get_version and MPI_Get_library_version, callable before MPI_Init and after MPI_Finalize. */
#include "mtest.h"

static void check_versions(const char *when)
{
    int version = -1, subversion = -1;
    CHECK_MPI(MPI_Get_version(&version, &subversion));
    CHECK(version == 4 && subversion == 1, "%s: MPI %d.%d, expected 4.1", when, version, subversion);
    CHECK_EQ(MPI_VERSION, 4);
    CHECK_EQ(MPI_SUBVERSION, 1);

    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = -1;
    memset(lib, 'x', sizeof lib);
    CHECK_MPI(MPI_Get_library_version(lib, &len));
    CHECK(len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING, "%s: resultlen %d", when, len);
    CHECK(len >= 0 && len < MPI_MAX_LIBRARY_VERSION_STRING && lib[len] == '\0' && (int) strlen(lib) == len,
          "%s: resultlen %d does not match the string", when, len);
    CHECK(strncmp(lib, "Loom MPI", 8) == 0, "%s: library version \"%.40s\"", when, lib);
}

int main(int argc, char **argv)
{
    check_versions("before MPI_Init");
    MTest_Init(&argc, &argv);
    check_versions("after MPI_Init");
    MPI_Finalize();
    check_versions("after MPI_Finalize");
    if (mtest_errs == 0)
        printf(" No Errors\n");
    else
        printf(" Found %d errors\n", mtest_errs);
    return mtest_errs != 0;
}
