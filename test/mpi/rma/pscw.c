/*
 * General active-target synchronization (MPI 4.1, 12.5.2): MPI_Win_post, MPI_Win_start,
 * MPI_Win_complete, MPI_Win_wait and MPI_Win_test, with groups of the window's group.
 *   1. A ring, several epochs in a row: every rank exposes its window to and accesses the windows
 *      of its two neighbours (one group when there are only two ranks); it puts into both and gets
 *      from both the values they stored locally before MPI_Win_post (post makes local stores
 *      visible); after MPI_Win_wait the puts are in its memory. Each epoch's values differ.
 *   2. A hub: rank 0 accesses every rank, itself included (its own post and start groups hold
 *      it), while the others only post and wait; then every rank accesses rank 0 only, which
 *      exposes its window to all others at once.
 *   3. MPI_Win_test: each rank posts to its previous neighbour, which cannot start before a
 *      message from this rank: MPI_Win_test must say "not yet" (flag 0) then; after the message
 *      the rank polls MPI_Win_test until the epoch ends and finds the put.
 *   4. Assertions: MPI_MODE_NOCHECK on matching post and start calls (a barrier orders them),
 *      MPI_MODE_NOPUT on a post whose epoch has only gets.
 *   5. Empty groups: post and start with MPI_GROUP_EMPTY, then wait and complete.
 * Run with 2 and 4 processes.
 */
#include "mtest.h"
#include "rma_window.h"
#include <stddef.h>

#define MAXR 32
#define N 4
#define EPOCHS 5

typedef struct {
    int data[N];                /* the owner's values, read by others */
    int from_prev[N], from_next[N];
    int hub[MAXR][N];
    int polled[N];
    int nocheck[N];
} pmem;
#define DISP(field) ((MPI_Aint) offsetof(pmem, field))

static int rank, size, prev, next;
static pmem *mem;
static MPI_Win win;
static MPI_Group wgroup;

/* The group of the given ranks of the window (duplicates dropped). */
static MPI_Group group_of(int n, const int *ranks)
{
    int uniq[MAXR], m = 0;
    for (int k = 0; k < n; k++) {
        int dup = 0;
        for (int j = 0; j < m; j++)
            dup |= uniq[j] == ranks[k];
        if (!dup)
            uniq[m++] = ranks[k];
    }
    MPI_Group g;
    CHECK_MPI(MPI_Group_incl(wgroup, m, uniq, &g));
    return g;
}

static int val(int epoch, int kind, int writer, int i)
{
    return 1000000 * (kind + 1) + 10000 * epoch + 100 * writer + i;
}

static void ring(void)
{
    int nb[2] = {prev, next};
    MPI_Group g = group_of(2, nb);
    for (int e = 0; e < EPOCHS; e++) {
        int to_next[N], to_prev[N], got_prev[N], got_next[N];
        for (int i = 0; i < N; i++) {
            mem->data[i] = val(e, 0, rank, i);  /* a local store before post */
            to_next[i] = val(e, 1, rank, i);
            to_prev[i] = val(e, 2, rank, i);
            got_prev[i] = got_next[i] = -1;
        }
        CHECK_MPI(MPI_Win_post(g, 0, win));
        CHECK_MPI(MPI_Win_start(g, 0, win));
        CHECK_MPI(MPI_Put(to_next, N, MPI_INT, next, DISP(from_prev), N, MPI_INT, win));
        CHECK_MPI(MPI_Put(to_prev, N, MPI_INT, prev, DISP(from_next), N, MPI_INT, win));
        CHECK_MPI(MPI_Get(got_prev, N, MPI_INT, prev, DISP(data), N, MPI_INT, win));
        CHECK_MPI(MPI_Get(got_next, N, MPI_INT, next, DISP(data), N, MPI_INT, win));
        CHECK_MPI(MPI_Win_complete(win));
        /* the origin side is complete: gets are in the buffers */
        for (int i = 0; i < N; i++) {
            CHECK(got_prev[i] == val(e, 0, prev, i), "ring epoch %d: get from prev: %d", e, got_prev[i]);
            CHECK(got_next[i] == val(e, 0, next, i), "ring epoch %d: get from next: %d", e, got_next[i]);
        }
        CHECK_MPI(MPI_Win_wait(win));
        for (int i = 0; i < N; i++) {
            CHECK(mem->from_prev[i] == val(e, 1, prev, i), "ring epoch %d: put from prev: %d, expected %d", e,
                  mem->from_prev[i], val(e, 1, prev, i));
            CHECK(mem->from_next[i] == val(e, 2, next, i), "ring epoch %d: put from next: %d, expected %d", e,
                  mem->from_next[i], val(e, 2, next, i));
        }
    }
    MPI_Group_free(&g);
}

static void hub(void)
{
    int zero = 0, *all = malloc((size_t) size * sizeof(int)), *others = malloc((size_t) size * sizeof(int));
    for (int r = 0; r < size; r++)
        all[r] = r;
    for (int r = 1; r < size; r++)
        others[r - 1] = r;
    MPI_Group g0 = group_of(1, &zero), gall = group_of(size, all), gothers = group_of(size - 1, others);

    /* rank 0 accesses everyone, itself included */
    int out[MAXR][N], in[MAXR][N];
    for (int i = 0; i < N; i++)
        mem->data[i] = val(7, 0, rank, i);
    CHECK_MPI(MPI_Win_post(g0, 0, win));
    if (rank == 0) {
        CHECK_MPI(MPI_Win_start(gall, 0, win));
        for (int t = 0; t < size; t++) {
            for (int i = 0; i < N; i++) {
                out[t][i] = val(7, 3, t, i);
                in[t][i] = -1;
            }
            CHECK_MPI(MPI_Put(out[t], N, MPI_INT, t, DISP(hub[0]), N, MPI_INT, win));
            CHECK_MPI(MPI_Get(in[t], N, MPI_INT, t, DISP(data), N, MPI_INT, win));
        }
        CHECK_MPI(MPI_Win_complete(win));
        for (int t = 0; t < size; t++)
            for (int i = 0; i < N; i++)
                CHECK(in[t][i] == val(7, 0, t, i), "hub: rank 0 got %d from %d, expected %d", in[t][i], t,
                      val(7, 0, t, i));
    }
    CHECK_MPI(MPI_Win_wait(win));
    for (int i = 0; i < N; i++)
        CHECK(mem->hub[0][i] == val(7, 3, rank, i), "hub: put from rank 0: %d, expected %d", mem->hub[0][i],
              val(7, 3, rank, i));

    /* everyone accesses rank 0, which exposes to all others at once */
    int mine[N];
    for (int i = 0; i < N; i++)
        mine[i] = val(8, 4, rank, i);
    if (rank == 0) {
        if (size > 1) {
            CHECK_MPI(MPI_Win_post(gothers, 0, win));
            CHECK_MPI(MPI_Win_wait(win));
        }
        for (int r = 1; r < size; r++)
            for (int i = 0; i < N; i++)
                CHECK(mem->hub[r][i] == val(8, 4, r, i), "hub: rank 0 has %d from %d, expected %d", mem->hub[r][i],
                      r, val(8, 4, r, i));
    } else {
        CHECK_MPI(MPI_Win_start(g0, 0, win));
        CHECK_MPI(MPI_Put(mine, N, MPI_INT, 0, DISP(hub[rank]), N, MPI_INT, win));
        CHECK_MPI(MPI_Win_complete(win));
    }
    MPI_Group_free(&g0);
    MPI_Group_free(&gall);
    MPI_Group_free(&gothers);
    free(all);
    free(others);
}

static void polling(void)
{
    MPI_Group gp = group_of(1, &prev), gn = group_of(1, &next);
    int token = rank, got = -1, flag = -1, out[N];
    for (int i = 0; i < N; i++)
        out[i] = val(9, 5, rank, i);
    CHECK_MPI(MPI_Win_post(gp, 0, win));
    /* prev waits for the token below before it starts: this epoch cannot be over */
    CHECK_MPI(MPI_Win_test(win, &flag));
    CHECK(flag == 0, "MPI_Win_test gave flag %d before the origin started", flag);
    MPI_Request sreq;
    MPI_Isend(&token, 1, MPI_INT, prev, 5, MPI_COMM_WORLD, &sreq);
    MPI_Recv(&got, 1, MPI_INT, next, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK_MPI(MPI_Win_start(gn, 0, win));
    CHECK_MPI(MPI_Put(out, N, MPI_INT, next, DISP(polled), N, MPI_INT, win));
    CHECK_MPI(MPI_Win_complete(win));
    long polls = 0;
    for (flag = 0; !flag; polls++)
        CHECK_MPI(MPI_Win_test(win, &flag));
    MPI_Wait(&sreq, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++)
        CHECK(mem->polled[i] == val(9, 5, prev, i), "Win_test (%ld polls): %d, expected %d", polls, mem->polled[i],
              val(9, 5, prev, i));
    MPI_Group_free(&gp);
    MPI_Group_free(&gn);
}

static void assertions(void)
{
    int nb[2] = {prev, next}, out[N], in[N];
    MPI_Group g = group_of(2, nb);
    for (int i = 0; i < N; i++)
        out[i] = val(10, 6, rank, i);
    /* NOCHECK on both sides: every post is done (barrier) before any start */
    CHECK_MPI(MPI_Win_post(g, MPI_MODE_NOCHECK, win));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_start(g, MPI_MODE_NOCHECK, win));
    CHECK_MPI(MPI_Put(out, N, MPI_INT, next, DISP(nocheck), N, MPI_INT, win));
    CHECK_MPI(MPI_Win_complete(win));
    CHECK_MPI(MPI_Win_wait(win));
    for (int i = 0; i < N; i++)
        CHECK(mem->nocheck[i] == val(10, 6, prev, i), "NOCHECK epoch: %d, expected %d", mem->nocheck[i],
              val(10, 6, prev, i));
    MPI_Barrier(MPI_COMM_WORLD);        /* nobody starts the next epoch before all these checks */

    /* only gets in this epoch: MPI_MODE_NOPUT on the post */
    for (int i = 0; i < N; i++) {
        mem->data[i] = val(11, 0, rank, i);
        in[i] = -1;
    }
    CHECK_MPI(MPI_Win_post(g, MPI_MODE_NOPUT, win));
    CHECK_MPI(MPI_Win_start(g, 0, win));
    CHECK_MPI(MPI_Get(in, N, MPI_INT, prev, DISP(data), N, MPI_INT, win));
    CHECK_MPI(MPI_Win_complete(win));
    CHECK_MPI(MPI_Win_wait(win));
    for (int i = 0; i < N; i++)
        CHECK(in[i] == val(11, 0, prev, i), "NOPUT epoch: got %d, expected %d", in[i], val(11, 0, prev, i));
    MPI_Group_free(&g);
}

static void empty_groups(void)
{
    int flag = 0;
    CHECK_MPI(MPI_Win_post(MPI_GROUP_EMPTY, 0, win));
    CHECK_MPI(MPI_Win_start(MPI_GROUP_EMPTY, 0, win));
    CHECK_MPI(MPI_Win_complete(win));
    CHECK_MPI(MPI_Win_wait(win));
    CHECK_MPI(MPI_Win_post(MPI_GROUP_EMPTY, 0, win));
    for (long k = 0; !flag && k < 100000000; k++)
        CHECK_MPI(MPI_Win_test(win, &flag));
    CHECK(flag == 1, "MPI_Win_test of an exposure to nobody never ended");
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2 || size > MAXR) {
        if (rank == 0)
            fprintf(stderr, "run with 2 to %d processes\n", MAXR);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    prev = (rank + size - 1) % size;
    next = (rank + 1) % size;
    mem = calloc(1, sizeof *mem);
    rma_window((void **) &mem, sizeof *mem, 1, &win);
    CHECK_MPI(MPI_Win_get_group(win, &wgroup));

    ring();
    hub();
    polling();
    assertions();
    empty_groups();

    MPI_Group_free(&wgroup);
    CHECK_MPI(MPI_Win_free(&win));
    rma_free_mem(mem);
    return MTest_Finalize();
}
