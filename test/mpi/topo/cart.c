/*
 * Cartesian topologies (MPI 4.1, 8.5.1, 8.5.5-8.5.8): MPI_Cart_create on grids of 0 to 3
 * dimensions, periodic or not, as large as MPI_COMM_WORLD or smaller (the extra processes get
 * MPI_COMM_NULL), with reorder 0 (ranks kept) and 1 (expectations from the new rank). On each:
 * MPI_Topo_test, MPI_Cartdim_get, MPI_Cart_get, MPI_Cart_coords and MPI_Cart_rank for every rank
 * against row-major order (coordinates wrap in periodic dimensions), MPI_Cart_shift in every
 * direction for displacements -2..2, a shift exchange with MPI_Sendrecv, MPI_Cart_sub for every
 * remain_dims pattern (members and order), MPI_Comm_dup keeping the topology, MPI_Comm_split
 * dropping it, and MPI_Cart_map. Run with 1, 4 and 6 processes.
 */
#include "mtest.h"

#define MAXD 3
#define GUARD (-99)

static int wrank, wsize;

/* Row-major coordinates of rank r (the last dimension varies fastest). */
static void model_coords(int ndims, const int *dims, int r, int *c)
{
    for (int i = ndims - 1; i >= 0; i--) {
        c[i] = r % dims[i];
        r /= dims[i];
    }
}

static int model_rank(int ndims, const int *dims, const int *c)
{
    int r = 0;
    for (int i = 0; i < ndims; i++)
        r = r * dims[i] + c[i];
    return r;
}

static int product(int ndims, const int *dims)
{
    int p = 1;
    for (int i = 0; i < ndims; i++)
        p *= dims[i];
    return p;
}

/* Wraps x into [0, d). */
static int wrap(int x, int d)
{
    return ((x % d) + d) % d;
}

/* The queries and a shift exchange on a cartesian communicator of the given shape. */
static void check_cart(MPI_Comm cart, int ndims, const int *dims, const int *periods)
{
    int rank, size, status, nd;
    CHECK_MPI(MPI_Comm_rank(cart, &rank));
    CHECK_MPI(MPI_Comm_size(cart, &size));
    CHECK_EQ(size, product(ndims, dims));
    CHECK_MPI(MPI_Topo_test(cart, &status));
    CHECK_EQ(status, MPI_CART);
    CHECK_MPI(MPI_Cartdim_get(cart, &nd));
    CHECK_EQ(nd, ndims);

    int me[MAXD + 1], gdims[MAXD + 1], gper[MAXD + 1], gco[MAXD + 1];
    model_coords(ndims, dims, rank, me);
    for (int i = 0; i <= MAXD; i++)
        gdims[i] = gper[i] = gco[i] = GUARD;
    CHECK_MPI(MPI_Cart_get(cart, ndims, gdims, gper, gco));
    for (int i = 0; i < ndims; i++) {
        CHECK_EQ(gdims[i], dims[i]);
        CHECK_EQ(!!gper[i], !!periods[i]);
        CHECK_EQ(gco[i], me[i]);
    }
    CHECK(gdims[ndims] == GUARD && gper[ndims] == GUARD && gco[ndims] == GUARD,
          "MPI_Cart_get wrote past maxdims %d", ndims);

    /* coordinates of every rank */
    for (int r = 0; r < size; r++) {
        int want[MAXD + 1], got[MAXD + 1];
        model_coords(ndims, dims, r, want);
        for (int i = 0; i <= MAXD; i++)
            got[i] = GUARD;
        CHECK_MPI(MPI_Cart_coords(cart, r, ndims, got));
        for (int i = 0; i < ndims; i++)
            CHECK(got[i] == want[i], "Cart_coords(%d)[%d] = %d, expected %d", r, i, got[i], want[i]);
        CHECK(got[ndims] == GUARD, "MPI_Cart_coords wrote past maxdims");
    }

    /* rank of every coordinate tuple; periodic dimensions also from -2*dims to 2*dims - 1 */
    int lo[MAXD], hi[MAXD], c[MAXD];
    for (int i = 0; i < ndims; i++) {
        lo[i] = periods[i] ? -2 * dims[i] : 0;
        hi[i] = periods[i] ? 2 * dims[i] : dims[i];
        c[i] = lo[i];
    }
    for (;;) {
        int w[MAXD], got = GUARD;
        for (int i = 0; i < ndims; i++)
            w[i] = wrap(c[i], dims[i]);
        CHECK_MPI(MPI_Cart_rank(cart, c, &got));
        CHECK(got == model_rank(ndims, dims, w), "Cart_rank({%d,%d,%d}) = %d, expected %d",
              ndims > 0 ? c[0] : 0, ndims > 1 ? c[1] : 0, ndims > 2 ? c[2] : 0, got,
              model_rank(ndims, dims, w));
        int i = ndims - 1;
        while (i >= 0 && ++c[i] == hi[i]) {
            c[i] = lo[i];
            i--;
        }
        if (i < 0)
            break;
    }

    /* shifts: the process disp further along (dest) and disp back (source), or MPI_PROC_NULL */
    for (int d = 0; d < ndims; d++) {
        for (int disp = -2; disp <= 2; disp++) {
            int want[2];
            for (int k = 0; k < 2; k++) {
                int x[MAXD];
                memcpy(x, me, sizeof x);
                x[d] += k == 0 ? -disp : disp;
                if (periods[d])
                    x[d] = wrap(x[d], dims[d]);
                want[k] = x[d] < 0 || x[d] >= dims[d] ? MPI_PROC_NULL : model_rank(ndims, dims, x);
            }
            int src = GUARD, dst = GUARD;
            CHECK_MPI(MPI_Cart_shift(cart, d, disp, &src, &dst));
            CHECK(src == want[0] && dst == want[1],
                  "Cart_shift(dir %d, disp %d) at rank %d = (%d, %d), expected (%d, %d)", d, disp,
                  rank, src, dst, want[0], want[1]);
        }
    }

    /* a shift exchange by +1 and -1 in every direction delivers the source's data */
    for (int d = 0; d < ndims; d++) {
        for (int disp = -1; disp <= 1; disp += 2) {
            int src, dst, out[2] = {rank, d * 10 + disp}, in[2] = {GUARD, GUARD};
            MPI_Status st;
            CHECK_MPI(MPI_Cart_shift(cart, d, disp, &src, &dst));
            CHECK_MPI(MPI_Sendrecv(out, 2, MPI_INT, dst, 5, in, 2, MPI_INT, src, 5, cart, &st));
            if (src == MPI_PROC_NULL) {
                CHECK(in[0] == GUARD && in[1] == GUARD, "receive from MPI_PROC_NULL wrote data");
            } else {
                CHECK(in[0] == src && in[1] == d * 10 + disp,
                      "shift exchange dir %d disp %d at %d got (%d, %d) from %d", d, disp, rank,
                      in[0], in[1], src);
                CHECK_EQ(st.MPI_SOURCE, src);
            }
        }
    }
}

/* MPI_Cart_sub for every remain_dims pattern of a cartesian communicator. */
static void check_sub(MPI_Comm cart, int ndims, const int *dims, const int *periods)
{
    int rank;
    CHECK_MPI(MPI_Comm_rank(cart, &rank));
    int me[MAXD];
    model_coords(ndims, dims, rank, me);
    MPI_Group cgroup;
    CHECK_MPI(MPI_Comm_group(cart, &cgroup));

    for (int mask = 0; mask < 1 << ndims; mask++) {
        int remain[MAXD + 1] = {0}, kd[MAXD + 1], kp[MAXD + 1], kc[MAXD + 1], nk = 0;
        for (int i = 0; i < ndims; i++) {
            remain[i] = (mask >> i) & 1;
            if (remain[i]) {
                kd[nk] = dims[i];
                kp[nk] = periods[i];
                kc[nk] = me[i];
                nk++;
            }
        }
        MPI_Comm sub = MPI_COMM_NULL;
        CHECK_MPI(MPI_Cart_sub(cart, remain, &sub));
        if (sub == MPI_COMM_NULL) {
            MTEST_FAIL("MPI_Cart_sub(mask %d) gave MPI_COMM_NULL", mask);
            continue;
        }
        int srank, ssize = product(nk, kd);
        CHECK_MPI(MPI_Comm_rank(sub, &srank));
        CHECK_EQ(srank, model_rank(nk, kd, kc));
        check_cart(sub, nk, kd, kp);

        /* member j is the process with my coordinates in the dropped dimensions and j's
         * coordinates (in the kept grid) in the kept ones */
        MPI_Group sgroup;
        CHECK_MPI(MPI_Comm_group(sub, &sgroup));
        int sr[64], cr[64];
        for (int j = 0; j < ssize; j++)
            sr[j] = j;
        CHECK_MPI(MPI_Group_translate_ranks(sgroup, ssize, sr, cgroup, cr));
        for (int j = 0; j < ssize; j++) {
            int jc[MAXD], want[MAXD];
            model_coords(nk, kd, j, jc);
            for (int i = 0, k = 0; i < ndims; i++)
                want[i] = remain[i] ? jc[k++] : me[i];
            CHECK(cr[j] == model_rank(ndims, dims, want),
                  "Cart_sub mask %d: member %d is cart rank %d, expected %d", mask, j, cr[j],
                  model_rank(ndims, dims, want));
        }
        CHECK_MPI(MPI_Group_free(&sgroup));
        CHECK_MPI(MPI_Comm_free(&sub));
    }
    CHECK_MPI(MPI_Group_free(&cgroup));
}

/* Creates the grid on MPI_COMM_WORLD and checks everything on it. */
static void test_grid(int ndims, const int *dims, const int *periods, int reorder)
{
    int nnodes = product(ndims, dims);
    int dummy[1] = {0};
    MPI_Comm cart = MPI_COMM_NULL;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, ndims, ndims ? dims : dummy,
                              ndims ? periods : dummy, reorder, &cart));

    /* exactly nnodes processes are in the grid; without reorder, the first nnodes, ranks kept */
    int in = cart != MPI_COMM_NULL, count = 0;
    CHECK_MPI(MPI_Allreduce(&in, &count, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(count == nnodes, "%d processes in a grid of %d (ndims %d, reorder %d)", count, nnodes,
          ndims, reorder);
    if (!reorder)
        CHECK(in == (wrank < nnodes), "world rank %d: grid of %d gave %s", wrank, nnodes,
              in ? "a communicator" : "MPI_COMM_NULL");

    /* the recommended rank: the own rank inside the grid, MPI_UNDEFINED outside */
    if (ndims > 0) {
        int nr = GUARD;
        CHECK_MPI(MPI_Cart_map(MPI_COMM_WORLD, ndims, dims, periods, &nr));
        CHECK_EQ(nr, wrank < nnodes ? wrank : MPI_UNDEFINED);
    }

    if (!in)
        return;
    int rank;
    CHECK_MPI(MPI_Comm_rank(cart, &rank));
    if (!reorder)
        CHECK_EQ(rank, wrank);
    check_cart(cart, ndims, dims, periods);
    check_sub(cart, ndims, dims, periods);

    /* a dup keeps the topology, a split drops it */
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(cart, &dup));
    check_cart(dup, ndims, dims, periods);
    CHECK_MPI(MPI_Comm_free(&dup));
    mtest_check_split_has_no_topology(cart);

    CHECK_MPI(MPI_Comm_free(&cart));
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    int n = wsize;

    int status = GUARD;
    CHECK_MPI(MPI_Topo_test(MPI_COMM_WORLD, &status));
    CHECK_EQ(status, MPI_UNDEFINED);

    /* every shape without reorder; with reorder (the expectations then come from the new rank)
     * one of each kind */
    for (int reorder = 0; reorder <= 1; reorder++) {
        /* 1-D rings and lines over every process */
        int d1[1] = {n}, p1[1] = {1}, q1[1] = {0};
        test_grid(1, d1, p1, reorder);
        if (!reorder)
            test_grid(1, d1, q1, reorder);

        /* 2-D and 3-D from MPI_Dims_create, mixed periodicity (a nonzero period is true) */
        int d2[2] = {0, 0}, p2a[2] = {1, 0}, p2b[2] = {0, 7};
        CHECK_MPI(MPI_Dims_create(n, 2, d2));
        test_grid(2, d2, p2a, reorder);
        if (!reorder)
            test_grid(2, d2, p2b, reorder);
        int d3[3] = {0, 0, 0}, p3a[3] = {1, 0, 1}, p3b[3] = {0, 1, 0};
        CHECK_MPI(MPI_Dims_create(n, 3, d3));
        test_grid(3, d3, p3a, reorder);
        if (!reorder) {
            test_grid(3, d3, p3b, reorder);

            /* dimensions of size 1 first and last */
            int d4[2] = {1, n}, p4[2] = {1, 1};
            test_grid(2, d4, p4, reorder);
            int d5[3] = {n, 1, 1}, p5[3] = {0, 1, 0};
            test_grid(3, d5, p5, reorder);
        }

        /* grids smaller than the communicator */
        if (n > 1) {
            int d6[1] = {n - 1}, p6[1] = {0};
            test_grid(1, d6, p6, reorder);
        }
        if (n >= 4) {
            int d7[2] = {2, (n - 1) / 2}, p7[2] = {0, 1};
            test_grid(2, d7, p7, reorder);
        }

        /* no dimensions: a grid of one process */
        test_grid(0, NULL, NULL, reorder);
    }

    /* a million dimensions of size 1, alternately periodic: a legal grid of one process, which
     * every call handles in time linear in ndims, without a temporary of that size on the stack */
    int big = 1000000, *d = malloc(3 * (size_t) big * sizeof(int)), *p = d + big, *co = d + 2 * big;
    for (int i = 0; i < big; i++) {
        d[i] = 1;
        p[i] = i % 2;
    }
    MPI_Comm g, sub;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, big, d, p, 0, &g));
    CHECK((g != MPI_COMM_NULL) == (wrank == 0), "1M dimensions: a communicator at rank %d only", wrank);
    if (g != MPI_COMM_NULL) {
        int nd = -1, src = -7, dst = -7;
        CHECK_MPI(MPI_Cartdim_get(g, &nd));
        CHECK_EQ(nd, big);
        CHECK_MPI(MPI_Cart_shift(g, big - 1, 1, &src, &dst));      /* periodic: itself */
        CHECK(src == 0 && dst == 0, "periodic shift gave %d, %d", src, dst);
        CHECK_MPI(MPI_Cart_shift(g, big - 2, 1, &src, &dst));      /* not periodic: none */
        CHECK(src == MPI_PROC_NULL && dst == MPI_PROC_NULL, "shift gave %d, %d", src, dst);
        co[big - 1] = 5;
        CHECK_MPI(MPI_Cart_coords(g, 0, big, co));
        CHECK_EQ(co[big - 1], 0);
        for (int i = 0; i < big; i++)
            p[i] = 1;   /* now remain_dims: keep them all */
        CHECK_MPI(MPI_Cart_sub(g, p, &sub));
        CHECK_MPI(MPI_Cartdim_get(sub, &nd));
        CHECK_EQ(nd, big);
        MPI_Comm_free(&sub);
        MPI_Comm_free(&g);
    }
    free(d);

    return MTest_Finalize();
}
