/*
 * The datatype constructors of the MPI layer: each converts its arguments to the engine's form
 * (byte displacements, one block description), lets the device compute the new record, and then
 * records the arguments as the user gave them. new_type() does that shared bookkeeping.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"

/* Gives the new record dt its contents c and publishes the handle; err (from the constructor)
 * or any failure here releases both. */
static int publish(int err, MPID_Datatype *dt, MPID_Contents *c, int combiner, bool is_large,
                   const MPI_Datatype *types, MPI_Datatype *newtype)
{
    if (err) {
        MPID_Contents_free_shallow(c);
        return err;
    }
    err = MPID_Datatype_take_contents(dt, c, combiner, is_large, types);
    if (err) {
        MPID_Datatype_release(dt);
        return err;
    }
    *newtype = MPID_Datatype_handle(dt);
    return MPI_SUCCESS;
}

/* The same with the arguments given as an array of values. */
static int new_type(int err, MPID_Datatype *dt, int combiner, bool is_large, int nvals, const int64_t *vals,
                    int ntypes, const MPI_Datatype *types, MPI_Datatype *newtype)
{
    MPID_Contents *c = err ? NULL : MPID_Contents_new(nvals, ntypes);
    if (c)
        memcpy(MPID_Contents_vals(c), vals, (size_t) nvals * sizeof *vals);
    return publish(err, dt, c, combiner, is_large, types, newtype);
}

/* The contents of the array constructors, as the contents table lists them: count, the scalars,
 * then each array, widened from the user's as it is written, once (a copy through a temporary
 * took 1.6 of the 11 ns per block of a 1M-block indexed create, and the int binding's widened
 * temporaries were 16 MB more to fault in). b's arrays then point at these copies, which the
 * device reads; lens is NULL where the block length is one of the scalars. */
static int array_args(MPID_Blocks *b, int nscalars, const int64_t *scalars, const MPIR_Count_array *lens,
                      MPIR_Count_array disps, int ntypes, MPID_Contents **cp)
{
    MPI_Count count = b->count;
    if (count > (INT_MAX - nscalars - 1) / 2)
        return MPIR_Err(MPI_ERR_COUNT, "count %lld is too large to record", (long long) count);
    int nvals = 1 + nscalars + (lens ? (int) count : 0) + (int) count;
    MPID_Contents *c = *cp = MPID_Contents_new(nvals, ntypes);
    if (!c)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory recording datatype contents");
    int64_t *p = MPID_Contents_vals(c);
    *p++ = count;
    for (int i = 0; i < nscalars; i++)
        *p++ = scalars[i];
    if (lens) {
        MPIR_Count_array_copy(p, *lens, count);
        b->blocklens = p;
        p += count;
    }
    MPIR_Count_array_copy(p, disps, count);
    b->disps = p;
    return MPI_SUCCESS;
}

/* Byte displacements (MPI_Aint in both bindings) as a count array, to be recorded the same way. */
static MPIR_Count_array addresses(const MPI_Aint *a)
{
    return (MPIR_Count_array) { .counts = (const MPI_Count *) a };
}

int MPIR_Type_contiguous_impl(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype, bool is_c)
{
    MPID_Datatype *old = MPID_Datatype_get(oldtype), *dt = NULL;
    int64_t vals[] = { count };
    int err = MPID_Type_vector(1, count, 0, old, &dt);
    return new_type(err, dt, MPI_COMBINER_CONTIGUOUS, is_c, 1, vals, 1, &oldtype, newtype);
}

static int vector(MPI_Count count, MPI_Count blocklength, MPI_Aint stride_bytes, int64_t stride_arg,
                  int combiner, MPI_Datatype oldtype, MPI_Datatype *newtype, bool is_c)
{
    MPID_Datatype *old = MPID_Datatype_get(oldtype), *dt = NULL;
    int64_t vals[] = { count, blocklength, stride_arg };
    int err = MPID_Type_vector(count, blocklength, stride_bytes, old, &dt);
    return new_type(err, dt, combiner, is_c, 3, vals, 1, &oldtype, newtype);
}

int MPIR_Type_vector_impl(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                          MPI_Datatype *newtype, bool is_c)
{
    int64_t bytes;
    if (MPIR_Mul_overflows(stride, MPID_Datatype_get(oldtype)->extent, &bytes))
        return MPIR_Err(MPI_ERR_ARG, "stride %lld times the extent of oldtype overflows", (long long) stride);
    return vector(count, blocklength, bytes, stride, MPI_COMBINER_VECTOR, oldtype, newtype, is_c);
}

int MPIR_Type_create_hvector_impl(MPI_Count count, MPI_Count blocklength, MPI_Aint stride,
                                  MPI_Datatype oldtype, MPI_Datatype *newtype, bool is_c)
{
    return vector(count, blocklength, stride, stride, MPI_COMBINER_HVECTOR, oldtype, newtype, is_c);
}

int MPIR_Type_hvector_mpi1_impl(MPI_Count count, MPI_Count blocklength, MPI_Aint stride,
                                MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return MPIR_Type_create_hvector_impl(count, blocklength, stride, oldtype, newtype, false);
}

/* The indexed family and struct: one block description (its arrays set by array_args), then the
 * arguments as given. */
static int blocks(MPID_Blocks *b, int combiner, bool is_c, const MPIR_Count_array *lens,
                  MPIR_Count_array disps, MPI_Datatype *newtype)
{
    MPID_Datatype *dt = NULL;
    /* struct records one type per block (none when count is 0), the others their oldtype */
    int ntypes = b->is_struct ? (int) b->count : 1;
    MPI_Datatype oldtype = b->is_struct ? MPI_DATATYPE_NULL : MPID_Datatype_handle(b->type);
    int64_t scalar = b->blocklen;
    MPID_Contents *c = NULL;
    int err = array_args(b, lens ? 0 : 1, &scalar, lens, disps, ntypes, &c);
    if (err)
        return err;
    err = MPID_Type_blocks(b, &dt);
    return publish(err, dt, c, combiner, is_c, b->is_struct ? b->types : &oldtype, newtype);
}

int MPIR_Type_indexed_impl(MPI_Count count, MPIR_Count_array array_of_blocklengths,
                           MPIR_Count_array array_of_displacements, MPI_Datatype oldtype,
                           MPI_Datatype *newtype, bool is_c)
{
    MPID_Datatype *old = MPID_Datatype_get(oldtype);
    MPID_Blocks b = { .count = count, .disp_unit = old->extent, .type = old };
    return blocks(&b, MPI_COMBINER_INDEXED, is_c, &array_of_blocklengths, array_of_displacements, newtype);
}

int MPIR_Type_create_hindexed_impl(MPI_Count count, MPIR_Count_array array_of_blocklengths,
                                   const MPI_Aint *array_of_displacements, MPI_Datatype oldtype,
                                   MPI_Datatype *newtype, bool is_c)
{
    MPID_Blocks b = { .count = count, .disp_unit = 1, .type = MPID_Datatype_get(oldtype) };
    return blocks(&b, MPI_COMBINER_HINDEXED, is_c, &array_of_blocklengths, addresses(array_of_displacements),
                  newtype);
}

int MPIR_Type_hindexed_mpi1_impl(MPI_Count count, MPIR_Count_array array_of_blocklengths,
                                 const MPI_Aint *array_of_displacements, MPI_Datatype oldtype,
                                 MPI_Datatype *newtype)
{
    return MPIR_Type_create_hindexed_impl(count, array_of_blocklengths, array_of_displacements, oldtype,
                                          newtype, false);
}

int MPIR_Type_create_indexed_block_impl(MPI_Count count, MPI_Count blocklength,
                                        MPIR_Count_array array_of_displacements, MPI_Datatype oldtype,
                                        MPI_Datatype *newtype, bool is_c)
{
    MPID_Datatype *old = MPID_Datatype_get(oldtype);
    MPID_Blocks b = { .count = count, .blocklen = blocklength, .disp_unit = old->extent, .type = old };
    return blocks(&b, MPI_COMBINER_INDEXED_BLOCK, is_c, NULL, array_of_displacements, newtype);
}

int MPIR_Type_create_hindexed_block_impl(MPI_Count count, MPI_Count blocklength,
                                         const MPI_Aint *array_of_displacements, MPI_Datatype oldtype,
                                         MPI_Datatype *newtype, bool is_c)
{
    MPID_Blocks b = { .count = count, .blocklen = blocklength, .disp_unit = 1,
                      .type = MPID_Datatype_get(oldtype) };
    return blocks(&b, MPI_COMBINER_HINDEXED_BLOCK, is_c, NULL, addresses(array_of_displacements), newtype);
}

int MPIR_Type_create_struct_impl(MPI_Count count, MPIR_Count_array array_of_blocklengths,
                                 const MPI_Aint *array_of_displacements, const MPI_Datatype *array_of_types,
                                 MPI_Datatype *newtype, bool is_c)
{
    MPID_Blocks b = { .count = count, .disp_unit = 1, .types = array_of_types, .is_struct = true };
    return blocks(&b, MPI_COMBINER_STRUCT, is_c, &array_of_blocklengths, addresses(array_of_displacements),
                  newtype);
}

int MPIR_Type_struct_mpi1_impl(MPI_Count count, MPIR_Count_array array_of_blocklengths,
                               const MPI_Aint *array_of_displacements, const MPI_Datatype *array_of_types,
                               MPI_Datatype *newtype)
{
    return MPIR_Type_create_struct_impl(count, array_of_blocklengths, array_of_displacements, array_of_types,
                                        newtype, false);
}

int MPIR_Type_create_resized_impl(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype,
                                  bool is_c)
{
    MPID_Datatype *dt = NULL;
    int64_t vals[] = { lb, extent };
    int err = MPID_Type_resized(MPID_Datatype_get(oldtype), lb, extent, &dt);
    return new_type(err, dt, MPI_COMBINER_RESIZED, is_c, 2, vals, 1, &oldtype, newtype);
}

int MPIR_Type_dup_impl(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    MPID_Datatype *old = MPID_Datatype_get(oldtype), *dt = NULL;
    /* A failed dup (typically a copy callback that fails) answers MPI_DATATYPE_NULL, as
     * MPI_Comm_dup answers MPI_COMM_NULL in MPICH, so no stale handle is left in *newtype. */
    *newtype = MPI_DATATYPE_NULL;
    int err = MPID_Type_dup(old, &dt);
    if (err)
        return err;
    /* attributes are copied through their copy callbacks; the name is not copied */
    err = MPID_Datatype_set_contents(dt, MPI_COMBINER_DUP, false, 0, NULL, 1, &oldtype);
    if (!err)
        err = MPIR_Attr_copy_all(&old->attributes, oldtype, &dt->attributes);
    if (err) {
        MPID_Datatype_release(dt);
        return err;
    }
    *newtype = MPID_Datatype_handle(dt);
    return MPI_SUCCESS;
}
