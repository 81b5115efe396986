/* ddtbench: MPI_Pack/MPI_Unpack throughput of the patterns in patterns.c for several MPI libraries
 * in one process, next to a hand-written loop for the same layout and memcpy of the same bytes;
 * and the time and memory it takes to create and commit a type of about a million blocks.
 *
 * Each library comes as a plugin (ddtlib.c + patterns.c built with its mpicc; run.sh does that).
 * All of them run in this process, each in a link namespace of its own (dlmopen), so their MPI
 * symbols do not meet; they pack from and unpack into the same arrays (this driver allocates them,
 * see shared_alloc), and their timed repetitions take turns. So every library copies the same
 * physical pages under the same conditions: in separate processes, which pages a process got
 * (their L2 sets, their DRAM banks) moved a row's speed, the hand loop's included, by up to 5%,
 * as much as the libraries differ on rows at memory speed.
 *
 *   ddtbench [--quick] [--list | --only N | --from N] [--no-commit] NAME=PLUGIN... [FILTER...]
 *     NAME=PLUGIN  a library's label and plugin (ddtlib-NAME.so); the first one is loaded into the
 *                  main namespace, where Open MPI must be (it dlopens its components, which fails
 *                  inside a dlmopen namespace), the others into namespaces of their own
 *     --quick      fewer and shorter repetitions, and no pattern that is larger than the caches
 *     --list       print the index and name of each selected pattern instead of running them
 *                  (the create/commit measurements are the index after the last pattern)
 *     --only N     run only pattern N (run.sh runs each pattern in a process of its own)
 *     --from N     start at pattern N
 *     --no-commit  skip the create/commit measurements
 *     FILTER       run only the patterns whose name contains one of these strings
 *
 * Output, one tab-separated line per event (GB/s = 1e9 bytes per second of packed data):
 *   I lib version                       a library
 *   B - index name                      a pattern begins
 *   P lib name bytes pack unpack hand_pack hand_unpack memcpy     (GB/s)
 *   F lib name reason                   the pattern failed for lib: not timed
 *   C lib name blocks create_ns commit_ns held_bytes             (per block)
 * hand_pack and hand_unpack are the hand loops as compiled into that library's plugin; memcpy is
 * this driver's, the same number on every library's line.
 *
 * Each time is the median of several repetitions after a warm-up; a repetition repeats the
 * operation until it lasts a few milliseconds of this thread's CPU time. Before timing, every
 * library is checked on the pattern: MPI_Pack must produce exactly the hand loop's bytes without
 * writing past them, and MPI_Unpack must write exactly what the hand loop writes, so a broken pack
 * cannot look fast.
 */
#define _GNU_SOURCE   /* dlmopen */

#include "ddtlib.h"
#include "util.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXLIBS 8
#define MAXREP 15
#define GUARD 64

static struct {
    const char *name;
    const ddtlib *dl;
    size_t bytes;               /* of the current pattern */
    const char *err;            /* why the current pattern is not timed for it */
} libs[MAXLIBS];
static int nlibs;
static int quick;
static int nfilters;
static char **filters;          /* substrings of the pattern names to run */
static int reps = 7;
static double min_rep = 0.02;   /* seconds */

/* CPU time of this thread: a benchmark pinned to one core of a shared machine is not charged
 * for the time slices other processes take on that core. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int selected(const char *name)
{
    return bench_selected(name, filters, nfilters);
}

/* ---- memory: fresh pages per buffer (bench_pages), the same buffers for every library ---- */

/* The pattern's arrays: the n-th array a library's build asks for is the n-th buffer of the first
 * library's build (same size: the patterns do not depend on the library). */
#define MAXBUFS 64
static struct { char *p; size_t len; } bufs[MAXBUFS];
static int nbufs, cursor;

static void *shared_alloc(size_t len)
{
    if (cursor < nbufs)
        return bufs[cursor].len == len ? bufs[cursor++].p : NULL;
    if (nbufs == MAXBUFS || !(bufs[nbufs].p = bench_pages(len)))
        return NULL;
    bufs[nbufs].len = len;
    cursor = ++nbufs;
    return bufs[nbufs - 1].p;
}

static void shared_release(void *p) { (void)p; }   /* all at the pattern's end */

static void shared_free_all(void)
{
    for (int i = 0; i < nbufs; i++)
        bench_pages_free(bufs[i].p);
    nbufs = cursor = 0;
}

/* ---- throughput ---- */

enum { PACK, UNPACK, HAND_PACK, HAND_UNPACK, MEMCPY, KINDS };

typedef struct {
    int kind, lib;
    long iters;
    double per_call[MAXREP];
} op;

static char *packed, *other;    /* MPI_Pack's output and MPI_Unpack's input; memcpy's destination */
static int rc;                  /* MPI errors seen while timing */

static void run_op(const op *o, long iters)
{
    const ddtlib *dl = libs[o->lib].dl;
    size_t bytes = libs[o->lib].bytes;
    switch (o->kind) {
    case PACK:
        for (long i = 0; i < iters; i++)
            rc |= dl->pack(packed);
        break;
    case UNPACK:
        for (long i = 0; i < iters; i++)
            rc |= dl->unpack(packed);
        break;
    case HAND_PACK:
        for (long i = 0; i < iters; i++)
            dl->hand_pack(packed);
        break;
    case HAND_UNPACK:
        for (long i = 0; i < iters; i++)
            dl->hand_unpack(packed);
        break;
    default:
        for (long i = 0; i < iters; i++)
            memcpy(other, packed, bytes);
    }
}

/* Calls of o that make a repetition last min_rep; finding them is also o's warm-up. */
static long calibrate(const op *o)
{
    long iters = 1;
    for (;;) {
        double t = now();
        run_op(o, iters);
        t = now() - t;
        if (t >= min_rep)
            return iters;
        iters *= t < min_rep / 16 ? 8 : 2;
    }
}

/* The repetitions of all operations take turns, in an order shuffled afresh for each round of
 * turns, so that neither a slow moment of the machine nor the cache state one operation leaves
 * falls on one of them only. (An order that only rotated kept each operation behind the same
 * one: each library's unpack behind its own pack, which leaves the caches differently in each.) */
static void measure(op *ops, int n)
{
    int order[MAXLIBS * 4 + 1];
    unsigned seed = 1;   /* the same orders in every run */
    for (int k = 0; k < n; k++)
        ops[k].iters = calibrate(&ops[k]);
    for (int r = 0; r < reps; r++) {
        for (int j = 0; j < n; j++)
            order[j] = j;
        for (int j = n - 1; j > 0; j--) {   /* Fisher-Yates */
            seed = seed * 1103515245u + 12345u;
            int k = (int) ((seed >> 16) % (unsigned) (j + 1)), t = order[j];
            order[j] = order[k], order[k] = t;
        }
        for (int j = 0; j < n; j++) {
            op *o = &ops[order[j]];
            double t = now();
            run_op(o, o->iters);
            o->per_call[r] = (now() - t) / o->iters;
        }
    }
}

/* Keeps the core busy for a moment, so that the first measurement does not find it idling at a
 * low clock. */
static void spin(double seconds)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t);
    while ((t.tv_sec - t0.tv_sec) + 1e-9 * (t.tv_nsec - t0.tv_nsec) < seconds);
}

static void run_pattern(int index, const char *name)
{
    printf("B\t-\t%d\t%s\n", index, name);
    size_t bytes = 0;
    for (int l = 0; l < nlibs; l++) {
        cursor = 0;
        libs[l].err = libs[l].dl->build(index, &libs[l].bytes);
        if (!libs[l].err && !bytes)
            bytes = libs[l].bytes;
        else if (!libs[l].err && libs[l].bytes != bytes)
            libs[l].err = "packed size differs from the other libraries'";
    }
    packed = bytes ? bench_pages((bytes + GUARD + 63) / 64 * 64) : NULL;
    other = bytes ? bench_pages((bytes + 63) / 64 * 64 + 64) : NULL;

    op ops[MAXLIBS * 4 + 1];
    int n = 0;
    for (int l = 0; l < nlibs; l++) {
        if (!libs[l].err && (!packed || !other))
            libs[l].err = "out of memory";
        if (!libs[l].err)
            libs[l].err = libs[l].dl->verify(packed, other, GUARD);
        if (libs[l].err) {
            printf("F\t%s\t%s\t%s\n", libs[l].name, name, libs[l].err);
            continue;
        }
        for (int k = PACK; k <= HAND_UNPACK; k++)
            ops[n++] = (op){.kind = k, .lib = l};
    }
    if (n) {
        ops[n] = (op){.kind = MEMCPY, .lib = ops[0].lib};
        n++;
        spin(quick ? 0.05 : 0.2);
        rc = 0;
        measure(ops, n);
        double gbs[MAXLIBS][KINDS];
        for (int k = 0; k < n; k++)
            gbs[ops[k].lib][ops[k].kind] = bytes / bench_median(ops[k].per_call, reps) / 1e9;
        for (int l = 0; l < nlibs; l++) {
            if (libs[l].err)
                continue;
            if (rc)
                printf("F\t%s\t%s\t%s\n", libs[l].name, name, "an MPI call failed while timing");
            else
                printf("P\t%s\t%s\t%zu\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\n", libs[l].name, name, bytes,
                       gbs[l][PACK], gbs[l][UNPACK], gbs[l][HAND_PACK], gbs[l][HAND_UNPACK],
                       gbs[ops[n - 1].lib][MEMCPY]);
        }
    }
    for (int l = 0; l < nlibs; l++)
        libs[l].dl->free_pattern();
    if (packed)
        bench_pages_free(packed);
    if (other)
        bench_pages_free(other);
    shared_free_all();
}

/* ---- create + commit of a type with about a million blocks ---- */

static void run_commits(int index)
{
    static const char *const names[DDTLIB_COMMIT_TESTS] = {"commit_indexed/1M", "commit_struct/1M"};
    for (int which = 0; which < DDTLIB_COMMIT_TESTS; which++) {
        if (!selected(names[which]))
            continue;
        printf("B\t-\t%d\t%s\n", index, names[which]);
        for (int l = 0; l < nlibs; l++) {
            int blocks;
            double cre, com, held;
            const char *err = libs[l].dl->commit(which, reps, &blocks, &cre, &com, &held);
            if (err)
                printf("F\t%s\t%s\t%s\n", libs[l].name, names[which], err);
            else
                printf("C\t%s\t%s\t%d\t%.2f\t%.2f\t%.1f\n", libs[l].name, names[which], blocks, cre, com, held);
        }
    }
}

static int same_patterns(const ddtlib *a, const ddtlib *b)
{
    if (a->npatterns() != b->npatterns())
        return 0;
    for (int i = 0; i < a->npatterns(); i++)
        if (strcmp(a->name(i), b->name(i)) != 0)
            return 0;
    return 1;
}

/* NAME=PLUGIN: loads it (see the header for the namespaces) and, unless only listing, starts
 * its MPI. */
static int load(char *spec, int list)
{
    char *path = strchr(spec, '=');
    if (nlibs == MAXLIBS || !path)
        return -1;
    *path++ = '\0';
    void *h = nlibs == 0 ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : dlmopen(LM_ID_NEWLM, path, RTLD_NOW | RTLD_LOCAL);
    const ddtlib *dl = h ? dlsym(h, "ddtlib_plugin") : NULL;
    if (!dl || dl->abi != DDTLIB_ABI) {
        fprintf(stderr, "ddtbench: %s: %s\n", path, h ? "not a ddtlib plugin of this version" : dlerror());
        return -1;
    }
    /* Patterns are run by index in every plugin: one built from another patterns.c (an old
     * plugin kept for comparison) would time another pattern under the same name. */
    if (nlibs > 0 && !same_patterns(libs[0].dl, dl)) {
        fprintf(stderr, "ddtbench: %s: its patterns differ from %s's (built from another patterns.c): "
                "rebuild both from one tree\n", path, libs[0].name);
        return -1;
    }
    libs[nlibs].name = spec;
    libs[nlibs].dl = dl;
    nlibs++;
    if (list)
        return 0;
    char version[512];
    if (dl->init(shared_alloc, shared_release, version, sizeof(version))) {
        fprintf(stderr, "ddtbench: %s: MPI_Init failed\n", spec);
        return -1;
    }
    printf("I\t%s\t%s\n", spec, version);
    return 0;
}

int main(int argc, char **argv)
{
    int from = 0, only = -1, list = 0, commits = 1;
    filters = calloc(argc, sizeof(char *));
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--from") && i + 1 < argc)
            from = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--list"))
            list = 1;
        else if (!strcmp(argv[i], "--no-commit"))
            commits = 0;
        else if (strchr(argv[i], '='))
            ;   /* loaded below, once --list is known */
        else
            filters[nfilters++] = argv[i];
    }
    for (int i = 1; i < argc; i++)   /* --list needs the first one only */
        if (strchr(argv[i], '=') && (!list || nlibs == 0) && load(argv[i], list))
            return 1;
    if (nlibs == 0) {
        fprintf(stderr, "usage: ddtbench [--quick] [--list | --only N | --from N] [--no-commit] NAME=PLUGIN... [FILTER...]\n");
        return 2;
    }
    if (quick) {
        reps = 3;
        min_rep = 0.005;
    }

    int npatterns = libs[0].dl->npatterns();
    for (int i = from; i <= npatterns; i++) {
        if (only >= 0 && i != only)
            continue;
        if (i == npatterns) {
            if (!commits || !(selected("commit_indexed/1M") || selected("commit_struct/1M")))
                continue;
            if (list)
                printf("%d\tcommit\n", i);
            else
                run_commits(i);
            continue;
        }
        const char *name = libs[0].dl->name(i);
        if (!selected(name) || (quick && libs[0].dl->large(i)))
            continue;
        if (list)
            printf("%d\t%s\n", i, name);
        else
            run_pattern(i, name);
    }
    if (!list)
        for (int l = nlibs - 1; l >= 0; l--)
            libs[l].dl->finalize();
    free(filters);
    return 0;
}
