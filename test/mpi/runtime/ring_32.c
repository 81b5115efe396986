/*
 * 32 ranks on a machine of a few cores. In round k (k = 1..31) rank r sends to r + k and
 * receives from MPI_ANY_SOURCE with tag k, which only r - k sends it: the status must name that
 * rank. Each round's message is 64 ints, and 50000 ints (pipelined) in rounds 8, 16 and 24. Then
 * every rank sends to every other at once (MPI_Isend to all, MPI_Recv from MPI_ANY_SOURCE), so
 * 992 messages are in flight together.
 */
#include <stdlib.h>
#include "mtest.h"

static int value(int src, int dest, int i)
{
    return src * 1000003 + dest * 1009 + i;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    enum { BIG = 50000, SMALL = 64 };
    int *s = malloc(BIG * sizeof *s), *r = malloc(BIG * sizeof *r);
    if (!s || !r) {
        MTEST_FAIL("out of memory");
        return MTest_Finalize();
    }

    for (int k = 1; k < size; k++) {
        int to = (rank + k) % size, from = (rank + size - k) % size, n = k % 8 == 0 ? BIG : SMALL;
        for (int i = 0; i < n; i++)
            s[i] = value(rank, to, i);
        MPI_Request req;
        MPI_Status st;
        CHECK_MPI(MPI_Isend(s, n, MPI_INT, to, k, MPI_COMM_WORLD, &req));
        CHECK_MPI(MPI_Recv(r, BIG, MPI_INT, MPI_ANY_SOURCE, k, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        int count = -1;
        MPI_Get_count(&st, MPI_INT, &count);
        if (st.MPI_SOURCE != from || count != n)
            MTEST_FAIL("round %d: %d ints from %d, expected %d from %d", k, count, st.MPI_SOURCE, n, from);
        else
            for (int i = 0; i < n; i++)
                if (r[i] != value(from, rank, i)) {
                    MTEST_FAIL("round %d: r[%d] = %d, expected %d", k, i, r[i], value(from, rank, i));
                    break;
                }
    }

    /* everyone to everyone at once */
    int *out = malloc((size_t) size * sizeof *out), seen = 0;
    MPI_Request *reqs = malloc((size_t) size * sizeof *reqs);
    if (!out || !reqs) {
        MTEST_FAIL("out of memory");
        return MTest_Finalize();
    }
    for (int d = 0; d < size; d++) {
        out[d] = value(rank, d, 0);
        CHECK_MPI(MPI_Isend(&out[d], 1, MPI_INT, d, 100, MPI_COMM_WORLD, &reqs[d]));
    }
    unsigned char *from_seen = calloc((size_t) size, 1);
    for (int k = 0; k < size; k++) {
        int in = -1;
        MPI_Status st;
        CHECK_MPI(MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 100, MPI_COMM_WORLD, &st));
        if (st.MPI_SOURCE < 0 || st.MPI_SOURCE >= size || in != value(st.MPI_SOURCE, rank, 0)
            || from_seen[st.MPI_SOURCE]++)
            MTEST_FAIL("all to all: %d from %d", in, st.MPI_SOURCE);
        else
            seen++;
    }
    for (int d = 0; d < size; d++)
        CHECK_MPI(MPI_Wait(&reqs[d], MPI_STATUS_IGNORE));
    CHECK_EQ(seen, size);
    free(from_seen);
    free(out);
    free(reqs);
    free(s);
    free(r);
    return MTest_Finalize();
}
