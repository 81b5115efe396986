/*
 * The topology record: allocation, sharing between duplicates, lookup by kind, MPI_Topo_test, and
 * the split every constructor ends with.
 */
#include "topo.h"

int MPIR_Topo_alloc(int kind, size_t nints, MPIR_Topology **out)
{
    MPIR_Topology *t = calloc(1, sizeof *t + nints * sizeof(int));
    if (t == NULL)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory for a topology of %zu ints", nints);
    atomic_init(&t->refs, 1);
    t->kind = kind;
    *out = t;
    return MPI_SUCCESS;
}

struct MPIR_Topology *MPIR_Topo_share(struct MPIR_Topology *topo)
{
    if (topo)
        atomic_fetch_add(&topo->refs, 1);
    return topo;
}

void MPIR_Topo_release(struct MPIR_Topology *topo)
{
    if (topo && atomic_fetch_sub(&topo->refs, 1) == 1)
        free(topo);
}

int MPIR_Topo_comm(MPI_Comm comm, MPIR_Comm **c)
{
    *c = MPIR_Comm_lookup(comm);
    return (*c)->is_inter ? MPIR_Err(MPI_ERR_COMM, "a topology cannot be attached to an intercommunicator") : 0;
}

static const char *kind_name(int kind)
{
    return kind == MPI_CART ? "a Cartesian topology" : kind == MPI_GRAPH ? "a graph topology"
           : kind == MPI_DIST_GRAPH ? "a distributed graph topology" : "a topology";
}

int MPIR_Topo_get(MPI_Comm comm, int kind, MPIR_Topology **topo)
{
    MPIR_Topology *t = MPIR_Comm_lookup(comm)->topo;
    if (t == NULL || (kind && t->kind != kind))
        return MPIR_Err(MPI_ERR_TOPOLOGY, "the communicator has %s, not %s", t ? kind_name(t->kind) : "no topology",
                        kind_name(kind));
    *topo = t;
    return MPI_SUCCESS;
}

int MPIR_Topo_test_impl(MPI_Comm comm, int *status)
{
    MPIR_Topology *t = MPIR_Comm_lookup(comm)->topo;
    *status = t ? t->kind : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

int MPIR_Topo_split(MPIR_Comm *comm, int local_err, int color, MPIR_Topology *topo, MPI_Comm *newcomm)
{
    MPI_Comm c = MPI_COMM_NULL;
    if (local_err)
        color = local_err == MPI_ERR_NO_MEM || local_err == MPI_ERR_OTHER ? MPIR_SPLIT_FAILED_COLOR
                : MPIR_SPLIT_BAD_COLOR;
    int err = MPIR_Comm_split_internal(comm, color, comm->rank, MPI_ERR_ARG,
                                       "passed invalid arguments to the topology constructor", &c);
    if (local_err || err) {
        MPIR_Topo_release(topo);
        return local_err ? local_err : err;
    }
    if (c != MPI_COMM_NULL)
        MPIR_Comm_lookup(c)->topo = topo;
    else
        MPIR_Topo_release(topo);
    *newcomm = c;
    return MPI_SUCCESS;
}
