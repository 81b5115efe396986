/*
 * MPI_Get_processor_name: the host name (every rank runs on this machine), NUL-terminated, with its
 * length in resultlen, at most MPI_MAX_PROCESSOR_NAME - 1 characters.
 */
#include "mtest.h"
#include <unistd.h>

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    char name[MPI_MAX_PROCESSOR_NAME + 8], host[1024];
    int len = -1;
    memset(name, '#', sizeof name);
    CHECK_MPI(MPI_Get_processor_name(name, &len));
    CHECK(len >= 0 && len < MPI_MAX_PROCESSOR_NAME, "resultlen %d", len);
    CHECK(memchr(name, '\0', MPI_MAX_PROCESSOR_NAME) != NULL, "the name is not terminated in the buffer");
    CHECK_EQ(strlen(name), len);
    CHECK(name[MPI_MAX_PROCESSOR_NAME] == '#', "written past MPI_MAX_PROCESSOR_NAME characters");
    CHECK(gethostname(host, sizeof host) == 0, "gethostname failed");
    host[MPI_MAX_PROCESSOR_NAME - 1] = '\0';
    CHECK(strcmp(name, host) == 0, "name \"%s\", host \"%s\"", name, host);

    /* every rank says the same machine */
    int rank, size, mine = len, min, max;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&mine, &min, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &max, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    CHECK(min == max, "lengths differ between ranks: %d to %d", min, max);
    char first[MPI_MAX_PROCESSOR_NAME];
    memcpy(first, name, sizeof first);
    MPI_Bcast(first, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
    CHECK(strcmp(first, name) == 0, "rank %d says \"%s\", rank 0 \"%s\"", rank, name, first);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_ERR(MPI_Get_processor_name(NULL, &len), MPI_ERR_ARG);
    CHECK_ERR(MPI_Get_processor_name(name, NULL), MPI_ERR_ARG);
    return MTest_Finalize();
}
