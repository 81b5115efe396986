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

/* Every size/bounds query of type: the _c queries against the expected values, then the _x and
 * the classic queries against the _c answers (so one wrong value is reported once). The int
 * MPI_Type_size gives MPI_UNDEFINED when the size does not fit an int; MPI_Type_get_extent and
 * get_true_extent return MPI_Aint, which holds every value used here (LP64). */
static void bounds_check(int line, const char *what, MPI_Datatype type, MPI_Count size,
                         MPI_Count lb, MPI_Count extent, MPI_Count true_lb, MPI_Count true_extent)
{
    MPI_Count size_c = -1, lb_c = -1, extent_c = -1, tlb_c = -1, textent_c = -1;
    MPI_Count size_x = -1, lb_x = -1, extent_x = -1, tlb_x = -1, textent_x = -1;
    MPI_Aint lb_a = -1, extent_a = -1, tlb_a = -1, textent_a = -1;
    int size_i = -1;

    bounds_call(line, what, "MPI_Type_size_c", MPI_Type_size_c(type, &size_c));
    bounds_call(line, what, "MPI_Type_get_extent_c", MPI_Type_get_extent_c(type, &lb_c, &extent_c));
    bounds_call(line, what, "MPI_Type_get_true_extent_c",
                MPI_Type_get_true_extent_c(type, &tlb_c, &textent_c));
    bounds_expect(line, what, "size", size_c, size);
    bounds_expect(line, what, "lb", lb_c, lb);
    bounds_expect(line, what, "extent", extent_c, extent);
    bounds_expect(line, what, "true_lb", tlb_c, true_lb);
    bounds_expect(line, what, "true_extent", textent_c, true_extent);

    bounds_call(line, what, "MPI_Type_size_x", MPI_Type_size_x(type, &size_x));
    bounds_call(line, what, "MPI_Type_get_extent_x", MPI_Type_get_extent_x(type, &lb_x, &extent_x));
    bounds_call(line, what, "MPI_Type_get_true_extent_x",
                MPI_Type_get_true_extent_x(type, &tlb_x, &textent_x));
    bounds_expect(line, what, "MPI_Type_size_x vs _c", size_x, size_c);
    bounds_expect(line, what, "MPI_Type_get_extent_x lb vs _c", lb_x, lb_c);
    bounds_expect(line, what, "MPI_Type_get_extent_x extent vs _c", extent_x, extent_c);
    bounds_expect(line, what, "MPI_Type_get_true_extent_x lb vs _c", tlb_x, tlb_c);
    bounds_expect(line, what, "MPI_Type_get_true_extent_x extent vs _c", textent_x, textent_c);

    bounds_call(line, what, "MPI_Type_size", MPI_Type_size(type, &size_i));
    bounds_call(line, what, "MPI_Type_get_extent", MPI_Type_get_extent(type, &lb_a, &extent_a));
    bounds_call(line, what, "MPI_Type_get_true_extent",
                MPI_Type_get_true_extent(type, &tlb_a, &textent_a));
    bounds_expect(line, what, "MPI_Type_size (int) vs _c", size_i,
                  size_c > INT_MAX ? MPI_UNDEFINED : size_c);
    bounds_expect(line, what, "MPI_Type_get_extent lb vs _c", lb_a, lb_c);
    bounds_expect(line, what, "MPI_Type_get_extent extent vs _c", extent_a, extent_c);
    bounds_expect(line, what, "MPI_Type_get_true_extent lb vs _c", tlb_a, tlb_c);
    bounds_expect(line, what, "MPI_Type_get_true_extent extent vs _c", textent_a, textent_c);
}

/* CHECK_BOUNDS(type, size, lb, extent, true_lb, true_extent), reported at the caller's line. */
#define CHECK_BOUNDS(type, size, lb, extent, tlb, textent) \
    bounds_check(__LINE__, #type, (type), (size), (lb), (extent), (tlb), (textent))

/* An empty type map: no data and no markers, so every bound is 0. */
#define CHECK_EMPTY(type) CHECK_BOUNDS(type, 0, 0, 0, 0, 0)

/* MTest_Init, plus errors returned rather than fatal so that one failure does not hide the rest
 * (datatype calls report on MPI_COMM_SELF, the others on MPI_COMM_WORLD). */
static void bounds_init(int *argc, char ***argv)
{
    MTest_Init(argc, argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
}

#endif
