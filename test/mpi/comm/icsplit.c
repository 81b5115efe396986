/*
 * Constructors on an intercommunicator (MPI 4.1, 7.4.2): MPI_Comm_split joins, across the two
 * groups, the processes of one color (ordered by key on each side), giving MPI_COMM_NULL where
 * either side has none of that color; MPI_Comm_create keeps the local group's members of the
 * group each side passes. Run with 6 processes: world ranks 0-2 and 3-5 form the two groups.
 */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int wrank, wsize, r, s;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    int half = wsize / 2, side = wrank >= half;     /* side 1: the upper half */

    MPI_Comm local, inter;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, side, 0, &local));
    CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, side ? 0 : half, 0, &inter));
    int lr;
    MPI_Comm_rank(local, &lr);

    /* 1. split: color = local rank % 2, key = -local rank. Color 0 holds local ranks 0, 2 of each
     *    side (ordered 2, 0), color 1 holds rank 1 of each side. */
    MPI_Comm sc;
    CHECK_MPI(MPI_Comm_split(inter, lr % 2, -lr, &sc));
    int flag;
    CHECK_MPI(MPI_Comm_test_inter(sc, &flag));
    CHECK_EQ(flag, 1);
    int n0 = (half + 1) / 2, n1 = half / 2;     /* members of colors 0 and 1 on each side */
    CHECK_MPI(MPI_Comm_size(sc, &s));
    CHECK_EQ(s, lr % 2 ? n1 : n0);
    CHECK_MPI(MPI_Comm_remote_size(sc, &s));
    CHECK_EQ(s, lr % 2 ? n1 : n0);
    CHECK_MPI(MPI_Comm_rank(sc, &r));
    CHECK_EQ(r, (lr % 2 ? n1 : n0) - 1 - lr / 2);
    /* exchange with the partner of the same new rank on the other side */
    int partner_world = -1;
    CHECK_MPI(MPI_Sendrecv(&wrank, 1, MPI_INT, r, 0, &partner_world, 1, MPI_INT, r, 0, sc, MPI_STATUS_IGNORE));
    CHECK_EQ(partner_world, side ? wrank - half : wrank + half);
    CHECK_MPI(MPI_Comm_free(&sc));

    /* 2. a color only one side has: MPI_COMM_NULL everywhere */
    CHECK_MPI(MPI_Comm_split(inter, side ? 5 : 6, 0, &sc));
    CHECK(sc == MPI_COMM_NULL, "one-sided color gave %#x", (unsigned) sc);

    /* 3. create: the lower side keeps its local rank 0, the upper side all but its local rank 0 */
    MPI_Group lg, sub;
    CHECK_MPI(MPI_Comm_group(inter, &lg));
    int zero = 0;
    if (side)
        CHECK_MPI(MPI_Group_excl(lg, 1, &zero, &sub));
    else
        CHECK_MPI(MPI_Group_incl(lg, 1, &zero, &sub));
    MPI_Comm cc;
    CHECK_MPI(MPI_Comm_create(inter, sub, &cc));
    if ((side == 0 && lr == 0) || (side == 1 && lr > 0)) {
        CHECK(cc != MPI_COMM_NULL, "member got MPI_COMM_NULL");
        CHECK_MPI(MPI_Comm_size(cc, &s));
        CHECK_EQ(s, side ? half - 1 : 1);
        CHECK_MPI(MPI_Comm_remote_size(cc, &s));
        CHECK_EQ(s, side ? 1 : half - 1);
        /* the lone lower process collects the upper members' world ranks */
        if (side == 0) {
            int sum = 0, v;
            for (int i = 1; i < half; i++) {
                CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, i - 1, 0, cc, MPI_STATUS_IGNORE));
                CHECK_EQ(v, half + i);
                sum += v;
            }
        } else {
            CHECK_MPI(MPI_Send(&wrank, 1, MPI_INT, 0, 0, cc));
        }
        CHECK_MPI(MPI_Comm_free(&cc));
    } else {
        CHECK(cc == MPI_COMM_NULL, "non-member got %#x", (unsigned) cc);
    }
    CHECK_MPI(MPI_Group_free(&sub));
    CHECK_MPI(MPI_Group_free(&lg));

    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&local));
    return MTest_Finalize();
}
