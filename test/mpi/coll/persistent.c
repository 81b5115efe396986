/*
 * Persistent collectives (MPI 4.1 6.13): every MPI_<X>_init, started several times with the send
 * data changed between starts (a start reads the buffers as they are then), by MPI_Start and
 * MPI_Startall, in a different order at even and odd ranks (their matching may not depend on the
 * order of starts), completed by MPI_Wait, MPI_Test and MPI_Waitall; a derived type; the _c forms;
 * the neighbourhood ones on a ring; an intercommunicator; and the errors: an active request started
 * again, a start whose arguments are wrong.
 */
#include "mtest.h"

#define N 4         /* ints per process and block */
#define ROUNDS 3

static int rank, size;

static int value(int r, int round, int i)
{
    return 1000 * round + 10 * r + i;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);

    int *send = malloc(sizeof(int) * N * size), *recv = malloc(sizeof(int) * N * size);
    int bval[N], red[N], all[N], scan[N], exscan[N], rsb[N], gath[N * 64], agath[N * 64], a2a[N * 64];
    int counts[64], displs[64], bytes[64], scat[N];
    MPI_Datatype types[64];
    for (int i = 0; i < size; i++) {
        counts[i] = N;
        displs[i] = N * i;
        bytes[i] = (int) sizeof(int) * N * i;
        types[i] = MPI_INT;
    }
    /* a derived type: N ints as a vector of N blocks of 1, stride 1 */
    MPI_Datatype vec;
    MPI_Type_vector(N, 1, 1, MPI_INT, &vec);
    MPI_Type_commit(&vec);

    enum { BARRIER, BCAST, REDUCE, ALLREDUCE, GATHER, GATHERV, SCATTER, SCATTERV, ALLGATHER, ALLGATHERV, ALLTOALL,
           ALLTOALLV, ALLTOALLW, RSB, RS, SCAN, EXSCAN, NREQ };
    MPI_Request req[NREQ];
    int root = size - 1;
    static int rs_out[N], gv[N * 64], sv[N], agv[N * 64], a2av[N * 64], a2aw[N * 64];
    CHECK_MPI(MPI_Barrier_init(comm, MPI_INFO_NULL, &req[BARRIER]));
    CHECK_MPI(MPI_Bcast_init(bval, 1, vec, root, comm, MPI_INFO_NULL, &req[BCAST]));
    CHECK_MPI(MPI_Reduce_init(send, red, N, MPI_INT, MPI_SUM, 0, comm, MPI_INFO_NULL, &req[REDUCE]));
    CHECK_MPI(MPI_Allreduce_init(send, all, N, MPI_INT, MPI_MAX, comm, MPI_INFO_NULL, &req[ALLREDUCE]));
    CHECK_MPI(MPI_Gather_init(send, N, MPI_INT, gath, N, MPI_INT, root, comm, MPI_INFO_NULL, &req[GATHER]));
    CHECK_MPI(MPI_Gatherv_init(send, N, MPI_INT, gv, counts, displs, MPI_INT, 0, comm, MPI_INFO_NULL, &req[GATHERV]));
    CHECK_MPI(MPI_Scatter_init(recv, N, MPI_INT, scat, N, MPI_INT, 0, comm, MPI_INFO_NULL, &req[SCATTER]));
    CHECK_MPI(MPI_Scatterv_init(recv, counts, displs, MPI_INT, sv, N, MPI_INT, root, comm, MPI_INFO_NULL,
                                &req[SCATTERV]));
    CHECK_MPI(MPI_Allgather_init(send, 1, vec, agath, N, MPI_INT, comm, MPI_INFO_NULL, &req[ALLGATHER]));
    CHECK_MPI(MPI_Allgatherv_init(send, N, MPI_INT, agv, counts, displs, MPI_INT, comm, MPI_INFO_NULL,
                                  &req[ALLGATHERV]));
    CHECK_MPI(MPI_Alltoall_init(send, N, MPI_INT, a2a, N, MPI_INT, comm, MPI_INFO_NULL, &req[ALLTOALL]));
    CHECK_MPI(MPI_Alltoallv_init(send, counts, displs, MPI_INT, a2av, counts, displs, MPI_INT, comm, MPI_INFO_NULL,
                                 &req[ALLTOALLV]));
    CHECK_MPI(MPI_Alltoallw_init(send, counts, bytes, types, a2aw, counts, bytes, types, comm, MPI_INFO_NULL,
                                 &req[ALLTOALLW]));
    CHECK_MPI(MPI_Reduce_scatter_block_init(send, rsb, N, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req[RSB]));
    CHECK_MPI(MPI_Reduce_scatter_init(send, rs_out, counts, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req[RS]));
    CHECK_MPI(MPI_Scan_init(send, scan, N, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req[SCAN]));
    CHECK_MPI(MPI_Exscan_init(send, exscan, N, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req[EXSCAN]));

    for (int round = 0; round < ROUNDS; round++) {
        /* this round's data: process r's block for process j holds value(r, round, j * N + i) */
        for (int i = 0; i < N * size; i++) {
            send[i] = value(rank, round, i);
            recv[i] = rank == 0 ? value(0, round, i) : (rank == root ? value(root, round, i) : -1);
        }
        for (int i = 0; i < N; i++)
            bval[i] = rank == root ? value(root, round, i) : -1;
        /* even ranks start in order, odd ones in reverse, half of them one at a time */
        if (round == 1) {
            CHECK_MPI(MPI_Startall(NREQ, req));
        } else {
            for (int k = 0; k < NREQ; k++)
                CHECK_MPI(MPI_Start(&req[rank % 2 ? NREQ - 1 - k : k]));
        }
        if (round == 2) {
            for (int k = 0; k < NREQ; k++) {
                int flag = 0;
                while (!flag)
                    CHECK_MPI(MPI_Test(&req[k], &flag, MPI_STATUS_IGNORE));
            }
        } else {
            CHECK_MPI(MPI_Waitall(NREQ, req, MPI_STATUSES_IGNORE));
        }

        for (int i = 0; i < N; i++) {
            long sum = 0, ssum = 0, esum = 0, max = 0;
            for (int r = 0; r < size; r++) {
                sum += value(r, round, i);
                if (r <= rank)
                    ssum += value(r, round, i);
                if (r < rank)
                    esum += value(r, round, i);
                if (value(r, round, i) > max)
                    max = value(r, round, i);
            }
            CHECK_EQ(bval[i], value(root, round, i));
            if (rank == 0)
                CHECK_EQ(red[i], sum);
            CHECK_EQ(all[i], max);
            CHECK_EQ(scan[i], ssum);
            if (rank > 0)
                CHECK_EQ(exscan[i], esum);
            CHECK_EQ(scat[i], value(0, round, rank * N + i));
            CHECK_EQ(sv[i], value(root, round, rank * N + i));
            long rsum = 0;
            for (int r = 0; r < size; r++)
                rsum += value(r, round, rank * N + i);
            CHECK_EQ(rsb[i], rsum);
            CHECK_EQ(rs_out[i], rsum);
            for (int r = 0; r < size; r++) {
                if (rank == root)
                    CHECK_EQ(gath[r * N + i], value(r, round, i));
                if (rank == 0)
                    CHECK_EQ(gv[r * N + i], value(r, round, i));
                CHECK_EQ(agath[r * N + i], value(r, round, i));
                CHECK_EQ(agv[r * N + i], value(r, round, i));
                CHECK_EQ(a2a[r * N + i], value(r, round, rank * N + i));
                CHECK_EQ(a2av[r * N + i], value(r, round, rank * N + i));
                CHECK_EQ(a2aw[r * N + i], value(r, round, rank * N + i));
            }
        }
    }

    /* an active request cannot be started again; after its completion it can */
    CHECK_MPI(MPI_Start(&req[ALLREDUCE]));
    CHECK_ERR(MPI_Start(&req[ALLREDUCE]), MPI_ERR_REQUEST);
    CHECK_MPI(MPI_Wait(&req[ALLREDUCE], MPI_STATUS_IGNORE));
    for (int k = 0; k < NREQ; k++)
        CHECK_MPI(MPI_Request_free(&req[k]));
    CHECK(req[0] == MPI_REQUEST_NULL, "a freed request is MPI_REQUEST_NULL");

    /* the large-count form, and a type freed after the init (the request keeps what it needs) */
    MPI_Request r;
    MPI_Datatype dup;
    MPI_Type_dup(MPI_INT, &dup);
    MPI_Type_commit(&dup);
    CHECK_MPI(MPI_Allgather_init_c(send, (MPI_Count) N, dup, agath, (MPI_Count) N, MPI_INT, comm, MPI_INFO_NULL, &r));
    for (int i = 0; i < N; i++)
        send[i] = value(rank, 7, i);
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int x = 0; x < size * N; x++)
        CHECK_EQ(agath[x], value(x / N, 7, x % N));
    CHECK_MPI(MPI_Request_free(&r));
    MPI_Type_free(&dup);

    /* neighbourhood: a periodic ring, each process sends its rank and N-block to both neighbours */
    MPI_Comm ring;
    int dims[1] = { size }, periods[1] = { 1 }, nb[2 * N], mine[2 * N];
    CHECK_MPI(MPI_Cart_create(comm, 1, dims, periods, 0, &ring));
    CHECK_MPI(MPI_Neighbor_alltoall_init(mine, N, MPI_INT, nb, N, MPI_INT, ring, MPI_INFO_NULL, &r));
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < 2 * N; i++)
            mine[i] = value(rank, round, i);
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        int left = (rank + size - 1) % size, right = (rank + 1) % size;
        for (int i = 0; i < N; i++) {
            CHECK_EQ(nb[i], value(left, round, N + i));     /* what the left one sent to its right */
            CHECK_EQ(nb[N + i], value(right, round, i));    /* what the right one sent to its left */
        }
    }
    CHECK_MPI(MPI_Request_free(&r));
    MPI_Comm_free(&ring);

    /* no topology: the arguments are checked at each start, whose error leaves the request
     * inactive (freed as such) */
    CHECK_MPI(MPI_Neighbor_allgather_init(mine, 1, MPI_INT, nb, 1, MPI_INT, comm, MPI_INFO_NULL, &r));
    CHECK_ERR(MPI_Start(&r), MPI_ERR_TOPOLOGY);
    int flag = 0;
    CHECK_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
    CHECK(flag, "an inactive persistent request tests complete");
    CHECK_MPI(MPI_Request_free(&r));

    /* an intercommunicator: a barrier works (coll/intercomm_coll tests the rest), a scan, which
     * has no meaning there, fails at its start */
    if (size >= 2) {
        MPI_Comm half, inter;
        MPI_Comm_split(comm, rank % 2, rank, &half);
        MPI_Intercomm_create(half, 0, comm, rank % 2 ? 0 : 1, 3, &inter);
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
        CHECK_MPI(MPI_Barrier_init(inter, MPI_INFO_NULL, &r));
        for (int round = 0; round < ROUNDS; round++) {
            CHECK_MPI(MPI_Start(&r));
            CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        }
        CHECK_MPI(MPI_Request_free(&r));
        CHECK_MPI(MPI_Scan_init(send, scan, N, MPI_INT, MPI_SUM, inter, MPI_INFO_NULL, &r));
        CHECK_ERR(MPI_Start(&r), MPI_ERR_COMM);
        CHECK_MPI(MPI_Request_free(&r));
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }

    MPI_Type_free(&vec);
    MPI_Comm_free(&comm);
    free(send);
    free(recv);
    return MTest_Finalize();
}
