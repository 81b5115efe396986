/* MPI_Probe then MPI_Recv of exactly the probed size: rank 0 sends messages whose sizes rank 1
 * does not know (small and large, two tags); rank 1 probes with wildcards, allocates what
 * MPI_Get_count says, and receives that message (the probed source and tag) into it. Then
 * MPI_Iprobe polling: rank 1 polls until a message that rank 0 sends late shows up, and a probe
 * never consumes the message. */
#include "mtest.h"
#include <stdlib.h>

static int length(int i)
{
    return i % 3 == 2 ? 100000 + i : 1 + 17 * i;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const int nmsg = 12;

    if (rank == 0) {
        for (int i = 0; i < nmsg; i++) {
            int n = length(i);
            double *d = malloc(sizeof(double) * (size_t) n);
            for (int k = 0; k < n; k++)
                d[k] = i + k * 0.5;
            CHECK_MPI(MPI_Send(d, n, MPI_DOUBLE, 1, i % 2 ? 11 : 10, MPI_COMM_WORLD));
            free(d);
        }
    } else if (rank == 1) {
        for (int i = 0; i < nmsg; i++) {
            MPI_Status st;
            CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            int n = -1;
            CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &n));
            CHECK(n == length(i) && st.MPI_SOURCE == 0 && st.MPI_TAG == (i % 2 ? 11 : 10),
                  "probe %d: count %d source %d tag %d", i, n, st.MPI_SOURCE, st.MPI_TAG);
            /* probing again finds the same message */
            MPI_Status again;
            CHECK_MPI(MPI_Probe(0, st.MPI_TAG, MPI_COMM_WORLD, &again));
            int n2 = -1;
            MPI_Get_count(&again, MPI_DOUBLE, &n2);
            CHECK_EQ(n2, n);
            if (n < 0)
                continue;
            double *d = malloc(sizeof(double) * (size_t) (n + 1));
            MPI_Status rst;
            CHECK_MPI(MPI_Recv(d, n, MPI_DOUBLE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &rst));
            int rn = -1;
            MPI_Get_count(&rst, MPI_DOUBLE, &rn);
            CHECK_EQ(rn, n);
            CHECK(d[0] == i && d[n - 1] == i + (n - 1) * 0.5, "message %d: %g .. %g", i, d[0], d[n - 1]);
            free(d);
        }
    }

    /* Iprobe polling for a message sent only after rank 1 started polling. */
    if (rank == 1) {
        int flag = 0;
        MPI_Status st;
        CHECK_MPI(MPI_Iprobe(0, 50, MPI_COMM_WORLD, &flag, &st));
        CHECK(!flag, "a message with tag 50 before it was sent");
        int ready = 1;
        CHECK_MPI(MPI_Send(&ready, 1, MPI_INT, 0, 49, MPI_COMM_WORLD));
        long polls = 0;
        double t0 = MPI_Wtime();
        while (!flag && MPI_Wtime() - t0 < 30) {
            CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, 50, MPI_COMM_WORLD, &flag, &st));
            polls++;
        }
        CHECK(flag, "MPI_Iprobe never saw the message (%ld polls)", polls);
        int count = -1;
        MPI_Get_count(&st, MPI_SHORT, &count);
        CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 50 && count == 3, "Iprobe: source %d tag %d count %d",
              st.MPI_SOURCE, st.MPI_TAG, count);
        short s[3] = { 0, 0, 0 };
        CHECK_MPI(MPI_Recv(s, 3, MPI_SHORT, 0, 50, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(s[0] == 1 && s[2] == 3, "Iprobe'd message: %d %d", s[0], s[2]);
        CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        CHECK(!flag, "a message left over after the receive");
    } else if (rank == 0) {
        int ready = 0;
        short s[3] = { 1, 2, 3 };
        CHECK_MPI(MPI_Recv(&ready, 1, MPI_INT, 1, 49, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Send(s, 3, MPI_SHORT, 1, 50, MPI_COMM_WORLD));
    }
    return MTest_Finalize();
}
