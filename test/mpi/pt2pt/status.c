/* The status accessors (MPI_Status_get/set_source, _tag, _error, MPI_Status_set_cancelled,
 * MPI_Test_cancelled) and MPI_Request_get_status, which reports completion without freeing the
 * request: false while the message has not come, then true with the status, and the request is
 * still valid for MPI_Wait. Also the MPI 4.1 MPI_Request_get_status_any/all/some forms. */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    MPI_Status st;
    int v = -1, flag = -1;
    CHECK_MPI(MPI_Status_set_source(&st, 3));
    CHECK_MPI(MPI_Status_set_tag(&st, 44));
    CHECK_MPI(MPI_Status_set_error(&st, MPI_ERR_TAG));
    CHECK_MPI(MPI_Status_set_cancelled(&st, 1));
    CHECK(st.MPI_SOURCE == 3 && st.MPI_TAG == 44 && st.MPI_ERROR == MPI_ERR_TAG, "set: %d %d %d", st.MPI_SOURCE,
          st.MPI_TAG, st.MPI_ERROR);
    CHECK_MPI(MPI_Status_get_source(&st, &v));
    CHECK_EQ(v, 3);
    CHECK_MPI(MPI_Status_get_tag(&st, &v));
    CHECK_EQ(v, 44);
    CHECK_MPI(MPI_Status_get_error(&st, &v));
    CHECK_EQ(v, MPI_ERR_TAG);
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK_EQ(flag, 1);
    CHECK_MPI(MPI_Status_set_cancelled(&st, 0));
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK_EQ(flag, 0);
    CHECK_ERR(MPI_Status_get_tag(MPI_STATUS_IGNORE, &v), MPI_ERR_ARG);
    CHECK_ERR(MPI_Status_set_source(MPI_STATUS_IGNORE, 1), MPI_ERR_ARG);

    /* MPI_Request_get_status on a receive from ourselves */
    MPI_Request r, null = MPI_REQUEST_NULL;
    int x = 0, y = 31;
    CHECK_MPI(MPI_Irecv(&x, 1, MPI_INT, rank, 9, MPI_COMM_WORLD, &r));
    for (int i = 0; i < 10; i++) {
        CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
        CHECK(!flag, "get_status: complete before the send");
    }
    CHECK_MPI(MPI_Send(&y, 1, MPI_INT, rank, 9, MPI_COMM_WORLD));
    flag = 0;
    while (!flag)
        CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
    CHECK(st.MPI_SOURCE == rank && st.MPI_TAG == 9 && x == 31, "get_status: source %d tag %d x %d", st.MPI_SOURCE,
          st.MPI_TAG, x);
    CHECK(r != MPI_REQUEST_NULL, "get_status freed the request");
    int again = 0;
    CHECK_MPI(MPI_Request_get_status(r, &again, MPI_STATUS_IGNORE));
    CHECK_EQ(again, 1);
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK(st.MPI_TAG == 9 && r == MPI_REQUEST_NULL, "wait after get_status: tag %d", st.MPI_TAG);
    CHECK_MPI(MPI_Request_get_status(null, &flag, &st));
    CHECK(flag && st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG, "get_status of null: %d %d %d", flag,
          st.MPI_SOURCE, st.MPI_TAG);

    /* the set forms: two receives, only the second satisfied */
    MPI_Request rs[3];
    int a = -1, b = -1, index = -1, outcount = -1, indices[3];
    MPI_Status sts[3];
    CHECK_MPI(MPI_Irecv(&a, 1, MPI_INT, rank, 10, MPI_COMM_WORLD, &rs[0]));
    rs[1] = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Irecv(&b, 1, MPI_INT, rank, 11, MPI_COMM_WORLD, &rs[2]));
    CHECK_MPI(MPI_Send(&y, 1, MPI_INT, rank, 11, MPI_COMM_WORLD));
    flag = 0;
    while (!flag)
        CHECK_MPI(MPI_Request_get_status_any(3, rs, &index, &flag, &st));
    CHECK(index == 2 && st.MPI_TAG == 11 && b == 31 && rs[2] != MPI_REQUEST_NULL, "get_status_any: index %d tag %d",
          index, st.MPI_TAG);
    CHECK_MPI(MPI_Request_get_status_some(3, rs, &outcount, indices, sts));
    CHECK(outcount == 1 && indices[0] == 2 && sts[0].MPI_TAG == 11, "get_status_some: %d, %d", outcount, indices[0]);
    CHECK_MPI(MPI_Request_get_status_all(3, rs, &flag, sts));
    CHECK_EQ(flag, 0);
    CHECK_MPI(MPI_Send(&y, 1, MPI_INT, rank, 10, MPI_COMM_WORLD));
    flag = 0;
    while (!flag)
        CHECK_MPI(MPI_Request_get_status_all(3, rs, &flag, sts));
    CHECK(sts[0].MPI_TAG == 10 && sts[1].MPI_TAG == MPI_ANY_TAG && sts[2].MPI_TAG == 11, "get_status_all: %d %d %d",
          sts[0].MPI_TAG, sts[1].MPI_TAG, sts[2].MPI_TAG);
    CHECK(rs[0] != MPI_REQUEST_NULL && rs[2] != MPI_REQUEST_NULL, "get_status_all freed requests");
    CHECK_MPI(MPI_Waitall(3, rs, MPI_STATUSES_IGNORE));
    CHECK(a == 31 && b == 31, "a %d b %d", a, b);
    return MTest_Finalize();
}
