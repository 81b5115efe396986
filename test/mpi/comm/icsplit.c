/*
 * Constructors on an intercommunicator (MPI 4.1, 7.4.2): MPI_Comm_split joins, across the two
 * groups, the processes of one color (ordered by key on each side), giving MPI_COMM_NULL where
 * either side has none of that color; MPI_Comm_create keeps the local group's members of the
 * group each side passes. Run with 6 processes: world ranks 0-2 and 3-5 form the two groups (any
 * size >= 2 works: the lower half and the rest).
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

    /* 1. split: color = local rank % 2, key = -local rank. Each side's members of a color are
     *    ordered by descending local rank. */
    int color = lr % 2, sizes[2] = { half, wsize - half };
    int mine = (sizes[side] + 1 - color) / 2, theirs = (sizes[!side] + 1 - color) / 2;  /* of my color */
    MPI_Comm sc;
    CHECK_MPI(MPI_Comm_split(inter, color, -lr, &sc));
    if (theirs == 0) {
        CHECK(sc == MPI_COMM_NULL, "color %d exists on one side only, yet got %#x", color, (unsigned) sc);
    } else {
        int flag;
        CHECK_MPI(MPI_Comm_test_inter(sc, &flag));
        CHECK_EQ(flag, 1);
        CHECK_MPI(MPI_Comm_size(sc, &s));
        CHECK_EQ(s, mine);
        CHECK_MPI(MPI_Comm_remote_size(sc, &s));
        CHECK_EQ(s, theirs);
        CHECK_MPI(MPI_Comm_rank(sc, &r));
        CHECK_EQ(r, mine - 1 - lr / 2);
        /* exchange with the partner of the same new rank on the other side, if there is one */
        if (r < theirs) {
            int partner_world = -1, partner_lr = 2 * (theirs - 1 - r) + color;
            CHECK_MPI(MPI_Sendrecv(&wrank, 1, MPI_INT, r, 0, &partner_world, 1, MPI_INT, r, 0, sc,
                                   MPI_STATUS_IGNORE));
            CHECK_EQ(partner_world, (side ? 0 : half) + partner_lr);
        }
        CHECK_MPI(MPI_Comm_free(&sc));
    }

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
    /* with one process per side the upper side passes an empty group: nobody gets one */
    if (sizes[1] > 1 && ((side == 0 && lr == 0) || (side == 1 && lr > 0))) {
        CHECK(cc != MPI_COMM_NULL, "member got MPI_COMM_NULL");
        CHECK_MPI(MPI_Comm_size(cc, &s));
        CHECK_EQ(s, side ? sizes[1] - 1 : 1);
        CHECK_MPI(MPI_Comm_remote_size(cc, &s));
        CHECK_EQ(s, side ? 1 : sizes[1] - 1);
        /* the lone lower process collects the upper members' world ranks */
        if (side == 0) {
            for (int i = 1; i < sizes[1]; i++) {
                int v = -1;
                CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, i - 1, 0, cc, MPI_STATUS_IGNORE));
                CHECK_EQ(v, half + i);
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
