/*
 * Context ids: agreeing, when a communicator is created, on an id that is free in every process
 * that will use it.
 *
 * Each process keeps a bitmask of its free even ids (bit i stands for id 2i; id 2i+1 goes with it
 * for collectives). An agreement round is one MPI_Allreduce with MPI_BAND of the masks: the lowest
 * bits set in the result are free everywhere, and every process claims them.
 *
 * Threads. Two threads of a process may create communicators at once (on different parents). If
 * both offered the same mask, both rounds could pick the same id. So a process offers its mask to
 * one round at a time, and offers zeros to the others; a round that received zeros from anyone
 * finds nothing and is repeated (the last word of the buffer says whether every process offered
 * its real mask, which tells "retry" from "really out of ids"; the one after it whether every
 * process is well: one that failed offers zeros there, and then all fail instead of retrying
 * without it). To avoid livelock, the mask goes
 * to the waiting round with the smallest priority (from its communicator's context id): that round
 * eventually holds the mask in every process at once and succeeds. A process with one thread is
 * always the owner and agrees in one round.
 *
 * Nonblocking creations (MPI_Comm_idup, comm_idup.c) run the same rounds in steps, from the
 * progress engine. A round that holds the mask must not wait for processes that have not joined
 * the creation yet: they may be blocked in another creation that needs this process's mask (MPI
 * lets a process start an idup, then a blocking dup, while another does them in the other order).
 * So a nonblocking agreement's first round always offers zeros (it only finds out that everyone
 * has joined), and only then does it compete for the mask; and a blocking agreement's first round
 * offers zeros too while nonblocking ones are in flight in its process, since one of them may be
 * what another participant waits on before joining.
 */
#include <sched.h>
#include "comm.h"

#define NBITS (MPIR_CONTEXT_MAX / 2)
#define NWORDS (NBITS / 32)
#define OFFERED_WORD NWORDS           /* 1 where every process offered its real mask */
#define WELL_WORD (NWORDS + 1)        /* 1 where no process failed */
_Static_assert(NWORDS + 2 == MPIR_CONTEXT_BUF_WORDS, "comm.h: mask words");
#define MAX_WAITERS 1024        /* agreements in flight in one process: threads, and idups not yet waited for */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned free_mask[NWORDS];
static bool mask_busy;
static long long waiters[MAX_WAITERS];   /* priorities of the rounds competing for the mask */
static int nwaiters;
static int nonblocking_active;          /* nonblocking agreements begun and not ended */

void MPIR_Context_init(void)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < NWORDS; i++)
        free_mask[i] = ~0u;
    free_mask[0] &= ~(1u << (MPIR_CONTEXT_WORLD / 2) | 1u << (MPIR_CONTEXT_SELF / 2));
    pthread_mutex_unlock(&lock);
}

void MPIR_Context_free(int id)
{
    int bit = id / 2;
    pthread_mutex_lock(&lock);
    free_mask[bit / 32] |= 1u << (bit % 32);
    pthread_mutex_unlock(&lock);
}

/* How a round combines the offered masks (with MPI_BAND) over every participant. */
typedef int reduce_fn(unsigned *buf, int n, void *arg);

static bool lowest_waiter_locked(long long prio)
{
    for (int i = 0; i < nwaiters; i++)
        if (waiters[i] < prio)
            return false;
    return true;
}

static void unregister_locked(long long prio)
{
    for (int i = 0; i < nwaiters; i++)
        if (waiters[i] == prio) {
            waiters[i] = waiters[--nwaiters];
            return;
        }
}

static int register_locked(long long prio)
{
    if (nwaiters == MAX_WAITERS)
        return MPIR_Err(MPI_ERR_OTHER, "too many communicators being created at once in one process");
    waiters[nwaiters++] = prio;
    return MPI_SUCCESS;
}

int MPIR_Context_agree_begin(MPIR_Context_agreement *a, long long prio, bool nonblocking)
{
    *a = (MPIR_Context_agreement) { .prio = prio, .nonblocking = nonblocking };
    int err = MPI_SUCCESS;
    pthread_mutex_lock(&lock);
    if (nonblocking)
        nonblocking_active++;       /* it competes for the mask after its first round */
    else if ((err = register_locked(prio)) == MPI_SUCCESS)
        a->registered = true;
    pthread_mutex_unlock(&lock);
    return err;
}

void MPIR_Context_agree_offer(MPIR_Context_agreement *a, unsigned *buf)
{
    pthread_mutex_lock(&lock);
    bool first_zeros = a->round == 0 && (a->nonblocking || nonblocking_active > 0);
    a->owner = a->registered && !first_zeros && !mask_busy && lowest_waiter_locked(a->prio);
    if (a->owner) {
        mask_busy = true;
        memcpy(buf, free_mask, sizeof free_mask);
    } else {
        memset(buf, 0, sizeof free_mask);
    }
    buf[OFFERED_WORD] = a->owner;
    buf[WELL_WORD] = 1;
    pthread_mutex_unlock(&lock);
}

int MPIR_Context_agree_claim(MPIR_Context_agreement *a, const unsigned *buf, int n, int *ids)
{
    int found = 0, err = MPI_SUCCESS;
    bool well = buf[WELL_WORD] != 0;
    for (int w = 0; well && w < NWORDS && found < n; w++)
        for (unsigned bits = buf[w]; bits && found < n; bits &= bits - 1)
            ids[found++] = 2 * (32 * w + __builtin_ctz(bits));
    pthread_mutex_lock(&lock);
    if (found == n)
        for (int i = 0; i < n; i++)
            free_mask[ids[i] / 64] &= ~(1u << (ids[i] / 2 % 32));
    if (a->owner)
        mask_busy = false;
    a->owner = false;
    a->round++;
    if (found < n && !a->registered && a->nonblocking) {
        err = register_locked(a->prio);     /* everyone has joined: now compete for the mask */
        a->registered = err == MPI_SUCCESS;
    }
    pthread_mutex_unlock(&lock);
    if (err || found == n)
        return err;
    if (!well)
        return MPIR_Err(MPI_ERR_OTHER, "a process taking part in the context id agreement failed");
    if (buf[OFFERED_WORD])        /* everyone offered its mask: there really are not n common ids */
        return MPIR_Err(MPI_ERR_OTHER, "out of context ids: too many communicators exist (at most %d)", NBITS - 2);
    return MPIR_CONTEXT_RETRY;
}

void MPIR_Context_agree_end(MPIR_Context_agreement *a)
{
    pthread_mutex_lock(&lock);
    if (a->owner)
        mask_busy = false;
    if (a->registered)
        unregister_locked(a->prio);
    if (a->nonblocking)
        nonblocking_active--;
    pthread_mutex_unlock(&lock);
}

/* A blocking agreement: rounds until one succeeds or fails. A process that failed before
 * (local_err) takes part all the same, offering zeros and saying it failed, so that the others
 * fail too instead of waiting for it. */
static int agree(long long prio, int local_err, int n, int *ids, reduce_fn *reduce, void *arg)
{
    unsigned buf[MPIR_CONTEXT_BUF_WORDS];
    MPIR_Context_agreement a;
    int err = MPIR_Context_agree_begin(&a, prio, false);
    while (err == MPI_SUCCESS) {
        MPIR_Context_agree_offer(&a, buf);
        if (local_err)
            memset(buf, 0, sizeof buf);
        /* every participant sees the same result, so all take the same branch below */
        err = reduce(buf, MPIR_CONTEXT_BUF_WORDS, arg);
        if (err == MPI_SUCCESS)
            err = MPIR_Context_agree_claim(&a, buf, n, ids);
        if (err != MPIR_CONTEXT_RETRY)
            break;
        err = MPI_SUCCESS;
        sched_yield();
    }
    MPIR_Context_agree_end(&a);
    return local_err ? local_err : err;
}

/* ---- the three ways of combining masks ---- */

static int band_allreduce(unsigned *buf, int n, MPIR_Comm *comm)
{
    return MPIR_Allreduce_impl(MPI_IN_PLACE, buf, n, MPI_UNSIGNED, MPI_BAND, MPIR_Comm_handle(comm));
}

static int reduce_intra(unsigned *buf, int n, void *arg)
{
    return band_allreduce(buf, n, arg);
}

/* Both groups of an intercommunicator: each group combines its masks, the leaders swap and combine
 * theirs, then each leader's result goes to its group (the others offer all ones). Every step runs
 * whatever failed before it; a process that failed offers zeros, well word included, so that every
 * process of both groups fails instead of retrying rounds the failed ones have left. */
static int reduce_inter(unsigned *buf, int n, void *arg)
{
    MPIR_Comm *inter = arg;
    int err = band_allreduce(buf, n, inter->local_comm);
    unsigned remote[MPIR_CONTEXT_BUF_WORDS];
    if (err)
        memset(buf, 0, (size_t) n * sizeof *buf);
    if (inter->rank == 0) {
        int e = MPIR_Comm_sendrecv_internal(buf, n, remote, n, MPI_UNSIGNED, 0, MPIR_TAG_CONTEXT, inter);
        for (int i = 0; i < n; i++)
            buf[i] = e ? 0 : buf[i] & remote[i];
        err = err ? err : e;
    } else if (!err) {
        for (int i = 0; i < n; i++)
            buf[i] = ~0u;
    }
    int e = band_allreduce(buf, n, inter->local_comm);
    return err ? err : e;
}

/* Members of a group that is not a communicator yet: a binomial reduction to member 0 and a
 * broadcast back, by messages on the parent. */
struct group_round {
    MPIR_Comm *parent;
    const MPIR_Group *group;
    int tag;
};

static int reduce_group(unsigned *buf, int n, void *arg)
{
    struct group_round *g = arg;
    int m = g->group->size, me = g->group->rank, err = MPI_SUCCESS;
    unsigned other[MPIR_CONTEXT_BUF_WORDS];
#define PARENT_RANK(i) (g->parent->rank_of_lpid[g->group->lpids[i]])
    for (int mask = 1; mask < m && err == MPI_SUCCESS; mask <<= 1) {
        if (me & mask) {
            err = MPIR_Comm_sendrecv_internal(buf, n, NULL, 0, MPI_UNSIGNED, PARENT_RANK(me - mask), g->tag, g->parent);
            break;
        }
        if (me + mask < m) {
            err = MPIR_Comm_sendrecv_internal(NULL, 0, other, n, MPI_UNSIGNED, PARENT_RANK(me + mask), g->tag,
                                              g->parent);
            for (int i = 0; i < n; i++)
                buf[i] &= other[i];
        }
    }
    /* Broadcast: in step mask, members [0, mask) hold the result and send it to [mask, 2 mask). */
    for (int mask = 1; mask < m && err == MPI_SUCCESS; mask <<= 1) {
        if (me < mask && me + mask < m)
            err = MPIR_Comm_sendrecv_internal(buf, n, NULL, 0, MPI_UNSIGNED, PARENT_RANK(me + mask), g->tag, g->parent);
        else if (me >= mask && me < 2 * mask)
            err = MPIR_Comm_sendrecv_internal(NULL, 0, buf, n, MPI_UNSIGNED, PARENT_RANK(me - mask), g->tag, g->parent);
    }
#undef PARENT_RANK
    return err;
}

/* A round's priority, the same in every process of the round: lower context ids first (of an
 * intercommunicator, the lower of its two, which both groups know), then lower tags
 * (MPI_Comm_create_group). */
long long MPIR_Context_priority(const MPIR_Comm *comm, int tag)
{
    int low = comm->context_id < comm->recv_context_id ? comm->context_id : comm->recv_context_id;
    return (long long) (2 * low + comm->is_inter) << 32 | (unsigned) tag;
}

int MPIR_Context_alloc(MPIR_Comm *comm, int local_err, int n, int *ids)
{
    return agree(MPIR_Context_priority(comm, 0), local_err, n, ids, comm->is_inter ? reduce_inter : reduce_intra,
                 comm);
}

int MPIR_Context_alloc_group(MPIR_Comm *parent, const MPIR_Group *group, int tag, int n, int *ids)
{
    struct group_round g = { parent, group, MPIR_TAG_USER(tag) };
    return agree(MPIR_Context_priority(parent, tag + 1), MPI_SUCCESS, n, ids, reduce_group, &g);
}
