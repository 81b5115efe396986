/*
 * Passive-target synchronization (MPI 4.1, 12.5.3, 12.5.4, 12.7): MPI_Win_lock / MPI_Win_unlock
 * (exclusive and shared), MPI_Win_lock_all / MPI_Win_unlock_all, MPI_Win_flush,
 * MPI_Win_flush_all, MPI_Win_flush_local, MPI_Win_flush_local_all and MPI_Win_sync.
 *   1. Mutual exclusion: every rank, many times, takes an exclusive lock on rank 0's window,
 *      reads a counter (MPI_Get, then MPI_Win_flush to have the value), increments it locally and
 *      writes it back (MPI_Put) before unlocking; rank 0 also increments it by local load and
 *      store under an exclusive lock on its own window (locks protect local accesses too). Any
 *      overlap of two critical sections loses an increment: the total must be exact.
 *   2. Shared locks are held at the same time: every rank takes a shared lock on one rank,
 *      makes sure it has it (a get and a flush), and then waits in MPI_Barrier for all others to
 *      hold theirs; under the shared locks, concurrent MPI_Accumulate to one element add up.
 *      MPI_MODE_NOCHECK on shared locks when nobody asks for an exclusive one.
 *   3. Completion at unlock: every rank puts into a slot of its own in every rank's window under
 *      an exclusive lock per target, then again under shared locks on two targets at once,
 *      unlocked in the other order; after the unlocks and a barrier, each target reads its own
 *      memory under a lock on itself (which makes the updates visible in its memory, 12.7) and
 *      finds every value.
 *   4. Flushes in a lock_all epoch: a put, MPI_Win_flush, then a get of the same location sees
 *      the put; after MPI_Win_flush_local the origin buffer may change without changing what
 *      arrives; the same for MPI_Win_flush_all and MPI_Win_flush_local_all over all targets.
 *      Afterwards each target reads its own memory after MPI_Win_sync in a lock_all epoch.
 * Passive targets make no progress of their own: every target is inside MPI calls (its own
 * RMA calls or MPI_Barrier) while others access its window. Run with 2 and 4 processes.
 */
#include "mtest.h"
#include <stddef.h>

/* Debian's MPICH 4.0.2 (ch4:ucx), used to validate this test, hangs in later exclusive locks
 * after a shared lock taken with MPI_MODE_NOCHECK: for it, that lock goes without the assertion. */
#if defined(MPICH_VERSION)
#define NOCHECK 0
#else
#define NOCHECK MPI_MODE_NOCHECK
#endif

#define NRMW 100                /* read-modify-writes per rank */
#define MAXR 32
#define NF 4                    /* ints per flush slot */

typedef struct {
    int counter;
    int shared_sum;
    int readonly[8];
    int slots[MAXR];            /* phase 3: slot r written by rank r */
    int slots2[MAXR];
    int flushed[4][MAXR][NF];   /* phase 4: [kind][writer][k] */
} lockmem;
#define DISP(field) ((MPI_Aint) offsetof(lockmem, field))

static int rank, size;
static lockmem *mem;
static MPI_Win win;

static int readonly_val(int owner, int i)
{
    return owner * 50 + i;
}

static void mutual_exclusion(void)
{
    for (int k = 0; k < NRMW; k++) {
        if (rank == 0 && k % 2) {
            /* a local read-modify-write under a lock on the own window */
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
            int v = mem->counter;
            mem->counter = v + 1;
            CHECK_MPI(MPI_Win_unlock(0, win));
            continue;
        }
        int v = -1;
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        CHECK_MPI(MPI_Get(&v, 1, MPI_INT, 0, DISP(counter), 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_flush(0, win));
        v++;
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, 0, DISP(counter), 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_unlock(0, win));
    }
    MPI_Barrier(MPI_COMM_WORLD);        /* rank 0 serves the others' locks in here */
    if (rank == 0) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        CHECK(mem->counter == size * NRMW, "exclusive locks: counter %d, expected %d (critical sections overlapped)",
              mem->counter, size * NRMW);
        CHECK_MPI(MPI_Win_unlock(0, win));
    }
}

static void shared_locks(void)
{
    int t = size - 1, got[8], one = rank + 1;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
    CHECK_MPI(MPI_Get(got, 8, MPI_INT, t, DISP(readonly), 8, MPI_INT, win));
    CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, t, DISP(shared_sum), 1, MPI_INT, MPI_SUM, win));
    CHECK_MPI(MPI_Win_flush(t, win));       /* the lock is held now */
    MPI_Barrier(MPI_COMM_WORLD);            /* all ranks hold their shared locks at once */
    CHECK_MPI(MPI_Win_unlock(t, win));
    for (int i = 0; i < 8; i++)
        CHECK(got[i] == readonly_val(t, i), "shared lock: got[%d] = %d, expected %d", i, got[i], readonly_val(t, i));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == t) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
        CHECK(mem->shared_sum == size * (size + 1) / 2, "accumulates under shared locks: %d, expected %d",
              mem->shared_sum, size * (size + 1) / 2);
        CHECK_MPI(MPI_Win_unlock(t, win));
    }

    /* nobody asks for an exclusive lock here: MPI_MODE_NOCHECK is allowed on the shared ones */
    int next = (rank + 1) % size;
    for (int i = 0; i < 8; i++)
        got[i] = -1;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, next, NOCHECK, win));
    CHECK_MPI(MPI_Get(got, 8, MPI_INT, next, DISP(readonly), 8, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(next, win));
    for (int i = 0; i < 8; i++)
        CHECK(got[i] == readonly_val(next, i), "NOCHECK lock: got[%d] = %d, expected %d", i, got[i],
              readonly_val(next, i));
    MPI_Barrier(MPI_COMM_WORLD);
}

static int slotval(int writer, int target)
{
    return 1000 * writer + target + 7;
}

static void completion_at_unlock(void)
{
    int vals[MAXR], vals2[MAXR];
    /* one exclusive lock at a time, every target in turn */
    for (int t = 0; t < size; t++) {
        vals[t] = slotval(rank, t);
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
        CHECK_MPI(MPI_Put(&vals[t], 1, MPI_INT, t, DISP(slots[rank]), 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_unlock(t, win));
    }
    /* two shared locks at a time (exclusive ones taken by all ranks over the same targets could
     * deadlock: the standard does not order their acquisition), unlocked in the other order */
    for (int t = 0; t < size; t += 2) {
        int u = t + 1 < size ? t + 1 : -1;
        vals2[t] = -slotval(rank, t);
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
        if (u >= 0) {
            vals2[u] = -slotval(rank, u);
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, u, 0, win));
            CHECK_MPI(MPI_Put(&vals2[u], 1, MPI_INT, u, DISP(slots2[rank]), 1, MPI_INT, win));
        }
        CHECK_MPI(MPI_Put(&vals2[t], 1, MPI_INT, t, DISP(slots2[rank]), 1, MPI_INT, win));
        if (u >= 0)
            CHECK_MPI(MPI_Win_unlock(u, win));
        CHECK_MPI(MPI_Win_unlock(t, win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    for (int w = 0; w < size; w++) {
        CHECK(mem->slots[w] == slotval(w, rank), "after unlock: slot of %d = %d, expected %d", w, mem->slots[w],
              slotval(w, rank));
        CHECK(mem->slots2[w] == -slotval(w, rank), "after two unlocks: slot of %d = %d, expected %d", w,
              mem->slots2[w], -slotval(w, rank));
    }
    CHECK_MPI(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);
}

static int fval(int kind, int writer, int target, int k)
{
    return 100000 * (kind + 1) + 1000 * writer + 10 * target + k;
}

static void flushes(void)
{
    int next = (rank + 1) % size, buf[MAXR][NF], back[MAXR][NF];

    CHECK_MPI(MPI_Win_lock_all(0, win));
    /* kind 0: put, flush, get back the same location from the same target */
    for (int k = 0; k < NF; k++)
        buf[0][k] = fval(0, rank, next, k);
    CHECK_MPI(MPI_Put(buf[0], NF, MPI_INT, next, DISP(flushed[0][rank]), NF, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush(next, win));
    CHECK_MPI(MPI_Get(back[0], NF, MPI_INT, next, DISP(flushed[0][rank]), NF, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush(next, win));
    for (int k = 0; k < NF; k++)
        CHECK(back[0][k] == fval(0, rank, next, k), "flush: read back %d, expected %d", back[0][k],
              fval(0, rank, next, k));

    /* kind 1: put, flush_local, the origin buffer overwritten, flush, get back */
    for (int k = 0; k < NF; k++)
        buf[1][k] = fval(1, rank, next, k);
    CHECK_MPI(MPI_Put(buf[1], NF, MPI_INT, next, DISP(flushed[1][rank]), NF, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush_local(next, win));
    for (int k = 0; k < NF; k++)
        buf[1][k] = -1;
    CHECK_MPI(MPI_Win_flush(next, win));
    CHECK_MPI(MPI_Get(back[1], NF, MPI_INT, next, DISP(flushed[1][rank]), NF, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush(next, win));
    for (int k = 0; k < NF; k++)
        CHECK(back[1][k] == fval(1, rank, next, k), "flush_local: read back %d, expected %d", back[1][k],
              fval(1, rank, next, k));

    /* kind 2: put to every rank, flush_all, get from every rank, flush_all */
    for (int t = 0; t < size; t++)
        for (int k = 0; k < NF; k++)
            buf[t][k] = fval(2, rank, t, k);
    for (int t = 0; t < size; t++)
        CHECK_MPI(MPI_Put(buf[t], NF, MPI_INT, t, DISP(flushed[2][rank]), NF, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush_all(win));
    for (int t = 0; t < size; t++)
        CHECK_MPI(MPI_Get(back[t], NF, MPI_INT, t, DISP(flushed[2][rank]), NF, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush_all(win));
    for (int t = 0; t < size; t++)
        for (int k = 0; k < NF; k++)
            CHECK(back[t][k] == fval(2, rank, t, k), "flush_all: read back %d from %d, expected %d", back[t][k], t,
                  fval(2, rank, t, k));

    /* kind 3: accumulate to every rank, flush_local_all, buffers overwritten, flush_all, get */
    for (int t = 0; t < size; t++)
        for (int k = 0; k < NF; k++)
            buf[t][k] = fval(3, rank, t, k);
    for (int t = 0; t < size; t++)
        CHECK_MPI(MPI_Accumulate(buf[t], NF, MPI_INT, t, DISP(flushed[3][rank]), NF, MPI_INT, MPI_REPLACE, win));
    CHECK_MPI(MPI_Win_flush_local_all(win));
    for (int t = 0; t < size; t++)
        for (int k = 0; k < NF; k++)
            buf[t][k] = -2;
    CHECK_MPI(MPI_Win_flush_all(win));
    for (int t = 0; t < size; t++)
        CHECK_MPI(MPI_Get(back[t], NF, MPI_INT, t, DISP(flushed[3][rank]), NF, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush_all(win));
    for (int t = 0; t < size; t++)
        for (int k = 0; k < NF; k++)
            CHECK(back[t][k] == fval(3, rank, t, k), "flush_local_all: read back %d from %d, expected %d",
                  back[t][k], t, fval(3, rank, t, k));

    /* every rank's updates are complete at their targets (flushed) before the barrier; the owner
     * sees them in its memory after MPI_Win_sync */
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_Win_sync(win));
    int prev = (rank + size - 1) % size;
    for (int k = 0; k < NF; k++) {
        CHECK(mem->flushed[0][prev][k] == fval(0, prev, rank, k), "own memory, flush: %d",
              mem->flushed[0][prev][k]);
        CHECK(mem->flushed[1][prev][k] == fval(1, prev, rank, k), "own memory, flush_local: %d",
              mem->flushed[1][prev][k]);
        for (int w = 0; w < size; w++) {
            CHECK(mem->flushed[2][w][k] == fval(2, w, rank, k), "own memory, flush_all from %d: %d", w,
                  mem->flushed[2][w][k]);
            CHECK(mem->flushed[3][w][k] == fval(3, w, rank, k), "own memory, flush_local_all from %d: %d", w,
                  mem->flushed[3][w][k]);
        }
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
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
    /* a multiple of 16 bytes: MPICH 4.0.2, used to validate this test, misplaces the windows of
     * MPI_Win_allocate otherwise (see put_get.c) */
    CHECK_MPI(MPI_Win_allocate((sizeof(lockmem) + 15) / 16 * 16, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    /* local stores under a lock on the own window: public at the unlock, before anyone accesses */
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    memset(mem, 0, sizeof *mem);
    for (int i = 0; i < 8; i++)
        mem->readonly[i] = readonly_val(rank, i);
    CHECK_MPI(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);

    mutual_exclusion();
    shared_locks();
    completion_at_unlock();
    flushes();

    CHECK_MPI(MPI_Win_free(&win));
    return MTest_Finalize();
}
