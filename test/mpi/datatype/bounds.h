/*
 * Shared by the bounds_*.c tests: one call checks every query of a datatype's size and bounds
 * against values computed by hand.
 *
 * The expected values follow the type-map definitions of the MPI 4.1 standard (section 5.1):
 *   lb = min displacement of the data, or of the lower-bound markers when there are any;
 *   ub = max(displacement + size) of the data (+ alignment padding for structs), or max of the
 *        upper-bound markers when there are any;
 *   extent = ub - lb; the true bounds are those of the data alone (0, 0 when there is none).
 * A derived type places copies of its children; a copy at byte offset o spans [o + lb, o + ub) of
 * the child (the child's own padding travels with it) and its data [o + true_lb, o + true_ub).
 */
#ifndef BOUNDS_H_INCLUDED
#define BOUNDS_H_INCLUDED

#include <limits.h>
#include "mtest.h"

/* Records one mismatch at the caller's line. */
static void bounds_mismatch(int line, const char *what, const char *query, long long got,
                            long long want)
{
    mtest_errs++;
    fprintf(stderr, "line %d: %s: %s = %lld, expected %lld\n", line, what, query, got, want);
}

static void bounds_expect(int line, const char *what, const char *query, long long got,
                          long long want)
{
    if (got != want)
        bounds_mismatch(line, what, query, got, want);
}

static void bounds_call(int line, const char *what, const char *query, int rc)
{
    if (rc != MPI_SUCCESS) {
        char msg[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, msg, &len);
        mtest_errs++;
        fprintf(stderr, "line %d: %s: %s failed: %s\n", line, what, query, msg);
    }
}

/* The five answers, in the order of bounds_check's arguments. */
enum { BOUNDS_SIZE, BOUNDS_LB, BOUNDS_EXTENT, BOUNDS_TRUE_LB, BOUNDS_TRUE_EXTENT, BOUNDS_N };
static const char *const bounds_names[BOUNDS_N] = { "size", "lb", "extent", "true_lb", "true_extent" };

/* Compares the answers of one family of queries (named in the messages) with the wanted ones. */
static void bounds_expect_all(int line, const char *what, const char *family, const MPI_Count got[BOUNDS_N],
                              const MPI_Count want[BOUNDS_N])
{
    char query[64];
    for (int i = 0; i < BOUNDS_N; i++) {
        snprintf(query, sizeof query, "%s%s", bounds_names[i], family);
        bounds_expect(line, what, query, got[i], want[i]);
    }
}

/* Every size/bounds query of type: the _c queries against the expected values, then the _x and
 * the classic queries against the _c answers (so one wrong value is reported once). The int
 * MPI_Type_size gives MPI_UNDEFINED when the size does not fit an int; MPI_Type_get_extent and
 * get_true_extent return MPI_Aint, which holds every value used here (LP64). */
static void bounds_check(int line, const char *what, MPI_Datatype type, MPI_Count size,
                         MPI_Count lb, MPI_Count extent, MPI_Count true_lb, MPI_Count true_extent)
{
    const MPI_Count want[BOUNDS_N] = { size, lb, extent, true_lb, true_extent };
    MPI_Count c[BOUNDS_N] = { -1, -1, -1, -1, -1 }, x[BOUNDS_N] = { -1, -1, -1, -1, -1 };
    MPI_Aint lb_a = -1, extent_a = -1, tlb_a = -1, textent_a = -1;
    int size_i = -1;

    bounds_call(line, what, "MPI_Type_size_c", MPI_Type_size_c(type, &c[BOUNDS_SIZE]));
    bounds_call(line, what, "MPI_Type_get_extent_c", MPI_Type_get_extent_c(type, &c[BOUNDS_LB], &c[BOUNDS_EXTENT]));
    bounds_call(line, what, "MPI_Type_get_true_extent_c",
                MPI_Type_get_true_extent_c(type, &c[BOUNDS_TRUE_LB], &c[BOUNDS_TRUE_EXTENT]));
    bounds_expect_all(line, what, "", c, want);

    bounds_call(line, what, "MPI_Type_size_x", MPI_Type_size_x(type, &x[BOUNDS_SIZE]));
    bounds_call(line, what, "MPI_Type_get_extent_x", MPI_Type_get_extent_x(type, &x[BOUNDS_LB], &x[BOUNDS_EXTENT]));
    bounds_call(line, what, "MPI_Type_get_true_extent_x",
                MPI_Type_get_true_extent_x(type, &x[BOUNDS_TRUE_LB], &x[BOUNDS_TRUE_EXTENT]));
    bounds_expect_all(line, what, " by the _x queries vs _c", x, c);

    bounds_call(line, what, "MPI_Type_size", MPI_Type_size(type, &size_i));
    bounds_call(line, what, "MPI_Type_get_extent", MPI_Type_get_extent(type, &lb_a, &extent_a));
    bounds_call(line, what, "MPI_Type_get_true_extent", MPI_Type_get_true_extent(type, &tlb_a, &textent_a));
    const MPI_Count classic[BOUNDS_N] = { size_i, lb_a, extent_a, tlb_a, textent_a };
    MPI_Count c_int[BOUNDS_N] = { c[BOUNDS_SIZE] > INT_MAX ? MPI_UNDEFINED : c[BOUNDS_SIZE], c[BOUNDS_LB],
                                  c[BOUNDS_EXTENT], c[BOUNDS_TRUE_LB], c[BOUNDS_TRUE_EXTENT] };
    bounds_expect_all(line, what, " by the classic queries (int size) vs _c", classic, c_int);
}

/* CHECK_BOUNDS(type, size, lb, extent, true_lb, true_extent), reported at the caller's line. */
#define CHECK_BOUNDS(type, size, lb, extent, tlb, textent) \
    bounds_check(__LINE__, #type, (type), (size), (lb), (extent), (tlb), (textent))

/* CHECK_NEW_BOUNDS(t, MPI_Type_vector(3, 2, 4, MPI_INT, &t), size, lb, extent, true_lb,
 * true_extent): makes t with the call, checks it as CHECK_BOUNDS does (the messages name the call)
 * and frees it. */
#define CHECK_NEW_BOUNDS(t, call, size, lb, extent, tlb, textent) do { \
        CHECK_MPI(call); \
        bounds_check(__LINE__, #call, (t), (size), (lb), (extent), (tlb), (textent)); \
        MPI_Type_free(&(t)); \
    } while (0)

/* An empty type map: no data and no markers, so every bound is 0. */
#define CHECK_EMPTY(type) CHECK_BOUNDS(type, 0, 0, 0, 0, 0)
#define CHECK_NEW_EMPTY(t, call) CHECK_NEW_BOUNDS(t, call, 0, 0, 0, 0, 0)

/* MTest_Init, plus errors returned rather than fatal so that one failure does not hide the rest
 * (datatype calls report on MPI_COMM_SELF, the others on MPI_COMM_WORLD). */
static void bounds_init(int *argc, char ***argv)
{
    MTest_Init(argc, argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
}

#endif
