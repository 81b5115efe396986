/*
 * Distributed graph topologies: MPI_Dist_graph_create_adjacent, MPI_Dist_graph_create and the
 * queries. Each process keeps only its own sources and destinations (with their weights).
 *
 * MPI_Dist_graph_create lets any process name any edge, so the edges travel to both their ends:
 * an all-to-all of counts, then one of (peer, weight, direction) triples. A process that failed
 * before either takes part without data (MPIR_Alltoall_without_data), and then in the split with
 * its error, so that every process fails together. The neighbours arrive in the order of the
 * processes that named them, then in the order each gave them (MPI leaves the order open).
 */
#include "topo.h"
#include "mpir_impl_proto.h"

/* A record for the given neighbours (copied unless NULL); weights too when the graph is weighted. */
static int record(int indegree, const int *sources, const int *sourceweights, int outdegree,
                  const int *destinations, const int *destweights, bool weighted, MPIR_Topology **out)
{
    MPIR_Topology *t;
    size_t used = 0, n = (size_t) indegree + (size_t) outdegree;
    int err = MPIR_Topo_alloc(MPI_DIST_GRAPH, weighted ? 2 * n : n, &t);
    if (err)
        return err;
    t->indegree = indegree;
    t->outdegree = outdegree;
    t->weighted = weighted;
    t->in = MPIR_Topo_take(t, &used, indegree);
    t->out = MPIR_Topo_take(t, &used, outdegree);
    if (indegree > 0 && sources)
        memcpy(t->in, sources, (size_t) indegree * sizeof(int));
    if (outdegree > 0 && destinations)
        memcpy(t->out, destinations, (size_t) outdegree * sizeof(int));
    if (weighted) {
        t->in_weights = MPIR_Topo_take(t, &used, indegree);
        t->out_weights = MPIR_Topo_take(t, &used, outdegree);
        if (indegree > 0 && sourceweights)
            memcpy(t->in_weights, sourceweights, (size_t) indegree * sizeof(int));
        if (outdegree > 0 && destweights)
            memcpy(t->out_weights, destweights, (size_t) outdegree * sizeof(int));
    }
    *out = t;
    return MPI_SUCCESS;
}

static int check_ranks(const char *name, const int *ranks, int n, int size)
{
    for (int i = 0; i < n; i++)
        if (ranks[i] < 0 || ranks[i] >= size)
            return MPIR_Err(MPI_ERR_RANK, "%s[%d] = %d is not a rank of the communicator (0 .. %d)", name, i,
                            ranks[i], size - 1);
    return MPI_SUCCESS;
}

/* Weights given for n edges: MPI_UNWEIGHTED, or an array (MPI_WEIGHTS_EMPTY only for none). */
static int check_weights(const char *name, const int *weights, int n)
{
    if (weights != MPI_UNWEIGHTED && n > 0 && (weights == NULL || weights == MPI_WEIGHTS_EMPTY))
        return MPIR_Err(MPI_ERR_ARG, "%s is %s for %d edges", name, weights ? "MPI_WEIGHTS_EMPTY" : "NULL", n);
    return MPI_SUCCESS;
}

int MPIR_Dist_graph_create_adjacent_impl(MPI_Comm comm_old, int indegree, const int sources[],
                                         const int *sourceweights, int outdegree, const int destinations[],
                                         const int *destweights, MPI_Info info, int reorder,
                                         MPI_Comm *comm_dist_graph)
{
    (void) info;
    (void) reorder;
    MPIR_Comm *c;
    int err = MPIR_Topo_comm(comm_old, &c);
    if (err)
        return err;
    if (indegree < 0 || outdegree < 0)
        err = MPIR_Err(MPI_ERR_ARG, "invalid %s %d, must be non-negative", indegree < 0 ? "indegree" : "outdegree",
                       indegree < 0 ? indegree : outdegree);
    err = err ? err : check_ranks("sources", sources, indegree, c->size);
    err = err ? err : check_ranks("destinations", destinations, outdegree, c->size);
    err = err ? err : check_weights("sourceweights", sourceweights, indegree);
    err = err ? err : check_weights("destweights", destweights, outdegree);
    MPIR_Topology *t = NULL;
    bool weighted = sourceweights != MPI_UNWEIGHTED && destweights != MPI_UNWEIGHTED;
    if (err == MPI_SUCCESS)
        err = record(indegree, sources, sourceweights, outdegree, destinations, destweights, weighted, &t);
    return MPIR_Topo_split(c, err, 0, t, comm_dist_graph);
}

/* An edge as it travels to one of its ends. */
enum { PEER, WEIGHT, DIRECTION, EDGE_INTS };
enum { TO_ME, FROM_ME };

/* Checks the edges this process names; counts them in *nedges. */
static int check_edges(int n, const int *sources, const int *degrees, const int *destinations, const int *weights,
                       int size, long long *nedges)
{
    if (n < 0)
        return MPIR_Err(MPI_ERR_ARG, "invalid n %d, must be non-negative", n);
    long long total = 0;
    for (int i = 0; i < n; i++) {
        if (degrees[i] < 0)
            return MPIR_Err(MPI_ERR_ARG, "degrees[%d] = %d, must be non-negative", i, degrees[i]);
        total += degrees[i];
    }
    if (total > INT_MAX / (2 * EDGE_INTS))     /* each travels to both ends: counts stay ints */
        return MPIR_Err(MPI_ERR_ARG, "too many edges (%lld) for one process", total);
    if (total > 0 && destinations == NULL)
        return MPIR_Err(MPI_ERR_ARG, "destinations is NULL");
    int err = check_ranks("sources", sources, n, size);
    err = err ? err : check_ranks("destinations", destinations, (int) total, size);
    err = err ? err : check_weights("weights", weights, (int) total);
    *nedges = total;
    return err;
}

/* The exchange: every edge this process names goes to its source and to its destination; *mine
 * gets the triples of the edges that end here (*nmine of them). */
static int exchange(MPIR_Comm *c, int err, int n, const int *sources, const int *degrees, const int *destinations,
                    const int *weights, bool weighted, long long nedges, int **mine, int *nmine)
{
    MPI_Comm comm = MPIR_Comm_handle(c);
    int size = c->size, *counts = NULL, *send = NULL, *recv = NULL;
    if (err == MPI_SUCCESS) {
        counts = calloc(4 * (size_t) size, sizeof *counts);    /* send counts, displs, recv counts, displs */
        send = malloc((2 * (size_t) nedges * EDGE_INTS + 1) * sizeof *send);
        if (counts == NULL || send == NULL)
            err = MPIR_Err(MPI_ERR_NO_MEM, "out of memory for the %lld edges of MPI_Dist_graph_create", nedges);
    }
    int *scounts = counts, *sdispls = counts + size, *rcounts = counts + 2 * size, *rdispls = counts + 3 * size;
    if (err == MPI_SUCCESS) {
        for (int i = 0, e = 0; i < n; i++)
            for (int j = 0; j < degrees[i]; j++, e++) {
                scounts[sources[i]] += EDGE_INTS;
                scounts[destinations[e]] += EDGE_INTS;
            }
        for (int p = 1; p < size; p++)
            sdispls[p] = sdispls[p - 1] + scounts[p - 1];
        int *fill = rcounts;    /* free until the counts arrive */
        memcpy(fill, sdispls, (size_t) size * sizeof *fill);
        for (int i = 0, e = 0; i < n; i++)
            for (int j = 0; j < degrees[i]; j++, e++) {
                int s = sources[i], d = destinations[e], w = weighted ? weights[e] : 1;
                memcpy(send + fill[s], (int[EDGE_INTS]) { [PEER] = d, [WEIGHT] = w, [DIRECTION] = FROM_ME },
                       sizeof(int[EDGE_INTS]));
                fill[s] += EDGE_INTS;
                memcpy(send + fill[d], (int[EDGE_INTS]) { [PEER] = s, [WEIGHT] = w, [DIRECTION] = TO_ME },
                       sizeof(int[EDGE_INTS]));
                fill[d] += EDGE_INTS;
            }
        err = MPIR_Alltoall_impl(scounts, 1, MPI_INT, rcounts, 1, MPI_INT, comm);
    } else {
        MPIR_Alltoall_without_data(comm, err);
    }
    long long total = 0;
    for (int p = 0; err == MPI_SUCCESS && p < size; p++) {
        rdispls[p] = (int) total;
        total += rcounts[p];
        if (total > INT_MAX)
            err = MPIR_Err(MPI_ERR_ARG, "too many edges end at this process (%lld ints)", total);
    }
    if (err == MPI_SUCCESS && (recv = malloc(((size_t) total + 1) * sizeof *recv)) == NULL)
        err = MPIR_Err(MPI_ERR_NO_MEM, "out of memory for the %lld edges of this process", total / EDGE_INTS);
    if (err == MPI_SUCCESS)
        err = MPIR_Alltoallv_impl(send, (MPIR_Count_array) { .ints = scounts }, (MPIR_Aint_array) { .ints = sdispls },
                                  MPI_INT, recv, (MPIR_Count_array) { .ints = rcounts },
                                  (MPIR_Aint_array) { .ints = rdispls }, MPI_INT, comm);
    else
        MPIR_Alltoall_without_data(comm, err);
    free(counts);
    free(send);
    if (err) {
        free(recv);
        return err;
    }
    *mine = recv;
    *nmine = (int) (total / EDGE_INTS);
    return MPI_SUCCESS;
}

int MPIR_Dist_graph_create_impl(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                                const int *destinations, const int *weights, MPI_Info info, int reorder,
                                MPI_Comm *comm_dist_graph)
{
    (void) info;
    (void) reorder;
    MPIR_Comm *c;
    int err = MPIR_Topo_comm(comm_old, &c);
    if (err)
        return err;
    long long nedges = 0;
    err = check_edges(n, sources, degrees, destinations, weights, c->size, &nedges);
    bool weighted = weights != MPI_UNWEIGHTED;
    int *mine = NULL, nmine = 0;
    err = exchange(c, err, n, sources, degrees, destinations, weights, weighted, nedges, &mine, &nmine);

    /* the triples become the sources and the destinations, in the order they came */
    MPIR_Topology *t = NULL;
    int deg[2] = { 0, 0 }, k[2] = { 0, 0 };
    for (int i = 0; err == MPI_SUCCESS && i < nmine; i++)
        deg[mine[i * EDGE_INTS + DIRECTION]]++;
    if (err == MPI_SUCCESS)
        err = record(deg[TO_ME], NULL, NULL, deg[FROM_ME], NULL, NULL, weighted, &t);
    for (int i = 0; err == MPI_SUCCESS && i < nmine; i++) {
        const int *e = mine + i * EDGE_INTS;
        int dir = e[DIRECTION];
        if (weighted)
            (dir == TO_ME ? t->in_weights : t->out_weights)[k[dir]] = e[WEIGHT];
        (dir == TO_ME ? t->in : t->out)[k[dir]++] = e[PEER];
    }
    free(mine);
    return MPIR_Topo_split(c, err, 0, t, comm_dist_graph);
}

/* ---- queries ---- */

int MPIR_Dist_graph_neighbors_count_impl(MPI_Comm comm, int *indegree, int *outdegree, int *weighted)
{
    MPIR_Topology *t;
    int err = MPIR_Topo_get(comm, MPI_DIST_GRAPH, &t);
    if (err == MPI_SUCCESS) {
        *indegree = t->indegree;
        *outdegree = t->outdegree;
        *weighted = t->weighted;
    }
    return err;
}

/* Copies the first max of n neighbours, and their weights if the graph has them. */
static int copy_neighbors(const char *name, int max, int *ranks, int *weights, const int *from,
                          const int *from_weights, int n)
{
    if (max < 0)
        return MPIR_Err(MPI_ERR_ARG, "invalid %s %d, must be non-negative", name, max);
    int k = n < max ? n : max;
    if (k > 0)
        memcpy(ranks, from, (size_t) k * sizeof(int));
    if (k > 0 && from_weights && weights != MPI_UNWEIGHTED) {
        if (weights == NULL || weights == MPI_WEIGHTS_EMPTY)
            return MPIR_Err(MPI_ERR_ARG, "the weights array for %s is %s", name,
                            weights ? "MPI_WEIGHTS_EMPTY" : "NULL");
        memcpy(weights, from_weights, (size_t) k * sizeof(int));
    }
    return MPI_SUCCESS;
}

int MPIR_Dist_graph_neighbors_impl(MPI_Comm comm, int maxindegree, int sources[], int *sourceweights,
                                   int maxoutdegree, int destinations[], int *destweights)
{
    MPIR_Topology *t;
    int err = MPIR_Topo_get(comm, MPI_DIST_GRAPH, &t);
    err = err ? err : copy_neighbors("maxindegree", maxindegree, sources, sourceweights, t->in, t->in_weights,
                                     t->indegree);
    return err ? err : copy_neighbors("maxoutdegree", maxoutdegree, destinations, destweights, t->out,
                                      t->out_weights, t->outdegree);
}
