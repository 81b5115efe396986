/*
 * Applying an operation to typed buffers: inout = in op inout (MPI_Reduce_local, and every
 * reduction of the collectives).
 *
 * User operations get the buffers and the datatype as they are. Predefined operations work on
 * elements of one predefined type E (see mpir_op.h):
 *   1. E is the type itself when it is predefined; for a derived type, the one basic type it is
 *      made of, or for MPI_MINLOC/MPI_MAXLOC the one pair type whose repetition has the type's
 *      signature (so a vector of MPI_2INT qualifies, by its signature hash).
 *   2. Buffers whose data is already an array of E in memory (predefined types, contiguous
 *      derived types of E) are reduced in place.
 *   3. Other buffers are reduced in chunks: pack a chunk of each buffer with the segment engine,
 *      reduce the packed elements (a pair type whose packed form differs from its C layout, like
 *      MPI_DOUBLE_INT, is first spread to that layout), unpack the result into inout. When in is
 *      packed already (one-sided accumulates), inout is reduced in place, run by run.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"
#include "mpid_dataloop.h"
#include "op_kernels.h"

#define CHUNK_BYTES (64 * 1024)    /* packed bytes reduced per step of the chunked path */

static const MPI_Datatype pair_types[] = {
    MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_2INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT,
    MPI_2REAL, MPI_2DOUBLE_PRECISION, MPI_2INTEGER,
};

/* Step 1: the element type of a reduction of type by the predefined op, or MPI_DATATYPE_NULL. */
static MPI_Datatype element_type(MPI_Datatype type, MPI_Op op)
{
    if (MPID_Datatype_is_builtin(type))
        return type;
    const MPID_Datatype *dt = MPID_Datatype_get(type);
    if (op != MPI_MINLOC && op != MPI_MAXLOC)
        return dt->basic_type;
    for (size_t k = 0; k < sizeof pair_types / sizeof pair_types[0]; k++) {
        const MPID_Datatype *p = MPID_Datatype_get(pair_types[k]);
        MPI_Count n = dt->size / p->size;
        if (dt->size % p->size == 0 && dt->n_elements == 2 * n && MPID_Datatype_signature(p, n) == dt->sig_hash)
            return pair_types[k];
    }
    return MPI_DATATYPE_NULL;
}

int MPIR_Op_check(MPI_Op op, MPI_Datatype type)
{
    if (!MPIR_Op_is_builtin(op))
        return MPI_SUCCESS;     /* a user function takes any datatype */
    char sop[MPIR_HANDLE_STR_MAX], st[MPIR_HANDLE_STR_MAX], se[MPIR_HANDLE_STR_MAX];
    if (op == MPI_REPLACE || op == MPI_NO_OP)
        return MPIR_Err(MPI_ERR_OP, "%s is defined only for the one-sided accumulate operations",
                        MPIR_Op_str(op, sop));
    if (MPID_Datatype_get(type)->size == 0)
        return MPI_SUCCESS;     /* no data: nothing to reduce */
    MPI_Datatype el = element_type(type, op);
    if (el == MPI_DATATYPE_NULL)
        return MPIR_Err(MPI_ERR_OP, "%s is not defined for datatype %s: a predefined operation needs a "
                        "type made of one predefined %stype", MPIR_Op_str(op, sop), MPIR_Datatype_str(type, st),
                        op == MPI_MINLOC || op == MPI_MAXLOC ? "pair " : "");
    if (!MPIR_Op_kernel_for(op, el)) {
        if (el == type)
            return MPIR_Err(MPI_ERR_OP, "%s is not defined for %s", MPIR_Op_str(op, sop),
                            MPIR_Datatype_str(type, st));
        return MPIR_Err(MPI_ERR_OP, "%s is not defined for %s (the elements of datatype %s)",
                        MPIR_Op_str(op, sop), MPIR_Datatype_str(el, se), MPIR_Datatype_str(type, st));
    }
    return MPI_SUCCESS;
}

void MPIR_Op_apply_user(const MPIR_Op *rec, const void *in, void *inout, MPI_Count count, MPI_Datatype type)
{
    if (rec->fn_c) {
        MPI_Count len = count;
        rec->fn_c((void *) in, inout, &len, &type);
        return;
    }
    MPI_Aint extent = MPID_Datatype_get(type)->extent;
    for (MPI_Count done = 0; done < count;) {
        int len = count - done > INT_MAX ? INT_MAX : (int) (count - done);
        /* integer arithmetic: the buffers may be MPI_BOTTOM with absolute displacements */
        rec->fn((void *) ((uintptr_t) in + (uintptr_t) (done * extent)),
                (void *) ((uintptr_t) inout + (uintptr_t) (done * extent)), &len, &type);
        done += len;
    }
}

/* Pair elements between their packed form (value, index back to back) and their C layout. */
static void pairs_spread(MPI_Datatype pair, const char *packed, char *laid, MPI_Count n, bool spread)
{
    MPI_Datatype vt, it;
    MPI_Aint ioff;
    MPID_Builtin_pair_layout(pair, &vt, &it, &ioff);
    size_t vsize = MPID_Datatype_get(vt)->size, isize = MPID_Datatype_get(it)->size;
    size_t psize = vsize + isize, extent = (size_t) MPID_Datatype_get(pair)->extent;
    for (MPI_Count k = 0; k < n; k++) {
        char *p = (char *) packed + (size_t) k * psize, *l = laid + (size_t) k * extent;
        if (spread) {
            memcpy(l, p, vsize);
            memcpy(l + ioff, p + vsize, isize);
        } else {
            memcpy(p, l, vsize);
            memcpy(p + vsize, l + ioff, isize);
        }
    }
}

/* Step 3: the chunked path for derived buffers. in_packed: in is the packed stream already. */
static int apply_chunked(MPIR_Op_kernel *kernel, MPI_Datatype el, const void *in, bool in_packed, void *inout,
                         MPI_Count count, MPI_Datatype type)
{
    const MPID_Datatype *e = MPID_Datatype_get(el);
    MPI_Count total = count * MPID_Datatype_get(type)->size;
    MPI_Count per_chunk = CHUNK_BYTES / e->size > 0 ? CHUNK_BYTES / e->size : 1;
    bool spread = !(e->is_contig && e->size == e->extent);
    size_t packed_bytes = (size_t) (per_chunk * e->size), laid_bytes = spread ? (size_t) (per_chunk * e->extent) : 0;

    char *mem = malloc(2 * packed_bytes + 2 * laid_bytes);
    if (!mem)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory for a reduction buffer");
    char *a = mem, *b = mem + packed_bytes, *la = b + packed_bytes, *lb = la + laid_bytes;

    /* inout is read and written by two cursors, so each only moves forward (no seeks) */
    MPID_Segment seg[3];                /* inout read, inout written, in (unless packed) */
    const void *bufs[3] = { inout, inout, in };
    int ready = 0, err = MPI_SUCCESS, nseg = in_packed ? 2 : 3;
    while (ready < nseg && (err = MPID_Segment_init(&seg[ready], bufs[ready], count, type)) == MPI_SUCCESS)
        ready++;
    for (MPI_Count first = 0; first < total && err == MPI_SUCCESS;) {
        MPI_Count n = (total - first) / e->size < per_chunk ? (total - first) / e->size : per_chunk;
        MPI_Count end = first + n * e->size, l1 = end, l2 = end, l3 = end;
        if (in_packed)
            memcpy(a, (const char *) in + first, (size_t) (end - first));
        else
            err = MPID_Segment_pack(&seg[2], first, &l1, a);
        if (err == MPI_SUCCESS)
            err = MPID_Segment_pack(&seg[0], first, &l2, b);
        if (err == MPI_SUCCESS && (l1 != end || l2 != end))
            err = MPIR_Err(MPI_ERR_INTERN, "reduction chunk [%lld, %lld) ended early", (long long) first,
                           (long long) end);
        if (err)
            break;
        if (spread) {
            pairs_spread(el, a, la, n, true);
            pairs_spread(el, b, lb, n, true);
            kernel(la, lb, n);
            pairs_spread(el, b, lb, n, false);
        } else {
            kernel(a, b, n);
        }
        err = MPID_Segment_unpack(&seg[1], first, &l3, b);
        first = end;
    }
    for (int i = 0; i < ready; i++)
        MPID_Segment_free(&seg[i]);
    free(mem);
    return err;
}

/* Step 3 when in is packed already and the elements are basic types without gaps: the kernel
 * combines each run of inout's elements (the segment's iov) with the next stretch of in, in
 * place, with no copy of inout. */
static int apply_runs(MPIR_Op_kernel *kernel, MPI_Aint el_size, const char *in, void *inout, MPI_Count count,
                      MPI_Datatype type)
{
    MPID_Segment seg;
    int err = MPID_Segment_init(&seg, inout, count, type);
    if (err)
        return err;
    MPI_Count total = count * MPID_Datatype_get(type)->size;
    MPID_Iov runs[64];
    for (MPI_Count first = 0; first < total && err == MPI_SUCCESS;) {
        MPI_Count last = total, n = 0;
        err = MPID_Segment_to_iov(&seg, first, &last, runs, 64, &n);
        if (err == MPI_SUCCESS && last == first)
            err = MPIR_Err(MPI_ERR_INTERN, "no run of the reduction's buffer at byte %lld", (long long) first);
        for (MPI_Count k = 0; err == MPI_SUCCESS && k < n; k++) {
            kernel(in, runs[k].base, runs[k].len / el_size);
            in += runs[k].len;
        }
        first = last;
    }
    MPID_Segment_free(&seg);
    return err;
}

/* inout = in op inout; in is a typed buffer of (count, type), or with in_packed its packed stream. */
static int apply(const void *in, bool in_packed, void *inout, MPI_Count count, MPI_Datatype type, MPI_Op op)
{
    if (count == 0)
        return MPI_SUCCESS;
    const MPIR_Op *rec = MPIR_Op_lookup(op);
    if (!MPIR_Op_is_builtin(op)) {
        MPIR_Op_apply_user(rec, in, inout, count, type);
        return MPI_SUCCESS;
    }
    if (op == MPI_NO_OP)
        return MPI_SUCCESS;
    if (op == MPI_REPLACE)
        return in_packed ? MPIR_Localcopy(in, count * MPID_Datatype_get(type)->size, MPI_PACKED, inout, count, type)
                         : MPIR_Localcopy(in, count, type, inout, count, type);

    const MPID_Datatype *dt = MPID_Datatype_get(type);
    if (dt->size == 0)
        return MPI_SUCCESS;
    MPI_Datatype el = element_type(type, op);
    MPIR_Op_kernel *kernel = el == MPI_DATATYPE_NULL ? NULL : MPIR_Op_kernel_for(op, el);
    if (!kernel)
        return MPIR_Op_check(op, type);     /* says why */

    /* step 2: the data is an array of el already (a packed stream of el is one when el has no gaps) */
    const MPID_Datatype *e = MPID_Datatype_get(el);
    bool el_dense = e->is_contig && e->size == e->extent;
    if (el == type && (!in_packed || el_dense)) {
        kernel(in, inout, count);
        return MPI_SUCCESS;
    }
    if (dt->is_contig && el_dense) {
        kernel((const char *) in + (in_packed ? 0 : dt->true_lb), (char *) inout + dt->true_lb,
               count * (dt->size / e->size));
        return MPI_SUCCESS;
    }
    /* a basic element lies whole in one run; a pair type's halves might not */
    if (in_packed && el_dense && op != MPI_MINLOC && op != MPI_MAXLOC)
        return apply_runs(kernel, e->size, in, inout, count, type);
    return apply_chunked(kernel, el, in, in_packed, inout, count, type);
}

int MPIR_Op_apply(const void *in, void *inout, MPI_Count count, MPI_Datatype type, MPI_Op op)
{
    return apply(in, false, inout, count, type, op);
}

int MPIR_Op_apply_packed(const void *in, void *inout, MPI_Count count, MPI_Datatype type, MPI_Op op)
{
    return apply(in, true, inout, count, type, op);
}

int MPIR_Reduce_local_impl(const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op)
{
    if (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE)
        return MPIR_Err(MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed in MPI_Reduce_local");
    if (count > 0 && inbuf == inoutbuf && inbuf != MPI_BOTTOM)
        return MPIR_Err(MPI_ERR_BUFFER, "inbuf and inoutbuf are the same buffer (aliased)");
    int err = MPIR_Op_check(op, datatype);
    if (err)
        return err;
    return MPIR_Op_apply(inbuf, inoutbuf, count, datatype, op);
}
