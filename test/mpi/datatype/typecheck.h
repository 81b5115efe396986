/*
 * The reporting shared by the tests that check many random types (randtype.h) against the model
 * (reftype.h): a failing type is introduced once, before its first failure, by the seed that
 * rebuilds it and its description, and after TC_MAX_REPORTED failing types the run stops. Also
 * the loop over the seeds that the environment chooses:
 *   REFTYPE_ITERS   number of random types (each test has its default)
 *   REFTYPE_SEED    the first seed (default 1); type i uses seed REFTYPE_SEED + i, so a reported
 *                   seed reruns alone with REFTYPE_SEED=<seed> REFTYPE_ITERS=1
 *   REFTYPE_VERBOSE 1 prints every type before it is checked
 * Header-only, like mtest.h (include it after mtest.h, randtype.h and reftype.h).
 */
#ifndef TYPECHECK_H_INCLUDED
#define TYPECHECK_H_INCLUDED

#define TC_MAX_REPORTED 20   /* failing types printed in full */

/* The size of the random types: small, so that the model stays fast. */
static const rt_limits tc_limits = { 6, 4096, 32768 };

static struct {
    int failed_types;
    int type_failed;            /* the current type already has its header printed */
    int verbose;
    unsigned long long seed;
    MPI_Datatype type;
    char desc[4096];
} tc;

/* The checks that follow are about type, built from seed. */
static inline void tc_begin(MPI_Datatype type, unsigned long long seed)
{
    tc.type = type;
    tc.seed = seed;
    tc.type_failed = 0;
    if (tc.verbose && type != MPI_DATATYPE_NULL)
        fprintf(stderr, "seed %llu: %s\n", seed, ref_describe(type, tc.desc, sizeof tc.desc));
}

static inline void tc_fail_header(void)
{
    if (!tc.type_failed) {
        tc.type_failed = 1;
        tc.failed_types++;
        fprintf(stderr, "seed %llu: %s\n", tc.seed, ref_describe(tc.type, tc.desc, sizeof tc.desc));
    }
}

#define TFAIL(...) do { \
        tc_fail_header(); \
        MTEST_FAIL(__VA_ARGS__); \
    } while (0)

/* Whether an MPI call succeeded; if not, a failure of the current type with the error string. */
static inline int tc_mpi_ok(int rc, const char *call)
{
    if (rc == MPI_SUCCESS)
        return 1;
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    TFAIL("%s failed: %s", call, msg);
    return 0;
}

/* Calls check on each seed the environment chooses, until TC_MAX_REPORTED types have failed.
 * Returns the number of seeds asked for. */
static inline long long tc_each_seed(long long default_iters, void (*check)(unsigned long long seed))
{
    tc.verbose = (int) rt_env("REFTYPE_VERBOSE", 0);
    long long iters = rt_env("REFTYPE_ITERS", default_iters);
    unsigned long long first = (unsigned long long) rt_env("REFTYPE_SEED", 1);
    for (long long i = 0; i < iters && tc.failed_types < TC_MAX_REPORTED; i++)
        check(first + (unsigned long long) i);
    return iters;
}

/* The same with the random type each seed makes (uncommitted; check commits and frees it). */
static void (*tc_type_check)(MPI_Datatype type, unsigned long long seed);
static inline void tc_check_random_type(unsigned long long seed)
{
    rt_rng r;
    rt_seed(&r, seed);
    tc_type_check(rt_random_type(&r, &tc_limits), seed);
}
static inline long long tc_each_random_type(long long default_iters,
                                            void (*check)(MPI_Datatype type, unsigned long long seed))
{
    tc_type_check = check;
    return tc_each_seed(default_iters, tc_check_random_type);
}

/* Says so if the run stopped early (call last). */
static inline void tc_end(void)
{
    if (tc.failed_types >= TC_MAX_REPORTED)
        fprintf(stderr, "stopped after %d failing types\n", tc.failed_types);
}

#endif
