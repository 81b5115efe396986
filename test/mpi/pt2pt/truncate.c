/* A message longer than the receive buffer: the receive fails with MPI_ERR_TRUNCATE (returned with
 * MPI_ERRORS_RETURN), the buffer holds the message's first elements and nothing beyond them, and
 * the status still names source and tag with the count of what was received. Small (eager) and
 * large (pipelined) messages, blocking and nonblocking, and MPI_Waitall's MPI_ERR_IN_STATUS. The
 * communication afterwards still works. */
#include "mtest.h"
#include <stdlib.h>

#define BIG 300000

static void check_truncated(int rc, const MPI_Status *st, const int *buf, int n, int tag, const char *what)
{
    int cls = -1, count = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE, "%s: error class %d, expected MPI_ERR_TRUNCATE", what, cls);
    MPI_Get_count(st, MPI_INT, &count);
    CHECK(st->MPI_SOURCE == 0 && st->MPI_TAG == tag, "%s: source %d tag %d", what, st->MPI_SOURCE, st->MPI_TAG);
    CHECK(count == n, "%s: count %d, expected %d", what, count, n);
    for (int i = 0; i < n; i++)
        if (buf[i] != i) {
            MTEST_FAIL("%s: buf[%d] = %d", what, i, buf[i]);
            break;
        }
    CHECK(buf[n] == -1, "%s: written past the buffer: %d", what, buf[n]);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int *data = malloc(sizeof(int) * (BIG + 1)), *buf = malloc(sizeof(int) * (BIG + 1));
    for (int i = 0; i <= BIG; i++)
        data[i] = i;

    const int sizes[2][2] = { { 10, 5 }, { BIG, BIG / 2 } };   /* sent, room */
    for (int s = 0; s < 2; s++) {
        int sent = sizes[s][0], room = sizes[s][1];
        if (rank == 0) {
            for (int k = 0; k < 3; k++)
                CHECK_MPI(MPI_Send(data, sent, MPI_INT, 1, 20 + k, MPI_COMM_WORLD));
        } else if (rank == 1) {
            MPI_Status st;
            char what[64];
            /* blocking */
            for (int i = 0; i <= BIG; i++)
                buf[i] = -1;
            st.MPI_ERROR = 12345;
            int rc = MPI_Recv(buf, room, MPI_INT, 0, 20, MPI_COMM_WORLD, &st);
            snprintf(what, sizeof what, "MPI_Recv of %d into %d", sent, room);
            check_truncated(rc, &st, buf, room, 20, what);
            CHECK(st.MPI_ERROR == 12345, "%s: MPI_Recv wrote the status' error field", what);
            char msg[MPI_MAX_ERROR_STRING];
            int len = 0;
            MPI_Error_string(rc, msg, &len);
            CHECK(strstr(msg, "MPI_Recv") != NULL, "the message does not name the call: %s", msg);
            /* nonblocking */
            for (int i = 0; i <= BIG; i++)
                buf[i] = -1;
            MPI_Request r;
            CHECK_MPI(MPI_Irecv(buf, room, MPI_INT, 0, 21, MPI_COMM_WORLD, &r));
            rc = MPI_Wait(&r, &st);
            snprintf(what, sizeof what, "MPI_Wait of %d into %d", sent, room);
            check_truncated(rc, &st, buf, room, 21, what);
            CHECK(r == MPI_REQUEST_NULL, "%s: the request was not freed", what);
            /* in a set: MPI_ERR_IN_STATUS, and each status' error field says which failed */
            for (int i = 0; i <= BIG; i++)
                buf[i] = -1;
            int small = -1;
            MPI_Request rs[2];
            MPI_Status sts[2];
            CHECK_MPI(MPI_Irecv(buf, room, MPI_INT, 0, 22, MPI_COMM_WORLD, &rs[0]));
            CHECK_MPI(MPI_Irecv(&small, 1, MPI_INT, 0, 23, MPI_COMM_WORLD, &rs[1]));
            rc = MPI_Waitall(2, rs, sts);
            CHECK_ERR(rc, MPI_ERR_IN_STATUS);
            int cls = -1;
            MPI_Error_class(sts[0].MPI_ERROR, &cls);
            CHECK(cls == MPI_ERR_TRUNCATE, "MPI_Waitall: status 0 error class %d", cls);
            CHECK(sts[1].MPI_ERROR == MPI_SUCCESS, "MPI_Waitall: status 1 error %d", sts[1].MPI_ERROR);
            CHECK(small == 42 && sts[1].MPI_TAG == 23, "MPI_Waitall: small %d tag %d", small, sts[1].MPI_TAG);
            snprintf(what, sizeof what, "MPI_Waitall of %d into %d", sent, room);
            check_truncated(sts[0].MPI_ERROR, &sts[0], buf, room, 22, what);
            CHECK(rs[0] == MPI_REQUEST_NULL && rs[1] == MPI_REQUEST_NULL, "MPI_Waitall did not free the requests");
        }
        if (rank == 0) {
            int v = 42;
            CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 1, 23, MPI_COMM_WORLD));
        }
    }

    /* Still working: an exact fit. */
    if (rank == 0)
        CHECK_MPI(MPI_Send(data, 1000, MPI_INT, 1, 30, MPI_COMM_WORLD));
    else if (rank == 1) {
        CHECK_MPI(MPI_Recv(buf, 1000, MPI_INT, 0, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(buf[999] == 999, "after the errors: buf[999] = %d", buf[999]);
    }
    free(data);
    free(buf);
    return MTest_Finalize();
}
