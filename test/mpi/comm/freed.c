/*
 * Freed and invalid communicators (MPI 4.1, 7.4.3): after MPI_Comm_free the handle is
 * MPI_COMM_NULL, and a copy of the old handle is invalid (MPI_ERR_COMM) for every use, including
 * a second free; MPI_COMM_WORLD, MPI_COMM_SELF and MPI_COMM_NULL cannot be freed. A communicator
 * freed while operations on it are pending lives on until they complete. Run with 2 processes or
 * more.
 */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, size, v;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* 1. a freed handle is invalid everywhere */
    MPI_Comm c, stale, other;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    stale = c;
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK(c == MPI_COMM_NULL, "freed handle is %#x", (unsigned) c);
    MPI_Group g;
    CHECK_ERR(MPI_Comm_rank(stale, &v), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_size(stale, &v), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_group(stale, &g), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_dup(stale, &other), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_set_name(stale, "x"), MPI_ERR_COMM);
    CHECK_ERR(MPI_Send(&v, 1, MPI_INT, 0, 0, stale), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_free(&stale), MPI_ERR_COMM);
    c = MPI_COMM_NULL;
    CHECK_ERR(MPI_Comm_free(&c), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_size(MPI_COMM_NULL, &v), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_rank((MPI_Comm) 0x1234, &v), MPI_ERR_COMM);

    /* 2. the predefined communicators cannot be freed */
    MPI_Comm world = MPI_COMM_WORLD, self = MPI_COMM_SELF;
    CHECK_ERR(MPI_Comm_free(&world), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_free(&self), MPI_ERR_COMM);
    CHECK(world == MPI_COMM_WORLD && self == MPI_COMM_SELF, "predefined handles changed");
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &v));
    CHECK_EQ(v, size);

    /* 3. free with a receive pending: rank 0 frees before rank 1 even sends */
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    int in = -1, out = 42;
    MPI_Request req;
    MPI_Status st;
    if (rank == 0) {
        CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, 1, 9, c, &req));
        CHECK_MPI(MPI_Comm_free(&c));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Wait(&req, &st));
        CHECK_EQ(in, 42);
        CHECK_EQ(st.MPI_SOURCE, 1);
        CHECK_EQ(st.MPI_TAG, 9);
    } else {
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        if (rank == 1)
            CHECK_MPI(MPI_Send(&out, 1, MPI_INT, 0, 9, c));
        CHECK_MPI(MPI_Comm_free(&c));
    }

    /* 4. a send whose communicator is freed before it completes is still delivered */
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    if (rank == 0) {
        static int big[1 << 18];
        for (int i = 0; i < (1 << 18); i++)
            big[i] = i;
        CHECK_MPI(MPI_Isend(big, 1 << 18, MPI_INT, size - 1, 4, c, &req));
        CHECK_MPI(MPI_Comm_free(&c));
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    } else if (rank == size - 1) {
        static int got[1 << 18];
        CHECK_MPI(MPI_Recv(got, 1 << 18, MPI_INT, 0, 4, c, MPI_STATUS_IGNORE));
        int bad = 0;
        for (int i = 0; i < (1 << 18); i++)
            bad += got[i] != i;
        CHECK_EQ(bad, 0);
        CHECK_MPI(MPI_Comm_free(&c));
    } else {
        CHECK_MPI(MPI_Comm_free(&c));
    }
    return MTest_Finalize();
}
