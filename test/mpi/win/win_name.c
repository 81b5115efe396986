/*
 * Window names (seed 001, MPI 4.1 "Naming Objects"): a new window has no name (the empty string),
 * names are truncated to MPI_MAX_OBJECT_NAME - 1 characters, each window keeps its own, and a
 * name can be replaced. Trailing blanks are dropped, as for datatype names.
 */
#include "objtest.h"

#define CHECK_NAME(win, want) CHECK_NAME_OF(MPI_Win_get_name, win, want)

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    char buf[16];
    MPI_Win a, b;
    CHECK_MPI(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &a));
    CHECK_MPI(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &b));
    CHECK_NAME(a, "");

    CHECK_MPI(MPI_Win_set_name(a, "halo exchange"));
    CHECK_NAME(a, "halo exchange");
    CHECK_NAME(b, "");
    CHECK_MPI(MPI_Win_set_name(b, "second"));
    CHECK_MPI(MPI_Win_set_name(a, "renamed"));
    CHECK_NAME(a, "renamed");
    CHECK_NAME(b, "second");
    CHECK_MPI(MPI_Win_set_name(a, ""));
    CHECK_NAME(a, "");
    /* trailing blanks are not part of a name (as for datatype names); leading ones are */
    CHECK_MPI(MPI_Win_set_name(a, "  padded   "));
    CHECK_NAME(a, "  padded");

    /* too long: the first MPI_MAX_OBJECT_NAME - 1 characters are kept */
    char longname[3 * MPI_MAX_OBJECT_NAME], want[MPI_MAX_OBJECT_NAME];
    objtest_long_name(longname, want);
    CHECK_MPI(MPI_Win_set_name(a, longname));
    CHECK_NAME(a, want);
    longname[MPI_MAX_OBJECT_NAME - 1] = '\0';          /* exactly the longest name */
    CHECK_MPI(MPI_Win_set_name(b, longname));
    CHECK_NAME(b, want);

    /* a window created after another was freed starts without a name, even in a reused slot */
    CHECK_MPI(MPI_Win_free(&a));
    CHECK_MPI(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &a));
    CHECK_NAME(a, "");
    CHECK_MPI(MPI_Win_free(&a));
    CHECK_MPI(MPI_Win_free(&b));
    return MTest_Finalize();
}
