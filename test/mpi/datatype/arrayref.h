/*
 * An independent reference for subarray and darray types: which elements of the global array a
 * type selects, found by brute force over every element, straight from the standard's definitions
 * (MPI 4.1, 5.1.3 and 5.1.4) rather than from any way of composing constructors.
 *
 *   subarray: element (x_0, ..., x_{n-1}) is selected iff starts[d] <= x_d < starts[d] + subsizes[d]
 *             for every d.
 *   darray:   the process at grid coordinates (c_0, ..., c_{n-1}) (rank numbered row-major, whatever
 *             the array order) owns element x iff, in every dimension d, x_d belongs to c_d:
 *               BLOCK(b):  x_d / b == c_d, b = darg, or ceil(gsize / psize) for DFLT_DARG;
 *               CYCLIC(b): (x_d / b) % psize == c_d, b = darg, or 1 for DFLT_DARG;
 *               NONE:      always (psize is 1).
 *
 * An element's linear index is its position in memory in units of the old type's extent: row-major
 * for MPI_ORDER_C (last index fastest), column-major for MPI_ORDER_FORTRAN. The reference lists the
 * selected elements by increasing linear index, which is also the type-map order of both types
 * (each dimension visits its selected indices in increasing order, the fastest one innermost), so
 * the list is exactly what MPI_Pack of one instance must produce, element by element.
 *
 * ref_check() compares a type with a reference list through the size and bounds queries; the
 * engine tests can reuse ref_subarray/ref_darray to check packed data.
 */
#ifndef ARRAYREF_H_INCLUDED
#define ARRAYREF_H_INCLUDED

#include <stdlib.h>
#include "bounds.h"

#define REF_MAXDIMS 8

/* Coordinates of the element with linear index lin. */
static inline void ref_coords(int ndims, const int *sizes, int order, long long lin, int *x)
{
    for (int k = 0; k < ndims; k++) {
        int d = order == MPI_ORDER_C ? ndims - 1 - k : k;   /* fastest varying first */
        x[d] = (int) (lin % sizes[d]);
        lin /= sizes[d];
    }
}

static inline long long ref_total(int ndims, const int *sizes)
{
    long long total = 1;
    for (int d = 0; d < ndims; d++)
        total *= sizes[d];
    return total;
}

/* Selected elements of a subarray: their number; their linear indices in out (if not NULL), in
 * increasing order. */
static inline long long ref_subarray(int ndims, const int *sizes, const int *subsizes,
                                     const int *starts, int order, long long *out)
{
    long long n = 0, total = ref_total(ndims, sizes);
    int x[REF_MAXDIMS];
    for (long long lin = 0; lin < total; lin++) {
        int in = 1;
        ref_coords(ndims, sizes, order, lin, x);
        for (int d = 0; d < ndims; d++)
            in = in && x[d] >= starts[d] && x[d] < starts[d] + subsizes[d];
        if (in) {
            if (out)
                out[n] = lin;
            n++;
        }
    }
    return n;
}

/* The grid coordinate of the process that owns index x of one dimension. */
static inline int ref_owner(int distrib, int darg, int gsize, int psize, int x)
{
    int b;
    switch (distrib) {
    case MPI_DISTRIBUTE_BLOCK:
        b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (gsize + psize - 1) / psize : darg;
        return x / b;
    case MPI_DISTRIBUTE_CYCLIC:
        b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
        return (x / b) % psize;
    default:
        return 0;
    }
}

/* Elements a darray selects for process rank: their number, and their linear indices in out (if
 * not NULL), in increasing order. */
static inline long long ref_darray(int size, int rank, int ndims, const int *gsizes,
                                   const int *distribs, const int *dargs, const int *psizes, int order,
                                   long long *out)
{
    int c[REF_MAXDIMS], x[REF_MAXDIMS];
    long long n = 0, total = ref_total(ndims, gsizes);
    (void) size;
    for (int d = ndims - 1, r = rank; d >= 0; d--) {     /* row-major grid */
        c[d] = r % psizes[d];
        r /= psizes[d];
    }
    for (long long lin = 0; lin < total; lin++) {
        int mine = 1;
        ref_coords(ndims, gsizes, order, lin, x);
        for (int d = 0; d < ndims; d++)
            mine = mine && ref_owner(distribs[d], dargs[d], gsizes[d], psizes[d], x[d]) == c[d];
        if (mine) {
            if (out)
                out[n] = lin;
            n++;
        }
    }
    return n;
}

/* Checks type (a subarray or darray of oldtype over a global array of total elements) against the
 * n selected linear indices idx[]: size n * size(old); lb 0 and extent total * extent(old); the true
 * bounds those of the first and last selected copies of old (extent(old) >= 0 assumed). */
static inline void ref_check(int line, const char *what, MPI_Datatype type, MPI_Datatype oldtype,
                             long long total, long long n, const long long *idx)
{
    MPI_Count osize, olb, oext, otlb, otext;
    MPI_Type_size_c(oldtype, &osize);
    MPI_Type_get_extent_c(oldtype, &olb, &oext);
    MPI_Type_get_true_extent_c(oldtype, &otlb, &otext);
    MPI_Count tlb = 0, textent = 0;
    if (n > 0 && osize > 0) {
        tlb = idx[0] * oext + otlb;
        textent = idx[n - 1] * oext + otlb + otext - tlb;
    }
    bounds_check(line, what, type, n * osize, 0, total * oext, tlb, textent);
}

/* Makes a type with make (which returns an MPI error code) and frees it, n times: the types the
 * library composes a subarray or darray from must go away with it, or a few hundred thousand
 * cycles would exhaust the 2^20 datatype handles. */
static inline void ref_no_leak(int n, int (*make)(MPI_Datatype *))
{
    for (int i = 0; i < n; i++) {
        MPI_Datatype t;
        int rc = make(&t);
        if (rc != MPI_SUCCESS) {
            CHECK_MPI(rc);
            break;
        }
        MPI_Type_free(&t);
    }
}

#endif
