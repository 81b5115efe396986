/*
 * MPI_THREAD_MULTIPLE: several threads create, commit, query, decode and free thousands of
 * derived types at once. Their structs all reference the same two shared children, so the
 * children's reference counts are updated from every thread. Each thread also checks that its
 * freed handles are rejected with MPI_ERR_TYPE.
 *
 * Why a stale handle cannot come back to life here: freed pool slots are reused in FIFO order
 * and each reuse bumps the slot's generation (src/include/mpir_object.h). main first fills and
 * frees WARM_TYPES slots, so every slot is reused at most about
 * NTHREADS * ITERS * 4 / WARM_TYPES (~12) times during the test, far below the generation's wrap.
 */
#include "mtest.h"
#include <pthread.h>
#include <stdlib.h>

#define NTHREADS 6
#define ITERS 2000
#define WARM_TYPES 4096

static MPI_Datatype shared_vec;     /* vector(3, 2, 4, MPI_INT): size 24, extent 40 */
static MPI_Datatype shared_pair;    /* contiguous(2, MPI_DOUBLE): size 16, extent 16 */

typedef mtest_worker worker;

/* Thread-safe checks on top of mtest.h's MTEST_WORKER_FAIL: each thread counts its own errors. */
#define T_EQ(w, got, want) do { \
        long long g_ = (long long) (got), w_ = (long long) (want); \
        if (g_ != w_) MTEST_WORKER_FAIL(w, "%s = %lld, expected %lld", #got, g_, w_); \
    } while (0)
#define T_MPI(w, call) do { \
        int rc_ = (call); \
        if (rc_ != MPI_SUCCESS) { \
            char msg_[MPI_MAX_ERROR_STRING]; int len_ = 0; \
            MPI_Error_string(rc_, msg_, &len_); \
            MTEST_WORKER_FAIL(w, "%s failed: %s", #call, msg_); \
        } \
    } while (0)
#define T_ERR(w, call, errclass) do { \
        int rc_ = (call), cls_ = -1; \
        if (rc_ == MPI_SUCCESS) MTEST_WORKER_FAIL(w, "%s succeeded, expected %s", #call, #errclass); \
        else { \
            MPI_Error_class(rc_, &cls_); \
            if (cls_ != (errclass)) MTEST_WORKER_FAIL(w, "%s gave class %d, expected %s", #call, cls_, #errclass); \
        } \
    } while (0)

static void check_bounds(worker *w, MPI_Datatype type, int size, MPI_Aint extent)
{
    int got_size = -1;
    MPI_Aint lb = -1, got_extent = -1;
    T_MPI(w, MPI_Type_size(type, &got_size));
    T_MPI(w, MPI_Type_get_extent(type, &lb, &got_extent));
    T_EQ(w, got_size, size);
    T_EQ(w, lb, 0);
    T_EQ(w, got_extent, extent);
}

/* The children of a struct decode to types of the shared children's sizes; frees them. */
static void check_children(worker *w, MPI_Datatype type)
{
    int ints[3], ni, na, nd, combiner;
    MPI_Aint addrs[2];
    MPI_Datatype kids[2];

    T_MPI(w, MPI_Type_get_envelope(type, &ni, &na, &nd, &combiner));
    T_EQ(w, combiner, MPI_COMBINER_STRUCT);
    T_EQ(w, nd, 2);
    if (combiner != MPI_COMBINER_STRUCT || ni != 3 || na != 2 || nd != 2)
        return;
    T_MPI(w, MPI_Type_get_contents(type, 3, 2, 2, ints, addrs, kids));
    check_bounds(w, kids[0], 24, 40);
    check_bounds(w, kids[1], 16, 16);
    T_MPI(w, MPI_Type_free(&kids[0]));
    T_MPI(w, MPI_Type_free(&kids[1]));
}

static void *work(void *arg)
{
    worker *w = arg;

    for (int it = 0; it < ITERS; it++) {
        int n = 1 + (it + w->id) % 7;
        MPI_Datatype vec, rec, dup;

        /* vector(n, 2, 3, MPI_INT): n blocks of 2 ints, 3 ints apart */
        T_MPI(w, MPI_Type_vector(n, 2, 3, MPI_INT, &vec));
        /* { shared_vec at 0, n shared_pairs at 64 }: ub 64 + 16n, already 8-aligned */
        T_MPI(w, MPI_Type_create_struct(2, (int[]) {1, n}, (MPI_Aint[]) {0, 64},
                                        (MPI_Datatype[]) {shared_vec, shared_pair}, &rec));
        T_MPI(w, MPI_Type_dup(rec, &dup));
        T_MPI(w, MPI_Type_commit(&vec));
        T_MPI(w, MPI_Type_commit(&dup));

        check_bounds(w, vec, 8 * n, 4 * (3 * (n - 1) + 2));
        check_bounds(w, rec, 24 + 16 * n, 64 + 16 * n);
        check_bounds(w, dup, 24 + 16 * n, 64 + 16 * n);
        if (it % 8 == 0)
            check_children(w, rec);

        MPI_Datatype stale = rec;
        T_MPI(w, MPI_Type_free(&vec));
        T_MPI(w, MPI_Type_free(&rec));
        T_MPI(w, MPI_Type_free(&dup));
        T_EQ(w, rec, MPI_DATATYPE_NULL);

        if (it % 16 == 0) {     /* the freed handle is dead for every call */
            int size;
            T_ERR(w, MPI_Type_size(stale, &size), MPI_ERR_TYPE);
            T_ERR(w, MPI_Type_commit(&stale), MPI_ERR_TYPE);
            T_ERR(w, MPI_Type_free(&stale), MPI_ERR_TYPE);
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = -1;
    static MPI_Datatype warm[WARM_TYPES];
    pthread_t threads[NTHREADS];
    worker workers[NTHREADS];

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK_EQ(provided, MPI_THREAD_MULTIPLE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    for (int k = 0; k < WARM_TYPES; k++)
        CHECK_MPI(MPI_Type_contiguous(1, MPI_INT, &warm[k]));
    for (int k = 0; k < WARM_TYPES; k++)
        CHECK_MPI(MPI_Type_free(&warm[k]));

    CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &shared_vec));
    CHECK_MPI(MPI_Type_contiguous(2, MPI_DOUBLE, &shared_pair));

    for (int t = 0; t < NTHREADS; t++) {
        workers[t] = (worker) {.id = t, .errs = 0};
        if (pthread_create(&threads[t], NULL, work, &workers[t]) != 0) {
            MTEST_FAIL("pthread_create failed");
            return MTest_Finalize();
        }
    }
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(threads[t], NULL);
        mtest_errs += workers[t].errs;
    }

    /* The shared children outlived thousands of references taken and dropped concurrently. */
    int size = -1;
    CHECK_MPI(MPI_Type_size(shared_vec, &size));
    CHECK_EQ(size, 24);
    CHECK_MPI(MPI_Type_free(&shared_vec));
    CHECK_MPI(MPI_Type_free(&shared_pair));
    return MTest_Finalize();
}
