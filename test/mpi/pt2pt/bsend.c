/* Buffered sends. Rank 0 attaches a buffer sized by the standard's rule for three messages
 * (MPI_Pack_size + MPI_BSEND_OVERHEAD each) and MPI_Bsends three large messages of a strided type
 * while rank 1 is not yet receiving: each returns at once, with the data copied (the source is
 * overwritten right after). A fourth does not fit: MPI_ERR_BUFFER. MPI_Buffer_detach returns the
 * buffer and its size only once the messages are delivered: the buffer is scribbled on and freed
 * right after, and rank 1 must still receive intact data. Then: the exact-fit boundary, MPI_Ibsend
 * (complete at once), attaching twice, sending with no buffer, and MPI_BUFFER_AUTOMATIC. */
#include "mtest.h"
#include <stdlib.h>

#define N 250000        /* ints per message: 1 MB, far beyond an eager cell */

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_Datatype strided;
    MPI_Type_vector(N, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    int *src = malloc(sizeof(int) * 2 * N), *dst = malloc(sizeof(int) * N);

    if (rank == 0) {
        int ps = 0;
        MPI_Pack_size(1, strided, MPI_COMM_WORLD, &ps);
        CHECK_EQ(ps, 4 * N);
        int size = 3 * (ps + MPI_BSEND_OVERHEAD);
        char *buffer = malloc((size_t) size);
        CHECK_MPI(MPI_Buffer_attach(buffer, size));
        for (int m = 0; m < 3; m++) {
            for (int i = 0; i < 2 * N; i++)
                src[i] = m * 10000000 + i;
            CHECK_MPI(MPI_Bsend(src, 1, strided, 1, m + 1, MPI_COMM_WORLD));
        }
        for (int i = 0; i < 2 * N; i++)
            src[i] = -5;
        CHECK_ERR(MPI_Bsend(src, 1, strided, 1, 4, MPI_COMM_WORLD), MPI_ERR_BUFFER);
        int go = 1;
        CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 1, 9, MPI_COMM_WORLD));
        void *addr = NULL;
        int got = -1;
        CHECK_MPI(MPI_Buffer_detach(&addr, &got));
        CHECK(addr == buffer && got == size, "detach returned %p, %d; attached %p, %d", addr, got,
              (void *) buffer, size);
        memset(buffer, 0xff, (size_t) size);
        free(buffer);

        /* exactly one int's worth: 4 + MPI_BSEND_OVERHEAD fits, one byte less does not */
        char small[4 + MPI_BSEND_OVERHEAD];
        int v = 77;
        CHECK_MPI(MPI_Buffer_attach(small, (int) sizeof small - 1));
        CHECK_ERR(MPI_Bsend(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD), MPI_ERR_BUFFER);
        CHECK_MPI(MPI_Buffer_detach(&addr, &got));
        CHECK_MPI(MPI_Buffer_attach(small, (int) sizeof small));
        CHECK_ERR(MPI_Buffer_attach(small, (int) sizeof small), MPI_ERR_BUFFER);
        CHECK_MPI(MPI_Bsend(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD));
        v = 0;

        /* MPI_Ibsend: the request is complete once the data is in the buffer */
        int w = 88, flag = 0;
        MPI_Request r;
        MPI_Status st;
        CHECK_MPI(MPI_Buffer_detach(&addr, &got));
        CHECK(addr == small && got == (int) sizeof small, "detach returned %p, %d", addr, got);
        CHECK_MPI(MPI_Buffer_attach(small, (int) sizeof small));
        CHECK_MPI(MPI_Ibsend(&w, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Test(&r, &flag, &st));
        CHECK(flag && r == MPI_REQUEST_NULL, "MPI_Ibsend's request: flag %d", flag);
        int cancelled = 1;
        MPI_Test_cancelled(&st, &cancelled);
        CHECK_EQ(cancelled, 0);
        w = 0;
        CHECK_MPI(MPI_Buffer_detach(&addr, &got));

        /* nothing attached */
        CHECK_ERR(MPI_Bsend(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD), MPI_ERR_BUFFER);
        CHECK_MPI(MPI_Buffer_detach(&addr, &got));
        CHECK(addr == NULL && got == 0, "detach with nothing attached: %p, %d", addr, got);

        /* MPI_BUFFER_AUTOMATIC: any number and size of messages */
        CHECK_MPI(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0));
        for (int m = 0; m < 4; m++) {
            for (int i = 0; i < 2 * N; i++)
                src[i] = -m - i;
            CHECK_MPI(MPI_Bsend(src, 1, strided, 1, 10 + m, MPI_COMM_WORLD));
        }
        for (int i = 0; i < 2 * N; i++)
            src[i] = 0;
        CHECK_MPI(MPI_Buffer_flush());
        CHECK_MPI(MPI_Buffer_detach(&addr, &got));
        CHECK(addr == MPI_BUFFER_AUTOMATIC && got == 0, "automatic detach returned %p, %d", addr, got);
    } else if (rank == 1) {
        int go = 0;
        CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (int m = 0; m < 3; m++) {
            MPI_Status st;
            CHECK_MPI(MPI_Recv(dst, N, MPI_INT, 0, m + 1, MPI_COMM_WORLD, &st));
            int count = -1;
            MPI_Get_count(&st, MPI_INT, &count);
            CHECK_EQ(count, N);
            int bad = 0;
            for (int i = 0; i < N && !bad; i++)
                if (dst[i] != m * 10000000 + 2 * i) {
                    MTEST_FAIL("message %d: dst[%d] = %d, expected %d", m, i, dst[i], m * 10000000 + 2 * i);
                    bad = 1;
                }
        }
        int v = 0;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_EQ(v, 77);
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_EQ(v, 88);
        for (int m = 0; m < 4; m++) {
            CHECK_MPI(MPI_Recv(dst, N, MPI_INT, 0, 10 + m, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(dst[0] == -m && dst[N - 1] == -m - 2 * (N - 1), "automatic message %d: %d .. %d", m, dst[0],
                  dst[N - 1]);
        }
        /* the message that did not fit was never sent */
        int flag = 1;
        CHECK_MPI(MPI_Iprobe(0, 4, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        CHECK_EQ(flag, 0);
    }
    MPI_Type_free(&strided);
    free(src);
    free(dst);
    return MTest_Finalize();
}
