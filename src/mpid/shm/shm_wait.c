/*
 * Waiting for messages without burning cores (see shm_impl.h): spin, then yield, then sleep on the
 * rank's doorbell with a futex. A peer that gives this rank a cell, or frees ring space, bumps the
 * doorbell and wakes the futex only when the rank said it is asleep.
 */
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <limits.h>
#include "shm_impl.h"

#define SPINS 200
#define YIELDS 20
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

void shm_ring_doorbell(int rank)
{
    Rank_state *r = &shm.ranks[rank];
    atomic_fetch_add_explicit(&r->doorbell, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&r->sleeping, memory_order_seq_cst))
        futex_wake(&r->doorbell);
}

uint32_t shm_doorbell_value(void)
{
    return atomic_load_explicit(&shm.ranks[shm.rank].doorbell, memory_order_acquire);
}

/* More ranks than cores: spinning only steals the core from the rank we wait for. */
static bool oversubscribed(void)
{
    static _Atomic int over = -1;   /* threads may race to fill it: they store the same value */
    if (over < 0)
        over = shm.nranks > sysconf(_SC_NPROCESSORS_ONLN);
    return over;
}

void shm_wait_doorbell(uint32_t seen)
{
    static _Thread_local long sleep_ns = SLEEP_MIN_NS;
    Rank_state *me = &shm.ranks[shm.rank];
    for (int i = 0; i < (oversubscribed() ? 0 : SPINS); i++) {
        if (atomic_load_explicit(&me->doorbell, memory_order_acquire) != seen)
            goto woken;
        __builtin_ia32_pause();
    }
    for (int i = 0; i < YIELDS; i++) {
        sched_yield();
        if (atomic_load_explicit(&me->doorbell, memory_order_acquire) != seen)
            goto woken;
    }
    /* sleeping is announced before the last check, so a peer that bumps after it also wakes us */
    atomic_fetch_add_explicit(&me->sleeping, 1, memory_order_seq_cst);   /* threads of one rank count */
    if (atomic_load_explicit(&me->doorbell, memory_order_seq_cst) == seen)
        futex_wait(&me->doorbell, seen, sleep_ns);
    atomic_fetch_sub_explicit(&me->sleeping, 1, memory_order_relaxed);
    if (atomic_load_explicit(&me->doorbell, memory_order_acquire) == seen) {
        if (sleep_ns < SLEEP_MAX_NS)
            sleep_ns *= 2;   /* timed out: nothing is coming soon */
        return;
    }
woken:
    sleep_ns = SLEEP_MIN_NS;
}
