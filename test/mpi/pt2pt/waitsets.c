/* Completing many requests: rank 0 posts K receives from every other rank (with MPI_REQUEST_NULL
 * entries mixed in), the others send in reverse tag order. Rank 0 completes them with
 * MPI_Waitany (each index exactly once, its status and data right, then MPI_UNDEFINED), with
 * MPI_Waitsome/MPI_Testsome (indices distinct, statuses in index order, then MPI_UNDEFINED),
 * and with MPI_Testall polling (false until all are done, then every status). */
#include "mtest.h"
#include <stdlib.h>

#define K 16

static int value(int src, int k)
{
    return src * 1000 + k;
}

/* Posts receive k from rank src at slot (src-1)*2K + 2k, and a null request at the next slot. */
static void post(int size, MPI_Request *reqs, int *data)
{
    for (int src = 1; src < size; src++)
        for (int k = 0; k < K; k++) {
            int slot = (src - 1) * 2 * K + 2 * k;
            data[slot] = -1;
            CHECK_MPI(MPI_Irecv(&data[slot], 1, MPI_INT, src, k, MPI_COMM_WORLD, &reqs[slot]));
            reqs[slot + 1] = MPI_REQUEST_NULL;
        }
}

static void check_slot(int slot, const MPI_Status *st, const int *data, const char *what)
{
    int src = slot / (2 * K) + 1, k = slot % (2 * K) / 2;
    CHECK(slot % 2 == 0, "%s: completed the null request at %d", what, slot);
    CHECK(st->MPI_SOURCE == src && st->MPI_TAG == k && data[slot] == value(src, k),
          "%s: slot %d: source %d tag %d data %d, expected %d %d %d", what, slot, st->MPI_SOURCE, st->MPI_TAG,
          data[slot], src, k, value(src, k));
}

static void send_all(int rank)
{
    MPI_Request r[K];
    int v[K];
    for (int k = K - 1; k >= 0; k--) {
        v[k] = value(rank, k);
        CHECK_MPI(MPI_Isend(&v[k], 1, MPI_INT, 0, k, MPI_COMM_WORLD, &r[k]));
    }
    CHECK_MPI(MPI_Waitall(K, r, MPI_STATUSES_IGNORE));
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = (size - 1) * 2 * K;
    MPI_Request *reqs = malloc(sizeof(MPI_Request) * (size_t) (n + 1));
    MPI_Status *sts = malloc(sizeof(MPI_Status) * (size_t) (n + 1));
    int *data = malloc(sizeof(int) * (size_t) (n + 1)), *idx = malloc(sizeof(int) * (size_t) (n + 1));
    char *done = calloc((size_t) n + 1, 1);

    /* 1. Waitany */
    if (rank == 0) {
        post(size, reqs, data);
        for (int i = 0; i < n / 2; i++) {
            int index = -1;
            MPI_Status st;
            CHECK_MPI(MPI_Waitany(n, reqs, &index, &st));
            if (index < 0 || index >= n) {
                MTEST_FAIL("Waitany: index %d", index);
                break;
            }
            CHECK(!done[index], "Waitany: index %d twice", index);
            done[index] = 1;
            CHECK(reqs[index] == MPI_REQUEST_NULL, "Waitany: request %d not freed", index);
            check_slot(index, &st, data, "Waitany");
        }
        int index = 0;
        MPI_Status st;
        CHECK_MPI(MPI_Waitany(n, reqs, &index, &st));
        CHECK_EQ(index, MPI_UNDEFINED);
        CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG, "Waitany on nulls: empty status");
        int flag = 0;
        CHECK_MPI(MPI_Testany(n, reqs, &index, &flag, &st));
        CHECK(flag && index == MPI_UNDEFINED, "Testany on nulls: flag %d index %d", flag, index);
        CHECK_MPI(MPI_Waitany(0, NULL, &index, MPI_STATUS_IGNORE));
        CHECK_EQ(index, MPI_UNDEFINED);
    } else
        send_all(rank);

    /* 2. Waitsome and Testsome */
    if (rank == 0) {
        post(size, reqs, data);
        memset(done, 0, (size_t) n);
        int total = 0, calls = 0;
        while (total < n / 2) {
            int out = -1;
            if (calls++ % 2)
                CHECK_MPI(MPI_Testsome(n, reqs, &out, idx, sts));
            else
                CHECK_MPI(MPI_Waitsome(n, reqs, &out, idx, sts));
            if (out < 0 || out > n / 2 - total || (calls % 2 && out == 0)) {
                MTEST_FAIL("%s: outcount %d with %d left", calls % 2 ? "Waitsome" : "Testsome", out, n / 2 - total);
                break;
            }
            for (int j = 0; j < out; j++) {
                CHECK(!done[idx[j]], "Waitsome: index %d twice", idx[j]);
                done[idx[j]] = 1;
                check_slot(idx[j], &sts[j], data, "Waitsome");
            }
            total += out;
        }
        int out = 0;
        CHECK_MPI(MPI_Waitsome(n, reqs, &out, idx, sts));
        CHECK_EQ(out, MPI_UNDEFINED);
        CHECK_MPI(MPI_Testsome(n, reqs, &out, idx, MPI_STATUSES_IGNORE));
        CHECK_EQ(out, MPI_UNDEFINED);
    } else
        send_all(rank);

    /* 3. Testall: false while one is missing (the last rank holds back its last message) */
    if (rank == 0) {
        post(size, reqs, data);
        int flag = 1;
        for (int i = 0; i < 100; i++) {
            CHECK_MPI(MPI_Testall(n, reqs, &flag, sts));
            if (flag)
                break;
        }
        CHECK(!flag, "Testall: true before the last message was released");
        int go = 1;
        CHECK_MPI(MPI_Send(&go, 1, MPI_INT, size - 1, 99, MPI_COMM_WORLD));
        double t0 = MPI_Wtime();
        while (!flag && MPI_Wtime() - t0 < 60)
            CHECK_MPI(MPI_Testall(n, reqs, &flag, sts));
        CHECK(flag, "Testall never became true");
        for (int slot = 0; flag && slot < n; slot += 2) {
            check_slot(slot, &sts[slot], data, "Testall");
            CHECK(reqs[slot] == MPI_REQUEST_NULL, "Testall: request %d not freed", slot);
        }
        for (int slot = 1; flag && slot < n; slot += 2)
            CHECK(sts[slot].MPI_SOURCE == MPI_ANY_SOURCE && sts[slot].MPI_TAG == MPI_ANY_TAG,
                  "Testall: the null request's status at %d is not empty", slot);
    } else {
        MPI_Request r[K];
        int v[K];
        int held = rank == size - 1 ? K - 1 : K;
        for (int k = 0; k < held; k++) {
            v[k] = value(rank, k);
            CHECK_MPI(MPI_Isend(&v[k], 1, MPI_INT, 0, k, MPI_COMM_WORLD, &r[k]));
        }
        if (held < K) {
            int go = 0;
            CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            v[K - 1] = value(rank, K - 1);
            CHECK_MPI(MPI_Isend(&v[K - 1], 1, MPI_INT, 0, K - 1, MPI_COMM_WORLD, &r[K - 1]));
        }
        CHECK_MPI(MPI_Waitall(K, r, MPI_STATUSES_IGNORE));
    }
    free(reqs);
    free(sts);
    free(data);
    free(idx);
    free(done);
    return MTest_Finalize();
}
