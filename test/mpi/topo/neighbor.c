/*
 * Neighbourhood collectives (MPI 4.1, 8.6, 8.7): MPI_Neighbor_allgather, _allgatherv, _alltoall,
 * _alltoallv and _alltoallw, blocking and nonblocking (MPI_Ineighbor_*, all five in flight at
 * once, completed with MPI_Wait and MPI_Waitall), on
 *   - cartesian grids of 0 to 3 dimensions, periodic or not, including periodic dimensions of
 *     size 1 and 2 where a process is its own or both-side neighbour: the neighbours are, per
 *     dimension, the source then the destination of MPI_Cart_shift(comm, d, 1), and the block a
 *     process sends to its -1 neighbour lands in that neighbour's +1 slot (block s arrives in
 *     slot s ^ 1); MPI_PROC_NULL neighbours leave their receive blocks untouched;
 *   - graphs (the MPI_Graph_neighbors list both ways; a self loop and a repeated edge);
 *   - distributed graphs, adjacent and not, asymmetric, with processes of zero in- or
 *     out-degree: receive from the sources and send to the destinations in the order
 *     MPI_Dist_graph_neighbors gives them.
 * Over repeated graph edges the k-th block sent to a process arrives in the slot of its k-th
 * edge back. Send and receive sides use different datatypes (vectors, contiguous types,
 * per-neighbour types and byte displacements in alltoallw); every value encodes sender, send
 * block and element, and is checked against what the sender must have sent; gaps keep a guard.
 * Run with 1, 4 and 6 processes.
 */
#include "mtest.h"

#define MAXNB 16
#define BLK 8                   /* ints reserved per block */
#define LEN (MAXNB * BLK + 8)
#define GUARD (-1)
#define POISON (-5)             /* send-buffer ints that must not arrive anywhere */

enum { AG, AGV, A2A, A2AV, A2AW, NCOLL };
static const char *coll_name[NCOLL] = {"allgather", "allgatherv", "alltoall", "alltoallv",
                                       "alltoallw"};

typedef struct {
    const char *name;
    MPI_Comm comm;
    int me, indeg, outdeg;
    int src[MAXNB], dst[MAXNB];
    int from[MAXNB];            /* receive slot k gets block from[k] of src[k] */
} topo;

static int wrank, wsize;
static MPI_Datatype vec[4], contig[4];  /* [c]: c ints with stride 2 / in a row */

/* Value of element e of the block j sent by s (j = 90, 91 for the allgathers). */
static int val(int s, int j, int e)
{
    return 1 + s * 1000 + j * 10 + e;
}

/* Ints in block j of s for the v and w forms: 1 to 3. */
static int cnt(int s, int j)
{
    return 1 + (s + j) % 3;
}

/* ---- cartesian grids ---- */

static void cart_neighbors(int ndims, const int *dims, const int *periods, int r, int *nb)
{
    int c[3], rr = r;
    for (int i = ndims - 1; i >= 0; i--) {
        c[i] = rr % dims[i];
        rr /= dims[i];
    }
    for (int d = 0; d < ndims; d++) {
        for (int side = 0; side < 2; side++) {
            int x[3];
            memcpy(x, c, sizeof x);
            x[d] += side ? 1 : -1;
            if (periods[d])
                x[d] = (x[d] + dims[d]) % dims[d];
            if (x[d] < 0 || x[d] >= dims[d]) {
                nb[2 * d + side] = MPI_PROC_NULL;
                continue;
            }
            int q = 0;
            for (int i = 0; i < ndims; i++)
                q = q * dims[i] + x[i];
            nb[2 * d + side] = q;
        }
    }
}

/* Creates the grid on MPI_COMM_WORLD (ranks kept); 0 where this process is not in it. */
static int make_cart(topo *t, const char *name, int ndims, const int *dims, const int *periods)
{
    int dummy[1] = {0};
    memset(t, 0, sizeof *t);
    t->name = name;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, ndims, ndims ? dims : dummy,
                              ndims ? periods : dummy, 0, &t->comm));
    if (t->comm == MPI_COMM_NULL)
        return 0;
    MPI_Comm_rank(t->comm, &t->me);
    t->indeg = t->outdeg = 2 * ndims;
    cart_neighbors(ndims, dims, periods, t->me, t->src);
    memcpy(t->dst, t->src, sizeof t->dst);
    for (int k = 0; k < 2 * ndims; k++)
        t->from[k] = k ^ 1;
    for (int d = 0; d < ndims; d++) {
        int s, dd;
        CHECK_MPI(MPI_Cart_shift(t->comm, d, 1, &s, &dd));
        CHECK(s == t->src[2 * d] && dd == t->src[2 * d + 1], "%s: Cart_shift(%d) = (%d, %d)",
              name, d, s, dd);
    }
    return 1;
}

/* ---- graphs: src and dst both the node's edge list; the k-th of my edges to s gets the
 *      block s sends over its k-th edge to me ---- */

/* The index m-th occurrence of x in list[0..n), or -1. */
static int nth(const int *list, int n, int x, int m)
{
    for (int i = 0; i < n; i++)
        if (list[i] == x && m-- == 0)
            return i;
    return -1;
}

/* from[k] for receive slots src[0..indeg) given every rank's destination list. */
static void match_edges(topo *t, int (*dsts)[MAXNB], const int *outdegs)
{
    for (int k = 0; k < t->indeg; k++) {
        int s = t->src[k], m = 0;
        for (int j = 0; j < k; j++)
            m += t->src[j] == s;
        t->from[k] = nth(dsts[s], outdegs[s], t->me, m);
        CHECK(t->from[k] >= 0, "%s: edge %d -> %d (#%d) has no counterpart", t->name, s, t->me, m);
    }
}

static int make_graph(topo *t, const char *name, int nnodes, const int *index, const int *edges)
{
    memset(t, 0, sizeof *t);
    t->name = name;
    CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, nnodes, index, edges, 0, &t->comm));
    if (t->comm == MPI_COMM_NULL)
        return 0;
    MPI_Comm_rank(t->comm, &t->me);
    static int lists[MAXNB][MAXNB];
    int degs[MAXNB];
    for (int r = 0; r < nnodes; r++) {
        int first = r ? index[r - 1] : 0;
        degs[r] = index[r] - first;
        memcpy(lists[r], edges + first, (size_t) degs[r] * sizeof(int));
    }
    t->indeg = t->outdeg = degs[t->me];
    memcpy(t->src, lists[t->me], sizeof t->src);
    memcpy(t->dst, lists[t->me], sizeof t->dst);
    match_edges(t, lists, degs);

    int nb[MAXNB];
    CHECK_MPI(MPI_Graph_neighbors(t->comm, t->me, MAXNB, nb));
    for (int k = 0; k < t->indeg; k++)
        CHECK(nb[k] == t->src[k], "%s: Graph_neighbors[%d] = %d, expected %d", name, k, nb[k],
              t->src[k]);
    return 1;
}

/* ---- distributed graphs from an edge list: the sources in reverse list order, the
 *      destinations in list order; with adjacent = 0 the edges all come from process 0 and the
 *      orders are whatever MPI_Dist_graph_neighbors says ---- */

static int cmp_int(const void *a, const void *b)
{
    return (*(const int *) a > *(const int *) b) - (*(const int *) a < *(const int *) b);
}

static int make_dist(topo *t, const char *name, int m, const int (*e)[2], int adjacent)
{
    memset(t, 0, sizeof *t);
    t->name = name;
    int in[MAXNB], out[MAXNB], indeg = 0, outdeg = 0;
    for (int i = m - 1; i >= 0; i--)
        if (e[i][1] == wrank)
            in[indeg++] = e[i][0];
    for (int i = 0; i < m; i++)
        if (e[i][0] == wrank)
            out[outdeg++] = e[i][1];
    if (adjacent) {
        CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, indeg, in, MPI_UNWEIGHTED,
                                                 outdeg, out, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                                 &t->comm));
    } else {
        int srcs[64], degs[64], dsts[64], n = wrank == 0 ? m : 0;
        for (int i = 0; i < n; i++) {
            srcs[i] = e[i][0];
            degs[i] = 1;
            dsts[i] = e[i][1];
        }
        CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, n, srcs, degs, dsts, MPI_UNWEIGHTED,
                                        MPI_INFO_NULL, 0, &t->comm));
    }
    if (t->comm == MPI_COMM_NULL)
        return 0;
    MPI_Comm_rank(t->comm, &t->me);

    int gi, go, w, sw[MAXNB], dw[MAXNB];
    CHECK_MPI(MPI_Dist_graph_neighbors_count(t->comm, &gi, &go, &w));
    CHECK(gi == indeg && go == outdeg, "%s: degrees (%d, %d), expected (%d, %d)", name, gi, go,
          indeg, outdeg);
    t->indeg = indeg;
    t->outdeg = outdeg;
    CHECK_MPI(MPI_Dist_graph_neighbors(t->comm, indeg, t->src, sw, outdeg, t->dst, dw));

    /* the lists are the model's: in order if adjacent, else as multisets */
    int a[MAXNB], b[MAXNB];
    for (int pass = 0; pass < 2; pass++) {
        int n = pass ? outdeg : indeg;
        memcpy(a, pass ? t->dst : t->src, sizeof a);
        memcpy(b, pass ? out : in, sizeof b);
        if (!adjacent) {
            qsort(a, (size_t) n, sizeof(int), cmp_int);
            qsort(b, (size_t) n, sizeof(int), cmp_int);
        }
        for (int i = 0; i < n; i++)
            CHECK(a[i] == b[i], "%s: %s[%d] = %d, expected %d", name,
                  pass ? "destinations" : "sources", i, a[i], b[i]);
    }

    /* everyone's destinations, in the library's order, to pair the repeated edges */
    static int all[MAXNB][MAXNB];
    int mine[MAXNB + 1], got[MAXNB * (MAXNB + 1)], degs[MAXNB];
    mine[0] = outdeg;
    memcpy(mine + 1, t->dst, sizeof t->dst);
    CHECK_MPI(MPI_Allgather(mine, MAXNB + 1, MPI_INT, got, MAXNB + 1, MPI_INT, t->comm));
    for (int r = 0; r < wsize; r++) {
        degs[r] = got[r * (MAXNB + 1)];
        memcpy(all[r], got + r * (MAXNB + 1) + 1, sizeof all[r]);
    }
    match_edges(t, all, degs);
    return 1;
}

/* ---- the five collectives ---- */

static void compare(const topo *t, int nonblocking, int c, const int *got, const int *want)
{
    int bad = 0, first = -1;
    for (int i = 0; i < LEN; i++) {
        if (got[i] != want[i]) {
            if (first < 0)
                first = i;
            bad++;
        }
    }
    if (bad)
        MTEST_FAIL("%s: %s%s at rank %d: %d wrong ints, first [%d] = %d, expected %d", t->name,
                   nonblocking ? "Ineighbor_" : "Neighbor_", coll_name[c], t->me, bad, first,
                   got[first], want[first]);
}

static void run(const topo *t, int nonblocking)
{
    static int sbuf[NCOLL][LEN], rbuf[NCOLL][LEN], want[NCOLL][LEN];
    int in = t->indeg, out = t->outdeg, me = t->me;
    const int *src = t->src;
    int agv_counts[MAXNB], agv_displs[MAXNB], scounts[MAXNB], sdispls[MAXNB];
    int rcounts[MAXNB], rdispls[MAXNB], wscounts[MAXNB], wrcounts[MAXNB];
    MPI_Aint wsdispls[MAXNB], wrdispls[MAXNB];
    MPI_Datatype wstypes[MAXNB], wrtypes[MAXNB];

    for (int c = 0; c < NCOLL; c++) {
        for (int i = 0; i < LEN; i++) {
            sbuf[c][i] = POISON;
            rbuf[c][i] = want[c][i] = GUARD;
        }
    }

    /* allgather: 3 ints from every other int (a vector) into blocks of a contiguous type */
    for (int e = 0; e < 3; e++)
        sbuf[AG][2 * e] = val(me, 90, e);
    for (int k = 0; k < in; k++)
        for (int e = 0; e < 3 && src[k] != MPI_PROC_NULL; e++)
            want[AG][3 * k + e] = val(src[k], 90, e);

    /* allgatherv: cnt(me, 0) ints; the blocks in reverse order, one int apart */
    for (int e = 0; e < cnt(me, 0); e++)
        sbuf[AGV][e] = val(me, 91, e);
    for (int k = in - 1, pos = 0; k >= 0; k--) {
        agv_counts[k] = src[k] == MPI_PROC_NULL ? 2 : cnt(src[k], 0);
        agv_displs[k] = pos + 1;
        pos += agv_counts[k] + 1;
        for (int e = 0; e < agv_counts[k] && src[k] != MPI_PROC_NULL; e++)
            want[AGV][agv_displs[k] + e] = val(src[k], 91, e);
    }

    /* alltoall: block j (2 ints) to destination j, received as one pair type */
    for (int j = 0; j < out; j++)
        for (int e = 0; e < 2; e++)
            sbuf[A2A][2 * j + e] = val(me, j, e);
    for (int k = 0; k < in; k++)
        for (int e = 0; e < 2 && src[k] != MPI_PROC_NULL; e++)
            want[A2A][2 * k + e] = val(src[k], t->from[k], e);

    /* alltoallv: cnt(me, j) ints to destination j, send blocks in reverse order with gaps;
     * receive blocks BLK ints apart (a block from MPI_PROC_NULL: 2 ints never written) */
    for (int j = out - 1, pos = 0; j >= 0; j--) {
        scounts[j] = cnt(me, j);
        sdispls[j] = pos;
        for (int e = 0; e < scounts[j]; e++)
            sbuf[A2AV][pos + e] = val(me, j, e);
        pos += scounts[j] + 1;
    }
    for (int k = 0; k < in; k++) {
        rcounts[k] = src[k] == MPI_PROC_NULL ? 2 : cnt(src[k], t->from[k]);
        rdispls[k] = BLK * k + 1;
        for (int e = 0; e < rcounts[k] && src[k] != MPI_PROC_NULL; e++)
            want[A2AV][rdispls[k] + e] = val(src[k], t->from[k], e);
    }

    /* alltoallw: block j goes as cnt(me, j) MPI_INTs (even j) or one vector of them (odd j),
     * blocks in reverse order BLK ints apart; receive slot k takes MPI_INTs, one contiguous
     * type or one vector by k % 3, at byte displacement (BLK * k + 1) ints */
    for (int j = 0; j < out; j++) {
        int c = cnt(me, j), base = (out - 1 - j) * BLK, stride = j % 2 ? 2 : 1;
        wscounts[j] = j % 2 ? 1 : c;
        wstypes[j] = j % 2 ? vec[c] : MPI_INT;
        wsdispls[j] = (MPI_Aint) base * (MPI_Aint) sizeof(int);
        for (int e = 0; e < c; e++)
            sbuf[A2AW][base + stride * e] = val(me, j, e);
    }
    for (int k = 0; k < in; k++) {
        int c = src[k] == MPI_PROC_NULL ? 2 : cnt(src[k], t->from[k]), base = BLK * k + 1;
        wrcounts[k] = k % 3 == 0 ? c : 1;
        wrtypes[k] = k % 3 == 0 ? MPI_INT : k % 3 == 1 ? contig[c] : vec[c];
        wrdispls[k] = (MPI_Aint) base * (MPI_Aint) sizeof(int);
        for (int e = 0; e < c && src[k] != MPI_PROC_NULL; e++)
            want[A2AW][base + (k % 3 == 2 ? 2 : 1) * e] = val(src[k], t->from[k], e);
    }

    MPI_Comm comm = t->comm;
    if (!nonblocking) {
        CHECK_MPI(MPI_Neighbor_allgather(sbuf[AG], 1, vec[3], rbuf[AG], 1, contig[3], comm));
        CHECK_MPI(MPI_Neighbor_allgatherv(sbuf[AGV], cnt(me, 0), MPI_INT, rbuf[AGV], agv_counts,
                                          agv_displs, MPI_INT, comm));
        CHECK_MPI(MPI_Neighbor_alltoall(sbuf[A2A], 2, MPI_INT, rbuf[A2A], 1, contig[2], comm));
        CHECK_MPI(MPI_Neighbor_alltoallv(sbuf[A2AV], scounts, sdispls, MPI_INT, rbuf[A2AV],
                                         rcounts, rdispls, MPI_INT, comm));
        CHECK_MPI(MPI_Neighbor_alltoallw(sbuf[A2AW], wscounts, wsdispls, wstypes, rbuf[A2AW],
                                         wrcounts, wrdispls, wrtypes, comm));
    } else {
        MPI_Request req[NCOLL];
        CHECK_MPI(MPI_Ineighbor_allgather(sbuf[AG], 1, vec[3], rbuf[AG], 1, contig[3], comm,
                                          &req[AG]));
        CHECK_MPI(MPI_Ineighbor_allgatherv(sbuf[AGV], cnt(me, 0), MPI_INT, rbuf[AGV], agv_counts,
                                           agv_displs, MPI_INT, comm, &req[AGV]));
        CHECK_MPI(MPI_Ineighbor_alltoall(sbuf[A2A], 2, MPI_INT, rbuf[A2A], 1, contig[2], comm,
                                         &req[A2A]));
        CHECK_MPI(MPI_Ineighbor_alltoallv(sbuf[A2AV], scounts, sdispls, MPI_INT, rbuf[A2AV],
                                          rcounts, rdispls, MPI_INT, comm, &req[A2AV]));
        CHECK_MPI(MPI_Ineighbor_alltoallw(sbuf[A2AW], wscounts, wsdispls, wstypes, rbuf[A2AW],
                                          wrcounts, wrdispls, wrtypes, comm, &req[A2AW]));
        /* the last one first, on its own, then the rest together */
        CHECK_MPI(MPI_Wait(&req[A2AW], MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Waitall(NCOLL - 1, req, MPI_STATUSES_IGNORE));
        for (int c = 0; c < NCOLL; c++)
            CHECK(req[c] == MPI_REQUEST_NULL, "%s: request %d not freed", t->name, c);
    }
    for (int c = 0; c < NCOLL; c++)
        compare(t, nonblocking, c, rbuf[c], want[c]);
}

static void test(topo *t, int member)
{
    if (!member)
        return;
    run(t, 0);
    run(t, 1);
    CHECK_MPI(MPI_Comm_free(&t->comm));
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    int n = wsize;
    if (n > 8) {
        if (wrank == 0)
            fprintf(stderr, "run with at most 8 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int c = 1; c <= 3; c++) {
        MPI_Type_vector(c, 1, 2, MPI_INT, &vec[c]);
        MPI_Type_commit(&vec[c]);
        MPI_Type_contiguous(c, MPI_INT, &contig[c]);
        MPI_Type_commit(&contig[c]);
    }
    topo t;

    /* cartesian: rings and lines (n = 1: its own neighbour, or none), 2-D and 3-D grids from
     * MPI_Dims_create (dimensions of size 2 and 1 among them), a periodic dimension of size 1
     * first, a periodic pair inside a larger communicator, no dimensions */
    int d1[1] = {n}, per[3] = {1, 1, 1}, nonper[3] = {0, 0, 0}, mixed[3] = {1, 0, 1};
    test(&t, make_cart(&t, "ring", 1, d1, per));
    test(&t, make_cart(&t, "line", 1, d1, nonper));
    int d2[2] = {0, 0};
    MPI_Dims_create(n, 2, d2);
    test(&t, make_cart(&t, "2-D periodic", 2, d2, per));
    test(&t, make_cart(&t, "2-D periodic x line", 2, d2, mixed));
    int d2b[2] = {1, n};
    test(&t, make_cart(&t, "1 x n periodic", 2, d2b, mixed));
    int d2c[2] = {n, 1};
    test(&t, make_cart(&t, "n x 1 periodic", 2, d2c, per));
    int d3[3] = {0, 0, 0};
    MPI_Dims_create(n, 3, d3);
    test(&t, make_cart(&t, "3-D periodic", 3, d3, per));
    test(&t, make_cart(&t, "3-D mixed", 3, d3, mixed));
    if (n >= 2) {
        int two[1] = {2};
        test(&t, make_cart(&t, "pair ring", 1, two, per));
    }
    test(&t, make_cart(&t, "0-D", 0, NULL, NULL));

    /* graphs: a ring (n = 1: a double self loop), a star, a multigraph on n - 1 nodes */
    int index[MAXNB], edges[4 * MAXNB], k = 0;
    for (int i = 0; i < n; i++) {
        edges[k++] = (i + n - 1) % n;
        edges[k++] = (i + 1) % n;
        index[i] = k;
    }
    test(&t, make_graph(&t, "graph ring", n, index, edges));
    k = 0;
    for (int i = 1; i < n; i++)
        edges[k++] = i;
    index[0] = k;
    for (int i = 1; i < n; i++) {
        edges[k++] = 0;
        index[i] = k;
    }
    test(&t, make_graph(&t, "graph star", n, index, edges));
    if (n >= 4) {
        /* 0: itself and 1 twice; 1: 0, 2, 0; then a path up to n - 2 */
        int e0[] = {0, 1, 1, 0, 2, 0};
        k = 6;
        memcpy(edges, e0, sizeof e0);
        index[0] = 3;
        index[1] = 6;
        for (int i = 2; i < n - 1; i++) {
            edges[k++] = i - 1;
            if (i + 1 < n - 1)
                edges[k++] = i + 1;
            index[i] = k;
        }
        test(&t, make_graph(&t, "graph multi", n - 1, index, edges));
    }

    /* distributed graphs: i -> i+1 and i -> i+3 (asymmetric for n > 2), a self loop at 0 and a
     * second 1 -> 2; a chain 0 -> ... -> n-1 with 0 -> n-1 (0 receives nothing, n-1 sends
     * nothing) */
    int e[64][2], m = 0;
    for (int i = 0; i < n; i++) {
        e[m][0] = i;
        e[m++][1] = (i + 1) % n;
        e[m][0] = i;
        e[m++][1] = (i + 3) % n;
    }
    e[m][0] = 0;
    e[m++][1] = 0;
    if (n > 2) {
        e[m][0] = 1;
        e[m++][1] = 2;
    }
    test(&t, make_dist(&t, "dist asymmetric", m, (const int (*)[2]) e, 1));
    test(&t, make_dist(&t, "dist asymmetric (create)", m, (const int (*)[2]) e, 0));
    m = 0;
    for (int i = 0; i + 1 < n; i++) {
        e[m][0] = i;
        e[m++][1] = i + 1;
    }
    e[m][0] = 0;
    e[m++][1] = n - 1;
    test(&t, make_dist(&t, "dist chain", m, (const int (*)[2]) e, 1));
    test(&t, make_dist(&t, "dist chain (create)", m, (const int (*)[2]) e, 0));

    for (int c = 1; c <= 3; c++) {
        MPI_Type_free(&vec[c]);
        MPI_Type_free(&contig[c]);
    }
    return MTest_Finalize();
}
