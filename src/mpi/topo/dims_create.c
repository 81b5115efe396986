/*
 * MPI_Dims_create: fills the zero entries of dims with a balanced grid for nnodes processes.
 *
 * "As close to each other as possible" is taken as the lexicographically smallest nonincreasing
 * factorization: the largest free dimension as small as it can be, then the next, and so on
 * (16 in 3 gives 4 2 2, 24 in 3 gives 4 3 2). It is found by trying the divisors in ascending
 * order for each dimension, largest first, which is fast: an int has at most 1344 divisors.
 */
#include "topo.h"

/* The divisors of m, ascending; returns their count (room for 1536). */
static int divisors_of(int m, int *divs)
{
    int n = 0, high[768], nhigh = 0;
    for (int d = 1; (long long) d * d <= m; d++)
        if (m % d == 0) {
            divs[n++] = d;
            if (d != m / d)
                high[nhigh++] = m / d;
        }
    while (nhigh > 0)
        divs[n++] = high[--nhigh];
    return n;
}

/* Whether d^k >= m. */
static bool power_reaches(long long d, int k, long long m)
{
    long long p = 1;
    for (int i = 0; i < k && p < m; i++)
        p *= d;
    return p >= m;
}

/* The lexicographically smallest nonincreasing factorization of m into k factors no larger than
 * cap, into out[0..k); false if there is none. divs: the divisors of the original m (those of m
 * are among them). */
static bool balanced(int m, int k, int cap, const int *divs, int ndivs, int *out)
{
    if (k == 0)
        return m == 1;
    if (k == 1) {
        out[0] = m;
        return m <= cap;
    }
    for (int i = 0; i < ndivs && divs[i] <= cap && divs[i] <= m; i++) {
        int d = divs[i];
        /* the largest of k factors is at least the k-th root of m */
        if (m % d == 0 && power_reaches(d, k, m) && balanced(m / d, k - 1, d, divs, ndivs, out + 1)) {
            out[0] = d;
            return true;
        }
    }
    return false;
}

int MPIR_Dims_create_impl(int nnodes, int ndims, int dims[])
{
    if (ndims < 0)
        return MPIR_Err(MPI_ERR_DIMS, "invalid ndims %d, must be non-negative", ndims);
    if (nnodes < 1)
        return MPIR_Err(MPI_ERR_ARG, "invalid nnodes %d, must be positive", nnodes);
    if (ndims == 0)
        return MPI_SUCCESS;     /* nothing to fill (as MPICH) */
    long long fixed = 1;
    int nfree = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0)
            return MPIR_Err(MPI_ERR_DIMS, "dims[%d] = %d, must be non-negative", i, dims[i]);
        if (dims[i] == 0)
            nfree++;
        else if ((fixed *= dims[i]) > nnodes)
            break;      /* cannot divide nnodes; also keeps the product from overflowing */
    }
    if (fixed > nnodes || nnodes % fixed != 0)
        return MPIR_Err(MPI_ERR_DIMS, "nnodes %d is not a multiple of the product of the given dims", nnodes);
    int m = (int) (nnodes / fixed);
    if (nfree == 0) {
        if (m != 1)
            return MPIR_Err(MPI_ERR_DIMS, "the given dims hold %lld processes, not nnodes %d", fixed, nnodes);
        return MPI_SUCCESS;
    }
    /* an int has at most 30 prime factors: beyond 31 free dimensions the rest are 1 */
    int divs[1536], factors[32], k = nfree < 32 ? nfree : 32;
    int ndivs = divisors_of(m, divs);
    balanced(m, k, m, divs, ndivs, factors);    /* always found: m, 1, 1, ... is one */
    for (int i = 0, f = 0; i < ndims; i++)
        if (dims[i] == 0) {
            dims[i] = f < k ? factors[f] : 1;
            f++;
        }
    return MPI_SUCCESS;
}
