/*
 * MPI_Get_count, MPI_Get_elements and MPI_Status_set_elements: between the byte count a status
 * carries (mpir_status.h) and counts of whole instances or of basic elements of a type.
 *
 * A type whose basic elements all have one type (dt->basic_type) has elements of one size, so
 * both directions are a division or a product. A mixed type can end its data inside an instance;
 * the elements of that partial instance are found by walking its runs with the segment, so a
 * pair type counts 2, and a message ending between the halves of a pair delivers the first half.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"
#include "mpir_status.h"
#include "mpid_dataloop.h"

static int read_bytes(const MPI_Status *status, MPI_Count *bytes)
{
    *bytes = MPIR_Status_get_bytes(status);
    if (*bytes < 0)
        return MPIR_Err(MPI_ERR_ARG, "status holds a negative byte count (%lld): it was not set by MPI",
                        (long long) *bytes);
    return MPI_SUCCESS;
}

int MPIR_Get_count_impl(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    MPI_Count bytes = 0, size = MPID_Datatype_get(datatype)->size;
    int err = read_bytes(status, &bytes);
    if (err)
        return err;
    if (size == 0)
        *count = bytes == 0 ? 0 : MPI_UNDEFINED;   /* MPI 4.1: a zero-size type counts 0 */
    else
        *count = bytes % size == 0 ? bytes / size : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

/* ---- walking the basic elements of one instance ---- */

typedef struct {
    MPI_Count elements;    /* elements seen so far */
    MPI_Count left;        /* elements still to measure (set_elements) */
    MPI_Count bytes;       /* packed bytes of the measured elements */
    bool measuring;        /* set_elements: stop once left reaches 0 */
} Tally;

static int tally_run(void *state, char *addr, MPI_Datatype el_type, MPI_Count n)
{
    (void) addr;
    Tally *t = state;
    MPI_Count take = n < t->left ? n : t->left;
    t->elements += n;
    t->left -= take;
    t->bytes += take * MPID_Datatype_get(el_type)->size;
    return t->measuring && t->left == 0 ? MPID_RUN_STOP : MPI_SUCCESS;
}

/* Walks the runs of the packed bytes [0, *last) of one instance of type; *last is lowered to the
 * basic-element boundary at or below it. */
static int walk_instance(MPI_Datatype type, MPI_Count *last, Tally *t)
{
    MPID_Segment seg;
    int err = MPID_Segment_init(&seg, NULL, 1, type);
    if (err)
        return err;
    err = MPID_Segment_for_each_run(&seg, 0, last, tally_run, t);
    MPID_Segment_free(&seg);
    return err;
}

int MPIR_Get_elements_impl(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    const MPID_Datatype *dt = MPID_Datatype_get(datatype);
    MPI_Count bytes = 0;
    int err = read_bytes(status, &bytes);
    if (err)
        return err;
    if (dt->size == 0) {
        *count = bytes == 0 ? 0 : MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    if (dt->basic_type != MPI_DATATYPE_NULL) {
        MPI_Count el_size = MPID_Datatype_get(dt->basic_type)->size;
        *count = bytes % el_size == 0 ? bytes / el_size : MPI_UNDEFINED;
        return MPI_SUCCESS;
    }

    /* whole instances, then the elements of the partial one (n_elements <= size: no overflow) */
    MPI_Count full = bytes / dt->size, rest = bytes % dt->size;
    Tally t = { 0, 0, 0, false };
    if (rest > 0) {
        MPI_Count last = rest;
        if ((err = walk_instance(datatype, &last, &t)))
            return err;
        if (last != rest) {     /* the data ends inside a basic element */
            *count = MPI_UNDEFINED;
            return MPI_SUCCESS;
        }
    }
    *count = full * dt->n_elements + t.elements;
    return MPI_SUCCESS;
}

int MPIR_Status_set_elements_impl(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    const MPID_Datatype *dt = MPID_Datatype_get(datatype);
    MPI_Count bytes = 0;
    int err;

    if (count > 0 && dt->n_elements == 0)
        return MPIR_Err(MPI_ERR_ARG, "count %lld, but the datatype has no basic elements",
                        (long long) count);
    if (count > 0 && dt->basic_type != MPI_DATATYPE_NULL) {
        if (MPIR_Mul_overflows(count, MPID_Datatype_get(dt->basic_type)->size, &bytes))
            goto too_many;
    } else if (count > 0) {
        /* whole instances, then the bytes of the first count % n_elements elements of one */
        MPI_Count full = count / dt->n_elements;
        Tally t = { 0, count % dt->n_elements, 0, true };
        if (t.left > 0) {
            MPI_Count last = dt->size;
            if ((err = walk_instance(datatype, &last, &t)))
                return err;
        }
        if (MPIR_Mul_overflows(full, dt->size, &bytes) || MPIR_Add_overflows(bytes, t.bytes, &bytes))
            goto too_many;
    }
    MPIR_Status_set_bytes(status, bytes);
    return MPI_SUCCESS;

  too_many:
    return MPIR_Err(MPI_ERR_ARG, "count %lld: that many elements would exceed the largest byte count",
                    (long long) count);
}
