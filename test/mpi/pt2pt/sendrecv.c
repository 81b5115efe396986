/* MPI_Sendrecv and MPI_Sendrecv_replace around a ring: every rank sends to the next and receives
 * from the previous at once (blocking sends all around would deadlock for large messages).
 * Sendrecv_replace uses a strided type, with messages small and large, so the send data must be
 * taken out of the buffer before the received data overwrites it. */
#include "mtest.h"
#include <stdlib.h>

#define N 100000

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int *a = malloc(sizeof(int) * 2 * N), *b = malloc(sizeof(int) * 2 * N);

    for (int n = 1; n <= N; n *= 100) {
        for (int i = 0; i < n; i++) {
            a[i] = rank * 1000000 + i;
            b[i] = -1;
        }
        MPI_Status st;
        CHECK_MPI(MPI_Sendrecv(a, n, MPI_INT, next, 1, b, n, MPI_INT, prev, 1, MPI_COMM_WORLD, &st));
        int count = -1;
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == 1 && count == n, "Sendrecv of %d: source %d tag %d count %d",
              n, st.MPI_SOURCE, st.MPI_TAG, count);
        CHECK(b[0] == prev * 1000000 && b[n - 1] == prev * 1000000 + n - 1, "Sendrecv of %d: got %d .. %d", n,
              b[0], b[n - 1]);
    }

    /* every other int of a: the gaps must stay as they were */
    MPI_Datatype strided;
    MPI_Type_vector(N, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    for (int rep = 0; rep < 2; rep++) {
        for (int i = 0; i < 2 * N; i++)
            a[i] = i % 2 ? -7 : rank * 1000000 + i / 2;
        MPI_Status st;
        /* MPI_ANY_SOURCE/ANY_TAG on the receive side: the status says who it was */
        CHECK_MPI(MPI_Sendrecv_replace(a, 1, strided, next, 2 + rep, rep ? MPI_ANY_SOURCE : prev,
                                       rep ? MPI_ANY_TAG : 2, MPI_COMM_WORLD, &st));
        CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == 2 + rep, "Sendrecv_replace: source %d tag %d", st.MPI_SOURCE,
              st.MPI_TAG);
        int count = -1;
        MPI_Get_count(&st, strided, &count);
        CHECK_EQ(count, 1);
        int bad = 0;
        for (int i = 0; i < 2 * N && !bad; i++) {
            int want = i % 2 ? -7 : prev * 1000000 + i / 2;
            if (a[i] != want) {
                MTEST_FAIL("Sendrecv_replace: a[%d] = %d, expected %d", i, a[i], want);
                bad = 1;
            }
        }
    }
    /* a small contiguous one */
    int pair[2] = { rank, -rank };
    CHECK_MPI(MPI_Sendrecv_replace(pair, 2, MPI_INT, next, 4, prev, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(pair[0] == prev && pair[1] == -prev, "pair: %d %d", pair[0], pair[1]);

    /* the large-count twins */
    MPI_Count n = 5;
    int x[5] = { rank, rank, rank, rank, rank }, y[5] = { -1, -1, -1, -1, -1 };
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv_c(x, n, MPI_INT, next, 5, y, n, MPI_INT, prev, 5, MPI_COMM_WORLD, &st));
    MPI_Count c = -1;
    MPI_Get_count_c(&st, MPI_INT, &c);
    CHECK(c == 5 && y[4] == prev, "Sendrecv_c: count %lld, y[4] = %d", (long long) c, y[4]);
    CHECK_MPI(MPI_Sendrecv_replace_c(x, n, MPI_INT, next, 6, prev, 6, MPI_COMM_WORLD, &st));
    CHECK(x[0] == prev, "Sendrecv_replace_c: x[0] = %d", x[0]);
    MPI_Type_free(&strided);
    free(a);
    free(b);
    return MTest_Finalize();
}
