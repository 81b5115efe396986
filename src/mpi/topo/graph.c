/*
 * General graph topologies: MPI_Graph_create, MPI_Graph_map and the queries. Every process holds
 * the whole graph as given (index[] and edges[], MPI 4.1 8.5.3): node i's neighbours are
 * edges[index[i-1] .. index[i]) (index[-1] being 0).
 */
#include "topo.h"

int MPIR_Graph_check(int nnodes, const int *index, const int *edges, int size, int *nedges)
{
    if (nnodes < 0 || nnodes > size)
        return MPIR_Err(MPI_ERR_ARG, "invalid nnodes %d (the communicator has %d processes)", nnodes, size);
    int prev = 0;
    for (int i = 0; i < nnodes; i++) {
        if (index[i] < prev)
            return MPIR_Err(MPI_ERR_ARG, "index[%d] = %d is less than the %d before it: index must not decrease",
                            i, index[i], prev);
        prev = index[i];
    }
    if (prev > 0 && edges == NULL)
        return MPIR_Err(MPI_ERR_ARG, "edges is NULL");
    for (int i = 0; i < prev; i++)
        if (edges[i] < 0 || edges[i] >= nnodes)
            return MPIR_Err(MPI_ERR_ARG, "edges[%d] = %d is not a node (0 .. %d)", i, edges[i], nnodes - 1);
    *nedges = prev;
    return MPI_SUCCESS;
}

static int first_edge(const MPIR_Topology *t, int node)
{
    return node == 0 ? 0 : t->index[node - 1];
}

int MPIR_Graph_create_impl(MPI_Comm comm_old, int nnodes, const int index[], const int *edges, int reorder,
                           MPI_Comm *comm_graph)
{
    (void) reorder;
    MPIR_Comm *c;
    MPIR_Topology *t = NULL;
    int nedges = 0, err = MPIR_Topo_comm(comm_old, &c);
    if (err)
        return err;
    err = MPIR_Graph_check(nnodes, index, edges, c->size, &nedges);
    bool member = c->rank < nnodes;
    if (err == MPI_SUCCESS && member)
        err = MPIR_Topo_alloc(MPI_GRAPH, (size_t) nnodes + (size_t) nedges, &t);
    if (err == MPI_SUCCESS && member) {
        size_t used = 0;
        t->nnodes = nnodes;
        t->nedges = nedges;
        t->index = MPIR_Topo_take(t, &used, nnodes);
        t->edges = MPIR_Topo_take(t, &used, nedges);
        memcpy(t->index, index, (size_t) nnodes * sizeof(int));     /* nnodes > rank >= 0 */
        if (nedges > 0)
            memcpy(t->edges, edges, (size_t) nedges * sizeof(int));
        int first = first_edge(t, c->rank);
        t->in = t->out = t->edges + first;
        t->indegree = t->outdegree = t->index[c->rank] - first;
    }
    return MPIR_Topo_split(c, err, member ? 0 : MPI_UNDEFINED, t, comm_graph);
}

int MPIR_Graph_map_impl(MPI_Comm comm, int nnodes, const int index[], const int *edges, int *newrank)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    int nedges, err = MPIR_Graph_check(nnodes, index, edges, c->size, &nedges);
    if (err == MPI_SUCCESS)
        *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
    return err;
}

int MPIR_Graphdims_get_impl(MPI_Comm comm, int *nnodes, int *nedges)
{
    MPIR_Topology *t;
    int err = MPIR_Topo_get(comm, MPI_GRAPH, &t);
    if (err == MPI_SUCCESS) {
        *nnodes = t->nnodes;
        *nedges = t->nedges;
    }
    return err;
}

/* Copies the first max of n ints (max checked non-negative). */
static int copy_out(const char *name, int max, int *dst, const int *src, int n)
{
    if (max < 0)
        return MPIR_Err(MPI_ERR_ARG, "invalid %s %d, must be non-negative", name, max);
    if (n > 0 && max > 0)   /* dst may be NULL when max is 0 */
        memcpy(dst, src, (size_t) (n < max ? n : max) * sizeof(int));
    return MPI_SUCCESS;
}

int MPIR_Graph_get_impl(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    MPIR_Topology *t;
    int err = MPIR_Topo_get(comm, MPI_GRAPH, &t);
    err = err ? err : copy_out("maxindex", maxindex, index, t->index, t->nnodes);
    return err ? err : copy_out("maxedges", maxedges, edges, t->edges, t->nedges);
}

/* The topology, and a check of rank against its nodes. */
static int graph_node(MPI_Comm comm, int rank, MPIR_Topology **t)
{
    int err = MPIR_Topo_get(comm, MPI_GRAPH, t);
    if (err == MPI_SUCCESS && (rank < 0 || rank >= (*t)->nnodes))
        err = MPIR_Err(MPI_ERR_RANK, "invalid rank %d (the graph has %d nodes)", rank, (*t)->nnodes);
    return err;
}

int MPIR_Graph_neighbors_count_impl(MPI_Comm comm, int rank, int *nneighbors)
{
    MPIR_Topology *t;
    int err = graph_node(comm, rank, &t);
    if (err == MPI_SUCCESS)
        *nneighbors = t->index[rank] - first_edge(t, rank);
    return err;
}

int MPIR_Graph_neighbors_impl(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    MPIR_Topology *t;
    int err = graph_node(comm, rank, &t);
    if (err)
        return err;
    int first = first_edge(t, rank);
    return copy_out("maxneighbors", maxneighbors, neighbors, t->edges + first, t->index[rank] - first);
}
