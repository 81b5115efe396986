/* An operation's error found while it completes (a truncated receive) goes to the error handler of
 * the operation's communicator, also from MPI_Wait/MPI_Waitall, which take no communicator: a
 * handler on MPI_COMM_WORLD counts its calls and records the communicator it was called for, and
 * MPI_COMM_SELF has a handler that must never be called. Errors about a request handle itself
 * belong to no communicator. Run with 2 processes. */
#include "mtest.h"

static int calls, last_code;
static MPI_Comm last_comm;

static void world_handler(MPI_Comm *comm, int *code, ...)
{
    calls++;
    last_comm = *comm;
    last_code = *code;
}

static int self_calls;
static void self_handler(MPI_Comm *comm, int *code, ...)
{
    (void) comm;
    (void) code;
    self_calls++;
}

static void expect(int rc, int cls_wanted, const char *what)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == cls_wanted, "%s: class %d, expected %d", what, cls, cls_wanted);
    CHECK(calls == 1 && last_comm == MPI_COMM_WORLD && last_code == rc,
          "%s: handler calls %d, comm %#x, code %d (returned %d)", what, calls, (unsigned) last_comm, last_code, rc);
    calls = 0;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Errhandler wh, sh;
    MPI_Comm_create_errhandler(world_handler, &wh);
    MPI_Comm_create_errhandler(self_handler, &sh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, wh);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, sh);

    int big[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, small[2];
    if (rank == 0) {
        for (int k = 0; k < 4; k++)
            CHECK_MPI(MPI_Send(big, 8, MPI_INT, 1, k, MPI_COMM_WORLD));
    } else if (rank == 1) {
        MPI_Request r, rs[2];
        MPI_Status sts[2];
        expect(MPI_Recv(small, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_TRUNCATE, "MPI_Recv");
        CHECK_MPI(MPI_Irecv(small, 2, MPI_INT, 0, 1, MPI_COMM_WORLD, &r));
        expect(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_ERR_TRUNCATE, "MPI_Wait");
        CHECK_MPI(MPI_Irecv(small, 2, MPI_INT, 0, 2, MPI_COMM_WORLD, &rs[0]));
        CHECK_MPI(MPI_Irecv(big, 8, MPI_INT, 0, 3, MPI_COMM_WORLD, &rs[1]));
        expect(MPI_Waitall(2, rs, sts), MPI_ERR_IN_STATUS, "MPI_Waitall");
        /* an invalid request handle is no communicator's error: MPI_COMM_WORLD's handler gets it
         * (as MPI_COMM_SELF has a user handler, MPI-4 would pick SELF; either way, one call) */
        MPI_Request bogus = (MPI_Request) 0x7777;
        int rc = MPI_Wait(&bogus, MPI_STATUS_IGNORE);
        int cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK_EQ(cls, MPI_ERR_REQUEST);
        CHECK(calls + self_calls == 1, "invalid request: %d + %d handler calls", calls, self_calls);
        calls = self_calls = 0;
    }
    CHECK_EQ(self_calls, 0);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&wh);
    MPI_Errhandler_free(&sh);
    return MTest_Finalize();
}
