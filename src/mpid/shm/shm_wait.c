/*
 * Waiting for messages without burning cores (see shm_impl.h).
 *
 * A waiting rank polls the next cell of every incoming ring and its doorbell. How long it polls
 * depends on whether the job fits the machine: with no more ranks than cores every rank has a
 * core of its own, so spinning costs nobody anything and answers within a cache-line transfer,
 * where a futex sleep and wake-up adds several microseconds; with more ranks than cores, spinning
 * would steal the core from the rank being waited for, so the rank yields at once. Either way it
 * then sleeps on its doorbell with a futex, announced in `sleeping` so that a peer that publishes a
 * cell afterwards wakes it (shm_notify) and one that published before is seen by the last poll.
 *
 * That handshake (and the one for ring space, see cell_reserve) is Dekker's: each side stores its
 * flag, then reads the other's, with a full fence between. The publishing side runs it for every
 * message, and a fence there stalls the sender until its stores to the cell, whose lines sit in the
 * receiver's cache, complete: a cache round trip. So the fence is made asymmetric with
 * membarrier(2): the frequent side (shm_fence_fast) only stops the compiler, and the rare side
 * (shm_fence_slow: about to sleep, or facing a full ring) forces a full barrier on every CPU
 * running a rank. Without membarrier both sides use ordinary fences.
 */
#include <linux/membarrier.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <limits.h>
#include "shm_impl.h"

/* Not oversubscribed: poll this long before yielding, and yield this long before sleeping. */
#define SPIN_NS 100000L
#define YIELD_NS 1000000L
/* Oversubscribed: a few yields, then sleep. */
#define OVERSUBSCRIBED_YIELDS 20
/* A sleeper is woken by its doorbell, so the timeout only bounds how late it notices anything
 * else; it grows while nothing happens, so idle ranks cost next to nothing. */
#define SLEEP_MIN_NS 1000000L
#define SLEEP_MAX_NS 128000000L

static void futex_wait(_Atomic uint32_t *word, uint32_t seen, long ns)
{
    struct timespec ts = { ns / 1000000000L, ns % 1000000000L };
    /* private futexes do not work across processes: the doorbell is in shared memory */
    syscall(SYS_futex, (uint32_t *) word, shm.shared ? FUTEX_WAIT : FUTEX_WAIT_PRIVATE, seen, &ts, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *word)
{
    syscall(SYS_futex, (uint32_t *) word, shm.shared ? FUTEX_WAKE : FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

bool shm_have_membarrier;

void shm_wait_init(void)
{
    /* every rank of a job runs on the same kernel under the same policy, so all decide alike */
    const char *e = getenv("LOOM_MEMBARRIER");
    if (e && e[0] == '0')
        return;
    long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    shm_have_membarrier = cmds > 0 && (cmds & MEMBARRIER_CMD_GLOBAL_EXPEDITED)
                      && syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED, 0, 0) == 0;
}

void shm_fence_slow(void)
{
    if (!shm_have_membarrier || syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL_EXPEDITED, 0, 0) != 0)
        atomic_thread_fence(memory_order_seq_cst);
}

void shm_ring_doorbell(int rank)
{
    Rank_state *r = &shm.ranks[rank];
    atomic_fetch_add_explicit(&r->doorbell, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&r->sleeping, memory_order_seq_cst))
        futex_wake(&r->doorbell);
}

void shm_notify(int rank)
{
    /* Pairs with the sleeper's increment of `sleeping` before its last poll (Dekker): either it
     * sees our cell, or we see it sleeping. */
    shm_fence_fast();
    if (atomic_load_explicit(&shm.ranks[rank].sleeping, memory_order_relaxed))
        shm_ring_doorbell(rank);
}

uint32_t shm_doorbell_value(void)
{
    return atomic_load_explicit(&shm.ranks[shm.rank].doorbell, memory_order_acquire);
}

/* Whether the job has more ranks than this machine has cores (hardware threads; the affinity
 * mask is no guide: mpiexec binds every rank to a single core). */
static bool oversubscribed(void)
{
    static _Atomic int over = -1;   /* threads may race to fill it: they store the same value */
    if (over < 0) {
        const char *e = getenv("LOOM_OVERSUBSCRIBED");   /* tests and experiments: force either way */
        over = e && *e ? e[0] != '0' : shm.nranks > sysconf(_SC_NPROCESSORS_ONLN);
    }
    return over;
}

/* Something to do: a cell in an incoming ring, or a doorbell (ring space, a wake-up). */
static bool work_ready(uint32_t seen)
{
    if (atomic_load_explicit(&shm.ranks[shm.rank].doorbell, memory_order_acquire) != seen)
        return true;
    for (int s = 0; s < shm.nranks; s++)
        if (shm_cell_ready(s))
            return true;
    return false;
}

static long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* Polls until work arrives or the deadlines pass; true if it did. */
static bool poll_for_work(uint32_t seen)
{
    if (oversubscribed()) {
        for (int i = 0; i < OVERSUBSCRIBED_YIELDS; i++) {
            sched_yield();
            if (work_ready(seen))
                return true;
        }
        return false;
    }
    long start = 0;
    for (;;) {
        for (int i = 0; i < 256; i++) {   /* the clock is read once per 256 polls */
            if (work_ready(seen))
                return true;
            __builtin_ia32_pause();
        }
        if (!start)
            start = now_ns();
        else if (now_ns() - start > SPIN_NS)
            break;
    }
    do {
        sched_yield();
        if (work_ready(seen))
            return true;
    } while (now_ns() - start < SPIN_NS + YIELD_NS);
    return false;
}

void shm_wait(uint32_t seen)
{
    static _Thread_local long sleep_ns = SLEEP_MIN_NS;
    /* after a sleep that timed out nothing is coming soon: straight back to sleep */
    if (sleep_ns == SLEEP_MIN_NS && poll_for_work(seen)) {
        sleep_ns = SLEEP_MIN_NS;
        return;
    }
    Rank_state *me = &shm.ranks[shm.rank];
    /* sleeping is announced before the last poll, so a peer that publishes after it wakes us */
    atomic_fetch_add_explicit(&me->sleeping, 1, memory_order_seq_cst);   /* threads of one rank count */
    shm_fence_slow();
    bool ready = work_ready(seen);
    if (!ready)
        futex_wait(&me->doorbell, seen, sleep_ns);
    atomic_fetch_sub_explicit(&me->sleeping, 1, memory_order_relaxed);
    if (ready || work_ready(seen))
        sleep_ns = SLEEP_MIN_NS;
    else if (sleep_ns < SLEEP_MAX_NS)
        sleep_ns *= 2;   /* timed out: nothing is coming soon */
}
