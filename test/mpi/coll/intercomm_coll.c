/*
 * Collectives on an intercommunicator (MPI 4.1 6.2.2) between the low and the high ranks of the
 * world (groups of different sizes when the world is odd): barrier, bcast, gather(v), scatter(v),
 * allgather(v), alltoall(v, w), reduce, allreduce, reduce_scatter(_block), each with the root in
 * either group, blocking and nonblocking, and one persistent form. Every value received names its
 * sender and block; reductions use an associative but not commutative operation (composition of
 * affine maps), so the result also shows that the other group's data was combined in its rank
 * order. Errors: a bad root, MPI_IN_PLACE, the collectives with no meaning there (scan, exscan).
 */
#include <stdbool.h>
#include "mtest.h"

#define N 3     /* elements per block */
#define MAXP 16

static int wrank, wsize, rank, size, rsize;
static MPI_Comm inter;

static int value(int group, int r, int block, int i)
{
    return 100000 * group + 1000 * r + 10 * block + i;
}

/* x -> a x + b; in o inout: first inout, then in */
typedef struct {
    int a, b;
} affine;

static void compose(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void) type;
    affine *f = in, *g = inout;
    for (int i = 0; i < *len; i++)
        g[i] = (affine) { f[i].a * g[i].a, f[i].a * g[i].b + f[i].b };
}

static affine map_of(int group, int r, int i)
{
    return (affine) { 2 + (group + r + i) % 3, 1 + group + r + i };
}

/* d0 o d1 o ... of the maps of the n processes of group for element offset + i */
static affine composed(int group, int n, int i, int offset)
{
    affine acc = map_of(group, n - 1, i + offset);
    for (int r = n - 2; r >= 0; r--) {
        affine f = map_of(group, r, i + offset);
        acc = (affine) { f.a * acc.a, f.a * acc.b + f.b };
    }
    return acc;
}

/* Runs the collective blocking, or nonblocking and waits. */
#define RUN(nb, blocking, nonblocking) do { \
        if (nb) { \
            MPI_Request r_; \
            CHECK_MPI(nonblocking); \
            CHECK_MPI(MPI_Wait(&r_, MPI_STATUS_IGNORE)); \
        } else { \
            CHECK_MPI(blocking); \
        } \
    } while (0)
#define REQ &r_

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (wsize < 2 || wsize > MAXP) {
        if (wrank == 0)
            printf("run with 2 to %d processes\n", MAXP);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int half = (wsize + 1) / 2;
    int group = wrank >= half;      /* 0: the low ranks */
    MPI_Comm local;
    MPI_Comm_split(MPI_COMM_WORLD, group, wrank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, group ? 0 : half, 9, &inter);
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    MPI_Comm_rank(inter, &rank);
    MPI_Comm_size(inter, &size);
    MPI_Comm_remote_size(inter, &rsize);
    int other = 1 - group;

    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Op op;
    MPI_Op_create(compose, 0, &op);

    int send[N * MAXP], recv[N * MAXP], counts[MAXP], displs[MAXP], bytes[MAXP];
    MPI_Datatype types[MAXP];
    for (int r = 0; r < MAXP; r++) {
        counts[r] = N;
        displs[r] = N * (MAXP - 1 - r) % (N * MAXP);    /* blocks in reverse order */
        bytes[r] = (int) sizeof(int) * N * r;
        types[r] = MPI_INT;
    }
    for (int nb = 0; nb <= 1; nb++) {
        RUN(nb, MPI_Barrier(inter), MPI_Ibarrier(inter, REQ));

        /* the root is process 1 (or 0) of either group in turn */
        for (int rg = 0; rg <= 1; rg++) {
            int groot = (rg == group ? size : rsize) > 1;     /* the root's rank in its group */
            int root = rg == group ? (rank == groot ? MPI_ROOT : MPI_PROC_NULL) : groot;
            bool at_root = root == MPI_ROOT, receiver = rg != group;

            for (int i = 0; i < N; i++)
                send[i] = at_root ? value(group, rank, 0, i) : -1;
            RUN(nb, MPI_Bcast(send, N, MPI_INT, root, inter), MPI_Ibcast(send, N, MPI_INT, root, inter, REQ));
            for (int i = 0; i < N && receiver; i++)
                CHECK_EQ(send[i], value(rg, groot, 0, i));

            /* gather: the root gets block r from process r of the other group */
            for (int i = 0; i < N * MAXP; i++) {
                send[i] = value(group, rank, 0, i);
                recv[i] = -1;
            }
            RUN(nb, MPI_Gather(send, N, MPI_INT, recv, N, MPI_INT, root, inter),
                MPI_Igather(send, N, MPI_INT, recv, N, MPI_INT, root, inter, REQ));
            for (int x = 0; at_root && x < N * rsize; x++)
                CHECK_EQ(recv[x], value(other, x / N, 0, x % N));
            for (int i = 0; i < N * MAXP; i++)
                recv[i] = -1;
            RUN(nb, MPI_Gatherv(send, N, MPI_INT, recv, counts, displs, MPI_INT, root, inter),
                MPI_Igatherv(send, N, MPI_INT, recv, counts, displs, MPI_INT, root, inter, REQ));
            for (int r = 0; at_root && r < rsize; r++)
                for (int i = 0; i < N; i++)
                    CHECK_EQ(recv[displs[r] + i], value(other, r, 0, i));

            /* scatter: process r of the other group gets the root's block r */
            for (int i = 0; i < N; i++)
                recv[i] = -1;
            RUN(nb, MPI_Scatter(send, N, MPI_INT, recv, N, MPI_INT, root, inter),
                MPI_Iscatter(send, N, MPI_INT, recv, N, MPI_INT, root, inter, REQ));
            for (int i = 0; i < N && receiver; i++)
                CHECK_EQ(recv[i], value(rg, groot, 0, rank * N + i));
            RUN(nb, MPI_Scatterv(send, counts, displs, MPI_INT, recv, N, MPI_INT, root, inter),
                MPI_Iscatterv(send, counts, displs, MPI_INT, recv, N, MPI_INT, root, inter, REQ));
            for (int i = 0; i < N && receiver; i++)
                CHECK_EQ(recv[i], value(rg, groot, 0, displs[rank] + i));

            /* reduce: the root gets d0 o d1 o ... of the other group's maps */
            affine maps[N], result[N];
            for (int i = 0; i < N; i++) {
                maps[i] = map_of(group, rank, i);
                result[i] = (affine) { -1, -1 };
            }
            RUN(nb, MPI_Reduce(maps, result, N, pair, op, root, inter),
                MPI_Ireduce(maps, result, N, pair, op, root, inter, REQ));
            for (int i = 0; i < N && at_root; i++) {
                affine want = composed(other, rsize, i, 0);
                CHECK(result[i].a == want.a && result[i].b == want.b, "reduce[%d] = (%d, %d), expected (%d, %d)", i,
                      result[i].a, result[i].b, want.a, want.b);
            }
        }

        /* allgather(v): everyone gets the other group's blocks */
        for (int i = 0; i < N * MAXP; i++) {
            send[i] = value(group, rank, i / N, i % N);
            recv[i] = -1;
        }
        RUN(nb, MPI_Allgather(send, N, MPI_INT, recv, N, MPI_INT, inter),
            MPI_Iallgather(send, N, MPI_INT, recv, N, MPI_INT, inter, REQ));
        for (int x = 0; x < N * rsize; x++)
            CHECK_EQ(recv[x], value(other, x / N, 0, x % N));
        RUN(nb, MPI_Allgatherv(send, N, MPI_INT, recv, counts, displs, MPI_INT, inter),
            MPI_Iallgatherv(send, N, MPI_INT, recv, counts, displs, MPI_INT, inter, REQ));
        for (int r = 0; r < rsize; r++)
            for (int i = 0; i < N; i++)
                CHECK_EQ(recv[displs[r] + i], value(other, r, 0, i));

        /* all-to-all: block r of process p of one group goes to process r of the other */
        RUN(nb, MPI_Alltoall(send, N, MPI_INT, recv, N, MPI_INT, inter),
            MPI_Ialltoall(send, N, MPI_INT, recv, N, MPI_INT, inter, REQ));
        for (int x = 0; x < N * rsize; x++)
            CHECK_EQ(recv[x], value(other, x / N, rank, x % N));
        RUN(nb, MPI_Alltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, inter),
            MPI_Ialltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, inter, REQ));
        for (int r = 0; r < rsize; r++)
            for (int i = 0; i < N; i++)
                CHECK_EQ(recv[displs[r] + i], value(other, r, displs[rank] / N, i));
        RUN(nb, MPI_Alltoallw(send, counts, bytes, types, recv, counts, bytes, types, inter),
            MPI_Ialltoallw(send, counts, bytes, types, recv, counts, bytes, types, inter, REQ));
        for (int x = 0; x < N * rsize; x++)
            CHECK_EQ(recv[x], value(other, x / N, rank, x % N));

        /* allreduce and reduce-scatter of the other group's maps. Every process gives a vector of
         * size x rsize x N maps (the same in both groups); each group splits the result among
         * its own processes: in blocks of rsize x N, or by counts (uneven ones, the same sum). */
        static affine maps[MAXP * MAXP * N], result[MAXP * N + 1];
        int total = size * rsize * N, block = rsize * N, rcounts[MAXP], offset = 0;
        for (int i = 0; i < total; i++)
            maps[i] = map_of(group, rank, i);
        RUN(nb, MPI_Allreduce(maps, result, N, pair, op, inter),
            MPI_Iallreduce(maps, result, N, pair, op, inter, REQ));
        for (int i = 0; i < N; i++) {
            affine want = composed(other, rsize, i, 0);
            CHECK(result[i].a == want.a && result[i].b == want.b, "allreduce[%d] = (%d, %d), expected (%d, %d)", i,
                  result[i].a, result[i].b, want.a, want.b);
        }
        RUN(nb, MPI_Reduce_scatter_block(maps, result, block, pair, op, inter),
            MPI_Ireduce_scatter_block(maps, result, block, pair, op, inter, REQ));
        for (int i = 0; i < block; i++) {
            affine want = composed(other, rsize, i, rank * block);
            CHECK(result[i].a == want.a && result[i].b == want.b, "reduce_scatter_block[%d] = (%d, %d), "
                  "expected (%d, %d)", i, result[i].a, result[i].b, want.a, want.b);
        }
        for (int i = 0; i < size; i++)
            rcounts[i] = block + (size > 1 && i == 0) - (size > 1 && i == size - 1);
        for (int i = 0; i < rank; i++)
            offset += rcounts[i];
        RUN(nb, MPI_Reduce_scatter(maps, result, rcounts, pair, op, inter),
            MPI_Ireduce_scatter(maps, result, rcounts, pair, op, inter, REQ));
        for (int i = 0; i < rcounts[rank]; i++) {
            affine want = composed(other, rsize, i, offset);
            CHECK(result[i].a == want.a && result[i].b == want.b, "reduce_scatter[%d] = (%d, %d), "
                  "expected (%d, %d)", i, result[i].a, result[i].b, want.a, want.b);
        }
    }

    /* persistent: an allreduce started three times with new data */
    MPI_Request pr;
    int in = 0, out = -1;
    CHECK_MPI(MPI_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, inter, MPI_INFO_NULL, &pr));
    for (int round = 1; round <= 3; round++) {
        in = round * (wrank + 1);
        CHECK_MPI(MPI_Start(&pr));
        CHECK_MPI(MPI_Wait(&pr, MPI_STATUS_IGNORE));
        int want = 0;
        for (int w = other ? half : 0; w < (other ? wsize : half); w++)
            want += round * (w + 1);
        CHECK_EQ(out, want);
    }
    CHECK_MPI(MPI_Request_free(&pr));

    /* errors, passed alike by every process */
    CHECK_ERR(MPI_Bcast(send, 1, MPI_INT, rsize, inter), MPI_ERR_ROOT);
    CHECK_ERR(MPI_Bcast(send, 1, MPI_INT, -7, inter), MPI_ERR_ROOT);
    CHECK_ERR(MPI_Allgather(MPI_IN_PLACE, 0, MPI_INT, recv, N, MPI_INT, inter), MPI_ERR_ARG);
    CHECK_ERR(MPI_Allreduce(MPI_IN_PLACE, recv, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_ARG);
    CHECK_ERR(MPI_Scan(send, recv, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_COMM);
    CHECK_ERR(MPI_Exscan(send, recv, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_COMM);
    /* and the intercommunicator still works */
    CHECK_MPI(MPI_Barrier(inter));

    MPI_Op_free(&op);
    MPI_Type_free(&pair);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    return MTest_Finalize();
}
