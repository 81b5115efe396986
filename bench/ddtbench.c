/* ddtbench: MPI_Pack/MPI_Unpack throughput of the patterns in patterns.c, next to a hand-written
 * loop for the same layout and memcpy of the same bytes; and the time and memory it takes to
 * create and commit a type of about a million blocks.
 *
 * The same source is built against each MPI library (run.sh does that and compares); one run
 * measures the library it is linked with.
 *
 *   ddtbench [--lib NAME] [--quick] [--list | --only N | --from N] [--no-commit] [FILTER...]
 *     --lib NAME   label for the output lines (default: from MPI_Get_library_version)
 *     --quick      fewer and shorter repetitions, and no pattern that is larger than the caches
 *     --list       print the index and name of each selected pattern instead of running them
 *                  (the create/commit measurements are index pattern_nspecs)
 *     --only N     run only pattern N (run.sh runs each pattern of each library in turn)
 *     --from N     start at pattern N
 *     --no-commit  skip the create/commit measurements
 *     FILTER       run only the patterns whose name contains one of these strings
 *
 * Output, one tab-separated line per event (GB/s = 1e9 bytes per second of packed data):
 *   I lib version                       the library
 *   B lib index name                    a pattern begins
 *   P lib name bytes pack unpack hand_pack hand_unpack memcpy     (GB/s)
 *   F lib name reason                   the pattern failed: not timed
 *   C lib name blocks create_ns commit_ns rss_bytes              (per block)
 *
 * Each time is the median of several repetitions after a warm-up; a repetition repeats the
 * operation until it lasts a few milliseconds of this thread's CPU time. Before timing, every
 * pattern is checked once: MPI_Pack must produce exactly the hand loop's bytes without writing
 * past them, and MPI_Unpack must write exactly what the hand loop writes, so a broken pack
 * cannot look fast.
 */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime, sysconf */

#include "patterns.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXREP 15
#define GUARD 64

static const char *lib = NULL;
static int quick;
static int nfilters;
static char **filters;                 /* substrings of the pattern names to run */
static int reps = 7;
static double min_rep = 0.02;          /* seconds */

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

/* ---- throughput ---- */

typedef struct {
    const pattern *p;
    char *packed;       /* packed data: MPI_Pack's output, MPI_Unpack's input */
    char *other;        /* memcpy's destination */
    int rc;             /* MPI errors seen while timing */
} bench_ctx;

static void op_pack(bench_ctx *c)
{
    const pattern *p = c->p;
    int pos = 0;
    c->rc |= MPI_Pack(p->origin, p->count, p->type, c->packed, (int)p->bytes, &pos, MPI_COMM_WORLD);
}

static void op_unpack(bench_ctx *c)
{
    const pattern *p = c->p;
    int pos = 0;
    c->rc |= MPI_Unpack(c->packed, (int)p->bytes, &pos, p->origin, p->count, p->type, MPI_COMM_WORLD);
}

static void op_hand_pack(bench_ctx *c) { c->p->hand_pack(c->p, c->packed); }
static void op_hand_unpack(bench_ctx *c) { c->p->hand_unpack(c->p, c->packed); }
static void op_memcpy(bench_ctx *c) { memcpy(c->other, c->packed, c->p->bytes); }

#define NOPS 5
static void (*const ops[NOPS])(bench_ctx *) = {op_pack, op_unpack, op_hand_pack, op_hand_unpack, op_memcpy};

/* Calls of op that make a repetition last min_rep; finding them is also op's warm-up. */
static long calibrate(void (*op)(bench_ctx *), bench_ctx *c)
{
    long iters = 1;
    for (;;) {
        double t = now();
        for (long i = 0; i < iters; i++)
            op(c);
        t = now() - t;
        if (t >= min_rep)
            return iters;
        iters *= t < min_rep / 16 ? 8 : 2;
    }
}

/* GB/s of each operation: the median of its repetitions. The repetitions of the operations take
 * turns, so a slow moment of the machine does not fall on one of them only. */
static void measure(bench_ctx *c, double gbs[NOPS])
{
    long iters[NOPS];
    double per_call[NOPS][MAXREP];
    for (int k = 0; k < NOPS; k++)
        iters[k] = calibrate(ops[k], c);
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < NOPS; k++) {
            double t = now();
            for (long i = 0; i < iters[k]; i++)
                ops[k](c);
            per_call[k][r] = (now() - t) / iters[k];
        }
    for (int k = 0; k < NOPS; k++)
        gbs[k] = c->p->bytes / bench_median(per_call[k], reps) / 1e9;
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

static void clear_regions(const pattern *p)
{
    for (int r = 0; r < p->nreg; r++)
        memset(p->reg[r].p, 0, p->reg[r].len);
}

/* The check before timing; NULL when MPI_Pack and MPI_Unpack agree with the hand loops.
 * ref receives the hand-packed bytes. */
static const char *verify(const pattern *p, char *packed, char *ref)
{
    memset(packed, 0xa5, p->bytes + GUARD);
    memset(ref, 0x5a, p->bytes);
    p->hand_pack(p, ref);
    int pos = 0;
    if (MPI_Pack(p->origin, p->count, p->type, packed, (int)p->bytes, &pos, MPI_COMM_WORLD))
        return "MPI_Pack failed";
    if ((size_t)pos != p->bytes)
        return "MPI_Pack: wrong position";
    if (memcmp(packed, ref, p->bytes))
        return "MPI_Pack: bytes differ from the hand loop";
    for (int i = 0; i < GUARD; i++)
        if ((unsigned char)packed[p->bytes + i] != 0xa5)
            return "MPI_Pack wrote past the packed size";

    /* Unpack into cleared arrays, once with MPI and once by hand, and compare everything. */
    size_t total = 0;
    for (int r = 0; r < p->nreg; r++)
        total += p->reg[r].len;
    char *snap = malloc(total), *s = snap;
    if (!snap)
        return "out of memory";
    clear_regions(p);
    pos = 0;
    const char *err = NULL;
    if (MPI_Unpack(ref, (int)p->bytes, &pos, p->origin, p->count, p->type, MPI_COMM_WORLD))
        err = "MPI_Unpack failed";
    else if ((size_t)pos != p->bytes)
        err = "MPI_Unpack: wrong position";
    for (int r = 0; r < p->nreg; s += p->reg[r].len, r++)
        memcpy(s, p->reg[r].p, p->reg[r].len);
    clear_regions(p);
    p->hand_unpack(p, ref);
    s = snap;
    for (int r = 0; r < p->nreg && !err; s += p->reg[r].len, r++)
        if (memcmp(s, p->reg[r].p, p->reg[r].len))
            err = "MPI_Unpack: memory differs from the hand loop's";
    free(snap);
    return err;
}

static void run_pattern(int index)
{
    const pattern_spec *spec = &pattern_specs[index];
    pattern p;
    memset(&p, 0, sizeof(p));
    p.type = MPI_DATATYPE_NULL;
    snprintf(p.name, sizeof(p.name), "%s", spec->name);
    printf("B\t%s\t%d\t%s\n", lib, index, p.name);

    bench_srand(0x9e3779b97f4a7c15ULL + index);
    char *packed = NULL, *ref = NULL;
    const char *err = NULL;
    if (spec->build(&p, spec->args))
        err = "building the type failed";
    else if (!(packed = bench_alloc((p.bytes + GUARD + 63) / 64 * 64)) ||
             !(ref = bench_alloc((p.bytes + 63) / 64 * 64 + 64)))
        err = "out of memory";
    else
        err = verify(&p, packed, ref);

    if (err) {
        printf("F\t%s\t%s\t%s\n", lib, p.name, err);
    } else {
        bench_ctx c = {&p, packed, ref, 0};
        double g[NOPS];
        spin(quick ? 0.05 : 0.2);
        measure(&c, g);
        if (c.rc)
            printf("F\t%s\t%s\t%s\n", lib, p.name, "an MPI call failed while timing");
        else
            printf("P\t%s\t%s\t%zu\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\n", lib, p.name, p.bytes,
                   g[0], g[1], g[2], g[3], g[4]);
    }
    bench_free(packed);
    bench_free(ref);
    pattern_free(&p);
}

/* ---- create + commit of a type with about a million blocks ---- */

static long rss_bytes(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return resident * sysconf(_SC_PAGESIZE);
}

#define NBLOCKS (1 << 20)

typedef struct {
    int *blens, *idispls;
    MPI_Aint *displs;
    MPI_Datatype *types;
} big_args;

static int create_indexed(const big_args *a, int n, MPI_Datatype *t)
{
    return MPI_Type_indexed(n, a->blens, a->idispls, MPI_DOUBLE, t);
}

static int create_struct(const big_args *a, int n, MPI_Datatype *t)
{
    return MPI_Type_create_struct(n, a->blens, a->displs, a->types, t);
}

static void run_commit(const char *name, int (*create)(const big_args *, int, MPI_Datatype *),
                       const big_args *a, int n)
{
    double tc[MAXREP], tm[MAXREP];
    long rss = 0;
    if (!selected(name))
        return;
    printf("B\t%s\t%d\t%s\n", lib, pattern_nspecs, name);
    for (int r = 0; r < reps; r++) {
        MPI_Datatype t;
        long before = rss_bytes();
        double t0 = now();
        if (create(a, n, &t)) {
            printf("F\t%s\t%s\t%s\n", lib, name, "create failed");
            return;
        }
        double t1 = now();
        if (MPI_Type_commit(&t)) {
            printf("F\t%s\t%s\t%s\n", lib, name, "commit failed");
            return;
        }
        double t2 = now();
        /* The first repetition's growth: later ones may reuse memory the first one freed. */
        if (r == 0)
            rss = rss_bytes() - before;
        tc[r] = t1 - t0;
        tm[r] = t2 - t1;
        MPI_Type_free(&t);
    }
    printf("C\t%s\t%s\t%d\t%.2f\t%.2f\t%.1f\n", lib, name, n, bench_median(tc, reps) * 1e9 / n,
           bench_median(tm, reps) * 1e9 / n, (double)rss / n);
}

static void run_commits(void)
{
    big_args a;
    a.blens = malloc(sizeof(int) * NBLOCKS);
    a.idispls = malloc(sizeof(int) * NBLOCKS);
    a.displs = malloc(sizeof(MPI_Aint) * NBLOCKS);
    a.types = malloc(sizeof(MPI_Datatype) * NBLOCKS);
    if (!a.blens || !a.idispls || !a.displs || !a.types) {
        printf("F\t%s\tcommit\tout of memory\n", lib);
        return;
    }
    /* Indexed: random lengths 1..8 doubles with random gaps, so no two blocks merge. */
    bench_srand(12345);
    int d = 0;
    for (int i = 0; i < NBLOCKS; i++) {
        a.blens[i] = 1 + bench_rand() % 8;
        a.idispls[i] = d;
        d += a.blens[i] + 1 + bench_rand() % 8;
    }
    run_commit("commit_indexed/1M", create_indexed, &a, NBLOCKS);

    /* Struct: an array of the padded {double; int; char[3]} spelled out entry by entry. */
    int n = NBLOCKS / 3 * 3;
    for (int i = 0; i < n; i++) {
        static const int len[3] = {1, 1, 3}, off[3] = {0, 8, 12};
        a.blens[i] = len[i % 3];
        a.displs[i] = 16 * (MPI_Aint)(i / 3) + off[i % 3];
        a.types[i] = i % 3 == 0 ? MPI_DOUBLE : i % 3 == 1 ? MPI_INT : MPI_CHAR;
    }
    run_commit("commit_struct/1M", create_struct, &a, n);
    free(a.blens);
    free(a.idispls);
    free(a.displs);
    free(a.types);
}

int main(int argc, char **argv)
{
    int from = 0, only = -1, list = 0, commits = 1;
    filters = calloc(argc, sizeof(char *));
    MPI_Init(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--lib") && i + 1 < argc)
            lib = argv[++i];
        else if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--from") && i + 1 < argc)
            from = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--list"))
            list = 1;
        else if (!strcmp(argv[i], "--no-commit"))
            commits = 0;
        else
            filters[nfilters++] = argv[i];
    }
    if (quick) {
        reps = 3;
        min_rep = 0.005;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* A failing call fails one pattern, not the run. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(version, &len);
    version[strcspn(version, "\n\t")] = '\0';
    if (!lib)
        lib = strstr(version, "Open MPI") ? "openmpi" : strstr(version, "MPICH") ? "mpich" : "loom";
    if (!list)
        printf("I\t%s\t%s\n", lib, version);

    for (int i = from; i <= pattern_nspecs; i++) {
        if (only >= 0 && i != only)
            continue;
        if (i == pattern_nspecs) {
            if (!commits || !(selected("commit_indexed/1M") || selected("commit_struct/1M")))
                continue;
            if (list)
                printf("%d\tcommit\n", i);
            else
                run_commits();
        } else if (selected(pattern_specs[i].name) && !(quick && pattern_specs[i].large)) {
            if (list)
                printf("%d\t%s\n", i, pattern_specs[i].name);
            else
                run_pattern(i);
        }
    }
    free(filters);
    MPI_Finalize();
    return 0;
}
