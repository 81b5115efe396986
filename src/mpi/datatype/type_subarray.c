/*
 * MPI_Type_create_subarray (and its _c twin): an ndims-dimensional box of an ndims-dimensional array.
 *
 * The standard (MPI 4.1, 5.1.3) defines the type map by composition: along each dimension, from the
 * fastest varying one outwards, subsizes[d] copies of the inner type spaced by the extent of a full
 * inner slab; the result holds the data at the start coordinates and has lb 0 and extent
 * product(sizes) * extent(oldtype). We build exactly that from the basic constructors:
 *
 *   1. innermost dimension: subsizes[d] contiguous copies of oldtype;
 *   2. each further dimension: an hvector of subsizes[d] copies of the previous type, stride = the
 *      byte extent of one full slab of the inner dimensions;
 *   3. move the box to its start offset (hindexed_block of one block), resize to [0, total extent);
 *   4. hand the user an alias of that internal tree (MPID_Type_alias keeps it as impl_type), so the
 *      user's record decodes as MPI_COMBINER_SUBARRAY while the engine processes the tree.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"

/* The internal tree is made of ordinary constructed types, so the engine and the contents of each
 * node are those of the constructor the standard names. Each node is referenced by its parent's
 * contents; advance() gives up our handle on the previous node once its parent holds it. */
static void advance(MPI_Datatype *cur, bool *owned, MPI_Datatype next)
{
    if (*owned)
        MPID_Datatype_user_free(MPID_Datatype_get(*cur));
    *cur = next;
    *owned = true;
}

static int check_args(int ndims, const MPI_Count *sizes, const MPI_Count *subsizes,
                      const MPI_Count *starts, int order)
{
    if (ndims < 1)
        return MPIR_Err(MPI_ERR_DIMS, "invalid ndims %d, must be positive", ndims);
    if (ndims > (INT_MAX - 2) / 3)  /* the contents count 3*ndims+2 must fit an int */
        return MPIR_Err(MPI_ERR_DIMS, "invalid ndims %d, too many dimensions", ndims);
    for (int d = 0; d < ndims; d++) {
        if (sizes[d] < 1)
            return MPIR_Err(MPI_ERR_ARG, "array_of_sizes[%d]=%lld, must be positive", d, sizes[d]);
        if (subsizes[d] < 1 || subsizes[d] > sizes[d])
            return MPIR_Err(MPI_ERR_ARG, "array_of_subsizes[%d]=%lld, must be in [1, array_of_sizes[%d]=%lld]",
                            d, subsizes[d], d, sizes[d]);
        if (starts[d] < 0 || starts[d] > sizes[d] - subsizes[d])
            return MPIR_Err(MPI_ERR_ARG, "array_of_starts[%d]=%lld, must be in [0, %lld] (size - subsize)",
                            d, starts[d], sizes[d] - subsizes[d]);
    }
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return MPIR_Err(MPI_ERR_ARG, "invalid order %d, must be MPI_ORDER_C or MPI_ORDER_FORTRAN", order);
    return MPI_SUCCESS;
}

/* Steps 1-3: the internal type, a new handle in *implp. */
static int build_layout(int ndims, const MPI_Count *sizes, const MPI_Count *subsizes,
                        const MPI_Count *starts, int order, MPI_Datatype oldtype, bool is_c,
                        MPI_Datatype *implp)
{
    MPI_Datatype cur = oldtype, next;
    bool owned = false;
    MPI_Aint stride = MPID_Datatype_get(oldtype)->extent;  /* bytes between neighbours along a dimension */
    MPI_Aint offset = 0;                                    /* byte offset of the box's first element */
    int err;

    for (int i = 0; i < ndims; i++) {
        int d = order == MPI_ORDER_C ? ndims - 1 - i : i;   /* fastest varying first */
        int64_t start_bytes;
        if (i == 0)
            err = MPIR_Type_contiguous_impl(subsizes[d], cur, &next, is_c);
        else
            err = MPIR_Type_create_hvector_impl(subsizes[d], 1, stride, cur, &next, is_c);
        if (err)
            goto fn_fail;
        advance(&cur, &owned, next);
        if (MPIR_Mul_overflows(starts[d], stride, &start_bytes) ||
            MPIR_Add_overflows(offset, start_bytes, &offset) ||
            MPIR_Mul_overflows(stride, sizes[d], &stride)) {
            err = MPIR_Err(MPI_ERR_ARG, "the array's extent overflows MPI_Aint");
            goto fn_fail;
        }
    }
    /* stride is now the extent of the whole array */

    if (offset != 0) {
        err = MPIR_Type_create_hindexed_block_impl(1, 1, &offset, cur, &next, is_c);
        if (err)
            goto fn_fail;
        advance(&cur, &owned, next);
    }
    err = MPIR_Type_create_resized_impl(cur, 0, stride, &next, is_c);
    if (err)
        goto fn_fail;
    advance(&cur, &owned, next);
    *implp = cur;
    return MPI_SUCCESS;

  fn_fail:
    if (owned)
        MPID_Datatype_user_free(MPID_Datatype_get(cur));
    return err;
}

/* The contents, in the order of the standard's table: ndims, sizes, subsizes, starts, order. */
static int set_contents(MPID_Datatype *dt, int ndims, const MPI_Count *sizes, const MPI_Count *subsizes,
                        const MPI_Count *starts, int order, MPI_Datatype oldtype, bool is_c)
{
    int nvals = 3 * ndims + 2;
    int64_t *vals = malloc(nvals * sizeof(*vals));
    MPIR_CHKMEM(vals);
    vals[0] = ndims;
    for (int d = 0; d < ndims; d++) {
        vals[1 + d] = sizes[d];
        vals[1 + ndims + d] = subsizes[d];
        vals[1 + 2 * ndims + d] = starts[d];
    }
    vals[nvals - 1] = order;
    int err = MPID_Datatype_set_contents(dt, MPI_COMBINER_SUBARRAY, is_c, nvals, vals, 1, &oldtype);
    free(vals);
    return err;
}

int MPIR_Type_create_subarray_impl(int ndims, const MPI_Count *array_of_sizes,
                                   const MPI_Count *array_of_subsizes, const MPI_Count *array_of_starts,
                                   int order, MPI_Datatype oldtype, MPI_Datatype *newtype, bool is_c)
{
    MPI_Datatype impl = MPI_DATATYPE_NULL;
    MPID_Datatype *dt = NULL;
    int err = check_args(ndims, array_of_sizes, array_of_subsizes, array_of_starts, order);
    if (err)
        return err;

    err = build_layout(ndims, array_of_sizes, array_of_subsizes, array_of_starts, order, oldtype, is_c, &impl);
    if (err)
        return err;
    err = MPID_Type_alias(MPID_Datatype_get(impl), &dt);
    MPID_Datatype_user_free(MPID_Datatype_get(impl));     /* dt keeps it as impl_type */
    if (err)
        return err;
    err = set_contents(dt, ndims, array_of_sizes, array_of_subsizes, array_of_starts, order, oldtype, is_c);
    if (err) {
        MPID_Datatype_release(dt);
        return err;
    }
    *newtype = MPID_Datatype_handle(dt);
    return MPI_SUCCESS;
}
