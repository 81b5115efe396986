/*
 * Distributed graph topologies (MPI 4.1, 8.5.4, 8.5.5): MPI_Dist_graph_create_adjacent and
 * MPI_Dist_graph_create, weighted and MPI_UNWEIGHTED, of graphs every process builds from one
 * global edge list: one with a self loop and a repeated edge, a chain where the first process
 * has no in-edges and the last no out-edges (MPI_WEIGHTS_EMPTY for the empty sides), and one
 * without edges. Dist_graph_create gets the edges in pieces from the processes (one edge per
 * entry on some, grouped by source on others, none on the last). Checks MPI_Topo_test,
 * MPI_Dist_graph_neighbors_count (degrees and the weighted flag), MPI_Dist_graph_neighbors (in
 * the given order for the adjacent form, as multisets of (rank, weight) for the other), messages
 * along every edge and MPI_Comm_dup keeping the topology. Run with 3 and 5 processes.
 */
#include "mtest.h"

#define MAXE 64
#define GUARD (-99)

typedef struct {
    int src, dst, w;
} edge;

static int rank, size;

static int cmp_pair(const void *a, const void *b)
{
    const int *x = a, *y = b;
    return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

/* Sorted (rank, weight) pairs; the weight counts only if weighted. */
static void sorted_pairs(int n, const int *ranks, const int *weights, int weighted, int *pairs)
{
    for (int i = 0; i < n; i++) {
        pairs[2 * i] = ranks[i];
        pairs[2 * i + 1] = weighted ? weights[i] : 0;
    }
    qsort(pairs, (size_t) n, 2 * sizeof(int), cmp_pair);
}

/* The edges into me (in reverse order of the list) and out of me (in order). */
static void my_edges(const edge *e, int m, int *indeg, int *in, int *inw, int *outdeg, int *out,
                     int *outw)
{
    *indeg = *outdeg = 0;
    for (int i = m - 1; i >= 0; i--) {
        if (e[i].dst == rank) {
            in[*indeg] = e[i].src;
            inw[(*indeg)++] = e[i].w;
        }
    }
    for (int i = 0; i < m; i++) {
        if (e[i].src == rank) {
            out[*outdeg] = e[i].dst;
            outw[(*outdeg)++] = e[i].w;
        }
    }
}

/*
 * Checks a distributed graph communicator against the edge list: ordered means the neighbours
 * come in the order my_edges gives them (the adjacent form), otherwise any order.
 */
static void check_dist(MPI_Comm comm, const char *name, const edge *e, int m, int weighted,
                       int ordered)
{
    int status = GUARD;
    CHECK_MPI(MPI_Topo_test(comm, &status));
    CHECK_EQ(status, MPI_DIST_GRAPH);

    int indeg, in[MAXE], inw[MAXE], outdeg, out[MAXE], outw[MAXE];
    my_edges(e, m, &indeg, in, inw, &outdeg, out, outw);
    int gin = GUARD, gout = GUARD, gw = GUARD;
    CHECK_MPI(MPI_Dist_graph_neighbors_count(comm, &gin, &gout, &gw));
    CHECK(gin == indeg && gout == outdeg && !!gw == weighted,
          "%s: neighbors_count at %d = (%d, %d, %d), expected (%d, %d, %d)", name, rank, gin, gout,
          gw, indeg, outdeg, weighted);
    if (gin != indeg || gout != outdeg)
        return;

    int src[MAXE + 1], srcw[MAXE + 1], dst[MAXE + 1], dstw[MAXE + 1];
    for (int i = 0; i <= MAXE; i++)
        src[i] = srcw[i] = dst[i] = dstw[i] = GUARD;
    CHECK_MPI(MPI_Dist_graph_neighbors(comm, indeg, src, srcw, outdeg, dst, dstw));
    CHECK(src[indeg] == GUARD && dst[outdeg] == GUARD, "%s: neighbors wrote past the degree", name);
    if (weighted)
        CHECK(srcw[indeg] == GUARD && dstw[outdeg] == GUARD, "%s: weights past the degree", name);
    if (ordered) {
        for (int i = 0; i < indeg; i++)
            CHECK(src[i] == in[i] && (!weighted || srcw[i] == inw[i]),
                  "%s: source %d at %d is (%d, w %d), expected (%d, w %d)", name, i, rank, src[i],
                  srcw[i], in[i], inw[i]);
        for (int i = 0; i < outdeg; i++)
            CHECK(dst[i] == out[i] && (!weighted || dstw[i] == outw[i]),
                  "%s: destination %d at %d is (%d, w %d), expected (%d, w %d)", name, i, rank,
                  dst[i], dstw[i], out[i], outw[i]);
    } else {
        int a[2 * MAXE], b[2 * MAXE];
        sorted_pairs(indeg, src, srcw, weighted, a);
        sorted_pairs(indeg, in, inw, weighted, b);
        for (int i = 0; i < 2 * indeg; i++)
            CHECK(a[i] == b[i], "%s: sources at %d differ at %d: %d, expected %d", name, rank, i,
                  a[i], b[i]);
        sorted_pairs(outdeg, dst, dstw, weighted, a);
        sorted_pairs(outdeg, out, outw, weighted, b);
        for (int i = 0; i < 2 * outdeg; i++)
            CHECK(a[i] == b[i], "%s: destinations at %d differ at %d: %d, expected %d", name,
                  rank, i, a[i], b[i]);
    }

    /* one message along every edge: each source sends its rank */
    MPI_Request reqs[MAXE];
    for (int i = 0; i < outdeg; i++)
        CHECK_MPI(MPI_Isend(&rank, 1, MPI_INT, dst[i], 4, comm, &reqs[i]));
    for (int i = 0; i < indeg; i++) {
        int v = GUARD;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, src[i], 4, comm, MPI_STATUS_IGNORE));
        CHECK(v == src[i], "%s: from source %d got %d", name, src[i], v);
    }
    CHECK_MPI(MPI_Waitall(outdeg, reqs, MPI_STATUSES_IGNORE));
}

static void check_dup(MPI_Comm comm, const char *name, const edge *e, int m, int weighted,
                      int ordered)
{
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(comm, &dup));
    check_dist(dup, name, e, m, weighted, ordered);
    CHECK_MPI(MPI_Comm_free(&dup));
}

static void test_adjacent(const char *name, const edge *e, int m, int weighted)
{
    int indeg, in[MAXE], inw[MAXE], outdeg, out[MAXE], outw[MAXE];
    my_edges(e, m, &indeg, in, inw, &outdeg, out, outw);
    const int *sw = !weighted ? MPI_UNWEIGHTED : indeg ? inw : MPI_WEIGHTS_EMPTY;
    const int *dw = !weighted ? MPI_UNWEIGHTED : outdeg ? outw : MPI_WEIGHTS_EMPTY;
    MPI_Comm comm = MPI_COMM_NULL;
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, indeg, in, sw, outdeg, out, dw,
                                             MPI_INFO_NULL, 0, &comm));
    if (comm == MPI_COMM_NULL)
        return;
    int r;
    CHECK_MPI(MPI_Comm_rank(comm, &r));
    CHECK_EQ(r, rank);
    check_dist(comm, name, e, m, weighted, 1);
    check_dup(comm, name, e, m, weighted, 1);
    CHECK_MPI(MPI_Comm_free(&comm));
}

/*
 * MPI_Dist_graph_create with the edges handed out in pieces: edge i is given by process
 * i % (size - 1), so the last process gives none; even processes give one entry per edge, odd
 * ones group their edges by source (a source may come up once per group).
 */
static void test_create(const char *name, const edge *e, int m, int weighted, int reorder)
{
    int n = 0, srcs[MAXE], degs[MAXE], dsts[MAXE], ws[MAXE], k = 0;
    int giver = size > 1 ? size - 1 : 1;
    if (rank % 2 == 0) {
        for (int i = 0; i < m; i++) {
            if (i % giver != rank || rank == size - 1)
                continue;
            srcs[n] = e[i].src;
            degs[n++] = 1;
            dsts[k] = e[i].dst;
            ws[k++] = e[i].w;
        }
    } else if (rank != size - 1) {
        for (int i = 0; i < m; i++) {
            if (i % giver != rank)
                continue;
            int seen = 0;
            for (int j = 0; j < n; j++)
                seen |= srcs[j] == e[i].src;
            if (seen)
                continue;
            /* a new source: all of my edges from it, in list order */
            srcs[n] = e[i].src;
            degs[n] = 0;
            for (int j = i; j < m; j++) {
                if (j % giver == rank && e[j].src == e[i].src) {
                    dsts[k] = e[j].dst;
                    ws[k++] = e[j].w;
                    degs[n]++;
                }
            }
            n++;
        }
    }
    const int *w = !weighted ? MPI_UNWEIGHTED : k ? ws : MPI_WEIGHTS_EMPTY;
    MPI_Comm comm = MPI_COMM_NULL;
    CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, n, srcs, degs, dsts, w, MPI_INFO_NULL,
                                    reorder, &comm));
    if (comm == MPI_COMM_NULL)
        return;
    if (reorder) {
        /* the ranks may move; the degrees still add up to the number of edges */
        int status = GUARD, indeg, outdeg, wt, sum[2], tot[2];
        CHECK_MPI(MPI_Topo_test(comm, &status));
        CHECK_EQ(status, MPI_DIST_GRAPH);
        CHECK_MPI(MPI_Dist_graph_neighbors_count(comm, &indeg, &outdeg, &wt));
        CHECK_EQ(!!wt, weighted);
        sum[0] = indeg;
        sum[1] = outdeg;
        CHECK_MPI(MPI_Allreduce(sum, tot, 2, MPI_INT, MPI_SUM, comm));
        CHECK(tot[0] == m && tot[1] == m, "%s (reorder): degrees add up to %d and %d, not %d",
              name, tot[0], tot[1], m);
    } else {
        int r;
        CHECK_MPI(MPI_Comm_rank(comm, &r));
        CHECK_EQ(r, rank);
        check_dist(comm, name, e, m, weighted, 0);
        check_dup(comm, name, e, m, weighted, 0);
    }
    CHECK_MPI(MPI_Comm_free(&comm));
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = size;

    /* +1 and +2 around the ring, a self loop at 0 and a second edge 1 -> 2 (when 2 exists) */
    edge multi[MAXE];
    int m1 = 0;
    for (int i = 0; i < n; i++)
        multi[m1++] = (edge) {i, (i + 1) % n, 10 + i};
    for (int i = 0; i < n; i++)
        multi[m1++] = (edge) {i, (i + 2) % n, 20 + i};
    multi[m1++] = (edge) {0, 0, 7};
    if (n > 2)
        multi[m1++] = (edge) {1, 2, 8};

    /* a chain 0 -> 1 -> ... -> n-1 and 0 -> n-1: 0 has no sources, n-1 no destinations */
    edge chain[MAXE];
    int m2 = 0;
    for (int i = 0; i + 1 < n; i++)
        chain[m2++] = (edge) {i, i + 1, 30 + i};
    chain[m2++] = (edge) {0, n - 1, 40};

    for (int weighted = 0; weighted <= 1; weighted++) {
        test_adjacent("adjacent multigraph", multi, m1, weighted);
        test_adjacent("adjacent chain", chain, m2, weighted);
        test_adjacent("adjacent empty", NULL, 0, weighted);
        test_create("create multigraph", multi, m1, weighted, 0);
        test_create("create chain", chain, m2, weighted, 0);
        test_create("create empty", NULL, 0, weighted, 0);
        test_create("create multigraph", multi, m1, weighted, 1);
    }

    int status = GUARD;
    CHECK_MPI(MPI_Topo_test(MPI_COMM_WORLD, &status));
    CHECK_EQ(status, MPI_UNDEFINED);
    return MTest_Finalize();
}
