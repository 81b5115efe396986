/*
 * MPI_Comm_create and MPI_Comm_create_group (MPI 4.1, 7.4.2): the new communicator has the given
 * group, in the group's order; processes outside it get MPI_COMM_NULL (create) or do not take
 * part at all (create_group, collective over the group only); a group that is not a subgroup is
 * MPI_ERR_GROUP on every process. Run with 5 processes.
 */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, size, r, s;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Group world;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));

    /* 1. create without rank 0, in reverse order */
    int n = size - 1, ranks[16];
    for (int i = 0; i < n; i++)
        ranks[i] = size - 1 - i;
    MPI_Group rev;
    CHECK_MPI(MPI_Group_incl(world, n, ranks, &rev));
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, rev, &c));
    if (rank == 0) {
        CHECK(c == MPI_COMM_NULL, "rank 0 got %#x", (unsigned) c);
    } else {
        CHECK_MPI(MPI_Comm_rank(c, &r));
        CHECK_MPI(MPI_Comm_size(c, &s));
        CHECK_EQ(s, n);
        CHECK_EQ(r, size - 1 - rank);
        /* the group of the new communicator is the one given */
        MPI_Group cg;
        int result;
        CHECK_MPI(MPI_Comm_group(c, &cg));
        CHECK_MPI(MPI_Group_compare(cg, rev, &result));
        CHECK_EQ(result, MPI_IDENT);
        CHECK_MPI(MPI_Group_free(&cg));
        int max = -1;
        CHECK_MPI(MPI_Allreduce(&rank, &max, 1, MPI_INT, MPI_MAX, c));
        CHECK_EQ(max, size - 1);
    }
    /* the user's group may go first: the communicator keeps its own */
    CHECK_MPI(MPI_Group_free(&rev));
    if (c != MPI_COMM_NULL) {
        int root_world = -1;
        if (r == 0)
            root_world = rank;
        CHECK_MPI(MPI_Bcast(&root_world, 1, MPI_INT, 0, c));
        CHECK_EQ(root_world, size - 1);
        CHECK_MPI(MPI_Comm_free(&c));
    }

    /* 2. create with the empty group: everyone gets MPI_COMM_NULL */
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &c));
    CHECK(c == MPI_COMM_NULL, "empty group gave %#x", (unsigned) c);

    /* 3. create_group on the even ranks only; the odd ranks meanwhile make their own with
     *    another tag, and nobody else waits for them */
    int evens[16], ne = 0, odds[16], no = 0;
    for (int i = 0; i < size; i++) {
        if (i % 2 == 0)
            evens[ne++] = i;
        else
            odds[no++] = i;
    }
    MPI_Group half;
    CHECK_MPI(MPI_Group_incl(world, rank % 2 ? no : ne, rank % 2 ? odds : evens, &half));
    CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, half, rank % 2 ? 11 : 10, &c));
    CHECK_MPI(MPI_Group_free(&half));
    CHECK_MPI(MPI_Comm_rank(c, &r));
    CHECK_MPI(MPI_Comm_size(c, &s));
    CHECK_EQ(r, rank / 2);
    CHECK_EQ(s, rank % 2 ? no : ne);
    int sum = -1;
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c));
    int want = 0;
    for (int i = rank % 2; i < size; i += 2)
        want += i;
    CHECK_EQ(sum, want);
    MPI_Comm c2;    /* and a create_group of a create_group's communicator */
    MPI_Group cg, first;
    int zero_one[2] = { 0, 1 };
    CHECK_MPI(MPI_Comm_group(c, &cg));
    int nfirst = s < 2 ? s : 2;
    CHECK_MPI(MPI_Group_incl(cg, nfirst, zero_one, &first));
    if (r < 2) {
        CHECK_MPI(MPI_Comm_create_group(c, first, 0, &c2));
        CHECK_MPI(MPI_Comm_size(c2, &s));
        CHECK_EQ(s, nfirst);
        CHECK_MPI(MPI_Comm_free(&c2));
    }
    CHECK_MPI(MPI_Group_free(&first));
    CHECK_MPI(MPI_Group_free(&cg));

    /* 4. errors: a group that is not a subgroup of c (every process learns it), a bad tag, an
     *    intercommunicator-only call */
    if (size > 1) {     /* with one process, c's group is the world's */
        CHECK_ERR(MPI_Comm_create(c, world, &c2), MPI_ERR_GROUP);
        CHECK_ERR(MPI_Comm_create_group(c, world, 0, &c2), MPI_ERR_GROUP);
    }
    CHECK_ERR(MPI_Comm_create_group(MPI_COMM_WORLD, world, -1, &c2), MPI_ERR_TAG);
    CHECK_MPI(MPI_Comm_free(&c));

    CHECK_MPI(MPI_Group_free(&world));
    return MTest_Finalize();
}
