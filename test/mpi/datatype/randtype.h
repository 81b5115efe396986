/*
 * Random datatypes for the engine tests: a seeded generator that nests every constructor
 * (contiguous, vector, hvector, indexed, hindexed, indexed_block, hindexed_block, struct, MPI-1
 * struct with sticky MPI_LB/MPI_UB markers, subarray and darray in both orders, resized, dup, and
 * the large-count _c forms), with negative strides and displacements, negative lower bounds,
 * overlapping copies, zero counts, struct entries sharing a child, and every child freed right
 * after its parent is made. Sizes and spans are kept small (limits below) so that the reference
 * model stays fast.
 *
 * Every type comes from one 64-bit seed: a failure reports the seed and rerunning with it
 * rebuilds the same type.
 */
#ifndef RANDTYPE_H_INCLUDED
#define RANDTYPE_H_INCLUDED

#include <stdint.h>
#include <mpi.h>

typedef struct {
    uint64_t s;
} rt_rng;

void rt_seed(rt_rng *r, uint64_t seed);
uint64_t rt_next(rt_rng *r);
/* A uniform integer in [lo, hi] (lo <= hi). */
long long rt_range(rt_rng *r, long long lo, long long hi);
/* True with the given probability in percent. */
int rt_chance(rt_rng *r, int percent);

typedef struct {
    int max_depth;          /* constructor nesting levels, e.g. 6 */
    MPI_Count max_size;     /* packed bytes of one instance, e.g. 4096 */
    MPI_Aint max_span;      /* |lb|, |ub|, |true_lb|, |true_ub| of any level, e.g. 32768 */
} rt_limits;

/* A new uncommitted datatype drawn from r (the caller commits and frees it). */
MPI_Datatype rt_random_type(rt_rng *r, const rt_limits *lim);

/* An environment variable as a number, or def when unset. */
long long rt_env(const char *name, long long def);

#endif
