/*
 * Process topologies (MPI 4.1 chapter 8): the record a communicator carries, and what the
 * constructors and the neighbourhood collectives share.
 *
 * Files: topo_object.c (the record, MPI_Topo_test, the constructors' common step), cart.c
 * (Cartesian topologies), graph.c (general graphs), dist_graph.c (distributed graphs),
 * dims_create.c (MPI_Dims_create). The neighbourhood collectives are in src/mpi/coll/neighbor.c.
 *
 * A topology never changes once made, so duplicates of a communicator share one record
 * (reference counted). Constructors never reorder ranks (reorder is a hint): the new communicator
 * is a split of the old one, keeping the ranks' order, so argument errors travel through the
 * split to every process (comm.h) instead of leaving the others waiting.
 */
#ifndef MPIR_TOPO_H_INCLUDED
#define MPIR_TOPO_H_INCLUDED

#include "../comm/comm.h"

typedef struct MPIR_Topology {
    _Atomic int refs;
    int kind;                   /* MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH */
    /* MPI_CART: the grid, row-major (the last dimension varies fastest) */
    int ndims;
    int *dims, *periods;
    /* MPI_GRAPH: the whole graph as given to MPI_Graph_create */
    int nnodes, nedges;
    int *index, *edges;
    /* This process's neighbours in the order the neighbourhood collectives use (MPI 4.1 8.6):
     * Cartesian, for each dimension the source then the destination of a shift by 1 (possibly
     * MPI_PROC_NULL); graph, its adjacency list both ways; distributed graph, its sources and
     * its destinations as given. Weights only for a weighted distributed graph. */
    int indegree, outdegree;
    int *in, *out, *in_weights, *out_weights;
    bool weighted;
    int ints[];                 /* the storage of every array above */
} MPIR_Topology;

/* A record of kind with room for nints ints (carved with MPIR_Topo_take), one reference. */
int MPIR_Topo_alloc(int kind, size_t nints, MPIR_Topology **out);
/* The next n ints of t's storage; *used counts what is taken. */
static inline int *MPIR_Topo_take(MPIR_Topology *t, size_t *used, size_t n)
{
    int *p = t->ints + *used;
    *used += n;
    return p;
}

/* The communicator a constructor attaches a topology to: an intracommunicator (MPI_ERR_COMM). */
int MPIR_Topo_comm(MPI_Comm comm, MPIR_Comm **c);

/* The topology of comm if it is of kind (0: any kind), else MPI_ERR_TOPOLOGY. */
int MPIR_Topo_get(MPI_Comm comm, int kind, MPIR_Topology **topo);

/* The constructors' common step, collective over the intracommunicator comm: a split of comm by
 * color (MPI_UNDEFINED: not a member, MPI_COMM_NULL), keeping comm's order. local_err is this
 * process's error so far: it still takes part, and every process then fails (at the others
 * MPI_ERR_ARG for an argument error, else MPI_ERR_OTHER). On success the new communicator gets
 * topo (which it owns from then on); otherwise topo is released. */
int MPIR_Topo_split(MPIR_Comm *comm, int local_err, int color, MPIR_Topology *topo, MPI_Comm *newcomm);

/* Cartesian helpers (cart.c): a record for the grid (dims, periods of ndims entries, already
 * checked) as seen by rank; the product of dims, checked against the limit size (MPI_ERR_DIMS for
 * a non-positive entry, MPI_ERR_ARG beyond size). */
int MPIR_Cart_record(int ndims, const int *dims, const int *periods, int rank, MPIR_Topology **out);
int MPIR_Cart_check(int ndims, const int *dims, int size, int *nnodes);

/* Graph helper (graph.c): checks a graph given as MPI_Graph_create takes it, for a communicator of
 * size processes, and gives its edge count. */
int MPIR_Graph_check(int nnodes, const int *index, const int *edges, int size, int *nedges);

#endif
