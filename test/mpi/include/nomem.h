/*
 * Out-of-memory tests: the library's allocations counted and refused through the linker's --wrap
 * of malloc, calloc, realloc and free (the test links libmpi statically with
 *   link=static ldflags=-Xlinker,--wrap=malloc,-Xlinker,--wrap=calloc,-Xlinker,--wrap=realloc,-Xlinker,--wrap=free
 * in its testlist line), so that it runs the same in the optimised and the sanitizer builds.
 *
 * A scenario makes MPI objects, uses them, writes what it saw to an output, frees what it made and
 * returns its first error. nomem_run() runs it unhindered, then again with each of its allocations
 * refused in turn, once (the next one succeeds) and for good (every later one fails too), and
 * checks each time that
 *   - the call that met the refusal failed with MPI_ERR_NO_MEM, or succeeded by a fallback and the
 *     scenario's output is exactly the unhindered one;
 *   - once the scenario has freed what it made, the library holds no more blocks than before.
 */
#ifndef NOMEM_H_INCLUDED
#define NOMEM_H_INCLUDED

#include <stdbool.h>
#include "mtest.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t m, size_t n);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);

static long live;              /* blocks allocated and not yet freed */
static long calls;             /* allocations asked for since arming */
static long fail_at;           /* the allocation refused (counted from 1); 0: none */
static bool fail_rest;         /* and every one after it */
static long refused;           /* how many were refused */

static bool refuse(void)
{
    if (fail_at == 0)
        return false;
    long n = ++calls;
    if (n == fail_at || (fail_rest && n > fail_at)) {
        refused++;
        return true;
    }
    return false;
}

void *__wrap_malloc(size_t n)
{
    void *p = refuse() ? NULL : __real_malloc(n);
    live += p != NULL;
    return p;
}

void *__wrap_calloc(size_t m, size_t n)
{
    void *p = refuse() ? NULL : __real_calloc(m, n);
    live += p != NULL;
    return p;
}

void *__wrap_realloc(void *p, size_t n)
{
    if (refuse())
        return NULL;
    void *q = __real_realloc(p, n);
    live += q != NULL && p == NULL;
    return q;
}

void __wrap_free(void *p)
{
    live -= p != NULL;
    __real_free(p);
}

static void arm(long at, bool rest)
{
    calls = 0;
    refused = 0;
    fail_rest = rest;
    fail_at = at;
}

static long disarm(void)
{
    fail_at = 0;
    return refused;
}

/* ---- scenarios and their outputs ---- */

#define NOMEM_OUT_BYTES (1 << 20)

typedef struct {
    unsigned char *out;
    size_t len;
} output;

/* The first failing call of a scenario ends it at its label done, with rc set. */
#define TRY(call) do { if ((rc = (call)) != MPI_SUCCESS) goto done; } while (0)

static void put(output *o, const void *p, size_t n)
{
    if (o->len + n > NOMEM_OUT_BYTES) {
        MTEST_FAIL("more than %d bytes of output", NOMEM_OUT_BYTES);
        return;
    }
    memcpy(o->out + o->len, p, n);
    o->len += n;
}

typedef struct {
    const char *name;
    int (*run)(output *o);
    bool keeps;   /* what a successful run makes stays (f90) */
} scenario;

static void nomem_run(const scenario *s)
{
    static unsigned char want_bytes[NOMEM_OUT_BYTES], got_bytes[NOMEM_OUT_BYTES];
    output want = { want_bytes, 0 };
    /* twice unhindered: the first run may grow the library's object pools for good */
    if (s->run(&want) != MPI_SUCCESS || (want.len = 0, s->run(&want)) != MPI_SUCCESS) {
        MTEST_FAIL("%s: fails with no allocation refused", s->name);
        return;
    }

    long allocations = 0;
    for (int rest = 0; rest <= 1; rest++) {
        for (long at = 1;; at++) {
            output got = { got_bytes, 0 };
            long before = live;
            arm(at, rest);
            int rc = s->run(&got);
            long n = disarm();
            if (n == 0) {   /* past the last allocation: an unhindered run */
                CHECK(rc == MPI_SUCCESS, "%s: failed with no allocation refused", s->name);
                allocations = at - 1;
                break;
            }
            if (live != before && !(rc == MPI_SUCCESS && s->keeps))
                MTEST_FAIL("%s: allocation %ld refused%s: %ld blocks leaked", s->name, at,
                           rest ? " with all after it" : "", live - before);
            if (rc == MPI_SUCCESS) {
                if (got.len != want.len || memcmp(got.out, want.out, want.len) != 0)
                    MTEST_FAIL("%s: allocation %ld refused%s: success, but other bytes", s->name, at,
                               rest ? " with all after it" : "");
            } else {
                int cls = -1;
                MPI_Error_class(rc, &cls);
                if (cls != MPI_ERR_NO_MEM)
                    MTEST_FAIL("%s: allocation %ld refused%s: class %d, expected MPI_ERR_NO_MEM", s->name,
                               at, rest ? " with all after it" : "", cls);
            }
            if (at > 100000) {
                MTEST_FAIL("%s: still allocating after %ld allocations", s->name, at);
                break;
            }
        }
    }
    CHECK(allocations > 0, "%s: no allocation to refuse", s->name);
    printf("%s: %ld allocation%s, each refused once and for good\n", s->name, allocations,
           allocations == 1 ? "" : "s");
}

/* The blocks this rank holds, counted when no message can be on its way to it (the device holds a
 * copy of a message that comes before its receive): the ranks of comm count in turn, each after a
 * word from the one before, and go on together when the last one has counted. */
static long quiet_live(MPI_Comm comm)
{
    int rank, size, word = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (rank > 0)
        MPI_Recv(&word, 1, MPI_INT, rank - 1, 0, comm, MPI_STATUS_IGNORE);
    long n = live;
    if (rank < size - 1)
        MPI_Send(&word, 1, MPI_INT, rank + 1, 0, comm);
    MPI_Bcast(&word, 1, MPI_INT, size - 1, comm);
    return n;
}

/* Collectives: every rank of comm runs the scenario (which uses comm), one of them, the victim,
 * with its allocations refused in turn, once and for good; each rank in turn is the victim. After
 * each run an unhindered MPI_Allreduce checks that the ranks still agree on comm's sequence of
 * collectives (a rank that left a collective early would pair it with the wrong one), and that
 *   - the victim failed with MPI_ERR_NO_MEM, or succeeded with exactly the unhindered output;
 *   - every other rank succeeded with exactly the unhindered output, or, only when the victim
 *     failed, failed with MPI_ERR_OTHER (it received nothing where the victim's data was due);
 *   - no rank holds more blocks than before. */
static void nomem_run_collective(const scenario *s, MPI_Comm comm)
{
    static unsigned char want_bytes[NOMEM_OUT_BYTES], got_bytes[NOMEM_OUT_BYTES];
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    output want = { want_bytes, 0 };
    int rc = s->run(&want);
    want.len = 0;
    rc |= s->run(&want);
    if (rc != MPI_SUCCESS) {
        MTEST_FAIL("%s: fails with no allocation refused", s->name);
        return;
    }

    int warm[3] = { 0 }, sums[3];
    MPI_Allreduce(warm, sums, 3, MPI_INT, MPI_SUM, comm);   /* what the checks use, grown before */
    long most = 0;
    for (int victim = 0; victim < size; victim++) {
        for (int rest = 0; rest <= 1; rest++) {
            for (long at = 1;; at++) {
                output got = { got_bytes, 0 };
                long before = quiet_live(comm);
                if (rank == victim)
                    arm(at, rest);
                rc = s->run(&got);
                long n = rank == victim ? disarm() : 0;
                int cls = MPI_SUCCESS;
                if (rc != MPI_SUCCESS)
                    MPI_Error_class(rc, &cls);
                /* [0]: ranks (the sum checks the sequence), [1]: the victim made its last
                 * allocation unhindered, [2]: the victim failed */
                int mine[3] = { 1, rank == victim && n == 0, rank == victim && rc != MPI_SUCCESS }, all[3];
                MPI_Allreduce(mine, all, 3, MPI_INT, MPI_SUM, comm);
                if (all[0] != size) {
                    MTEST_FAIL("%s: victim %d, allocation %ld refused%s: the ranks no longer agree (sum %d)",
                               s->name, victim, at, rest ? " with all after it" : "", all[0]);
                    return;
                }
                const char *how = rest ? " with all after it" : "";
                if (rc == MPI_SUCCESS) {
                    if (got.len != want.len || memcmp(got.out, want.out, want.len) != 0) {
                        size_t k = 0;
                        while (k < want.len && got.out[k] == want.out[k])
                            k++;
                        MTEST_FAIL("%s: victim %d, allocation %ld refused%s: success, but other bytes on rank %d "
                                   "(from byte %zu of %zu)", s->name, victim, at, how, rank, k, want.len);
                    }
                } else if (rank == victim ? cls != MPI_ERR_NO_MEM : !(cls == MPI_ERR_OTHER && all[2])) {
                    char msg[MPI_MAX_ERROR_STRING];
                    int len = 0;
                    MPI_Error_string(rc, msg, &len);
                    MTEST_FAIL("%s: victim %d, allocation %ld refused%s: class %d on rank %d (%s)", s->name, victim,
                               at, how, cls, rank, msg);
                }
                long after = quiet_live(comm);
                if (after != before)
                    MTEST_FAIL("%s: victim %d, allocation %ld refused%s: %ld blocks leaked on rank %d", s->name,
                               victim, at, how, after - before, rank);
                if (all[1]) {
                    if (at - 1 > most)
                        most = at - 1;
                    break;
                }
                if (at > 100000) {
                    MTEST_FAIL("%s: still allocating after %ld allocations", s->name, at);
                    break;
                }
            }
        }
    }
    CHECK(most > 0, "%s: no allocation to refuse", s->name);
    if (rank == 0)
        printf("%s: up to %ld allocations on a rank, each refused once and for good on each rank\n", s->name, most);
}

/* Errors returned, not fatal. */
static inline void nomem_init(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

#endif
