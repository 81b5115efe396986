/* ddtlib.c: the MPI side of the pack benchmark for the library it is compiled with (interface in
 * ddtlib.h): builds the patterns of patterns.c, checks MPI_Pack and MPI_Unpack against the hand
 * loops, and offers the operations the driver times.
 */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime */

#include "ddtlib.h"
#include "patterns.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <malloc.h>

static pattern pat = {.type = MPI_DATATYPE_NULL};

static int init(void *(*alloc)(size_t), void (*release)(void *), char *version, int len)
{
    int argc = 0, n;
    char **argv = NULL, v[MPI_MAX_LIBRARY_VERSION_STRING];
    bench_set_allocator(alloc, release);
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
        return -1;
    /* A failing call fails one pattern, not the run. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Get_library_version(v, &n);
    v[strcspn(v, "\n")] = '\0';
    for (char *c = v; *c; c++)
        if (*c == '\t')
            *c = ' ';
    snprintf(version, len, "%s", v);
    return 0;
}

static void finalize(void) { MPI_Finalize(); }
static int npatterns(void) { return pattern_nspecs; }
static const char *name(int i) { return pattern_specs[i].name; }
static int large(int i) { return pattern_specs[i].large; }

static const char *build(int i, size_t *bytes)
{
    memset(&pat, 0, sizeof(pat));
    pat.type = MPI_DATATYPE_NULL;
    snprintf(pat.name, sizeof(pat.name), "%s", pattern_specs[i].name);
    bench_srand(0x9e3779b97f4a7c15ULL + i);   /* the same index lists and data in every library */
    if (pattern_specs[i].build(&pat, pattern_specs[i].args))
        return "building the type failed";
    *bytes = pat.bytes;
    return NULL;
}

static void clear_regions(void)
{
    for (int r = 0; r < pat.nreg; r++)
        memset(pat.reg[r].p, 0, pat.reg[r].len);
}

/* The check before timing: MPI_Pack gives exactly the hand loop's bytes (into ref) and writes
 * nothing in the guard bytes after them; MPI_Unpack into cleared arrays leaves exactly what the
 * hand unpack loop leaves. */
static const char *verify(char *packed, char *ref, size_t guard)
{
    const pattern *p = &pat;
    memset(packed, 0xa5, p->bytes + guard);
    memset(ref, 0x5a, p->bytes);
    p->hand_pack(p, ref);
    int pos = 0;
    if (MPI_Pack(p->origin, p->count, p->type, packed, (int)p->bytes, &pos, MPI_COMM_WORLD))
        return "MPI_Pack failed";
    if ((size_t)pos != p->bytes)
        return "MPI_Pack: wrong position";
    if (memcmp(packed, ref, p->bytes))
        return "MPI_Pack: bytes differ from the hand loop";
    for (size_t i = 0; i < guard; i++)
        if ((unsigned char)packed[p->bytes + i] != 0xa5)
            return "MPI_Pack wrote past the packed size";

    size_t total = 0;
    for (int r = 0; r < p->nreg; r++)
        total += p->reg[r].len;
    char *snap = malloc(total), *s = snap;
    if (!snap)
        return "out of memory";
    clear_regions();
    pos = 0;
    const char *err = NULL;
    if (MPI_Unpack(ref, (int)p->bytes, &pos, p->origin, p->count, p->type, MPI_COMM_WORLD))
        err = "MPI_Unpack failed";
    else if ((size_t)pos != p->bytes)
        err = "MPI_Unpack: wrong position";
    for (int r = 0; r < p->nreg; s += p->reg[r].len, r++)
        memcpy(s, p->reg[r].p, p->reg[r].len);
    clear_regions();
    p->hand_unpack(p, ref);
    s = snap;
    for (int r = 0; r < p->nreg && !err; s += p->reg[r].len, r++)
        if (memcmp(s, p->reg[r].p, p->reg[r].len))
            err = "MPI_Unpack: memory differs from the hand loop's";
    free(snap);
    return err;
}

static int pack(char *packed)
{
    int pos = 0;
    return MPI_Pack(pat.origin, pat.count, pat.type, packed, (int)pat.bytes, &pos, MPI_COMM_WORLD);
}

static int unpack(const char *packed)
{
    int pos = 0;
    return MPI_Unpack(packed, (int)pat.bytes, &pos, pat.origin, pat.count, pat.type, MPI_COMM_WORLD);
}

static void hand_pack(char *packed) { pat.hand_pack(&pat, packed); }
static void hand_unpack(const char *packed) { pat.hand_unpack(&pat, packed); }
static void free_pattern(void) { pattern_free(&pat); }

/* ---- create + commit of a type with about a million blocks ---- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Bytes malloc has handed out and not taken back, in this plugin's namespace (each has its own C
 * library): what a type holds after its constructor's temporaries are freed. Resident memory
 * counted the type's pages only where they were fresh, not where they reused a freed temporary's
 * (a struct of 2^20 entries held 40 bytes per entry and showed 20 or 28, as its temporaries fell). */
static long heap_bytes(void)
{
    struct mallinfo2 m = mallinfo2();
    return (long) (m.uordblks + m.hblkhd);
}

#define NBLOCKS (1 << 20)
#define MAXREP 15

/* Indexed: random lengths of 1-8 doubles with random gaps, so no two blocks merge. Struct: an
 * array of the padded {double; int; char[3]} spelled out entry by entry. */
static const char *commit(int which, int reps, int *blocks, double *create_ns, double *commit_ns,
                          double *held)
{
    int n = which == 0 ? NBLOCKS : NBLOCKS / 3 * 3;
    int *blens = malloc(sizeof(int) * n), *idispls = malloc(sizeof(int) * n);
    MPI_Aint *displs = malloc(sizeof(MPI_Aint) * n);
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * n);
    const char *err = NULL;
    double tc[MAXREP], tm[MAXREP];
    long bytes = 0;
    if (!blens || !idispls || !displs || !types || reps > MAXREP) {
        err = "out of memory";
        reps = 0;
    }
    bench_srand(12345);
    for (int i = 0, d = 0; i < n && reps; i++) {
        static const int len[3] = {1, 1, 3}, off[3] = {0, 8, 12};
        if (which == 0) {
            blens[i] = 1 + bench_rand() % 8;
            idispls[i] = d;
            d += blens[i] + 1 + bench_rand() % 8;
        } else {
            blens[i] = len[i % 3];
            displs[i] = 16 * (MPI_Aint)(i / 3) + off[i % 3];
            types[i] = i % 3 == 0 ? MPI_DOUBLE : i % 3 == 1 ? MPI_INT : MPI_CHAR;
        }
    }
    for (int r = 0; r < reps && !err; r++) {
        MPI_Datatype t;
        long before = heap_bytes();
        double t0 = now();
        if (which == 0 ? MPI_Type_indexed(n, blens, idispls, MPI_DOUBLE, &t)
                       : MPI_Type_create_struct(n, blens, displs, types, &t)) {
            err = "create failed";
            break;
        }
        double t1 = now();
        if (MPI_Type_commit(&t)) {
            err = "commit failed";
            break;
        }
        double t2 = now();
        if (r == 0)
            bytes = heap_bytes() - before;
        tc[r] = t1 - t0;
        tm[r] = t2 - t1;
        MPI_Type_free(&t);
    }
    if (!err) {
        *blocks = n;
        *create_ns = bench_median(tc, reps) * 1e9 / n;
        *commit_ns = bench_median(tm, reps) * 1e9 / n;
        *held = (double)bytes / n;
    }
    free(blens);
    free(idispls);
    free(displs);
    free(types);
    return err;
}

const ddtlib ddtlib_plugin = {DDTLIB_ABI, init, finalize, npatterns, name, large, build, verify, pack,
                               unpack, hand_pack, hand_unpack, free_pattern, commit};
