/*
 * MPI_Isendrecv and MPI_Isendrecv_replace (and their _c twins) around a ring: one request for a
 * send to the next rank and a receive from the previous, completed by MPI_Wait, MPI_Test, MPI_Waitall
 * or MPI_Waitany, small and large (rendezvous) messages, with a strided type for the replace form
 * (whose gaps must stay as they were). The status is the receive's. A pair freed with
 * MPI_Request_free still delivers; MPI_PROC_NULL on either side; argument errors (rank, tag) are
 * returned at once, a truncated receive through the request.
 */
#include "mtest.h"
#include <stdlib.h>

#define N 100000

static int rank, size, next, prev;

static void check_status(const MPI_Status *st, int tag, int count, MPI_Datatype type, const char *what)
{
    int got = -1;
    MPI_Get_count(st, type, &got);
    CHECK(st->MPI_SOURCE == prev && st->MPI_TAG == tag && got == count, "%s: source %d tag %d count %d", what,
          st->MPI_SOURCE, st->MPI_TAG, got);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int *a = malloc(sizeof(int) * 2 * N), *b = malloc(sizeof(int) * 2 * N);
    MPI_Request r;
    MPI_Status st;

    /* plain ints, waited for or tested */
    for (int n = 1; n <= N; n *= 100) {
        for (int i = 0; i < n; i++)
            a[i] = rank * 1000000 + i, b[i] = -1;
        CHECK_MPI(MPI_Isendrecv(a, n, MPI_INT, next, 5, b, n, MPI_INT, prev, 5, MPI_COMM_WORLD, &r));
        if (n == 1) {
            int flag = 0;
            while (!flag)
                CHECK_MPI(MPI_Test(&r, &flag, &st));
        } else {
            CHECK_MPI(MPI_Wait(&r, &st));
        }
        CHECK(r == MPI_REQUEST_NULL, "the request was not freed");
        check_status(&st, 5, n, MPI_INT, "Isendrecv");
        CHECK(b[0] == prev * 1000000 && b[n - 1] == prev * 1000000 + n - 1, "Isendrecv of %d: got %d .. %d", n, b[0],
              b[n - 1]);
    }

    /* the replace form with every other int: the gaps stay */
    MPI_Datatype strided;
    MPI_Type_vector(N, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    for (int i = 0; i < 2 * N; i++)
        a[i] = i % 2 ? -7 : rank * 1000000 + i / 2;
    CHECK_MPI(MPI_Isendrecv_replace(a, 1, strided, next, 6, prev, 6, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, &st));
    check_status(&st, 6, 1, strided, "Isendrecv_replace");
    int bad = 0;
    for (int i = 0; i < 2 * N; i++)
        bad += a[i] != (i % 2 ? -7 : prev * 1000000 + i / 2);
    CHECK(bad == 0, "Isendrecv_replace: %d ints differ", bad);

    /* several in flight, the _c forms, completed together and one by one */
    MPI_Request rs[3];
    int x[3] = { rank, rank + 100, rank + 200 }, y[3] = { -1, -1, -1 };
    CHECK_MPI(MPI_Isendrecv_c(&x[0], 1, MPI_INT, next, 7, &y[0], 1, MPI_INT, prev, 7, MPI_COMM_WORLD, &rs[0]));
    CHECK_MPI(MPI_Isendrecv_c(&x[1], 1, MPI_INT, next, 8, &y[1], 1, MPI_INT, prev, 8, MPI_COMM_WORLD, &rs[1]));
    y[2] = x[2];
    CHECK_MPI(MPI_Isendrecv_replace_c(&y[2], 1, MPI_INT, next, 9, prev, 9, MPI_COMM_WORLD, &rs[2]));
    int index = -1;
    CHECK_MPI(MPI_Waitany(3, rs, &index, &st));
    CHECK(index >= 0 && index < 3 && rs[index] == MPI_REQUEST_NULL && st.MPI_TAG == 7 + index, "Waitany: %d, tag %d",
          index, st.MPI_TAG);
    MPI_Status sts[3];
    CHECK_MPI(MPI_Waitall(3, rs, sts));
    CHECK(y[0] == prev && y[1] == prev + 100 && y[2] == prev + 200, "Waitall: %d %d %d", y[0], y[1], y[2]);

    /* freed at once: the data still arrives, before the next message from the same rank */
    int z = -1, after = -1;
    CHECK_MPI(MPI_Isendrecv(&x[0], 1, MPI_INT, next, 10, &z, 1, MPI_INT, prev, 10, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Request_free(&r));
    CHECK(r == MPI_REQUEST_NULL, "MPI_Request_free left the handle");
    CHECK_MPI(MPI_Sendrecv(&x[1], 1, MPI_INT, next, 10, &after, 1, MPI_INT, prev, 10, MPI_COMM_WORLD, &st));
    CHECK(z == prev && after == prev + 100, "freed pair: %d, then %d", z, after);

    /* MPI_PROC_NULL: nothing sent, an empty status from MPI_PROC_NULL */
    z = -1;
    CHECK_MPI(MPI_Isendrecv(&x[0], 1, MPI_INT, MPI_PROC_NULL, 11, &z, 1, MPI_INT, MPI_PROC_NULL, 11, MPI_COMM_WORLD,
                            &r));
    CHECK_MPI(MPI_Wait(&r, &st));
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && count == 0 && z == -1, "PROC_NULL: source %d count %d", st.MPI_SOURCE,
          count);

    /* errors: arguments at once, a truncated receive through the request */
    CHECK_ERR(MPI_Isendrecv(&x[0], 1, MPI_INT, size, 1, &z, 1, MPI_INT, prev, 1, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
    CHECK_ERR(MPI_Isendrecv(&x[0], 1, MPI_INT, next, 1, &z, 1, MPI_INT, prev, -5, MPI_COMM_WORLD, &r), MPI_ERR_TAG);
    CHECK_ERR(MPI_Isendrecv_replace(&z, 1, MPI_INT, next, -1, prev, 1, MPI_COMM_WORLD, &r), MPI_ERR_TAG);
    CHECK_MPI(MPI_Isendrecv(x, 3, MPI_INT, next, 12, y, 2, MPI_INT, prev, 12, MPI_COMM_WORLD, &r));
    CHECK_ERR(MPI_Wait(&r, &st), MPI_ERR_TRUNCATE);
    CHECK(r == MPI_REQUEST_NULL, "a failed pair was not freed");

    MPI_Type_free(&strided);
    free(a);
    free(b);
    return MTest_Finalize();
}
