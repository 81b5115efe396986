/* MPI_PROC_NULL: sends to it and receives from it complete at once; a receive's status says source
 * MPI_PROC_NULL, tag MPI_ANY_TAG, count 0 (MPI 4.1, 3.10), and the receive buffer is untouched.
 * Probes of MPI_PROC_NULL find that same empty message at once. */
#include "mtest.h"

static void check_null_status(const MPI_Status *st, const char *what)
{
    int count = -1;
    MPI_Get_count(st, MPI_INT, &count);
    CHECK(st->MPI_SOURCE == MPI_PROC_NULL && st->MPI_TAG == MPI_ANY_TAG && count == 0,
          "%s: source %d tag %d count %d", what, st->MPI_SOURCE, st->MPI_TAG, count);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int buf[4] = { 1, 2, 3, 4 };
    MPI_Status st;

    CHECK_MPI(MPI_Send(buf, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Ssend(buf, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Rsend(buf, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Bsend(buf, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD));   /* needs no buffer */

    CHECK_MPI(MPI_Recv(buf, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &st));
    check_null_status(&st, "MPI_Recv");
    CHECK(buf[0] == 1 && buf[3] == 4, "the buffer changed: %d %d", buf[0], buf[3]);

    MPI_Request r[3];
    CHECK_MPI(MPI_Isend(buf, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &r[1]));
    CHECK_MPI(MPI_Issend(buf, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &r[2]));
    MPI_Status sts[3];
    CHECK_MPI(MPI_Waitall(3, r, sts));
    check_null_status(&sts[1], "MPI_Irecv");
    for (int i = 0; i < 3; i++)
        CHECK(r[i] == MPI_REQUEST_NULL, "request %d not freed", i);

    int flag = 0;
    CHECK_MPI(MPI_Iprobe(MPI_PROC_NULL, 5, MPI_COMM_WORLD, &flag, &st));
    CHECK_EQ(flag, 1);
    check_null_status(&st, "MPI_Iprobe");
    CHECK_MPI(MPI_Probe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    check_null_status(&st, "MPI_Probe");

    int in = 7, out = 9;
    CHECK_MPI(MPI_Sendrecv(&in, 1, MPI_INT, MPI_PROC_NULL, 1, &out, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st));
    check_null_status(&st, "MPI_Sendrecv");
    CHECK_EQ(out, 9);
    CHECK_MPI(MPI_Sendrecv_replace(&out, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st));
    check_null_status(&st, "MPI_Sendrecv_replace");
    CHECK_EQ(out, 9);
    return MTest_Finalize();
}
