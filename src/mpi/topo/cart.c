/*
 * Cartesian topologies: MPI_Cart_create, MPI_Cart_sub, MPI_Cart_map and the queries.
 *
 * Ranks are laid out row-major (the last dimension varies fastest), so a rank's coordinates are
 * its digits in the mixed radix of dims. The record keeps dims and periods; coordinates are
 * computed when asked, in O(ndims) and without temporaries (a legal grid may have millions of
 * dimensions of size 1).
 */
#include "topo.h"

int MPIR_Cart_check(int ndims, const int *dims, int size, int *nnodes)
{
    if (ndims < 0)
        return MPIR_Err(MPI_ERR_DIMS, "invalid ndims %d, must be non-negative", ndims);
    long long n = 1;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] <= 0)
            return MPIR_Err(MPI_ERR_DIMS, "dims[%d] = %d, must be positive", i, dims[i]);
        n = n * dims[i] > size ? (long long) size + 1 : n * dims[i];   /* capped: no overflow */
    }
    if (n > size)
        return MPIR_Err(MPI_ERR_ARG, "the grid has more processes than the communicator's %d", size);
    *nnodes = (int) n;
    return MPI_SUCCESS;
}

/* rank's coordinates in the grid, the first max of them into coords (no temporary: ndims may be
 * large). */
static void coords_of(int ndims, const int *dims, int rank, int *coords, int max)
{
    for (int i = ndims - 1; i >= 0; i--) {
        if (i < max)
            coords[i] = rank % dims[i];
        rank /= dims[i];
    }
}

/* The rank at coords, wrapped in periodic dimensions; MPI_PROC_NULL past the edge of another. */
static int rank_at(const MPIR_Topology *t, const int *coords)
{
    int rank = 0;
    for (int i = 0; i < t->ndims; i++) {
        int c = coords[i], d = t->dims[i];
        if (c < 0 || c >= d) {
            if (!t->periods[i])
                return MPI_PROC_NULL;
            c = (c % d + d) % d;
        }
        rank = rank * d + c;
    }
    return rank;
}

/* The neighbour of rank at disp (|disp| <= the dimension's size) along the dimension of the given
 * size, stride (ranks between neighbours along it) and periodicity. */
static int shifted(int rank, int size, int stride, bool periodic, int disp)
{
    int c = rank / stride % size, to = c + disp;
    if (to < 0 || to >= size) {
        if (!periodic)
            return MPI_PROC_NULL;
        to = (to % size + size) % size;
    }
    return rank + (to - c) * stride;
}

/* The stride of dimension i: the product of the sizes after it. */
static int stride_of(const MPIR_Topology *t, int i)
{
    int stride = 1;
    for (int j = i + 1; j < t->ndims; j++)
        stride *= t->dims[j];
    return stride;
}

int MPIR_Cart_record(int ndims, const int *dims, const int *periods, int rank, MPIR_Topology **out)
{
    MPIR_Topology *t;
    size_t used = 0;
    int err = MPIR_Topo_alloc(MPI_CART, 4 * (size_t) ndims, &t);
    if (err)
        return err;
    t->ndims = ndims;
    t->dims = MPIR_Topo_take(t, &used, ndims);
    t->periods = MPIR_Topo_take(t, &used, ndims);
    t->in = t->out = MPIR_Topo_take(t, &used, 2 * (size_t) ndims);
    t->indegree = t->outdegree = 2 * ndims;
    for (int i = ndims - 1, stride = 1; i >= 0; stride *= dims[i--]) {
        t->dims[i] = dims[i];
        t->periods[i] = periods[i] != 0;
        t->in[2 * i] = shifted(rank, dims[i], stride, t->periods[i], -1);
        t->in[2 * i + 1] = shifted(rank, dims[i], stride, t->periods[i], 1);
    }
    *out = t;
    return MPI_SUCCESS;
}

int MPIR_Cart_create_impl(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                          MPI_Comm *comm_cart)
{
    (void) reorder;
    MPIR_Comm *c;
    MPIR_Topology *t = NULL;
    int nnodes = 0, err = MPIR_Topo_comm(comm_old, &c);
    if (err)
        return err;
    err = MPIR_Cart_check(ndims, dims, c->size, &nnodes);
    if (err == MPI_SUCCESS && ndims > 0 && periods == NULL)
        err = MPIR_Err(MPI_ERR_ARG, "periods is NULL");
    if (err == MPI_SUCCESS && c->rank < nnodes)
        err = MPIR_Cart_record(ndims, dims, periods, c->rank, &t);
    return MPIR_Topo_split(c, err, c->rank < nnodes ? 0 : MPI_UNDEFINED, t, comm_cart);
}

int MPIR_Cart_sub_impl(MPI_Comm comm, const int *remain_dims, MPI_Comm *newcomm)
{
    MPIR_Topology *t = NULL, *sub = NULL;
    int err = MPIR_Topo_get(comm, MPI_CART, &t);
    if (err)
        return err;
    int n = t->ndims, rank = MPIR_Comm_lookup(comm)->rank;
    if (n > 0 && remain_dims == NULL)
        err = MPIR_Err(MPI_ERR_ARG, "remain_dims is NULL");
    int *kept_dims = err ? NULL : malloc(2 * ((size_t) n + 1) * sizeof(int)), kept = 0;
    if (err == MPI_SUCCESS && kept_dims == NULL)
        err = MPIR_Err(MPI_ERR_NO_MEM, "out of memory for a subgrid of %d dimensions", n);
    /* the members of a subgrid are the processes with this one's coordinates in the dropped
     * dimensions (the color), ordered row-major by the kept ones (the rank in it), which is their
     * order in comm */
    int color = 0, key = 0;
    for (int i = n - 1, r = rank, color_mul = 1, key_mul = 1; err == MPI_SUCCESS && i >= 0; r /= t->dims[i--]) {
        int c = r % t->dims[i];
        if (remain_dims[i]) {
            key += c * key_mul;
            key_mul *= t->dims[i];
        } else {
            color += c * color_mul;
            color_mul *= t->dims[i];
        }
    }
    int *kept_periods = kept_dims ? kept_dims + n + 1 : NULL;
    for (int i = 0; err == MPI_SUCCESS && i < n; i++)
        if (remain_dims[i]) {
            kept_dims[kept] = t->dims[i];
            kept_periods[kept++] = t->periods[i];
        }
    if (err == MPI_SUCCESS)
        err = MPIR_Cart_record(kept, kept_dims, kept_periods, key, &sub);
    free(kept_dims);
    return MPIR_Topo_split(MPIR_Comm_lookup(comm), err, color, sub, newcomm);
}

int MPIR_Cart_map_impl(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank)
{
    (void) periods;
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    int nnodes, err = MPIR_Cart_check(ndims, dims, c->size, &nnodes);
    if (err == MPI_SUCCESS)
        *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
    return err;
}

/* ---- queries ---- */

static int check_max(const char *name, int max)
{
    return max < 0 ? MPIR_Err(MPI_ERR_ARG, "invalid %s %d, must be non-negative", name, max) : MPI_SUCCESS;
}

int MPIR_Cartdim_get_impl(MPI_Comm comm, int *ndims)
{
    MPIR_Topology *t;
    int err = MPIR_Topo_get(comm, MPI_CART, &t);
    if (err == MPI_SUCCESS)
        *ndims = t->ndims;
    return err;
}

int MPIR_Cart_get_impl(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    MPIR_Topology *t;
    int err = MPIR_Topo_get(comm, MPI_CART, &t);
    err = err ? err : check_max("maxdims", maxdims);
    if (err)
        return err;
    coords_of(t->ndims, t->dims, MPIR_Comm_lookup(comm)->rank, coords, maxdims);
    for (int i = 0; i < t->ndims && i < maxdims; i++) {
        dims[i] = t->dims[i];
        periods[i] = t->periods[i];
    }
    return MPI_SUCCESS;
}

int MPIR_Cart_coords_impl(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    MPIR_Topology *t;
    int err = MPIR_Topo_get(comm, MPI_CART, &t);
    err = err ? err : check_max("maxdims", maxdims);
    if (err)
        return err;
    int size = MPIR_Comm_lookup(comm)->size;
    if (rank < 0 || rank >= size)
        return MPIR_Err(MPI_ERR_RANK, "invalid rank %d (the communicator has %d processes)", rank, size);
    coords_of(t->ndims, t->dims, rank, coords, maxdims);
    return MPI_SUCCESS;
}

int MPIR_Cart_rank_impl(MPI_Comm comm, const int coords[], int *rank)
{
    MPIR_Topology *t;
    int err = MPIR_Topo_get(comm, MPI_CART, &t);
    if (err)
        return err;
    if (t->ndims > 0 && coords == NULL)
        return MPIR_Err(MPI_ERR_ARG, "coords is NULL");
    for (int i = 0; i < t->ndims; i++)
        if (!t->periods[i] && (coords[i] < 0 || coords[i] >= t->dims[i]))
            return MPIR_Err(MPI_ERR_ARG, "coords[%d] = %d is outside the non-periodic dimension of %d", i, coords[i],
                            t->dims[i]);
    *rank = rank_at(t, coords);
    return MPI_SUCCESS;
}

int MPIR_Cart_shift_impl(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest)
{
    MPIR_Topology *t;
    int err = MPIR_Topo_get(comm, MPI_CART, &t);
    if (err)
        return err;
    if (direction < 0 || direction >= t->ndims)
        return MPIR_Err(MPI_ERR_ARG, "invalid direction %d (the grid has %d dimensions)", direction, t->ndims);
    int rank = MPIR_Comm_lookup(comm)->rank, d = t->dims[direction], stride = stride_of(t, direction);
    int step = t->periods[direction] ? disp % d : disp < -d ? -d : disp > d ? d : disp;    /* no overflow */
    *rank_source = shifted(rank, d, stride, t->periods[direction], -step);
    *rank_dest = shifted(rank, d, stride, t->periods[direction], step);
    return MPI_SUCCESS;
}
