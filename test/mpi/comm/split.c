/*
 * MPI_Comm_split (MPI 4.1, 7.4.2): processes of one color form a communicator, ranked by key and,
 * for equal keys, by their rank in the parent; MPI_UNDEFINED gives MPI_COMM_NULL; communicators
 * of different colors share a context id but never exchange messages. Run with 6 processes.
 */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* 1. color = parity, key = -rank: each color's order is reversed. */
    MPI_Comm parity;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &parity));
    int members = (size + 1 - rank % 2) / 2;    /* ranks of my parity in [0, size) */
    int r, s;
    CHECK_MPI(MPI_Comm_rank(parity, &r));
    CHECK_MPI(MPI_Comm_size(parity, &s));
    CHECK_EQ(s, members);
    CHECK_EQ(r, members - 1 - rank / 2);

    /* the new ranks map back to the expected world ranks */
    MPI_Group wg, pg;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    CHECK_MPI(MPI_Comm_group(parity, &pg));
    int pranks[8], wranks[8];
    for (int i = 0; i < s; i++)
        pranks[i] = i;
    CHECK_MPI(MPI_Group_translate_ranks(pg, s, pranks, wg, wranks));
    for (int i = 0; i < s; i++)
        CHECK_EQ(wranks[i], rank % 2 + 2 * (s - 1 - i));
    CHECK_MPI(MPI_Group_free(&pg));

    /* messages stay within a color: everyone sends its world rank to parity rank 0 */
    if (r == 0) {
        int sum = 0;
        for (int i = 1; i < s; i++) {
            int v;
            MPI_Status st;
            CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 1, parity, &st));
            CHECK_EQ(v % 2, rank % 2);
            CHECK_EQ(st.MPI_SOURCE, s - 1 - v / 2);
            sum += v;
        }
        int want = 0;
        for (int w = rank % 2; w < size; w += 2)
            want += w;
        CHECK_EQ(sum + rank, want);
    } else {
        CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, 0, 1, parity));
    }

    /* 2. equal keys: parent order; MPI_UNDEFINED: no communicator */
    MPI_Comm firsthalf;
    int color = rank < size / 2 ? 7 : MPI_UNDEFINED;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, 0, &firsthalf));
    if (color == MPI_UNDEFINED) {
        CHECK(firsthalf == MPI_COMM_NULL, "MPI_UNDEFINED gave %#x", (unsigned) firsthalf);
    } else {
        CHECK_MPI(MPI_Comm_rank(firsthalf, &r));
        CHECK_MPI(MPI_Comm_size(firsthalf, &s));
        CHECK_EQ(r, rank);
        CHECK_EQ(s, size / 2);
        CHECK_MPI(MPI_Comm_free(&firsthalf));
    }

    /* 3. a split of a split: parity communicator by key rank, in two halves */
    MPI_Comm quarter;
    CHECK_MPI(MPI_Comm_rank(parity, &r));
    CHECK_MPI(MPI_Comm_size(parity, &s));
    CHECK_MPI(MPI_Comm_split(parity, r < s / 2, r, &quarter));
    int qs, qr;
    CHECK_MPI(MPI_Comm_size(quarter, &qs));
    CHECK_MPI(MPI_Comm_rank(quarter, &qr));
    CHECK_EQ(qs, r < s / 2 ? s / 2 : s - s / 2);
    CHECK_EQ(qr, r < s / 2 ? r : r - s / 2);
    int sum = 0;
    CHECK_MPI(MPI_Allreduce(&qr, &sum, 1, MPI_INT, MPI_SUM, quarter));
    CHECK_EQ(sum, qs * (qs - 1) / 2);

    /* 4. an invalid color is an error on every process, not only the one that passed it */
    MPI_Comm bad = MPI_COMM_WORLD;
    CHECK_ERR(MPI_Comm_split(MPI_COMM_WORLD, rank == size - 1 ? -5 : 0, 0, &bad), MPI_ERR_ARG);
    CHECK(bad == MPI_COMM_WORLD, "newcomm changed on error");

    CHECK_MPI(MPI_Comm_free(&quarter));
    CHECK_MPI(MPI_Comm_free(&parity));
    CHECK_MPI(MPI_Group_free(&wg));
    return MTest_Finalize();
}
