/*
 * A profiling library in miniature: it defines MPI_Type_commit and MPI_Type_free, counts the calls
 * and forwards them to PMPI_Type_commit and PMPI_Type_free; and MPI_Pcontrol, the hook MPI keeps
 * for such libraries, which records the level it is given. Linked before libmpi (shared or
 * static), these definitions replace the library's MPI_ symbols, which are weak aliases of the
 * PMPI_ entry points; calls made to PMPI_ directly pass by uncounted.
 */
#include <mpi.h>

int prof_commit_calls = 0;
int prof_free_calls = 0;
int prof_level = -1;

int MPI_Type_commit(MPI_Datatype *datatype)
{
    prof_commit_calls++;
    return PMPI_Type_commit(datatype);
}

int MPI_Type_free(MPI_Datatype *datatype)
{
    prof_free_calls++;
    return PMPI_Type_free(datatype);
}

int MPI_Pcontrol(const int level, ...)
{
    prof_level = level;
    return PMPI_Pcontrol(level);
}
