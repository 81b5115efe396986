/*
 * MPI_Comm_dup (MPI 4.1, 7.4.2): the duplicate has the same group (same rank, same size,
 * MPI_CONGRUENT to the original) but a new context, so a message sent on one communicator is never
 * received on the other, even with the same source and tag; a dup of a dup works the same way;
 * MPI_Comm_idup gives the same through a request; freeing sets the handle to MPI_COMM_NULL. Run
 * with 4 processes.
 */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Comm dup, dup2;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_dup(dup, &dup2));
    CHECK(dup != MPI_COMM_WORLD && dup != dup2 && dup != MPI_COMM_NULL, "dup=%#x dup2=%#x", (unsigned) dup,
          (unsigned) dup2);

    int r, s, result, flag;
    CHECK_MPI(MPI_Comm_rank(dup, &r));
    CHECK_MPI(MPI_Comm_size(dup2, &s));
    CHECK_EQ(r, rank);
    CHECK_EQ(s, size);
    CHECK_MPI(MPI_Comm_compare(dup, MPI_COMM_WORLD, &result));
    CHECK_EQ(result, MPI_CONGRUENT);
    CHECK_MPI(MPI_Comm_compare(dup, dup2, &result));
    CHECK_EQ(result, MPI_CONGRUENT);
    CHECK_MPI(MPI_Comm_compare(dup, dup, &result));
    CHECK_EQ(result, MPI_IDENT);
    CHECK_MPI(MPI_Comm_test_inter(dup, &flag));
    CHECK_EQ(flag, 0);

    /* Each rank sends to the next one value per communicator, same tag, in the order WORLD, dup,
     * dup2; the receiver asks in the opposite order: contexts keep them apart. */
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int out[3] = { 100 + rank, 200 + rank, 300 + rank }, in[3] = { -1, -1, -1 };
    MPI_Comm comms[3] = { MPI_COMM_WORLD, dup, dup2 };
    MPI_Request reqs[3];
    for (int i = 0; i < 3; i++)
        CHECK_MPI(MPI_Isend(&out[i], 1, MPI_INT, next, 5, comms[i], &reqs[i]));
    for (int i = 2; i >= 0; i--) {
        MPI_Status st;
        CHECK_MPI(MPI_Recv(&in[i], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comms[i], &st));
        CHECK_EQ(st.MPI_SOURCE, prev);
        CHECK_EQ(st.MPI_TAG, 5);
    }
    CHECK_MPI(MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE));
    CHECK_EQ(in[0], 100 + prev);
    CHECK_EQ(in[1], 200 + prev);
    CHECK_EQ(in[2], 300 + prev);

    /* a collective on the dup while a message is pending on WORLD with the same peers (after a
     * barrier: the wildcard receive above must not see this message) */
    CHECK_MPI(MPI_Barrier(dup));
    int sum = 0;
    if (rank == 0)
        CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup));
    CHECK_EQ(sum, size * (size - 1) / 2);
    if (rank == size - 1) {
        int v = -1;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_EQ(v, 0);
    }

    /* MPI_COMM_SELF duplicates too */
    MPI_Comm self;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &self));
    CHECK_MPI(MPI_Comm_size(self, &s));
    CHECK_EQ(s, 1);
    CHECK_MPI(MPI_Comm_compare(self, MPI_COMM_SELF, &result));
    CHECK_EQ(result, MPI_CONGRUENT);
    CHECK_MPI(MPI_Comm_compare(self, MPI_COMM_WORLD, &result));
    CHECK_EQ(result, size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL);

    /* dup_with_info behaves like dup */
    MPI_Comm withinfo;
    CHECK_MPI(MPI_Comm_dup_with_info(dup, MPI_INFO_NULL, &withinfo));
    CHECK_MPI(MPI_Comm_compare(withinfo, MPI_COMM_WORLD, &result));
    CHECK_EQ(result, MPI_CONGRUENT);

    /* the nonblocking form: several started, then waited for together */
    MPI_Comm idups[3];
    MPI_Request ireqs[3];
    for (int i = 0; i < 3; i++)
        CHECK_MPI(MPI_Comm_idup(i == 1 ? MPI_COMM_SELF : dup, &idups[i], &ireqs[i]));
    CHECK_MPI(MPI_Waitall(3, ireqs, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 3; i++) {
        CHECK(ireqs[i] == MPI_REQUEST_NULL, "request %d not reset", i);
        CHECK_MPI(MPI_Comm_size(idups[i], &s));
        CHECK_EQ(s, i == 1 ? 1 : size);
    }
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, idups[2]));
    CHECK_EQ(sum, size * (size - 1) / 2);
    for (int i = 0; i < 3; i++)
        CHECK_MPI(MPI_Comm_free(&idups[i]));

    CHECK_MPI(MPI_Comm_free(&withinfo));
    CHECK_MPI(MPI_Comm_free(&self));
    CHECK_MPI(MPI_Comm_free(&dup2));
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK(dup == MPI_COMM_NULL && dup2 == MPI_COMM_NULL, "freed handles are not MPI_COMM_NULL");
    return MTest_Finalize();
}
