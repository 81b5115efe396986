/*
 * MPI_Type_free before a nonblocking operation completes (MPI 4.1, 5.1.10: freeing a type does not
 * affect an operation using it): the request holds its own reference. Around a ring of ranks:
 * the send type (an hvector of a contiguous child) and the receive type (a vector of another
 * child) are freed, children first, right after MPI_Isend / MPI_Irecv; then a burst of new types
 * is made, which may reuse the freed handles and records; only then MPI_Wait. Both orders of
 * arrival (receive posted before the send starts, and the message waiting for the receive),
 * eager and pipelined sizes, and a send whose request is freed with MPI_Request_free.
 */
#include <stdlib.h>
#include "mtest.h"

static int rank, size, prev, next;

static int value(int src, int i)
{
    return src * 1000003 + i * 7 + 1;
}

/* n pairs of ints, one pair every 3 ints: hvector(n, 1, 12 bytes, contiguous(2, MPI_INT)). */
static MPI_Datatype send_type(int n)
{
    MPI_Datatype pair, t;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_create_hvector(n, 1, 3 * sizeof(int), pair, &t);
    MPI_Type_free(&pair);
    MPI_Type_commit(&t);
    return t;
}

/* n pairs of ints, one pair every 4 ints: vector(n, 1, 2, contiguous(2, MPI_INT)). */
static MPI_Datatype recv_type(int n)
{
    MPI_Datatype pair, t;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_vector(n, 1, 2, pair, &t);
    MPI_Type_free(&pair);
    MPI_Type_commit(&t);
    return t;
}

/* Makes and commits count new types (likely reusing freed records); free_churn frees them. */
static void churn(MPI_Datatype *types, int count)
{
    for (int k = 0; k < count; k++) {
        MPI_Datatype c;
        MPI_Type_contiguous(k + 1, k % 2 ? MPI_DOUBLE : MPI_CHAR, &c);
        MPI_Type_vector(3, 1, k + 2, c, &types[k]);
        MPI_Type_free(&c);
        MPI_Type_commit(&types[k]);
    }
}

static void free_churn(MPI_Datatype *types, int count)
{
    for (int k = 0; k < count; k++)
        MPI_Type_free(&types[k]);
}

/* The buffers of n pairs: to send, filled (one pair every 3 ints, -5 between); to receive into
 * (one pair every 4 ints), all -1. */
static void make_buffers(int n, int **sbuf, int **rbuf)
{
    int *s = malloc((size_t) n * 3 * sizeof(int)), *r = malloc((size_t) n * 4 * sizeof(int));
    if (!s || !r) {
        MTEST_FAIL("out of memory");
        exit(1);
    }
    for (int j = 0; j < n; j++) {
        s[3 * j] = value(rank, 2 * j);
        s[3 * j + 1] = value(rank, 2 * j + 1);
        s[3 * j + 2] = -5;
    }
    for (int j = 0; j < 4 * n; j++)
        r[j] = -1;
    *sbuf = s;
    *rbuf = r;
}

static void check_recv(const int *buf, int n, const char *what)
{
    int bad = 0;
    for (int j = 0; j < 4 * n; j++) {
        int want = j % 4 < 2 ? value(prev, j / 4 * 2 + j % 4) : -1;
        if (buf[j] != want && bad++ < 5)
            MTEST_FAIL("%s: int %d of the receive buffer is %d, expected %d", what, j, buf[j], want);
    }
}

/* Starts the receive of n pairs from prev and frees its type at once; returns the freed handle. */
static MPI_Datatype start_recv(int *rbuf, int n, int tag, MPI_Request *req)
{
    MPI_Datatype rt = recv_type(n);
    CHECK_MPI(MPI_Irecv(rbuf, 1, rt, prev, tag, MPI_COMM_WORLD, req));
    CHECK_MPI(MPI_Type_free(&rt));
    return rt;
}

/* Starts the send of n pairs to next and frees its type at once; returns the freed handle. */
static MPI_Datatype start_send(const int *sbuf, int n, int tag, MPI_Request *req)
{
    MPI_Datatype st = send_type(n);
    CHECK_MPI(MPI_Isend(sbuf, 1, st, next, tag, MPI_COMM_WORLD, req));
    CHECK_MPI(MPI_Type_free(&st));
    return st;
}

/* Tells rank `to` that this rank has started its operation, and waits until rank `from` has
 * started its own. */
static void handshake(int to, int from, int tag, MPI_Request *go_req)
{
    static int go;      /* outlives the send, which completes later */
    CHECK_MPI(MPI_Isend(&go, 0, MPI_INT, to, tag, MPI_COMM_WORLD, go_req));
    CHECK_MPI(MPI_Recv(&go, 0, MPI_INT, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

/* One exchange of n pairs; receiver_first: every rank posts its receive before its neighbour
 * starts sending, else every send starts before the matching receive is posted. */
static void exchange(int n, int receiver_first, int tag)
{
    char what[64];
    snprintf(what, sizeof what, "%d pairs, %s first", n, receiver_first ? "receive" : "send");
    int *sbuf, *rbuf;
    make_buffers(n, &sbuf, &rbuf);
    MPI_Request sreq, rreq, go_req;
    MPI_Datatype st, rt, extra[20];

    if (receiver_first) {
        rt = start_recv(rbuf, n, tag, &rreq);
        handshake(prev, next, tag + 1, &go_req);    /* to the sender of what I receive */
        st = start_send(sbuf, n, tag, &sreq);
    } else {
        st = start_send(sbuf, n, tag, &sreq);
        handshake(next, prev, tag + 1, &go_req);    /* to the receiver of what I send */
        rt = start_recv(rbuf, n, tag, &rreq);
    }
    CHECK(st == MPI_DATATYPE_NULL && rt == MPI_DATATYPE_NULL, "%s: MPI_Type_free did not set the handles to null", what);
    churn(extra, 20);

    MPI_Status status;
    CHECK_MPI(MPI_Wait(&rreq, &status));
    CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&go_req, MPI_STATUS_IGNORE));
    /* the receive type is gone: count the message in bytes' worth of ints */
    int count = -1;
    CHECK_MPI(MPI_Get_count(&status, MPI_INT, &count));
    CHECK(count == 2 * n, "%s: MPI_Get_count(MPI_INT) = %d, expected %d", what, count, 2 * n);
    check_recv(rbuf, n, what);
    for (int j = 0; j < n; j++)
        if (sbuf[3 * j] != value(rank, 2 * j) || sbuf[3 * j + 2] != -5) {
            MTEST_FAIL("%s: the send buffer changed at pair %d", what, j);
            break;
        }
    free_churn(extra, 20);
    free(sbuf);
    free(rbuf);
}

/* A send whose type and request are both freed at once; the receiver sees the data. */
static void freed_request(int n)
{
    int *sbuf, *rbuf;
    make_buffers(n, &sbuf, &rbuf);
    MPI_Datatype st = send_type(n), rt = recv_type(n);
    MPI_Request req;
    CHECK_MPI(MPI_Isend(sbuf, 1, st, next, 50, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Type_free(&st));
    CHECK_MPI(MPI_Request_free(&req));
    CHECK(req == MPI_REQUEST_NULL, "MPI_Request_free did not set the request to null");
    CHECK_MPI(MPI_Recv(rbuf, 1, rt, prev, 50, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_Type_free(&rt);
    check_recv(rbuf, n, "freed send request");
    /* the send buffer may be reused only once the send is known complete: the neighbour's
     * receive of it completing is that knowledge, so synchronise before freeing */
    MPI_Barrier(MPI_COMM_WORLD);
    free(sbuf);
    free(rbuf);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    prev = (rank + size - 1) % size;
    next = (rank + 1) % size;
    const int sizes[] = { 10, 5000, 200000 };     /* 80 bytes, 40 kB, 1.6 MB */
    int tag = 0;
    for (int s = 0; s < 3; s++)
        for (int first = 0; first < 2; first++, tag += 2)
            exchange(sizes[s], first, tag);
    freed_request(10);
    freed_request(200000);
    return MTest_Finalize();
}
