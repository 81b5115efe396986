/* The benchmark's patterns: for each, an MPI datatype, the memory it covers, and hand-written
 * pack/unpack loops for the same layout.
 *
 * A pattern is built by its spec's build function (patterns.c) and owns everything it points to;
 * pattern_free() releases it. The driver (ddtbench.c) never looks inside the layout: it packs
 * `count` items of `type` from `origin`, compares the bytes with hand_pack's, and times both. The regions are the arrays
 * the type reaches into; the driver clears them to check that MPI_Unpack and hand_unpack write
 * the same bytes and nothing else.
 */
#ifndef BENCH_PATTERNS_H
#define BENCH_PATTERNS_H

#include <mpi.h>
#include <stddef.h>

#include "util.h"

#define PAT_MAXREG 12

typedef struct pattern pattern;

struct pattern {
    char name[64];
    MPI_Datatype type;          /* committed */
    int count;                  /* count argument of MPI_Pack/MPI_Unpack */
    void *origin;               /* inbuf of MPI_Pack, outbuf of MPI_Unpack */
    size_t bytes;               /* packed size of count items */
    int nreg;
    struct { char *p; size_t len; } reg[PAT_MAXREG];
    void (*hand_pack)(const pattern *p, char *out);
    void (*hand_unpack)(const pattern *p, const char *in);
    long n[8];                  /* shape parameters, read by the hand loops */
    int *idx[2];                /* index lists or block lengths, read by the hand loops */
};

typedef struct {
    const char *name;           /* the row label in the table: "family/size" */
    int (*build)(pattern *p, const long *args);     /* 0 on success */
    long args[6];
    int large;                  /* far beyond the last-level cache: --quick skips it */
} pattern_spec;

extern const pattern_spec pattern_specs[];
extern const int pattern_nspecs;

void pattern_free(pattern *p);


/* Buffers from bench_pages (util.h), or from the allocator given to bench_set_allocator. */
void *bench_alloc(size_t len);
void bench_free(void *p);
void bench_set_allocator(void *(*alloc)(size_t), void (*release)(void *));

/* Deterministic random numbers, so every library sees the same index lists and block lengths. */
void bench_srand(unsigned long long seed);
unsigned long long bench_rand(void);

#endif
