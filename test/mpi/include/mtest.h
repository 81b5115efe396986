/*
 * Tiny helpers shared by the test programs. Each test counts failed checks and ends with
 * MTest_Finalize, which prints " No Errors" (the line the runner looks for) or the error count.
 */
#ifndef MTEST_H_INCLUDED
#define MTEST_H_INCLUDED

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int mtest_errs = 0;

#define MTEST_FAIL(...) do { \
        mtest_errs++; \
        fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); \
        fprintf(stderr, __VA_ARGS__); \
        fputc('\n', stderr); \
    } while (0)

/* CHECK(cond, printf-args...): a failed condition is reported with its location and message. */
#define CHECK(cond, ...) do { \
        if (!(cond)) { \
            mtest_errs++; \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__); \
            fputc('\n', stderr); \
        } \
    } while (0)
#define CHECK_EQ(got, want) do { \
        long long g_ = (long long) (got), w_ = (long long) (want); \
        if (g_ != w_) MTEST_FAIL("%s = %lld, expected %lld", #got, g_, w_); \
    } while (0)
/* An MPI call that must succeed. */
#define CHECK_MPI(call) do { \
        int rc_ = (call); \
        if (rc_ != MPI_SUCCESS) { \
            char msg_[MPI_MAX_ERROR_STRING]; int len_ = 0; \
            MPI_Error_string(rc_, msg_, &len_); \
            MTEST_FAIL("%s failed: %s", #call, msg_); \
        } \
    } while (0)
/* An MPI call that must fail with the given error class (needs MPI_ERRORS_RETURN). */
#define CHECK_ERR(call, errclass) do { \
        int rc_ = (call), cls_ = -1; \
        if (rc_ == MPI_SUCCESS) MTEST_FAIL("%s succeeded, expected %s", #call, #errclass); \
        else { \
            MPI_Error_class(rc_, &cls_); \
            if (cls_ != (errclass)) MTEST_FAIL("%s gave class %d, expected %s (%d)", #call, cls_, #errclass, (errclass)); \
        } \
    } while (0)

/* Checks in threads of their own: each worker counts its failures (the first ten printed, with
 * its id) and main adds them to the total after the join. */
typedef struct {
    int id;
    int errs;
} mtest_worker;
#define MTEST_WORKER_FAIL(w, ...) do { \
        if ((w)->errs++ < 10) { \
            fprintf(stderr, "thread %d, %s:%d: ", (w)->id, __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__); \
            fputc('\n', stderr); \
        } \
    } while (0)

/* Whether all n bytes at p still hold guard (the bytes a call must not have written). */
static inline int mtest_untouched(const void *p, size_t n, unsigned char guard)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != guard)
            return 0;
    return 1;
}

/* The committed type of a C struct of n fields, one types[i] each at disps[i] (offsetof), resized to
 * the struct's size so that arrays of it line up, padding included. */
static inline MPI_Datatype mtest_struct_type(int n, const MPI_Aint *disps, const MPI_Datatype *types,
                                             MPI_Aint size)
{
    int *lens = malloc((size_t) (n > 0 ? n : 1) * sizeof(int));
    MPI_Datatype t, r;
    if (!lens) {
        MTEST_FAIL("out of memory");
        return MPI_DATATYPE_NULL;
    }
    for (int i = 0; i < n; i++)
        lens[i] = 1;
    MPI_Type_create_struct(n, lens, disps, types, &t);
    MPI_Type_create_resized(t, 0, size, &r);
    MPI_Type_free(&t);
    MPI_Type_commit(&r);
    free(lens);
    return r;
}

/* A split of comm (a communicator with a process topology) has none: MPI_Topo_test says so. */
static inline void mtest_check_split_has_no_topology(MPI_Comm comm)
{
    int rank, status = -1;
    MPI_Comm split;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_split(comm, 0, rank, &split);
    MPI_Topo_test(split, &status);
    if (status != MPI_UNDEFINED)
        MTEST_FAIL("MPI_Topo_test of a split gave %d, not MPI_UNDEFINED", status);
    MPI_Comm_free(&split);
}

static inline void MTest_Init(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
}

/* Sums the failed checks of every rank, prints the verdict on rank 0 and finalizes; returns the
 * exit status for main (non-zero on every rank when any rank failed). */
static inline int MTest_Finalize(void)
{
    int rank = 0, total = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* every rank's failures count: rank 0 speaks for the whole job */
    if (MPI_Allreduce(&mtest_errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS)
        total = mtest_errs + 1;
    if (rank == 0) {
        if (total == 0) printf(" No Errors\n");
        else printf(" Found %d errors\n", total);
    }
    fflush(stdout);
    MPI_Finalize();
    return total != 0;
}

#endif
