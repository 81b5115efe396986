/* Persistent requests: MPI_Send_init, MPI_Ssend_init, MPI_Rsend_init, MPI_Bsend_init, MPI_Recv_init
 * (and _c), MPI_Start, MPI_Startall, with the completion calls and MPI_Request_free.
 *
 * A ring: each rank sends to the next and receives from the previous with one pair of persistent
 * requests started 20 times; the send buffer changes between starts, so each round must send what
 * the buffer holds at its start, and the requests must survive every MPI_Waitall. Inactive
 * persistent requests: MPI_Wait and MPI_Test return at once with an empty status and keep the
 * handle; MPI_Waitany/MPI_Testsome pass over them; MPI_Waitall gives them empty statuses. Then
 * the synchronous mode (the send cannot complete before the receive is posted), ready and
 * buffered modes, a datatype freed between init and start, MPI_PROC_NULL, MPI_Request_get_status,
 * cancelling a started receive, freeing active and inactive requests, and the errors (starting an
 * active or non-persistent request, bad arguments at init). Run with 4 processes. */
#include "mtest.h"
#include <stdlib.h>

#define ROUNDS 20
#define N 1000      /* 5N ints: 20 kB, sent by rendezvous */

static void check_empty(const MPI_Status *st, const char *what)
{
    int n = -1;
    MPI_Get_count(st, MPI_INT, &n);
    CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG && n == 0,
          "%s: not the empty status (source %d tag %d count %d)", what, st->MPI_SOURCE, st->MPI_TAG, n);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int *sbuf = malloc(sizeof(int) * 5 * N), *rbuf = malloc(sizeof(int) * 5 * N);

    /* ---- the ring ---- */
    MPI_Request reqs[2];
    CHECK_MPI(MPI_Recv_init(rbuf, 5 * N, MPI_INT, prev, 1, MPI_COMM_WORLD, &reqs[0]));
    CHECK_MPI(MPI_Send_init(sbuf, 5 * N, MPI_INT, next, 1, MPI_COMM_WORLD, &reqs[1]));
    MPI_Request keep[2] = { reqs[0], reqs[1] };
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < 5 * N; i++)
            sbuf[i] = rank * 1000000 + round * 10000 + i;
        memset(rbuf, 0xff, sizeof(int) * 5 * N);
        CHECK_MPI(MPI_Startall(2, reqs));
        MPI_Status st[2];
        CHECK_MPI(MPI_Waitall(2, reqs, st));
        CHECK(reqs[0] == keep[0] && reqs[1] == keep[1], "MPI_Waitall freed a persistent request");
        int bad = 0;
        for (int i = 0; i < 5 * N; i++)
            bad += rbuf[i] != prev * 1000000 + round * 10000 + i;
        CHECK(bad == 0, "round %d: %d wrong values (first %d)", round, bad, rbuf[0]);
        int count = -1;
        MPI_Get_count(&st[0], MPI_INT, &count);
        CHECK(st[0].MPI_SOURCE == prev && st[0].MPI_TAG == 1 && count == 5 * N,
              "round %d: source %d tag %d count %d", round, st[0].MPI_SOURCE, st[0].MPI_TAG, count);
    }

    /* ---- inactive requests ---- */
    MPI_Status st;
    int flag = 0, index = 7, outcount = 7, indices[2];
    st.MPI_SOURCE = 5;
    CHECK_MPI(MPI_Wait(&reqs[0], &st));
    check_empty(&st, "MPI_Wait on an inactive request");
    CHECK(reqs[0] == keep[0], "MPI_Wait changed an inactive persistent request's handle");
    st.MPI_SOURCE = 5;
    CHECK_MPI(MPI_Test(&reqs[1], &flag, &st));
    CHECK(flag && reqs[1] == keep[1], "MPI_Test on an inactive request: flag %d", flag);
    check_empty(&st, "MPI_Test on an inactive request");
    CHECK_MPI(MPI_Waitany(2, reqs, &index, &st));
    CHECK_EQ(index, MPI_UNDEFINED);
    check_empty(&st, "MPI_Waitany on inactive requests");
    CHECK_MPI(MPI_Testsome(2, reqs, &outcount, indices, MPI_STATUSES_IGNORE));
    CHECK_EQ(outcount, MPI_UNDEFINED);
    MPI_Status sts[2];
    sts[0].MPI_SOURCE = sts[1].MPI_SOURCE = 5;
    CHECK_MPI(MPI_Waitall(2, reqs, sts));
    check_empty(&sts[0], "MPI_Waitall, entry 0");
    check_empty(&sts[1], "MPI_Waitall, entry 1");
    CHECK_MPI(MPI_Request_get_status(reqs[0], &flag, &st));
    CHECK(flag, "MPI_Request_get_status of an inactive request: flag %d", flag);
    /* Waitany with one active among inactive ones finds the active one */
    CHECK_MPI(MPI_Start(&reqs[0]));
    CHECK_MPI(MPI_Start(&reqs[1]));
    int done = 0;
    while (done < 2) {
        CHECK_MPI(MPI_Waitany(2, reqs, &index, &st));
        CHECK(index == 0 || index == 1, "Waitany index %d", index);
        done++;
    }
    CHECK_MPI(MPI_Waitany(2, reqs, &index, &st));
    CHECK_EQ(index, MPI_UNDEFINED);

    /* ---- errors ---- */
    CHECK_MPI(MPI_Start(&reqs[0]));
    CHECK_ERR(MPI_Start(&reqs[0]), MPI_ERR_REQUEST);                /* active already */
    CHECK_ERR(MPI_Startall(2, reqs), MPI_ERR_REQUEST);
    CHECK_MPI(MPI_Start(&reqs[1]));
    CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
    MPI_Request nul = MPI_REQUEST_NULL, plain;
    CHECK_ERR(MPI_Start(&nul), MPI_ERR_REQUEST);
    CHECK_MPI(MPI_Irecv(rbuf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &plain));
    CHECK_ERR(MPI_Start(&plain), MPI_ERR_REQUEST);                  /* not persistent */
    CHECK_MPI(MPI_Wait(&plain, MPI_STATUS_IGNORE));
    MPI_Request r = MPI_REQUEST_NULL;
    CHECK_ERR(MPI_Send_init(sbuf, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
    CHECK_ERR(MPI_Recv_init(rbuf, 1, MPI_INT, -3, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
    CHECK_ERR(MPI_Ssend_init(sbuf, 1, MPI_INT, 0, -1, MPI_COMM_WORLD, &r), MPI_ERR_TAG);
    CHECK_ERR(MPI_Rsend_init(sbuf, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &r), MPI_ERR_TAG);
    CHECK_ERR(MPI_Bsend_init(sbuf, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Recv_init(rbuf, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD, &r), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Send_init(sbuf, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &r), MPI_ERR_COMM);
    CHECK(r == MPI_REQUEST_NULL, "a failed init set the request");
    /* cancelling an inactive request is an error; a started receive that never matches cancels */
    CHECK_ERR(MPI_Cancel(&reqs[0]), MPI_ERR_REQUEST);
    CHECK_MPI(MPI_Request_free(&reqs[0]));
    CHECK_MPI(MPI_Request_free(&reqs[1]));
    CHECK(reqs[0] == MPI_REQUEST_NULL && reqs[1] == MPI_REQUEST_NULL, "MPI_Request_free left the handles");
    CHECK_ERR(MPI_Start(&keep[0]), MPI_ERR_REQUEST);                /* freed */
    CHECK_MPI(MPI_Recv_init(rbuf, 1, MPI_INT, prev, 999, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Cancel(&r));
    CHECK_MPI(MPI_Wait(&r, &st));
    int cancelled = 0;
    CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
    CHECK(cancelled && r != MPI_REQUEST_NULL, "cancelled persistent receive: cancelled %d", cancelled);
    CHECK_MPI(MPI_Request_free(&r));

    /* ---- synchronous mode: rank 0's send cannot complete before rank 1 posts its receive ---- */
    if (rank == 0) {
        int v = 11;
        CHECK_MPI(MPI_Ssend_init(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &r));
        for (int k = 0; k < 2; k++) {
            CHECK_MPI(MPI_Start(&r));
            for (int i = 0; i < 20; i++) {
                CHECK_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
                CHECK(!flag, "start %d: a synchronous send completed before the receive was posted", k);
            }
            CHECK_MPI(MPI_Send(&k, 1, MPI_INT, 1, 3, MPI_COMM_WORLD));   /* now rank 1 posts it */
            CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
            v++;
        }
        CHECK_MPI(MPI_Request_free(&r));
    } else if (rank == 1) {
        for (int k = 0; k < 2; k++) {
            int go, v = 0;
            CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_EQ(v, 11 + k);
        }
    }

    /* ---- ready mode: the receive is posted before the barrier, the send starts after it ---- */
    {
        int v = -1, w = 100 + rank;
        MPI_Request rr;
        CHECK_MPI(MPI_Recv_init(&v, 1, MPI_INT, prev, 4, MPI_COMM_WORLD, &rr));
        CHECK_MPI(MPI_Rsend_init(&w, 1, MPI_INT, next, 4, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Start(&rr));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Wait(&rr, MPI_STATUS_IGNORE));
        CHECK_EQ(v, 100 + prev);
        CHECK_MPI(MPI_Request_free(&r));
        CHECK_MPI(MPI_Request_free(&rr));
    }

    /* ---- buffered mode, large counts, a type freed before the starts ---- */
    {
        int bsize = 4 * (int) (sizeof(double) * 8 + MPI_BSEND_OVERHEAD);
        void *bbuf = malloc((size_t) bsize);
        CHECK_MPI(MPI_Buffer_attach(bbuf, bsize));
        MPI_Datatype pairs;     /* doubles 0,1 then 4,5 then ... of a 16-double array: 8 doubles */
        CHECK_MPI(MPI_Type_vector(4, 2, 4, MPI_DOUBLE, &pairs));
        CHECK_MPI(MPI_Type_commit(&pairs));
        double src[16], dst[8];
        MPI_Request rr;
        CHECK_MPI(MPI_Bsend_init(src, 1, pairs, next, 5, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Type_free(&pairs));
        CHECK_MPI(MPI_Recv_init_c(dst, (MPI_Count) 8, MPI_DOUBLE, prev, 5, MPI_COMM_WORLD, &rr));
        for (int k = 0; k < 3; k++) {
            for (int i = 0; i < 16; i++)
                src[i] = rank * 100 + k * 16 + i;
            CHECK_MPI(MPI_Start(&rr));
            CHECK_MPI(MPI_Start(&r));
            CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));     /* buffered: complete at once */
            memset(src, 0, sizeof src);                     /* the data is in the attached buffer */
            CHECK_MPI(MPI_Wait(&rr, &st));
            int bad = 0;
            for (int i = 0; i < 8; i++)
                bad += dst[i] != prev * 100 + k * 16 + (i / 2) * 4 + i % 2;
            CHECK(bad == 0, "buffered start %d: %d wrong (dst[2] = %g)", k, bad, dst[2]);
        }
        CHECK_MPI(MPI_Request_free(&r));
        CHECK_MPI(MPI_Request_free(&rr));
        void *addr;
        int got;
        CHECK_MPI(MPI_Buffer_detach(&addr, &got));
        free(bbuf);

        MPI_Count cnt = -1;
        long long big_v = 1LL << 40, big_w = 0;
        CHECK_MPI(MPI_Send_init_c(&big_v, (MPI_Count) 1, MPI_LONG_LONG, next, 6, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Irecv_c(&big_w, (MPI_Count) 1, MPI_LONG_LONG, prev, 6, MPI_COMM_WORLD, &rr));
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Wait(&rr, &st));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        MPI_Get_count_c(&st, MPI_LONG_LONG, &cnt);
        CHECK(big_w == 1LL << 40 && cnt == 1, "Send_init_c: %lld, count %lld", big_w, (long long) cnt);
        CHECK_MPI(MPI_Request_free(&r));
    }

    /* ---- MPI_PROC_NULL, and MPI_Request_get_status keeps the request ---- */
    {
        int v = 3;
        CHECK_MPI(MPI_Recv_init(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Start(&r));
        flag = 0;
        while (!flag)
            CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
        CHECK(st.MPI_SOURCE == MPI_PROC_NULL && v == 3, "get_status of a PROC_NULL receive: source %d", st.MPI_SOURCE);
        CHECK_MPI(MPI_Wait(&r, &st));
        CHECK(st.MPI_SOURCE == MPI_PROC_NULL && r != MPI_REQUEST_NULL, "Wait of a PROC_NULL receive: source %d",
              st.MPI_SOURCE);
        CHECK_MPI(MPI_Request_free(&r));
    }

    /* ---- freeing an active receive: the message still arrives, into the buffer, later ---- */
    {
        int v = -1, w = 500 + rank;
        CHECK_MPI(MPI_Recv_init(&v, 1, MPI_INT, prev, 8, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Request_free(&r));
        CHECK_MPI(MPI_Send(&w, 1, MPI_INT, next, 8, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        /* the device completes the freed receive when the message comes in; poll until it has */
        double t0 = MPI_Wtime();
        while (v == -1 && MPI_Wtime() - t0 < 30) {
            int f;
            MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &f, MPI_STATUS_IGNORE);
        }
        CHECK_EQ(v, 500 + prev);
    }

    free(sbuf);
    free(rbuf);
    return MTest_Finalize();
}
