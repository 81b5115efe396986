/*
 * MPI_Dims_create (MPI 4.1, 8.5.2): the free (zero) entries of dims get the lexicographically
 * smallest nonincreasing factorization of nnodes / (product of the fixed entries), i.e. the
 * largest free dimension as small as possible, then the next, and so on; fixed entries and
 * entries past ndims are left alone. Checked against a brute-force search for nnodes 1..210,
 * ndims 0..4 and fixed entries 1..3 in every position, plus a few known answers and the errors
 * (ndims < 0, a negative entry, nnodes not a multiple of the fixed product: MPI_ERR_DIMS).
 * Run with 1 process.
 */
#include "mtest.h"

#define MAXD 4
#define GUARD (-77)

/* The best factorization found so far of the brute-force search, nonincreasing. */
static int best[MAXD], cur[MAXD], have_best;

/* Tries every nonincreasing choice cur[pos..k-1] with product m and cur[pos] <= maxf, keeping
 * the lexicographically smallest complete one. */
static void search(int pos, int k, int m, int maxf)
{
    if (pos == k) {
        if (m != 1)
            return;
        int smaller = !have_best;
        for (int i = 0; i < k && !smaller; i++) {
            if (cur[i] != best[i]) {
                smaller = cur[i] < best[i];
                break;
            }
        }
        if (smaller) {
            memcpy(best, cur, sizeof best);
            have_best = 1;
        }
        return;
    }
    for (int f = 1; f <= maxf && f <= m; f++) {
        if (m % f)
            continue;
        cur[pos] = f;
        search(pos + 1, k, m / f, f);
    }
}

/* Runs MPI_Dims_create(nnodes, ndims, in) and checks it against the model. */
static void check_case(int nnodes, int ndims, const int *in)
{
    int dims[MAXD + 2];
    for (int i = 0; i < MAXD + 2; i++)
        dims[i] = i < ndims ? in[i] : GUARD;
    int fixed = 1, nfree = 0;
    for (int i = 0; i < ndims; i++) {
        if (in[i] > 0)
            fixed *= in[i];
        else
            nfree++;
    }
    int rc = MPI_Dims_create(nnodes, ndims, dims);
    char what[128];
    int len = snprintf(what, sizeof what, "MPI_Dims_create(%d, %d, {", nnodes, ndims);
    for (int i = 0; i < ndims; i++)
        len += snprintf(what + len, sizeof what - len, "%s%d", i ? "," : "", in[i]);
    snprintf(what + len, sizeof what - len, "})");

    if (nnodes % fixed != 0) {
        int cls = -1;
        if (rc != MPI_SUCCESS)
            MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_DIMS, "%s: rc %d class %d, expected MPI_ERR_DIMS", what, rc, cls);
        return;
    }
    /* with no free entry the quotient has to be 1 (the others are not checked here) */
    if (nfree == 0 && nnodes != fixed)
        return;
    CHECK(rc == MPI_SUCCESS, "%s failed (rc %d)", what, rc);
    if (rc != MPI_SUCCESS)
        return;

    have_best = 0;
    search(0, nfree, nnodes / fixed, nnodes / fixed);
    int want[MAXD], j = 0;
    for (int i = 0; i < ndims; i++)
        want[i] = in[i] > 0 ? in[i] : best[j++];
    int ok = 1;
    for (int i = 0; i < ndims; i++)
        ok &= dims[i] == want[i];
    for (int i = ndims; i < MAXD + 2; i++)
        ok &= dims[i] == GUARD;
    if (!ok) {
        char got[64] = "", exp[64] = "";
        int gl = 0, el = 0;
        for (int i = 0; i < ndims; i++) {
            gl += snprintf(got + gl, sizeof got - gl, "%s%d", i ? "," : "", dims[i]);
            el += snprintf(exp + el, sizeof exp - el, "%s%d", i ? "," : "", want[i]);
        }
        MTEST_FAIL("%s gave {%s}, expected {%s} (or wrote past ndims)", what, got, exp);
    }
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    /* errors of calls without a communicator are raised on MPI_COMM_SELF */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    /* known answers */
    static const struct { int nnodes, ndims, want[MAXD]; } known[] = {
        {6, 2, {3, 2}}, {12, 2, {4, 3}}, {16, 3, {4, 2, 2}}, {7, 3, {7, 1, 1}},
        {36, 2, {6, 6}}, {24, 3, {4, 3, 2}}, {1, 3, {1, 1, 1}}, {8, 1, {8}},
        {64, 4, {4, 4, 2, 2}}, {30, 4, {5, 3, 2, 1}},
    };
    for (size_t t = 0; t < sizeof known / sizeof known[0]; t++) {
        int dims[MAXD] = {0, 0, 0, 0};
        CHECK_MPI(MPI_Dims_create(known[t].nnodes, known[t].ndims, dims));
        for (int i = 0; i < known[t].ndims; i++)
            CHECK(dims[i] == known[t].want[i], "Dims_create(%d, %d): dims[%d] = %d, expected %d",
                  known[t].nnodes, known[t].ndims, i, dims[i], known[t].want[i]);
    }
    /* fixed entries stay where they are; the free ones are nonincreasing among themselves */
    {
        int dims[3] = {0, 2, 0};
        CHECK_MPI(MPI_Dims_create(12, 3, dims));
        CHECK(dims[0] == 3 && dims[1] == 2 && dims[2] == 2, "{0,2,0} for 12 gave {%d,%d,%d}",
              dims[0], dims[1], dims[2]);
        int d2[3] = {0, 0, 5};
        CHECK_MPI(MPI_Dims_create(60, 3, d2));
        CHECK(d2[0] == 4 && d2[1] == 3 && d2[2] == 5, "{0,0,5} for 60 gave {%d,%d,%d}",
              d2[0], d2[1], d2[2]);
    }

    /* ndims = 0 succeeds and writes nothing */
    {
        int dims[2] = {GUARD, GUARD};
        CHECK_MPI(MPI_Dims_create(1, 0, dims));
        CHECK(dims[0] == GUARD && dims[1] == GUARD, "ndims 0 wrote dims");
    }

    /* brute force: every fixed pattern with entries in 0..3 (0 = free) */
    for (int ndims = 1; ndims <= MAXD; ndims++) {
        int npat = 1;
        for (int i = 0; i < ndims; i++)
            npat *= 4;
        for (int nnodes = 1; nnodes <= 210; nnodes++) {
            for (int p = 0; p < npat; p++) {
                int in[MAXD], q = p;
                for (int i = 0; i < ndims; i++, q /= 4)
                    in[i] = q % 4;
                check_case(nnodes, ndims, in);
            }
        }
    }

    /* errors */
    int dims[MAXD] = {0, 0, 0, 0};
    CHECK_ERR(MPI_Dims_create(4, -1, dims), MPI_ERR_DIMS);
    int neg[2] = {-2, 0};
    CHECK_ERR(MPI_Dims_create(4, 2, neg), MPI_ERR_DIMS);
    int neg2[3] = {0, 0, -1};
    CHECK_ERR(MPI_Dims_create(6, 3, neg2), MPI_ERR_DIMS);
    int nd[2] = {4, 0};
    CHECK_ERR(MPI_Dims_create(6, 2, nd), MPI_ERR_DIMS);
    int nd2[3] = {0, 5, 0};
    CHECK_ERR(MPI_Dims_create(12, 3, nd2), MPI_ERR_DIMS);

    /* a million free dimensions: 2^30 takes 30 of them, the rest are 1 (quickly, and without a
     * temporary the size of the array) */
    int big = 1000000, *many = calloc((size_t) big, sizeof(int));
    CHECK_MPI(MPI_Dims_create(1 << 30, big, many));
    for (int i = 0; i < big; i++)
        if (many[i] != (i < 30 ? 2 : 1)) {
            MTEST_FAIL("1M dims: dims[%d] = %d", i, many[i]);
            break;
        }
    free(many);

    return MTest_Finalize();
}
