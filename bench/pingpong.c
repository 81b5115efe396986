/* pingpong: two-rank ping-pong of the patterns in patterns.c (send type = receive type = the
 * pattern's type), plus a 0-byte latency and a contiguous 1 MiB MPI_BYTE transfer for reference.
 *
 * The same source is built against each MPI library and run as `mpiexec -n 2` (pingpong.sh does
 * that and compares); one run measures the library it is linked with.
 *
 *   pingpong [--lib NAME] [--quick] [--from N] [FILTER...]
 *     --lib NAME   label for the output lines (default: from MPI_Get_library_version)
 *     --quick      9 repetitions instead of 31, and no pattern larger than the caches
 *     --from N     start at case N (pingpong.sh resumes after a case that crashed or hung)
 *     FILTER       run only the cases whose name contains one of these strings
 *
 * Output of rank 0, one tab-separated line per event:
 *   I lib version                       the library
 *   B lib index name                    a case begins
 *   R lib name bytes seconds            median time of one round trip (there and back)
 *   F lib name reason                   the case failed (on either rank): not timed
 *
 * Each case is checked once before timing: rank 0 fills the arrays with random bytes and sends;
 * rank 1 receives into cleared arrays and must get exactly what the hand unpack loop leaves for
 * the same random bytes (so nothing outside the type is written), and the count in the status
 * must be the count sent; then the same the other way. A broken transfer cannot look fast.
 * Timing: the round trip is repeated until a repetition lasts min_rep seconds (2 ms), then for
 * 20 ms more (the warm-up); then `reps` (31) repetitions of that many round trips are timed with
 * MPI_Wtime on rank 0, fewer (down to 5) when they pass 0.5 s; the result is their median.
 */
#define _POSIX_C_SOURCE 200809L

#include "patterns.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXREP 63
#define TAG_DATA 1
#define TAG_CTRL 2

static const char *lib = NULL;
static int rank;
static int quick;
static int nfilters;
static char **filters;
/* Many short repetitions: on a shared machine a time slice lost to another process spoils a few
 * of them, and the median passes over those. */
static int reps = 31;
static int min_reps = 5;                /* ... or fewer, down to this, when they last over budget */
static double budget = 0.5;             /* seconds */
static double min_rep = 0.002;          /* seconds */

static int selected(const char *name)
{
    return bench_selected(name, filters, nfilters);
}

/* ---- the two reference cases: contiguous MPI_BYTE of 0 bytes and of 1 MiB ---- */

static void bytes_pack(const pattern *p, char *out)
{
    memcpy(out, p->origin, p->bytes);
}

static void bytes_unpack(const pattern *p, const char *in)
{
    memcpy(p->origin, in, p->bytes);
}

static int build_bytes(pattern *p, const long *args)
{
    p->bytes = (size_t)args[0];
    p->count = (int)args[0];
    p->type = MPI_BYTE;         /* predefined: pattern_free must not free it */
    p->nreg = 1;
    p->reg[0].len = p->bytes;
    p->reg[0].p = malloc(p->bytes + 1);
    p->origin = p->reg[0].p;
    p->hand_pack = bytes_pack;
    p->hand_unpack = bytes_unpack;
    return p->reg[0].p == NULL;
}

static const pattern_spec ref_specs[] = {
    {"latency/0B", build_bytes, {0}, 0},
    {"contig/1MiB", build_bytes, {1 << 20}, 0},
};
#define NREF 2

static const pattern_spec *spec_of(int i)
{
    return i < NREF ? &ref_specs[i] : &pattern_specs[i - NREF];
}

/* ---- helpers ---- */

/* Both ranks' verdicts: 1 when both are fine. */
static int agree(int ok)
{
    int other = 0;
    if (MPI_Sendrecv(&ok, 1, MPI_INT, 1 - rank, TAG_CTRL, &other, 1, MPI_INT, 1 - rank, TAG_CTRL,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE))
        return 0;
    return ok && other;
}

static void fill_random(const pattern *p, unsigned long long seed)
{
    bench_srand(seed);
    for (int r = 0; r < p->nreg; r++)
        for (size_t i = 0; i < p->reg[r].len; i += 8) {
            unsigned long long x = bench_rand();
            memcpy(p->reg[r].p + i, &x, p->reg[r].len - i < 8 ? p->reg[r].len - i : 8);
        }
}

static void clear_regions(const pattern *p)
{
    for (int r = 0; r < p->nreg; r++)
        memset(p->reg[r].p, 0, p->reg[r].len);
}

static size_t total_len(const pattern *p)
{
    size_t total = 0;
    for (int r = 0; r < p->nreg; r++)
        total += p->reg[r].len;
    return total;
}

/* What a correct receive leaves in cleared arrays when the sender's arrays hold the random bytes
 * of `seed`: the hand loops' answer, copied region after region into want. */
static void expected(const pattern *p, unsigned long long seed, char *packed, char *want)
{
    fill_random(p, seed);
    p->hand_pack(p, packed);
    clear_regions(p);
    p->hand_unpack(p, packed);
    for (int r = 0; r < p->nreg; want += p->reg[r].len, r++)
        memcpy(want, p->reg[r].p, p->reg[r].len);
}

static const char *receive_and_check(const pattern *p, const char *want)
{
    MPI_Status st;
    int n = -1;
    clear_regions(p);
    if (MPI_Recv(p->origin, p->count, p->type, 1 - rank, TAG_DATA, MPI_COMM_WORLD, &st))
        return "MPI_Recv failed";
    if (MPI_Get_count(&st, p->type, &n) || n != p->count)
        return "MPI_Get_count is not the count sent";
    for (int r = 0; r < p->nreg; want += p->reg[r].len, r++)
        if (memcmp(want, p->reg[r].p, p->reg[r].len))
            return "received memory differs from the hand loops' (or lies outside the type)";
    return NULL;
}

/* The check before timing: 0 -> 1, then 1 -> 0, each receiver comparing with `expected`. */
static const char *verify(const pattern *p, char *packed, char *want, unsigned long long seed)
{
    const char *err = NULL;
    if (rank == 0) {
        fill_random(p, seed);
        if (MPI_Send(p->origin, p->count, p->type, 1, TAG_DATA, MPI_COMM_WORLD))
            return "MPI_Send failed";
        expected(p, seed, packed, want);
        err = receive_and_check(p, want);
    } else {
        expected(p, seed, packed, want);
        err = receive_and_check(p, want);
        /* Send back what arrived (a failed receive still sends, so rank 0 does not hang). */
        if (MPI_Send(p->origin, p->count, p->type, 0, TAG_DATA, MPI_COMM_WORLD) && !err)
            err = "MPI_Send failed";
    }
    return err;
}

/* n round trips; rank 0 pings, rank 1 pongs. */
static int round_trips(const pattern *p, long n)
{
    int rc = 0;
    for (long i = 0; i < n && !rc; i++) {
        if (rank == 0) {
            rc = MPI_Send(p->origin, p->count, p->type, 1, TAG_DATA, MPI_COMM_WORLD);
            rc = rc ? rc : MPI_Recv(p->origin, p->count, p->type, 1, TAG_DATA, MPI_COMM_WORLD,
                                    MPI_STATUS_IGNORE);
        } else {
            rc = MPI_Recv(p->origin, p->count, p->type, 0, TAG_DATA, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE);
            rc = rc ? rc : MPI_Send(p->origin, p->count, p->type, 0, TAG_DATA, MPI_COMM_WORLD);
        }
    }
    return rc;
}

/* Rank 0 tells rank 1 how many round trips come next (0: the case is over) and times them. */
static double timed_batch(const pattern *p, long n, int *rc)
{
    if (MPI_Send(&n, 1, MPI_LONG, 1, TAG_CTRL, MPI_COMM_WORLD)) {
        *rc = 1;
        return 0;
    }
    double t0 = MPI_Wtime();
    *rc = round_trips(p, n);
    return MPI_Wtime() - t0;
}

/* Median seconds per round trip on rank 0; rank 1 serves the batches. -1 when a call failed. */
static double measure(const pattern *p)
{
    int rc = 0;
    if (rank == 1) {
        long n;
        while (!MPI_Recv(&n, 1, MPI_LONG, 0, TAG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE) && n > 0)
            if (round_trips(p, n))
                return -1;
        return 0;
    }
    /* Warm-up: double the round trips until a batch lasts min_rep. */
    long n = 1;
    double t;
    while ((t = timed_batch(p, n, &rc)) < min_rep && !rc)
        n = t < min_rep / 64 ? n * 8 : n * 2;
    /* The rest of the warm-up: 20 ms or one repetition. */
    for (double w = 0; w < 0.02 && !rc; w += timed_batch(p, n, &rc))
        ;
    double v[MAXREP], spent = 0;
    int r;
    for (r = 0; r < reps && !rc && (r < min_reps || spent < budget); r++)
        spent += (v[r] = timed_batch(p, n, &rc));
    for (int i = 0; i < r; i++)
        v[i] /= n;
    long stop = 0;
    MPI_Send(&stop, 1, MPI_LONG, 1, TAG_CTRL, MPI_COMM_WORLD);
    return rc ? -1 : bench_median(v, r);
}

static void run_case(int index)
{
    const pattern_spec *spec = spec_of(index);
    pattern p;
    memset(&p, 0, sizeof(p));
    p.type = MPI_DATATYPE_NULL;
    snprintf(p.name, sizeof(p.name), "%s", spec->name);
    if (rank == 0)
        printf("B\t%s\t%d\t%s\n", lib, index, p.name);

    /* The same seed as ddtbench, so the index lists are the same as in its run. */
    bench_srand(0x9e3779b97f4a7c15ULL + (index - NREF));
    char *packed = NULL, *want = NULL;
    const char *err = NULL;
    if (spec->build(&p, spec->args))
        err = "building the type failed";
    else if (!(packed = malloc(p.bytes + 1)) || !(want = malloc(total_len(&p) + 1)))
        err = "out of memory";
    if (!agree(err == NULL)) {
        if (!err)
            err = "failed on the other rank";
    } else {
        err = verify(&p, packed, want, 0xda7a5eedULL + index);
    }
    free(packed);
    free(want);
    if (!agree(err == NULL)) {
        if (err)
            printf("F\t%s\t%s\trank %d: %s\n", lib, p.name, rank, err);
    } else {
        double t = measure(&p);
        if (t < 0)
            printf("F\t%s\t%s\trank %d: an MPI call failed while timing\n", lib, p.name, rank);
        else if (rank == 0)
            printf("R\t%s\t%s\t%zu\t%.9g\n", lib, p.name, p.bytes, t);
    }
    if (index < NREF) {         /* MPI_BYTE is predefined */
        free(p.reg[0].p);
    } else {
        pattern_free(&p);
    }
}

int main(int argc, char **argv)
{
    int from = 0, size;
    filters = calloc(argc, sizeof(char *));
    MPI_Init(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--lib") && i + 1 < argc)
            lib = argv[++i];
        else if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--from") && i + 1 < argc)
            from = atoi(argv[++i]);
        else
            filters[nfilters++] = argv[i];
    }
    if (quick) {
        reps = 9;
        min_reps = 3;
        budget = 0.1;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "pingpong: run it with exactly 2 ranks (mpiexec -n 2)\n");
        MPI_Finalize();
        return 1;
    }
    /* A failing call fails one case, not the run. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(version, &len);
    version[strcspn(version, "\n\t")] = '\0';
    if (!lib)
        lib = strstr(version, "Open MPI") ? "openmpi" : strstr(version, "MPICH") ? "mpich" : "loom";
    if (rank == 0)
        printf("I\t%s\t%s\n", lib, version);

    for (int i = from; i < NREF + pattern_nspecs; i++) {
        const pattern_spec *spec = spec_of(i);
        if (selected(spec->name) && !(quick && spec->large))
            run_case(i);
    }
    free(filters);
    MPI_Finalize();
    return 0;
}
