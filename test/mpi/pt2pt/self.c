/* A process sends to itself: with MPI_Isend/MPI_Irecv in both orders (receive posted first, and
 * message first, then unexpected), small and large (a large blocking send to oneself cannot
 * complete before its receive is posted, so only nonblocking forms are used for it), with a
 * derived type on the send side and a different type of the same signature on the receive side;
 * and with MPI_Sendrecv on MPI_COMM_SELF. Every rank does it (run with 2). */
#include "mtest.h"
#include <stdlib.h>

#define BIG 300000

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int *src = malloc(sizeof(int) * 2 * BIG), *dst = malloc(sizeof(int) * BIG);
    for (int i = 0; i < 2 * BIG; i++)
        src[i] = rank * 10000000 + i;
    MPI_Datatype strided;
    MPI_Type_vector(BIG, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);

    for (int order = 0; order < 2; order++)
        for (int n = 3; n <= BIG; n = n == 3 ? BIG : BIG + 1) {
            MPI_Request r[2];
            MPI_Status st[2];
            for (int i = 0; i < n; i++)
                dst[i] = -1;
            if (order == 0) {
                CHECK_MPI(MPI_Irecv(dst, n, MPI_INT, rank, n, MPI_COMM_WORLD, &r[1]));
                CHECK_MPI(MPI_Isend(src, n, MPI_INT, rank, n, MPI_COMM_WORLD, &r[0]));
            } else {
                CHECK_MPI(MPI_Isend(src, n, MPI_INT, rank, n, MPI_COMM_WORLD, &r[0]));
                CHECK_MPI(MPI_Irecv(dst, n, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r[1]));
            }
            CHECK_MPI(MPI_Waitall(2, r, st));
            int count = -1;
            MPI_Get_count(&st[1], MPI_INT, &count);
            CHECK(count == n && st[1].MPI_SOURCE == rank && st[1].MPI_TAG == n, "order %d n %d: count %d source %d tag %d",
                  order, n, count, st[1].MPI_SOURCE, st[1].MPI_TAG);
            CHECK(dst[0] == src[0] && dst[n - 1] == src[n - 1], "order %d n %d: %d .. %d", order, n, dst[0], dst[n - 1]);
        }

    /* strided send, contiguous receive: the same signature (BIG ints) */
    MPI_Request r[2];
    CHECK_MPI(MPI_Isend(src, 1, strided, rank, 1, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Irecv(dst, BIG, MPI_INT, rank, 1, MPI_COMM_WORLD, &r[1]));
    CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    int bad = 0;
    for (int i = 0; i < BIG && !bad; i++)
        if (dst[i] != src[2 * i]) {
            MTEST_FAIL("strided to contiguous: dst[%d] = %d, expected %d", i, dst[i], src[2 * i]);
            bad = 1;
        }

    /* MPI_COMM_SELF: rank 0 of a group of one */
    int a = 5, b = 0;
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(&a, 1, MPI_INT, 0, 3, &b, 1, MPI_INT, 0, 3, MPI_COMM_SELF, &st));
    CHECK(b == 5 && st.MPI_SOURCE == 0, "COMM_SELF: got %d from %d", b, st.MPI_SOURCE);
    /* a nonblocking send to oneself, then a blocking receive (a blocking send first may never return) */
    MPI_Request s;
    CHECK_MPI(MPI_Isend(&a, 1, MPI_INT, 0, 4, MPI_COMM_SELF, &s));
    b = 0;
    CHECK_MPI(MPI_Recv(&b, 1, MPI_INT, 0, 4, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
    CHECK_EQ(b, 5);
    MPI_Type_free(&strided);
    free(src);
    free(dst);
    return MTest_Finalize();
}
