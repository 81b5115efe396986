/* MPI_Comm_create on an intracommunicator where processes pass different, disjoint groups (MPI
 * 4.1, MPI_COMM_CREATE: "each process may specify a different group ... the groups must be
 * disjoint"): every process gets the communicator of its own group, ordered as the group is. Here
 * ranks are grouped by rank % 3, each group listed in decreasing world rank, and the last rank (if
 * the world has more than 3) passes MPI_GROUP_EMPTY and gets MPI_COMM_NULL. */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left_out = size > 3 ? size - 1 : -1;
    MPI_Group world, mine;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int members[64], n = 0, my_pos = -1;
    for (int r = size - 1; r >= 0; r--)
        if (r % 3 == rank % 3 && r != left_out) {
            if (r == rank)
                my_pos = n;
            members[n++] = r;
        }
    if (rank == left_out)
        mine = MPI_GROUP_EMPTY;
    else
        CHECK_MPI(MPI_Group_incl(world, n, members, &mine));

    MPI_Comm comm;
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, mine, &comm));
    if (rank == left_out) {
        CHECK(comm == MPI_COMM_NULL, "the process that passed MPI_GROUP_EMPTY got a communicator");
    } else {
        int csize = -1, crank = -1;
        CHECK_MPI(MPI_Comm_size(comm, &csize));
        CHECK_MPI(MPI_Comm_rank(comm, &crank));
        CHECK_EQ(csize, n);
        CHECK_EQ(crank, my_pos);
        /* the communicator holds exactly this group: the sum of its world ranks, and rank 0 of it
         * is the highest world rank of the group */
        int sum = -1, want = 0, root_world = -1;
        for (int i = 0; i < n; i++)
            want += members[i];
        CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm));
        CHECK_EQ(sum, want);
        root_world = rank;
        CHECK_MPI(MPI_Bcast(&root_world, 1, MPI_INT, 0, comm));
        CHECK_EQ(root_world, members[0]);
        int result;
        MPI_Group g;
        CHECK_MPI(MPI_Comm_group(comm, &g));
        CHECK_MPI(MPI_Group_compare(g, mine, &result));
        CHECK_EQ(result, MPI_IDENT);
        CHECK_MPI(MPI_Group_free(&g));
        CHECK_MPI(MPI_Comm_free(&comm));
        CHECK_MPI(MPI_Group_free(&mine));
    }
    CHECK_MPI(MPI_Group_free(&world));
    return MTest_Finalize();
}
