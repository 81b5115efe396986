/*
 * Request-based RMA (MPI 4.1, 12.3.5): MPI_Rput, MPI_Rget, MPI_Raccumulate and
 * MPI_Rget_accumulate, in passive-target epochs (the only ones they may be used in). What the
 * completion of their requests means:
 *   - MPI_Rget: the data is in the origin buffer once MPI_Wait returns (checked right after it,
 *     with no flush or unlock), or once MPI_Test polled in a loop says so;
 *   - MPI_Rput and MPI_Raccumulate: only local completion, the origin buffer may be reused (it is
 *     overwritten right away); MPI_Win_flush / MPI_Win_flush_all then complete them at the target:
 *     a later MPI_Rget of the same location, and the owner after a barrier, see the values sent;
 *   - MPI_Rget_accumulate: the fetched value is in the result buffer at completion: a counter
 *     incremented by every rank many times yields distinct values 0 .. total - 1;
 *   - several requests of different kinds to several targets completed by one MPI_Waitall;
 *   - requests still pending at MPI_Win_unlock_all: the unlock completes the operation, the
 *     request is completed afterwards by MPI_Wait;
 *   - the same inside an exclusive MPI_Win_lock epoch on one target.
 * Every rank is an origin, so every target is inside MPI calls while others access its window.
 * Run with 2 and 3 processes.
 */
#include "mtest.h"
#include "rma_window.h"
#include <stddef.h>

#define MAXR 32
#define N 6                     /* ints per slot */
#define NF 40                   /* fetch-and-adds per rank */

typedef struct {
    int src[N];                 /* the owner's data, only read */
    int dst[MAXR][N];           /* Rput target: slot r written by rank r */
    int acc[N];                 /* Raccumulate MPI_SUM from every rank */
    int counter;                /* Rget_accumulate fetch-and-add */
    int mixed[MAXR][N];         /* the Waitall batch */
    int late[MAXR];             /* Rputs completed after unlock_all */
    int locked[MAXR][N];        /* requests in an exclusive lock epoch */
    int pad;
} rmem;
#define DISP(field) ((MPI_Aint) offsetof(rmem, field))

static int rank, size, prev, next;
static rmem *mem;
static MPI_Win win;

static int srcval(int owner, int i)
{
    return owner * 100 + i + 1;
}

static int putval(int kind, int writer, int target, int i)
{
    return -(kind * 100000 + writer * 1000 + target * 10 + i + 1);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *) a, y = *(const int *) b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > MAXR) {
        if (rank == 0)
            fprintf(stderr, "run with at most %d processes\n", MAXR);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    prev = (rank + size - 1) % size;
    next = (rank + 1) % size;
    mem = calloc(1, sizeof *mem);
    rma_window((void **) &mem, sizeof *mem, 1, &win);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    for (int i = 0; i < N; i++)
        mem->src[i] = srcval(rank, i);
    CHECK_MPI(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Request req, reqs[4 * MAXR];
    int buf[N], got[N];
    CHECK_MPI(MPI_Win_lock_all(0, win));

    /* ---- Rget + MPI_Wait: the data is there without a flush ---- */
    for (int i = 0; i < N; i++)
        got[i] = -1;
    CHECK_MPI(MPI_Rget(got, N, MPI_INT, next, DISP(src), N, MPI_INT, win, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(req == MPI_REQUEST_NULL, "MPI_Wait left the request");
    for (int i = 0; i < N; i++)
        CHECK(got[i] == srcval(next, i), "Rget + Wait: got[%d] = %d, expected %d", i, got[i], srcval(next, i));

    /* ---- Rget + MPI_Test polling ---- */
    for (int i = 0; i < N; i++)
        got[i] = -1;
    CHECK_MPI(MPI_Rget(got, N, MPI_INT, prev, DISP(src), N, MPI_INT, win, &req));
    int flag = 0;
    long polls = 0;
    while (!flag) {
        CHECK_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
        polls++;
    }
    for (int i = 0; i < N; i++)
        CHECK(got[i] == srcval(prev, i), "Rget + Test (%ld polls): got[%d] = %d, expected %d", polls, i, got[i],
              srcval(prev, i));

    /* ---- Rput: local completion at Wait (buffer reused at once), at the target after flush ---- */
    for (int i = 0; i < N; i++)
        buf[i] = putval(1, rank, next, i);
    CHECK_MPI(MPI_Rput(buf, N, MPI_INT, next, DISP(dst[rank]), N, MPI_INT, win, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; i++)
        buf[i] = 77;
    CHECK_MPI(MPI_Win_flush(next, win));
    for (int i = 0; i < N; i++)
        got[i] = -1;
    CHECK_MPI(MPI_Rget(got, N, MPI_INT, next, DISP(dst[rank]), N, MPI_INT, win, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; i++)
        CHECK(got[i] == putval(1, rank, next, i), "Rput + Wait + flush: read back %d, expected %d", got[i],
              putval(1, rank, next, i));

    /* ---- Raccumulate from every rank to every rank, Waitall, buffers reused, flush_all ---- */
    int contrib[MAXR][N];
    for (int t = 0; t < size; t++) {
        for (int i = 0; i < N; i++)
            contrib[t][i] = rank * 10 + t + i * 1000;
        CHECK_MPI(MPI_Raccumulate(contrib[t], N, MPI_INT, t, DISP(acc), N, MPI_INT, MPI_SUM, win, &reqs[t]));
    }
    CHECK_MPI(MPI_Waitall(size, reqs, MPI_STATUSES_IGNORE));
    for (int t = 0; t < size; t++)
        for (int i = 0; i < N; i++)
            contrib[t][i] = 1 << 20;
    CHECK_MPI(MPI_Win_flush_all(win));
    MPI_Barrier(MPI_COMM_WORLD);        /* every rank's accumulates are complete at their targets */
    int sums[MAXR][N];
    for (int t = 0; t < size; t++)
        CHECK_MPI(MPI_Rget(sums[t], N, MPI_INT, t, DISP(acc), N, MPI_INT, win, &reqs[t]));
    CHECK_MPI(MPI_Waitall(size, reqs, MPI_STATUSES_IGNORE));
    for (int t = 0; t < size; t++)
        for (int i = 0; i < N; i++) {
            int want = 0;
            for (int r = 0; r < size; r++)
                want += r * 10 + t + i * 1000;
            CHECK(sums[t][i] == want, "Raccumulate at %d, element %d: %d, expected %d", t, i, sums[t][i], want);
        }

    /* ---- Rget_accumulate: fetch-and-add on rank 0's counter ---- */
    int one = 1, fetched[NF];
    for (int k = 0; k < NF; k++) {
        fetched[k] = -1;
        CHECK_MPI(MPI_Rget_accumulate(&one, 1, MPI_INT, &fetched[k], 1, MPI_INT, 0, DISP(counter), 1, MPI_INT,
                                      MPI_SUM, win, &req));
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        CHECK(fetched[k] >= 0 && fetched[k] < size * NF, "Rget_accumulate fetched %d", fetched[k]);
    }

    /* ---- one Waitall over Rputs, Rgets and Raccumulates to every target ---- */
    int mput[MAXR][N], mget[MAXR][N], macc[MAXR];
    int nreq = 0;
    for (int t = 0; t < size; t++) {
        for (int i = 0; i < N; i++) {
            mput[t][i] = putval(2, rank, t, i);
            mget[t][i] = -1;
        }
        macc[t] = rank + 1;
        /* ints 0..N-2 of the own slot by Rput, int N-1 by Raccumulate (different locations) */
        CHECK_MPI(MPI_Rput(mput[t], N - 1, MPI_INT, t, DISP(mixed[rank]), N - 1, MPI_INT, win, &reqs[nreq++]));
        CHECK_MPI(MPI_Raccumulate(&macc[t], 1, MPI_INT, t, DISP(mixed[rank][N - 1]), 1, MPI_INT, MPI_SUM, win,
                                  &reqs[nreq++]));
        CHECK_MPI(MPI_Rget(mget[t], N, MPI_INT, t, DISP(src), N, MPI_INT, win, &reqs[nreq++]));
    }
    CHECK_MPI(MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE));
    for (int t = 0; t < size; t++)
        for (int i = 0; i < N; i++)
            CHECK(mget[t][i] == srcval(t, i), "Waitall: Rget from %d: [%d] = %d, expected %d", t, i, mget[t][i],
                  srcval(t, i));

    /* ---- an Rput still pending at unlock_all: completed there, its request afterwards ---- */
    int late = putval(3, rank, next, 0);
    CHECK_MPI(MPI_Rput(&late, 1, MPI_INT, next, DISP(late[rank]), 1, MPI_INT, win, &req));
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));

    /* ---- requests in an exclusive lock epoch on one target ---- */
    int lbuf[N], lgot[N];
    for (int i = 0; i < N; i++) {
        lbuf[i] = putval(4, rank, next, i);
        lgot[i] = -1;
    }
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, next, 0, win));
    CHECK_MPI(MPI_Rput(lbuf, N, MPI_INT, next, DISP(locked[rank]), N, MPI_INT, win, &reqs[0]));
    CHECK_MPI(MPI_Rget(lgot, N, MPI_INT, next, DISP(src), N, MPI_INT, win, &reqs[1]));
    CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
    for (int i = 0; i < N; i++)
        CHECK(lgot[i] == srcval(next, i), "exclusive lock: Rget [%d] = %d, expected %d", i, lgot[i], srcval(next, i));
    CHECK_MPI(MPI_Win_unlock(next, win));

    /* ---- the owners' view: everything complete at the targets ---- */
    int *allf = malloc((size_t) size * NF * sizeof(int));
    MPI_Allgather(fetched, NF, MPI_INT, allf, NF, MPI_INT, MPI_COMM_WORLD);     /* also the barrier */
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    for (int i = 0; i < N; i++)
        CHECK(mem->dst[prev][i] == putval(1, prev, rank, i), "own memory: Rput from %d: %d", prev,
              mem->dst[prev][i]);
    for (int w = 0; w < size; w++) {
        for (int i = 0; i < N - 1; i++)
            CHECK(mem->mixed[w][i] == putval(2, w, rank, i), "own memory: batch Rput from %d: [%d] = %d", w, i,
                  mem->mixed[w][i]);
        CHECK(mem->mixed[w][N - 1] == w + 1, "own memory: batch Raccumulate from %d: %d", w, mem->mixed[w][N - 1]);
    }
    CHECK(mem->late[prev] == putval(3, prev, rank, 0), "own memory: Rput completed by unlock_all: %d",
          mem->late[prev]);
    for (int i = 0; i < N; i++)
        CHECK(mem->locked[prev][i] == putval(4, prev, rank, i), "own memory: Rput under exclusive lock: %d",
              mem->locked[prev][i]);
    if (rank == 0)
        CHECK(mem->counter == size * NF, "counter %d, expected %d", mem->counter, size * NF);
    CHECK_MPI(MPI_Win_unlock(rank, win));
    qsort(allf, (size_t) size * NF, sizeof(int), cmp_int);
    for (int k = 0; k < size * NF; k++)
        if (allf[k] != k) {
            MTEST_FAIL("Rget_accumulate: sorted fetched value %d is %d (lost or fetched twice)", k, allf[k]);
            break;
        }
    free(allf);

    CHECK_MPI(MPI_Win_free(&win));
    rma_free_mem(mem);
    return MTest_Finalize();
}
