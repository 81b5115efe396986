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

/* Errors returned, not fatal. */
static inline void nomem_init(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

#endif
