/*
 * MPI_Intercomm_create and MPI_Intercomm_merge (MPI 4.1, 7.6): the even and the odd world ranks
 * form two groups joined by an intercommunicator. Point-to-point ranks address the remote group;
 * the remote group and size are the other side's; a dup works like the original on its own
 * contexts; merging orders the group with high = 0 first, or, if both sides pass the same high,
 * puts one side first consistently. Errors of the arguments only the leaders read reach every
 * process with their class. Run with 5 processes (groups of 3 and 2).
 */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int wrank, wsize, v;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    int odd = wrank % 2, neven = (wsize + 1) / 2, nodd = wsize / 2;
    int mysize = odd ? nodd : neven, othersize = odd ? neven : nodd;

    MPI_Comm local, inter;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, odd, wrank, &local));
    /* leaders: local rank 0, i.e. world ranks 0 (even) and 1 (odd); the tag is the user's */
    CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, odd ? 0 : 1, 12345, &inter));

    int flag, r, s;
    CHECK_MPI(MPI_Comm_test_inter(inter, &flag));
    CHECK_EQ(flag, 1);
    CHECK_MPI(MPI_Comm_rank(inter, &r));
    CHECK_MPI(MPI_Comm_size(inter, &s));
    CHECK_EQ(r, wrank / 2);
    CHECK_EQ(s, mysize);
    CHECK_MPI(MPI_Comm_remote_size(inter, &s));
    CHECK_EQ(s, othersize);

    /* the remote group holds the other parity, in order */
    MPI_Group remote, world;
    CHECK_MPI(MPI_Comm_remote_group(inter, &remote));
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    int rr[8], wr[8];
    for (int i = 0; i < othersize; i++)
        rr[i] = i;
    CHECK_MPI(MPI_Group_translate_ranks(remote, othersize, rr, world, wr));
    for (int i = 0; i < othersize; i++)
        CHECK_EQ(wr[i], 2 * i + !odd);
    CHECK_MPI(MPI_Group_free(&remote));

    /* 1. point-to-point across: local rank i sends its world rank to remote rank i mod othersize,
     *    and every rank counts what it receives */
    int dest = r % othersize;
    int expected = 0;    /* remote ranks j with j % mysize == r */
    for (int j = 0; j < othersize; j++)
        expected += j % mysize == r;
    MPI_Request req;
    CHECK_MPI(MPI_Isend(&wrank, 1, MPI_INT, dest, 7, inter, &req));
    for (int k = 0; k < expected; k++) {
        MPI_Status st;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 7, inter, &st));
        CHECK_EQ(v % 2, !odd);
        CHECK_EQ(st.MPI_SOURCE, v / 2);     /* the source is a rank of the remote group */
    }
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));

    /* 2. a dup carries its own traffic: send on the dup and on the original, receive in reverse */
    MPI_Comm idup;
    CHECK_MPI(MPI_Comm_dup(inter, &idup));
    CHECK_MPI(MPI_Comm_test_inter(idup, &flag));
    CHECK_EQ(flag, 1);
    if (r == 0) {
        int a = 1, b = 2;
        CHECK_MPI(MPI_Send(&a, 1, MPI_INT, 0, 0, inter));
        CHECK_MPI(MPI_Send(&b, 1, MPI_INT, 0, 0, idup));
        CHECK_MPI(MPI_Recv(&b, 1, MPI_INT, 0, 0, idup, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Recv(&a, 1, MPI_INT, 0, 0, inter, MPI_STATUS_IGNORE));
        CHECK_EQ(a, 1);
        CHECK_EQ(b, 2);
    }
    CHECK_MPI(MPI_Comm_free(&idup));

    /* 3. merge with high = odd: the evens come first */
    MPI_Comm merged;
    CHECK_MPI(MPI_Intercomm_merge(inter, odd, &merged));
    CHECK_MPI(MPI_Comm_test_inter(merged, &flag));
    CHECK_EQ(flag, 0);
    CHECK_MPI(MPI_Comm_rank(merged, &r));
    CHECK_MPI(MPI_Comm_size(merged, &s));
    CHECK_EQ(s, wsize);
    CHECK_EQ(r, odd ? neven + wrank / 2 : wrank / 2);
    int sum = 0;
    CHECK_MPI(MPI_Allreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, merged));
    CHECK_EQ(sum, wsize * (wsize - 1) / 2);
    int result;
    CHECK_MPI(MPI_Comm_compare(merged, MPI_COMM_WORLD, &result));
    CHECK_EQ(result, wsize > 2 ? MPI_SIMILAR : MPI_CONGRUENT);
    CHECK_MPI(MPI_Comm_free(&merged));

    /* high = !odd: the odds first */
    CHECK_MPI(MPI_Intercomm_merge(inter, !odd, &merged));
    CHECK_MPI(MPI_Comm_rank(merged, &r));
    CHECK_EQ(r, odd ? wrank / 2 : nodd + wrank / 2);
    CHECK_MPI(MPI_Comm_free(&merged));

    /* the same high on both sides: one side first, the same for everyone */
    CHECK_MPI(MPI_Intercomm_merge(inter, 1, &merged));
    CHECK_MPI(MPI_Comm_rank(merged, &r));
    int first_is_even = -1, ranks[16];
    CHECK_MPI(MPI_Allgather(&wrank, 1, MPI_INT, ranks, 1, MPI_INT, merged));
    first_is_even = ranks[0] % 2 == 0;
    for (int i = 0; i < wsize; i++) {
        int in_first = i < (first_is_even ? neven : nodd);
        CHECK_EQ(ranks[i] % 2, in_first ? !first_is_even : first_is_even);
    }
    CHECK_MPI(MPI_Comm_free(&merged));

    /* 4. errors */
    MPI_Comm bad;
    CHECK_ERR(MPI_Intercomm_merge(local, 0, &bad), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_remote_size(local, &s), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_remote_group(MPI_COMM_WORLD, &remote), MPI_ERR_COMM);
    CHECK_ERR(MPI_Intercomm_create(local, mysize, MPI_COMM_WORLD, 0, 1, &bad), MPI_ERR_RANK);
    CHECK_ERR(MPI_Intercomm_create(inter, 0, MPI_COMM_WORLD, 0, 1, &bad), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_create_group(inter, world, 0, &bad), MPI_ERR_COMM);
    /* an argument only the leaders read: both are wrong, and every process learns it from its
     * leader, with the leader's class (the local groups then still agree: a dup follows) */
    CHECK_ERR(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, wsize, 2, &bad), MPI_ERR_RANK);
    CHECK_ERR(MPI_Intercomm_create(local, 0, MPI_COMM_NULL, 0, 2, &bad), MPI_ERR_COMM);
    MPI_Comm again;
    CHECK_MPI(MPI_Comm_dup(inter, &again));
    CHECK_MPI(MPI_Comm_remote_size(again, &s));
    CHECK_EQ(s, othersize);
    CHECK_MPI(MPI_Comm_free(&again));

    CHECK_MPI(MPI_Group_free(&world));
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&local));
    return MTest_Finalize();
}
