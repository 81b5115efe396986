/*
 * Communicator names (seed 001, MPI 4.1 7.8): MPI_COMM_WORLD and MPI_COMM_SELF are born named
 * "MPI_COMM_WORLD" and "MPI_COMM_SELF"; other communicators start with the empty name; dup does
 * not copy a name; set replaces it (also on the predefined ones); names longer than
 * MPI_MAX_OBJECT_NAME - 1 are truncated; trailing blanks are not significant, leading ones are;
 * names are local to the process. Run with 2 processes.
 */
#include "objtest.h"

#define NAME_IS(comm, want) CHECK_NAME_OF(MPI_Comm_get_name, comm, want)

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    NAME_IS(MPI_COMM_WORLD, "MPI_COMM_WORLD");
    NAME_IS(MPI_COMM_SELF, "MPI_COMM_SELF");

    MPI_Comm dup, dup2, split;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    NAME_IS(dup, "");                   /* the world's name is not copied */
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &split));
    NAME_IS(split, "");

    /* local: each process names its communicator differently */
    CHECK_MPI(MPI_Comm_set_name(dup, rank ? "  odd one" : "even one   "));
    NAME_IS(dup, rank ? "  odd one" : "even one");
    CHECK_MPI(MPI_Comm_dup(dup, &dup2));
    NAME_IS(dup2, "");
    CHECK_MPI(MPI_Comm_set_name(dup, "renamed"));
    NAME_IS(dup, "renamed");
    CHECK_MPI(MPI_Comm_set_name(dup, ""));
    NAME_IS(dup, "");

    /* truncation to MPI_MAX_OBJECT_NAME - 1 characters */
    char longname[3 * MPI_MAX_OBJECT_NAME], want[MPI_MAX_OBJECT_NAME];
    objtest_long_name(longname, want);
    CHECK_MPI(MPI_Comm_set_name(dup2, longname));
    NAME_IS(dup2, want);

    /* the predefined names can be changed, per process */
    CHECK_MPI(MPI_Comm_set_name(MPI_COMM_WORLD, "everyone"));
    NAME_IS(MPI_COMM_WORLD, "everyone");
    NAME_IS(MPI_COMM_SELF, "MPI_COMM_SELF");
    CHECK_MPI(MPI_Comm_set_name(MPI_COMM_WORLD, "MPI_COMM_WORLD"));

    /* intercommunicators have names too */
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size >= 2) {
        MPI_Comm half, inter;
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, 0, &half));
        CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 0, &inter));
        NAME_IS(inter, "");
        CHECK_MPI(MPI_Comm_set_name(inter, "bridge"));
        NAME_IS(inter, "bridge");
        CHECK_MPI(MPI_Comm_free(&inter));
        CHECK_MPI(MPI_Comm_free(&half));
    }

    /* errors */
    char buf[MPI_MAX_OBJECT_NAME];
    int len;
    CHECK_ERR(MPI_Comm_set_name(dup, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Comm_get_name(dup, NULL, &len), MPI_ERR_ARG);
    CHECK_ERR(MPI_Comm_get_name(dup, buf, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Comm_get_name(MPI_COMM_NULL, buf, &len), MPI_ERR_COMM);

    CHECK_MPI(MPI_Comm_free(&dup2));
    CHECK_MPI(MPI_Comm_free(&split));
    CHECK_MPI(MPI_Comm_free(&dup));
    return MTest_Finalize();
}
