/*
 * Graph topologies (MPI 4.1, 8.5.3, 8.5.5, 8.5.8): MPI_Graph_create of a ring, a star, a
 * multigraph with a self loop and a repeated edge on fewer nodes than processes (the extra
 * processes get MPI_COMM_NULL), a graph with an isolated node, and no nodes at all; reorder 0
 * (ranks kept) and 1. On each: MPI_Topo_test, MPI_Graphdims_get, MPI_Graph_get (in full, and
 * with maxindex/maxedges too small: nothing written past them), MPI_Graph_neighbors_count and
 * MPI_Graph_neighbors of every rank, messages to every neighbour, MPI_Graph_map, MPI_Comm_dup
 * keeping the topology and MPI_Comm_split dropping it. Run with 4 and 5 processes.
 */
#include "mtest.h"

#define MAXN 8
#define MAXE 32
#define GUARD (-99)

static int wrank, wsize;

typedef struct {
    const char *name;
    int nnodes, index[MAXN], edges[MAXE];
} graph;

static int nedges(const graph *g)
{
    return g->nnodes ? g->index[g->nnodes - 1] : 0;
}

static int first_edge(const graph *g, int r)
{
    return r ? g->index[r - 1] : 0;
}

static void check_graph(MPI_Comm comm, const graph *g)
{
    int n = g->nnodes, ne = nedges(g), rank, size, status;
    CHECK_MPI(MPI_Comm_rank(comm, &rank));
    CHECK_MPI(MPI_Comm_size(comm, &size));
    CHECK_EQ(size, n);
    CHECK_MPI(MPI_Topo_test(comm, &status));
    CHECK_EQ(status, MPI_GRAPH);
    int gn = GUARD, ge = GUARD;
    CHECK_MPI(MPI_Graphdims_get(comm, &gn, &ge));
    CHECK_EQ(gn, n);
    CHECK_EQ(ge, ne);

    /* in full, then with room for fewer entries than there are: only that many written */
    static const int lacks[4][2] = {{0, 0}, {1, 0}, {0, 1}, {2, 3}};
    for (int t = 0; t < 4; t++) {
        int maxi = n - lacks[t][0], maxe = ne - lacks[t][1];
        maxi = maxi < 0 ? 0 : maxi;
        maxe = maxe < 0 ? 0 : maxe;
        int index[MAXN + 2], edges[MAXE + 2];
        for (int i = 0; i < MAXN + 2; i++)
            index[i] = GUARD;
        for (int i = 0; i < MAXE + 2; i++)
            edges[i] = GUARD;
        int rc = MPI_Graph_get(comm, maxi, maxe, index, edges);
        if (rc != MPI_SUCCESS) {
            MTEST_FAIL("%s: MPI_Graph_get(maxindex %d of %d, maxedges %d of %d) failed", g->name,
                       maxi, n, maxe, ne);
            continue;
        }
        int bad = -1;
        for (int i = 0; i < MAXN + 2 && bad < 0; i++)
            if (index[i] != (i < maxi ? g->index[i] : GUARD))
                bad = i;
        if (bad >= 0)
            MTEST_FAIL("%s: Graph_get(maxindex %d of %d) index[%d] = %d", g->name, maxi, n, bad,
                       index[bad]);
        bad = -1;
        for (int i = 0; i < MAXE + 2 && bad < 0; i++)
            if (edges[i] != (i < maxe ? g->edges[i] : GUARD))
                bad = i;
        if (bad >= 0)
            MTEST_FAIL("%s: Graph_get(maxedges %d of %d) edges[%d] = %d", g->name, maxe, ne, bad,
                       edges[bad]);
    }

    /* the neighbours of every rank: its slice of edges, in order */
    for (int r = 0; r < n; r++) {
        int deg = g->index[r] - first_edge(g, r), cnt = GUARD;
        CHECK_MPI(MPI_Graph_neighbors_count(comm, r, &cnt));
        CHECK(cnt == deg, "%s: Graph_neighbors_count(%d) = %d, expected %d", g->name, r, cnt, deg);
        for (int lack = 0; lack <= 1; lack++) {
            int max = deg - lack < 0 ? 0 : deg - lack, nb[MAXE + 1];
            for (int i = 0; i < MAXE + 1; i++)
                nb[i] = GUARD;
            CHECK_MPI(MPI_Graph_neighbors(comm, r, max, nb));
            int bad = -1;
            for (int i = 0; i <= deg && bad < 0; i++)
                if (nb[i] != (i < max ? g->edges[first_edge(g, r) + i] : GUARD))
                    bad = i;
            if (bad >= 0)
                MTEST_FAIL("%s: Graph_neighbors(%d, max %d of %d)[%d] = %d", g->name, r, max, deg,
                           bad, nb[bad]);
        }
    }

    /* a message to every neighbour (twice over a repeated edge) and one from each */
    int deg = g->index[rank] - first_edge(g, rank);
    const int *nbrs = g->edges + first_edge(g, rank);
    MPI_Request reqs[MAXE];
    int out[MAXE], got[MAXE];
    for (int i = 0; i < deg; i++) {
        out[i] = rank * 100 + nbrs[i];
        CHECK_MPI(MPI_Isend(&out[i], 1, MPI_INT, nbrs[i], 3, comm, &reqs[i]));
    }
    for (int i = 0; i < deg; i++) {
        got[i] = GUARD;
        CHECK_MPI(MPI_Recv(&got[i], 1, MPI_INT, nbrs[i], 3, comm, MPI_STATUS_IGNORE));
        CHECK(got[i] == nbrs[i] * 100 + rank, "%s: from neighbour %d got %d", g->name, nbrs[i],
              got[i]);
    }
    CHECK_MPI(MPI_Waitall(deg, reqs, MPI_STATUSES_IGNORE));
}

static void test_graph(const graph *g, int reorder)
{
    int n = g->nnodes, dummy[1] = {0};
    MPI_Comm comm = MPI_COMM_NULL;
    CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, n, n ? g->index : dummy,
                               nedges(g) ? g->edges : dummy, reorder, &comm));
    int in = comm != MPI_COMM_NULL, count = 0;
    CHECK_MPI(MPI_Allreduce(&in, &count, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(count == n, "%s: %d processes in a graph of %d nodes (reorder %d)", g->name, count, n,
          reorder);
    if (!reorder)
        CHECK(in == (wrank < n), "%s: world rank %d %s", g->name, wrank,
              in ? "in the graph" : "got MPI_COMM_NULL");

    /* any mapping will do, as long as nnodes processes get the ranks 0..nnodes-1 once each */
    if (n > 0) {
        int nr = GUARD, all[MAXN], seen[MAXN] = {0}, mapped = 0;
        CHECK_MPI(MPI_Graph_map(MPI_COMM_WORLD, n, g->index, g->edges, &nr));
        CHECK_MPI(MPI_Allgather(&nr, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD));
        for (int i = 0; i < wsize; i++) {
            if (all[i] == MPI_UNDEFINED)
                continue;
            CHECK(all[i] >= 0 && all[i] < n && !seen[all[i]], "%s: Graph_map gave %d at %d",
                  g->name, all[i], i);
            if (all[i] >= 0 && all[i] < n)
                seen[all[i]] = 1;
            mapped++;
        }
        CHECK(mapped == n, "%s: Graph_map gave ranks to %d processes", g->name, mapped);
    }

    if (!in)
        return;
    int rank;
    CHECK_MPI(MPI_Comm_rank(comm, &rank));
    if (!reorder)
        CHECK_EQ(rank, wrank);
    check_graph(comm, g);

    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(comm, &dup));
    check_graph(dup, g);
    CHECK_MPI(MPI_Comm_free(&dup));
    mtest_check_split_has_no_topology(comm);
    CHECK_MPI(MPI_Comm_free(&comm));
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    int n = wsize;
    if (n < 4 || n > MAXN) {
        if (wrank == 0)
            fprintf(stderr, "run with 4 to %d processes\n", MAXN);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    graph g[5];
    int k;
    /* ring: i - 1 and i + 1 */
    g[0] = (graph) {.name = "ring", .nnodes = n};
    for (int i = 0, e = 0; i < n; i++) {
        g[0].edges[e++] = (i + n - 1) % n;
        g[0].edges[e++] = (i + 1) % n;
        g[0].index[i] = e;
    }
    /* star: 0 with everyone */
    g[1] = (graph) {.name = "star", .nnodes = n};
    k = 0;
    for (int i = 1; i < n; i++)
        g[1].edges[k++] = i;
    g[1].index[0] = k;
    for (int i = 1; i < n; i++) {
        g[1].edges[k++] = 0;
        g[1].index[i] = k;
    }
    /* n - 1 nodes: a self loop at 0, the edge 0-1 twice, then a path 1 - 2 - ... - n-2 */
    g[2] = (graph) {.name = "multigraph", .nnodes = n - 1};
    k = 0;
    g[2].edges[k++] = 0;
    g[2].edges[k++] = 1;
    g[2].edges[k++] = 1;
    g[2].index[0] = k;
    g[2].edges[k++] = 0;
    g[2].edges[k++] = 2;
    g[2].edges[k++] = 0;
    g[2].index[1] = k;
    for (int i = 2; i < n - 1; i++) {
        g[2].edges[k++] = i - 1;
        if (i + 1 < n - 1)
            g[2].edges[k++] = i + 1;
        g[2].index[i] = k;
    }
    /* a path 0 - ... - n-2 with n-1 isolated (its index repeats the previous one) */
    g[3] = (graph) {.name = "isolated", .nnodes = n};
    k = 0;
    for (int i = 0; i < n - 1; i++) {
        if (i > 0)
            g[3].edges[k++] = i - 1;
        if (i + 1 < n - 1)
            g[3].edges[k++] = i + 1;
        g[3].index[i] = k;
    }
    g[3].index[n - 1] = k;
    /* no nodes: MPI_COMM_NULL everywhere */
    g[4] = (graph) {.name = "empty", .nnodes = 0};

    for (int reorder = 0; reorder <= 1; reorder++)
        for (int i = 0; i < 5; i++)
            test_graph(&g[i], reorder);

    return MTest_Finalize();
}
