/* Matched probe (MPI_Mprobe, MPI_Improbe, MPI_Mrecv, MPI_Imrecv and the _c receives).
 *
 * Every rank but 0 sends rank 0 two messages with the same tag: a short one and a long one (the
 * rendezvous protocol), then a third, late one. Rank 0 matches the first with MPI_Mprobe from
 * MPI_ANY_SOURCE and then, before receiving it, receives from the same source and tag with
 * MPI_Recv: that must get the second message, because the matched one left the queue. Then
 * MPI_Mrecv gets the first. The late message is polled for with MPI_Improbe and received with
 * MPI_Imrecv into a vector type. Then: MPI_PROC_NULL (MPI_MESSAGE_NO_PROC), truncation through a
 * matched receive, a matched message whose communicator is freed before the receive, the _c
 * forms, and the argument errors (MPI_ERR_REQUEST for message handles that are not matched
 * messages). Run with 4 processes. */
#include "mtest.h"
#include <stdlib.h>

#define LONG_N 50000

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    double *big = malloc(sizeof(double) * LONG_N * 2);

    /* ---- a matched message cannot be stolen by a later receive ---- */
    if (rank != 0) {
        int small[3] = { rank, 100 + rank, 200 + rank };
        for (int i = 0; i < LONG_N; i++)
            big[i] = rank * 1e6 + i;
        CHECK_MPI(MPI_Send(small, 3, MPI_INT, 0, 7, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(big, LONG_N, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD));
    } else {
        for (int k = 1; k < size; k++) {
            MPI_Message msg = MPI_MESSAGE_NULL;
            MPI_Status st;
            CHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &msg, &st));
            int src = st.MPI_SOURCE, n = -1;
            MPI_Get_count(&st, MPI_INT, &n);
            CHECK(src >= 1 && src < size && st.MPI_TAG == 7 && n == 3 && msg != MPI_MESSAGE_NULL,
                  "Mprobe: source %d tag %d count %d", src, st.MPI_TAG, n);
            if (src < 1 || src >= size)
                break;
            /* the same source and tag now match the long message only */
            MPI_Status pst;
            int flag = 0;
            while (!flag)
                CHECK_MPI(MPI_Iprobe(src, 7, MPI_COMM_WORLD, &flag, &pst));
            MPI_Get_count(&pst, MPI_DOUBLE, &n);
            CHECK_EQ(n, LONG_N);
            CHECK_MPI(MPI_Recv(big, LONG_N, MPI_DOUBLE, src, 7, MPI_COMM_WORLD, &pst));
            CHECK(big[0] == src * 1e6 && big[LONG_N - 1] == src * 1e6 + LONG_N - 1, "long message from %d: %g %g",
                  src, big[0], big[LONG_N - 1]);
            int small[3] = { -1, -1, -1 };
            CHECK_MPI(MPI_Mrecv(small, 3, MPI_INT, &msg, &st));
            CHECK(msg == MPI_MESSAGE_NULL, "MPI_Mrecv left the message handle %#x", (unsigned) msg);
            CHECK(small[0] == src && small[1] == 100 + src && small[2] == 200 + src, "matched message: %d %d %d",
                  small[0], small[1], small[2]);
            CHECK(st.MPI_SOURCE == src && st.MPI_TAG == 7, "Mrecv status: source %d tag %d", st.MPI_SOURCE,
                  st.MPI_TAG);
            MPI_Get_count(&st, MPI_INT, &n);
            CHECK_EQ(n, 3);
            /* the handle is dead now */
            int x;
            CHECK_ERR(MPI_Mrecv(&x, 1, MPI_INT, &msg, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
        }
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* ---- MPI_Improbe polling, then MPI_Imrecv into a vector (every other double) ---- */
    if (rank == 1) {
        for (int i = 0; i < 10; i++)
            big[i] = 0.5 + i;
        int go;
        CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Send(big, 10, MPI_DOUBLE, 0, 21, MPI_COMM_WORLD));
    } else if (rank == 0) {
        int flag = 1;
        MPI_Message msg = 12345;
        MPI_Status st;
        CHECK_MPI(MPI_Improbe(1, 21, MPI_COMM_WORLD, &flag, &msg, &st));
        CHECK(!flag, "MPI_Improbe matched a message not sent yet");
        int go = 1;
        CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 1, 20, MPI_COMM_WORLD));
        double t0 = MPI_Wtime();
        while (!flag && MPI_Wtime() - t0 < 30)
            CHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st));
        CHECK(flag && st.MPI_SOURCE == 1 && st.MPI_TAG == 21, "Improbe: flag %d source %d tag %d", flag,
              st.MPI_SOURCE, st.MPI_TAG);
        /* once matched, no probe sees it */
        int again = 1;
        CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &again, MPI_STATUS_IGNORE));
        CHECK(!again, "MPI_Iprobe saw a matched message");
        MPI_Datatype every_other;
        CHECK_MPI(MPI_Type_vector(10, 1, 2, MPI_DOUBLE, &every_other));
        CHECK_MPI(MPI_Type_commit(&every_other));
        for (int i = 0; i < 20; i++)
            big[i] = -1;
        MPI_Request req;
        CHECK_MPI(MPI_Imrecv(big, 1, every_other, &msg, &req));
        CHECK(msg == MPI_MESSAGE_NULL, "MPI_Imrecv left the message handle");
        CHECK_MPI(MPI_Type_free(&every_other));     /* the receive holds its own reference */
        CHECK_MPI(MPI_Wait(&req, &st));
        for (int i = 0; i < 20; i++)
            CHECK(big[i] == (i % 2 ? -1 : 0.5 + i / 2), "vector receive: [%d] = %g", i, big[i]);
        int n = -1;
        MPI_Get_count(&st, MPI_DOUBLE, &n);
        CHECK(n == 10 && st.MPI_SOURCE == 1 && st.MPI_TAG == 21, "Imrecv status: count %d source %d tag %d", n,
              st.MPI_SOURCE, st.MPI_TAG);
    }

    /* ---- MPI_PROC_NULL: MPI_MESSAGE_NO_PROC ---- */
    {
        MPI_Message msg = MPI_MESSAGE_NULL;
        MPI_Status st;
        st.MPI_SOURCE = st.MPI_TAG = 99;
        CHECK_MPI(MPI_Mprobe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &msg, &st));
        int n = -1;
        MPI_Get_count(&st, MPI_INT, &n);
        CHECK(msg == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && n == 0,
              "Mprobe(PROC_NULL): message %#x source %d tag %d count %d", (unsigned) msg, st.MPI_SOURCE, st.MPI_TAG, n);
        int x = 42;
        st.MPI_SOURCE = 99;
        CHECK_MPI(MPI_Mrecv(&x, 1, MPI_INT, &msg, &st));
        MPI_Get_count(&st, MPI_INT, &n);
        CHECK(msg == MPI_MESSAGE_NULL && st.MPI_SOURCE == MPI_PROC_NULL && n == 0 && x == 42,
              "Mrecv(NO_PROC): message %#x source %d count %d x %d", (unsigned) msg, st.MPI_SOURCE, n, x);
        int flag = 0;
        CHECK_MPI(MPI_Improbe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st));
        CHECK(flag && msg == MPI_MESSAGE_NO_PROC, "Improbe(PROC_NULL): flag %d message %#x", flag, (unsigned) msg);
        MPI_Request req = MPI_REQUEST_NULL;
        CHECK_MPI(MPI_Imrecv(&x, 1, MPI_INT, &msg, &req));
        CHECK_MPI(MPI_Wait(&req, &st));
        CHECK(msg == MPI_MESSAGE_NULL && req == MPI_REQUEST_NULL && st.MPI_SOURCE == MPI_PROC_NULL,
              "Imrecv(NO_PROC): message %#x source %d", (unsigned) msg, st.MPI_SOURCE);
    }

    /* ---- truncation through a matched receive; a freed communicator; the _c forms ---- */
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    if (rank == 1) {
        int v[4] = { 1, 2, 3, 4 };
        CHECK_MPI(MPI_Send(v, 4, MPI_INT, 0, 30, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(v, 2, MPI_INT, 0, 31, dup));
        CHECK_MPI(MPI_Send(v, 3, MPI_INT, 0, 32, MPI_COMM_WORLD));
    } else if (rank == 0) {
        MPI_Message msg;
        MPI_Status st;
        int v[4] = { 0, 0, 0, 0 };
        CHECK_MPI(MPI_Mprobe(1, 30, MPI_COMM_WORLD, &msg, &st));
        CHECK_ERR(MPI_Mrecv(v, 2, MPI_INT, &msg, &st), MPI_ERR_TRUNCATE);
        CHECK(v[0] == 1 && v[1] == 2 && v[2] == 0, "truncated: %d %d %d", v[0], v[1], v[2]);
        CHECK(msg == MPI_MESSAGE_NULL, "a truncated Mrecv still consumes the message");

        CHECK_MPI(MPI_Mprobe(1, 31, dup, &msg, &st));
        CHECK_MPI(MPI_Comm_free(&dup));     /* the matched message keeps what it needs */
        CHECK_MPI(MPI_Mrecv(v, 4, MPI_INT, &msg, &st));
        CHECK(v[0] == 1 && v[1] == 2 && st.MPI_SOURCE == 1 && st.MPI_TAG == 31, "after comm free: %d %d %d %d",
              v[0], v[1], st.MPI_SOURCE, st.MPI_TAG);

        MPI_Count c = -1;
        CHECK_MPI(MPI_Mprobe(1, 32, MPI_COMM_WORLD, &msg, &st));
        MPI_Request req;
        CHECK_MPI(MPI_Imrecv_c(v, (MPI_Count) 4, MPI_INT, &msg, &req));
        CHECK_MPI(MPI_Wait(&req, &st));
        MPI_Get_count_c(&st, MPI_INT, &c);
        CHECK_EQ(c, 3);
    }
    if (rank != 0)
        CHECK_MPI(MPI_Comm_free(&dup));
    if (rank == 2) {
        int v = 77;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 33, MPI_COMM_WORLD));
    } else if (rank == 0) {
        MPI_Message msg;
        int v = 0;
        CHECK_MPI(MPI_Mprobe(2, 33, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Mrecv_c(&v, (MPI_Count) 1, MPI_INT, &msg, MPI_STATUS_IGNORE));
        CHECK_EQ(v, 77);
    }

    /* ---- argument errors ---- */
    {
        MPI_Message msg = MPI_MESSAGE_NULL;
        int x, flag;
        CHECK_ERR(MPI_Mrecv(&x, 1, MPI_INT, &msg, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
        msg = (MPI_Message) 0x12345678;
        CHECK_ERR(MPI_Mrecv(&x, 1, MPI_INT, &msg, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
        MPI_Request req = MPI_REQUEST_NULL;
        msg = MPI_MESSAGE_NULL;
        CHECK_ERR(MPI_Imrecv(&x, 1, MPI_INT, &msg, &req), MPI_ERR_REQUEST);
        CHECK(req == MPI_REQUEST_NULL, "a failed MPI_Imrecv set the request");
        CHECK_ERR(MPI_Mrecv(&x, 1, MPI_INT, NULL, MPI_STATUS_IGNORE), MPI_ERR_ARG);
        CHECK_ERR(MPI_Mprobe(size, 0, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE), MPI_ERR_RANK);
        CHECK_ERR(MPI_Improbe(0, -5, MPI_COMM_WORLD, &flag, &msg, MPI_STATUS_IGNORE), MPI_ERR_TAG);
        CHECK_ERR(MPI_Improbe(0, 0, MPI_COMM_WORLD, &flag, NULL, MPI_STATUS_IGNORE), MPI_ERR_ARG);
        CHECK_ERR(MPI_Mprobe(0, 0, MPI_COMM_NULL, &msg, MPI_STATUS_IGNORE), MPI_ERR_COMM);
        msg = MPI_MESSAGE_NO_PROC;
        CHECK_ERR(MPI_Mrecv(&x, -1, MPI_INT, &msg, MPI_STATUS_IGNORE), MPI_ERR_COUNT);
    }

    free(big);
    return MTest_Finalize();
}
