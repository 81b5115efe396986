/*
 * Runs examples/halo.c (the README's example) as a test. The example reports through its exit
 * status; its rank is picked up by interposing MPI_Comm_rank, the profiling interface at work.
 */
#include <stdio.h>
#define main halo_main
#include "../../../examples/halo.c"
#undef main

static int world_rank = -1;

int MPI_Comm_rank(MPI_Comm comm, int *r)
{
    int err = PMPI_Comm_rank(comm, r);
    if (err == MPI_SUCCESS && comm == MPI_COMM_WORLD)
        world_rank = *r;
    return err;
}

int main(int argc, char **argv)
{
    int rc = halo_main(argc, argv);
    if (rc == 0 && world_rank == 0)
        printf(" No Errors\n");
    return rc;
}
