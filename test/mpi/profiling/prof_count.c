/*
 * The profiling interface: with prof_commit.c linked in, every MPI_Type_commit and MPI_Type_free
 * call goes through the wrapper (and still does its work), while PMPI_ calls are not counted; so
 * does MPI_Pcontrol.
 * The testlist runs this program twice, against the shared libmpi and against libmpi.a
 * (LINKED_STATIC); each run also checks that it really is linked the way it claims.
 */
#define _GNU_SOURCE     /* dl_iterate_phdr */
#include "mtest.h"
#include <link.h>

extern int prof_commit_calls, prof_free_calls, prof_level;

#define NTYPES 10

static int saw_libmpi(struct dl_phdr_info *info, size_t size, void *found)
{
    (void) size;
    if (strstr(info->dlpi_name, "/libmpi.so") != NULL)
        *(int *) found = 1;
    return 0;
}

static int libmpi_so_loaded(void)
{
    int found = 0;
    dl_iterate_phdr(saw_libmpi, &found);
    return found;
}

int main(int argc, char **argv)
{
    MPI_Datatype types[NTYPES], direct, stale;

    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
#ifdef LINKED_STATIC
    CHECK(!libmpi_so_loaded(), "linked with -static-mpi, yet libmpi.so is loaded");
#else
    CHECK(libmpi_so_loaded(), "linked against the shared library, yet libmpi.so is not loaded");
#endif

    for (int k = 0; k < NTYPES; k++) {
        CHECK_MPI(MPI_Type_contiguous(k + 1, MPI_INT, &types[k]));
        CHECK_MPI(MPI_Type_commit(&types[k]));
    }
    CHECK_EQ(prof_commit_calls, NTYPES);
    CHECK_EQ(prof_free_calls, 0);

    /* Direct PMPI_ calls bypass the wrapper. */
    CHECK_MPI(PMPI_Type_vector(2, 1, 3, MPI_INT, &direct));
    CHECK_MPI(PMPI_Type_commit(&direct));
    CHECK_EQ(prof_commit_calls, NTYPES);

    /* The wrapper forwards to the real implementation: the types exist and frees take effect. */
    for (int k = 0; k < NTYPES; k++) {
        int size = -1;
        CHECK_MPI(MPI_Type_size(types[k], &size));
        CHECK_EQ(size, 4 * (k + 1));
    }
    stale = types[0];
    for (int k = 0; k < NTYPES; k++) {
        CHECK_MPI(MPI_Type_free(&types[k]));
        CHECK(types[k] == MPI_DATATYPE_NULL, "MPI_Type_free must set the handle to MPI_DATATYPE_NULL");
    }
    CHECK_EQ(prof_free_calls, NTYPES);

    /* Errors come back through the wrapper too (and the failed calls are still counted). */
    CHECK_ERR(MPI_Type_commit(&stale), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_free(&stale), MPI_ERR_TYPE);
    CHECK_EQ(prof_commit_calls, NTYPES + 1);
    CHECK_EQ(prof_free_calls, NTYPES + 1);

    CHECK_MPI(PMPI_Type_free(&direct));
    CHECK_EQ(prof_free_calls, NTYPES + 1);

    /* MPI_Pcontrol reaches the profiling library, with any trailing arguments; the library's own
     * PMPI_Pcontrol accepts every level and changes nothing. */
    CHECK_MPI(MPI_Pcontrol(2, "extra", 3));
    CHECK_EQ(prof_level, 2);
    CHECK_MPI(MPI_Pcontrol(0));
    CHECK_EQ(prof_level, 0);
    CHECK_MPI(PMPI_Pcontrol(7));
    CHECK_EQ(prof_level, 0);

    return MTest_Finalize();
}
