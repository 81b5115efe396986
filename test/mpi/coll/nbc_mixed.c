/*
 * Nonblocking collectives with the rest of MPI: derived datatypes (one freed before the operation
 * completes), MPI_IN_PLACE, a non-commutative user operation, point-to-point traffic in flight on
 * the same communicator and completed in one MPI_Waitall with the collectives, MPI_Test polling,
 * MPI_Request_free, two communicators at once, large (pipelined) messages completed out of order,
 * the large-count twins, and argument errors returned at the start.
 *
 * Two extensions are tested too: MPI_SUM on a derived type of ints, and MPI_Request_free on a
 * nonblocking collective's request; -DSTRICT_MPI leaves them out, to check the test against another
 * MPI (MPICH 4.0.2 passes it then, except that it reports a negative count as MPI_ERR_OTHER).
 */
#include "colltest.h"
#include "digits.h"

static long long concat_upto(int to)     /* digits 1 .. to */
{
    long long v = 0;
    for (int r = 1; r <= to; r++)
        v = v * 10 + r;
    return v;
}

static int rank, size;

static void derived_types(void)
{
    /* the root broadcasts every other int of its buffer; the others receive 4 contiguous ints */
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(4, 1, 2, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    int buf[8];
    for (int i = 0; i < 8; i++)
        buf[i] = rank == 1 ? 40 + i : -1;
    MPI_Request req;
    if (rank == 1)
        CHECK_MPI(MPI_Ibcast(buf, 1, vec, 1, MPI_COMM_WORLD, &req));
    else
        CHECK_MPI(MPI_Ibcast(buf, 4, MPI_INT, 1, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Type_free(&vec));     /* the operation holds its own reference */
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    if (rank != 1)
        for (int i = 0; i < 4; i++)
            CHECK(buf[i] == 40 + 2 * i, "Ibcast vector: buf[%d] = %d", i, buf[i]);

#ifndef STRICT_MPI     /* an extension: MPICH defines MPI_SUM on predefined types only */
    /* a strided sum in place (3 ints, 6 apart): the ints between the elements are left alone */
    MPI_Datatype vec3, strided;
    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &vec3));
    CHECK_MPI(MPI_Type_create_resized(vec3, 0, 6 * sizeof(int), &strided));
    CHECK_MPI(MPI_Type_free(&vec3));
    CHECK_MPI(MPI_Type_commit(&strided));
    int v[2][6];
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 6; i++)
            v[k][i] = i % 2 ? -9 : rank * 10 + i / 2 + k;
    CHECK_MPI(MPI_Iallreduce(MPI_IN_PLACE, v, 2, strided, MPI_SUM, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Type_free(&strided));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 6; i++) {
            int want = i % 2 ? -9 : 10 * size * (size - 1) / 2 + size * (i / 2 + k);
            CHECK(v[k][i] == want, "Iallreduce strided in place: v[%d][%d] = %d, expected %d", k, i, v[k][i], want);
        }
#endif
}

static void user_op(void)
{
    MPI_Datatype pair;
    MPI_Op concat;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_LONG_LONG, &pair));
    CHECK_MPI(MPI_Type_commit(&pair));
    CHECK_MPI(MPI_Op_create(digits_concat_fn, 0, &concat));
    digits mine = { rank + 1, 1 }, all = { -1, -1 }, atroot = { -1, -1 }, prefix = { -1, -1 }, ex = { -1, -1 };
    MPI_Request reqs[4];
    int root = size - 1;
    CHECK_MPI(MPI_Iallreduce(&mine, &all, 1, pair, concat, MPI_COMM_WORLD, &reqs[0]));
    CHECK_MPI(MPI_Ireduce(&mine, &atroot, 1, pair, concat, root, MPI_COMM_WORLD, &reqs[1]));
    CHECK_MPI(MPI_Iscan(&mine, &prefix, 1, pair, concat, MPI_COMM_WORLD, &reqs[2]));
    CHECK_MPI(MPI_Iexscan(&mine, &ex, 1, pair, concat, MPI_COMM_WORLD, &reqs[3]));
    CHECK_MPI(MPI_Type_free(&pair));
    CHECK_MPI(MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE));
    CHECK(all.val == concat_upto(size) && all.len == size, "Iallreduce concat = %lld", all.val);
    if (rank == root)
        CHECK(atroot.val == concat_upto(size) && atroot.len == size, "Ireduce concat = %lld", atroot.val);
    CHECK(prefix.val == concat_upto(rank + 1) && prefix.len == rank + 1, "Iscan concat = %lld", prefix.val);
    if (rank > 0)
        CHECK(ex.val == concat_upto(rank) && ex.len == rank, "Iexscan concat = %lld", ex.val);
    CHECK_MPI(MPI_Op_free(&concat));
}

static void in_place(void)
{
    enum { NR = 8 };
    int *g = calloc((size_t) size, sizeof *g), *s = calloc((size_t) size, sizeof *s);
    int *ag = calloc((size_t) size, sizeof *ag), *a2a = calloc((size_t) size, sizeof *a2a);
    int *rsb = calloc(2 * (size_t) size, sizeof *rsb);
    int red = rank + 1, sc = rank + 1, ar = rank;
    int root = size / 2;
    for (int i = 0; i < size; i++) {
        g[i] = i == root ? 77 : -1;
        s[i] = rank == root ? 3 * i : -1;
        ag[i] = i == rank ? 11 * rank : -1;
        a2a[i] = 100 * rank + i;
        rsb[2 * i] = rank + 2 * i;
        rsb[2 * i + 1] = rank + 2 * i + 1;
    }
    int gsend = 77 + rank, srecv = -1;
    MPI_Request reqs[NR];
    CHECK_MPI(MPI_Iallreduce(MPI_IN_PLACE, &ar, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[0]));
    if (rank == root) {
        CHECK_MPI(MPI_Ireduce(MPI_IN_PLACE, &red, 1, MPI_INT, MPI_PROD, root, MPI_COMM_WORLD, &reqs[1]));
        CHECK_MPI(MPI_Igather(MPI_IN_PLACE, 1, MPI_INT, g, 1, MPI_INT, root, MPI_COMM_WORLD, &reqs[2]));
        CHECK_MPI(MPI_Iscatter(s, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, root, MPI_COMM_WORLD, &reqs[3]));
    } else {
        CHECK_MPI(MPI_Ireduce(&red, NULL, 1, MPI_INT, MPI_PROD, root, MPI_COMM_WORLD, &reqs[1]));
        CHECK_MPI(MPI_Igather(&gsend, 1, MPI_INT, NULL, 0, MPI_INT, root, MPI_COMM_WORLD, &reqs[2]));
        CHECK_MPI(MPI_Iscatter(NULL, 0, MPI_INT, &srecv, 1, MPI_INT, root, MPI_COMM_WORLD, &reqs[3]));
    }
    CHECK_MPI(MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ag, 1, MPI_INT, MPI_COMM_WORLD, &reqs[4]));
    CHECK_MPI(MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a2a, 1, MPI_INT, MPI_COMM_WORLD, &reqs[5]));
    CHECK_MPI(MPI_Ireduce_scatter_block(MPI_IN_PLACE, rsb, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[6]));
    CHECK_MPI(MPI_Iscan(MPI_IN_PLACE, &sc, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[7]));
    for (int i = NR - 1; i >= 0; i--)
        CHECK_MPI(MPI_Wait(&reqs[i], MPI_STATUS_IGNORE));

    CHECK_EQ(ar, size * (size - 1) / 2);
    if (rank == root) {
        int fact = 1;
        for (int i = 1; i <= size; i++)
            fact *= i;
        CHECK_EQ(red, fact);
        for (int i = 0; i < size; i++) {
            CHECK(g[i] == (i == root ? 77 : 77 + i), "Igather in place g[%d] = %d", i, g[i]);
            CHECK(s[i] == 3 * i, "Iscatter in place changed the root's s[%d] = %d", i, s[i]);
        }
    } else {
        CHECK_EQ(srecv, 3 * rank);
    }
    for (int i = 0; i < size; i++) {
        CHECK(ag[i] == 11 * i, "Iallgather in place ag[%d] = %d", i, ag[i]);
        CHECK(a2a[i] == 100 * i + rank, "Ialltoall in place a2a[%d] = %d", i, a2a[i]);
    }
    for (int k = 0; k < 2; k++)
        CHECK(rsb[k] == size * (size - 1) / 2 + size * (2 * rank + k), "Ireduce_scatter_block in place [%d] = %d",
              k, rsb[k]);
    CHECK_EQ(sc, (rank + 1) * (rank + 2) / 2);
    free(g);
    free(s);
    free(ag);
    free(a2a);
    free(rsb);
}

/* A ring exchange on the user's context, and collectives, all in one MPI_Waitall. */
static void with_pt2pt(void)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    int out[3] = { rank, rank * 2, rank * 3 }, in[3] = { -1, -1, -1 }, bc = rank == 0 ? 555 : 0, sum = 0;
    int one = 1;
    MPI_Request reqs[5];
    CHECK_MPI(MPI_Irecv(in, 3, MPI_INT, left, 0, MPI_COMM_WORLD, &reqs[0]));
    CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &reqs[1]));
    CHECK_MPI(MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[2]));
    CHECK_MPI(MPI_Isend(out, 3, MPI_INT, right, 0, MPI_COMM_WORLD, &reqs[3]));
    CHECK_MPI(MPI_Ibcast(&bc, 1, MPI_INT, 0, MPI_COMM_WORLD, &reqs[4]));
    MPI_Status st[5];
    CHECK_MPI(MPI_Waitall(5, reqs, st));
    for (int j = 0; j < 3; j++)
        CHECK(in[j] == left * (j + 1), "ring in[%d] = %d", j, in[j]);
    CHECK_EQ(st[0].MPI_SOURCE, left);
    CHECK_EQ(sum, size);
    CHECK_EQ(bc, 555);

    /* polling with MPI_Test while point-to-point messages come and go */
    int token = -1, x = rank + 1, prod = 0, flag = 0, polls = 0;
    MPI_Request r;
    CHECK_MPI(MPI_Iallreduce(&x, &prod, 1, MPI_INT, MPI_PROD, MPI_COMM_WORLD, &r));
    if (rank == 0) {
        CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, right, 1, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    } else {
        CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, right, 1, MPI_COMM_WORLD));
    }
    CHECK_EQ(token, left);
    while (!flag) {
        CHECK_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
        polls++;
    }
    CHECK(r == MPI_REQUEST_NULL, "MPI_Test left the request");
    int fact = 1;
    for (int i = 1; i <= size; i++)
        fact *= i;
    CHECK_EQ(prod, fact);

#ifndef STRICT_MPI
    /* a freed request still completes; the next collective comes after it (MPI calls freeing a
     * nonblocking collective's request erroneous and MPICH refuses it; we let it complete, as a
     * freed send does) */
    CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Request_free(&r));
    CHECK(r == MPI_REQUEST_NULL, "MPI_Request_free left the handle");
#endif
    int mx = 0;
    CHECK_MPI(MPI_Allreduce(&rank, &mx, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    CHECK_EQ(mx, size - 1);
}

/* Two communicators and large messages: started on one, then the other, completed in reverse. */
static void two_comms_large(void)
{
    enum { N = 300000 };
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    double *a = malloc(N * sizeof *a), *sum = malloc(N * sizeof *sum);
    int *big = malloc(N * sizeof *big), *big2 = malloc(N * sizeof *big2);
    for (int i = 0; i < N; i++) {
        a[i] = rank + i * 0.5;
        big[i] = rank == 0 ? i ^ 0x5a5a : -1;
        big2[i] = rank == size - 1 ? 3 * i : -1;
    }
    MPI_Request reqs[3];
    CHECK_MPI(MPI_Iallreduce(a, sum, N, MPI_DOUBLE, MPI_SUM, dup, &reqs[0]));
    CHECK_MPI(MPI_Ibcast(big, N, MPI_INT, 0, MPI_COMM_WORLD, &reqs[1]));
    CHECK_MPI(MPI_Ibcast(big2, N, MPI_INT, size - 1, dup, &reqs[2]));
    CHECK_MPI(MPI_Comm_free(&dup));     /* the collectives keep it alive */
    for (int i = 2; i >= 0; i--)
        CHECK_MPI(MPI_Wait(&reqs[i], MPI_STATUS_IGNORE));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        double want = size * (size - 1) / 2.0 + size * i * 0.5;
        if (sum[i] != want || big[i] != (i ^ 0x5a5a) || big2[i] != 3 * i) {
            if (bad++ < 3)
                MTEST_FAIL("large: i = %d: sum %g (want %g), big %d, big2 %d", i, sum[i], want, big[i], big2[i]);
        }
    }
    free(a);
    free(sum);
    free(big);
    free(big2);
}

/* The large-count twins take MPI_Count counts and MPI_Aint displacements. */
static void large_count_twins(void)
{
    MPI_Count *counts = malloc((size_t) size * sizeof *counts);
    MPI_Aint *displs = malloc((size_t) size * sizeof *displs);
    int *send = malloc((size_t) size * sizeof *send), *recv = malloc((size_t) size * sizeof *recv);
    for (int j = 0; j < size; j++) {
        counts[j] = 1;
        displs[j] = size - 1 - j;       /* blocks in reverse order */
        send[size - 1 - j] = 1000 * rank + j;
        recv[j] = -1;
    }
    long long x = rank + 1, sum = 0;
    MPI_Request reqs[2];
    CHECK_MPI(MPI_Ialltoallv_c(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, MPI_COMM_WORLD,
                               &reqs[0]));
    CHECK_MPI(MPI_Iallreduce_c(&x, &sum, (MPI_Count) 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &reqs[1]));
    CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
    for (int j = 0; j < size; j++)
        CHECK(recv[size - 1 - j] == 1000 * j + rank, "Ialltoallv_c from %d: %d", j, recv[size - 1 - j]);
    CHECK_EQ(sum, (long long) size * (size + 1) / 2);
    free(counts);
    free(displs);
    free(send);
    free(recv);
}

static void errors(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int x = 0, y = 0;
    MPI_Request r = MPI_REQUEST_NULL;
    CHECK_ERR(MPI_Ibcast(&x, 1, MPI_INT, size, MPI_COMM_WORLD, &r), MPI_ERR_ROOT);
    CHECK_ERR(MPI_Iallreduce(&x, &y, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD, &r), MPI_ERR_OP);
    CHECK_ERR(MPI_Ibarrier(MPI_COMM_NULL, &r), MPI_ERR_COMM);
    CHECK_ERR(MPI_Ibarrier(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    /* the failed calls started nothing: the next collective still matches on every rank */
    CHECK_MPI(MPI_Iallreduce(&rank, &y, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_EQ(y, size - 1);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    derived_types();
    user_op();
    in_place();
    with_pt2pt();
    two_comms_large();
    large_count_twins();
    errors();
    return MTest_Finalize();
}
