/*
 * MPI_Type_create_darray (and its _c twin): the part of a distributed global array that one process
 * of a process grid owns (HPF-style block / cyclic(k) / none distributions).
 *
 * The standard (MPI 4.1, 5.1.4) defines the type dimension by dimension, from the fastest varying
 * one outwards (the last for MPI_ORDER_C, the first for MPI_ORDER_FORTRAN): the type of dimension i
 * places the elements this process owns along i, each element being the type of the inner
 * dimensions, and is resized to lb 0 and extent gsizes[i] * (extent of one inner element). So the
 * result has lb 0 and extent product(gsizes) * extent(oldtype).
 *
 * The process grid is always numbered in row-major order, whatever `order` says.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"

/* The internal tree is made of ordinary constructed types, so the engine and the contents of each
 * node are those of the constructor the standard names. Each node is referenced by its parent's
 * contents; drop() gives up our handle on a node once its parent holds it. */
static void drop(MPI_Datatype t)
{
    MPID_Datatype_user_free(MPID_Datatype_get(t));
}

static int check_args(int size, int rank, int ndims, const MPI_Count *gsizes, const int *distribs,
                      const int *dargs, const int *psizes, int order)
{
    if (size <= 0)
        return MPIR_Err(MPI_ERR_ARG, "invalid size %d, must be positive", size);
    if (rank < 0 || rank >= size)
        return MPIR_Err(MPI_ERR_RANK, "invalid rank %d, must be in [0, size=%d)", rank, size);
    if (ndims < 1)
        return MPIR_Err(MPI_ERR_DIMS, "invalid ndims %d, must be positive", ndims);
    if (ndims > (INT_MAX - 4) / 4)  /* the contents count 4*ndims+4 must fit an int */
        return MPIR_Err(MPI_ERR_DIMS, "invalid ndims %d, too many dimensions", ndims);

    int64_t nprocs = 1;
    for (int i = 0; i < ndims; i++) {
        if (gsizes[i] < 1)
            return MPIR_Err(MPI_ERR_ARG, "array_of_gsizes[%d]=%lld, must be positive", i, gsizes[i]);
        if (psizes[i] < 1)
            return MPIR_Err(MPI_ERR_ARG, "array_of_psizes[%d]=%d, must be positive", i, psizes[i]);
        if (dargs[i] < 1 && dargs[i] != MPI_DISTRIBUTE_DFLT_DARG)
            return MPIR_Err(MPI_ERR_ARG, "array_of_dargs[%d]=%d, must be positive or MPI_DISTRIBUTE_DFLT_DARG",
                            i, dargs[i]);
        switch (distribs[i]) {
        case MPI_DISTRIBUTE_BLOCK:
            /* the blocks must cover the dimension */
            if (dargs[i] != MPI_DISTRIBUTE_DFLT_DARG && (int64_t) dargs[i] * psizes[i] < gsizes[i])
                return MPIR_Err(MPI_ERR_ARG, "array_of_dargs[%d]=%d * array_of_psizes[%d]=%d is less than "
                                "array_of_gsizes[%d]=%lld", i, dargs[i], i, psizes[i], i, gsizes[i]);
            break;
        case MPI_DISTRIBUTE_CYCLIC:
            break;
        case MPI_DISTRIBUTE_NONE:
            if (psizes[i] != 1)
                return MPIR_Err(MPI_ERR_ARG, "array_of_psizes[%d]=%d, must be 1 for MPI_DISTRIBUTE_NONE",
                                i, psizes[i]);
            break;
        default:
            return MPIR_Err(MPI_ERR_ARG, "invalid array_of_distribs[%d]=%d", i, distribs[i]);
        }
        nprocs *= psizes[i];    /* cannot overflow: stops growing past size below */
        if (nprocs > size)
            break;
    }
    if (nprocs != size)
        return MPIR_Err(MPI_ERR_ARG, "the product of array_of_psizes is not size=%d", size);
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return MPIR_Err(MPI_ERR_ARG, "invalid order %d, must be MPI_ORDER_C or MPI_ORDER_FORTRAN", order);
    return MPI_SUCCESS;
}

/* One dimension of gsize elements of type elem (each elem_ext bytes), distributed over psize
 * processes, as seen by the process at coordinate coord. The result is not yet resized. */
static int build_dim(int distrib, int darg, int64_t gsize, int psize, int coord, MPI_Datatype elem,
                     MPI_Aint elem_ext, bool is_c, MPI_Datatype *newp)
{
    if (distrib == MPI_DISTRIBUTE_NONE) {   /* one block: the whole dimension (psize is 1) */
        distrib = MPI_DISTRIBUTE_BLOCK;
        darg = MPI_DISTRIBUTE_DFLT_DARG;
    }

    if (distrib == MPI_DISTRIBUTE_BLOCK) {
        /* one block of b elements per process; the last ones may get less, or nothing */
        int64_t b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (gsize - 1) / psize + 1 : darg;
        int64_t n = 0;
        MPI_Aint disp = 0;
        if (coord <= (gsize - 1) / b) {     /* my block starts inside the dimension */
            int64_t first = b * coord;
            n = gsize - first < b ? gsize - first : b;
            disp = first * elem_ext;        /* inside the dimension: cannot overflow */
        }
        return MPIR_Type_create_hindexed_block_impl(1, n, &disp, elem, newp, is_c);
    }

    /* cyclic(b): block k (of b elements, the last one possibly shorter) belongs to process k % psize */
    int64_t b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    int64_t nblocks = (gsize - 1) / b + 1;
    int64_t mine = coord < nblocks ? (nblocks - 1 - coord) / psize + 1 : 0;
    int64_t last_len = gsize - (nblocks - 1) * b;
    bool short_last = mine > 0 && (nblocks - 1) % psize == coord && last_len < b;
    int64_t full = short_last ? mine - 1 : mine;

    /* a struct of up to two blocks: the full blocks as one hvector, then the short last block;
     * every offset and the stride lie inside the dimension, so none can overflow */
    MPI_Datatype types[2];
    MPI_Count lens[2];
    MPI_Aint disps[2];
    int n = 0, err;
    if (full > 0) {
        MPI_Aint stride = full > 1 ? b * psize * elem_ext : 0;
        err = MPIR_Type_create_hvector_impl(full, b, stride, elem, &types[n], is_c);
        if (err)
            return err;
        lens[n] = 1;
        disps[n++] = b * coord * elem_ext;
    }
    if (short_last) {
        types[n] = elem;
        lens[n] = last_len;
        disps[n++] = (nblocks - 1) * b * elem_ext;
    }
    err = MPIR_Type_create_struct_impl(n, (MPIR_Count_array) { .counts = lens }, disps, types, newp, is_c);
    if (full > 0)
        drop(types[0]);
    return err;
}

/* The internal type, a new handle in *implp. */
static int build_layout(int rank, int ndims, const MPI_Count *gsizes, const int *distribs,
                        const int *dargs, const int *psizes, int order, MPI_Datatype oldtype,
                        bool is_c, MPI_Datatype *implp)
{
    MPI_Datatype cur = oldtype, next;
    bool owned = false;
    MPI_Aint elem_ext = MPID_Datatype_get(oldtype)->extent;  /* one element of the current dimension */
    int err = MPI_SUCCESS;

    int *coords = malloc(ndims * sizeof(*coords));
    MPIR_CHKMEM(coords);
    for (int i = ndims - 1, r = rank; i >= 0; i--) {    /* row-major process grid */
        coords[i] = r % psizes[i];
        r /= psizes[i];
    }

    for (int k = 0; k < ndims; k++) {
        int i = order == MPI_ORDER_C ? ndims - 1 - k : k;  /* fastest varying first */
        int64_t dim_ext;
        if (MPIR_Mul_overflows(gsizes[i], elem_ext, &dim_ext)) {
            err = MPIR_Err(MPI_ERR_ARG, "the global array's extent overflows MPI_Aint");
            break;
        }
        err = build_dim(distribs[i], dargs[i], gsizes[i], psizes[i], coords[i], cur, elem_ext, is_c, &next);
        if (err)
            break;
        if (owned)
            drop(cur);
        cur = next;
        owned = true;
        err = MPIR_Type_create_resized_impl(cur, 0, dim_ext, &next, is_c);
        if (err)
            break;
        drop(cur);
        cur = next;
        elem_ext = dim_ext;
    }
    free(coords);
    if (err) {
        if (owned)
            drop(cur);
        return err;
    }
    *implp = cur;
    return MPI_SUCCESS;
}

/* The contents, in the order of the standard's table. */
static int set_contents(MPID_Datatype *dt, int size, int rank, int ndims, const MPI_Count *gsizes,
                        const int *distribs, const int *dargs, const int *psizes, int order,
                        MPI_Datatype oldtype, bool is_c)
{
    int nvals = 4 * ndims + 4;
    int64_t *vals = malloc(nvals * sizeof(*vals));
    MPIR_CHKMEM(vals);
    vals[0] = size;
    vals[1] = rank;
    vals[2] = ndims;
    for (int i = 0; i < ndims; i++) {
        vals[3 + i] = gsizes[i];
        vals[3 + ndims + i] = distribs[i];
        vals[3 + 2 * ndims + i] = dargs[i];
        vals[3 + 3 * ndims + i] = psizes[i];
    }
    vals[nvals - 1] = order;
    int err = MPID_Datatype_set_contents(dt, MPI_COMBINER_DARRAY, is_c, nvals, vals, 1, &oldtype);
    free(vals);
    return err;
}

int MPIR_Type_create_darray_impl(int size, int rank, int ndims, const MPI_Count *array_of_gsizes,
                                 const int *array_of_distribs, const int *array_of_dargs,
                                 const int *array_of_psizes, int order, MPI_Datatype oldtype,
                                 MPI_Datatype *newtype, bool is_c)
{
    MPI_Datatype impl = MPI_DATATYPE_NULL;
    MPID_Datatype *dt = NULL;
    int err = check_args(size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs,
                         array_of_psizes, order);
    if (err)
        return err;

    err = build_layout(rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs,
                       array_of_psizes, order, oldtype, is_c, &impl);
    if (err)
        return err;
    err = MPID_Type_alias(MPID_Datatype_get(impl), &dt);
    drop(impl);     /* dt keeps it as impl_type */
    if (err)
        return err;
    err = set_contents(dt, size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs,
                       array_of_psizes, order, oldtype, is_c);
    if (err) {
        MPID_Datatype_release(dt);
        return err;
    }
    *newtype = MPID_Datatype_handle(dt);
    return MPI_SUCCESS;
}
