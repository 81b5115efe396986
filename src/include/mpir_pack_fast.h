/*
 * The fast path of MPI_Pack and MPI_Unpack (and their _c twins): one instance of a type with a copy
 * plan (plan.c: a leaf or a struct of leaves, e.g. a face or a gather), or a contiguous type, whose
 * data fits the buffer, on a predefined communicator: the case of most exchanges that pack. The
 * binding tries it before anything else; it only succeeds where the general path could not fail,
 * and leaves everything else (every error included) to that path, which checks again and reports.
 *
 * Why it exists: the general path spends about 250 instructions between the call and the first
 * kernel (checks done twice, the segment set up, the loop looked up twice), which was 12% of
 * packing a NAS LU y face of class C. And it ends with a chain of returns whose register
 * restores load from the stack right after the copy's last stores. When those stack slots share
 * their low 12 address bits with the stores still in flight (4 KiB aliasing), the loads wait for
 * the stores to drain, and the caller's next call waits for the loads: a 6 KiB unpack ran 120
 * instead of 131 GB/s at such stack positions (NAS LU x face, hand loop 140). Here the binding
 * restores its registers and jumps to the copy, so nothing the caller depends on is reloaded
 * after it.
 */
#ifndef MPIR_PACK_FAST_H_INCLUDED
#define MPIR_PACK_FAST_H_INCLUDED

#include <string.h>
#include "mpir_process.h"
#include "mpid_datatype.h"
#include "copy_kernels.h"   /* MPID_Copy_chunk, MPID_Stream_min */
#include "mpid_dataloop.h"  /* MPID_Loop_plan */

/* The copy a fast path leaves for the binding's last call, MPIR_Fast_done: n bytes between the
 * typed buffer and the stream, or one instance through plan. */
typedef struct {
    char *typed, *stream;
    size_t n;
    const MPID_Plan *plan;
    bool pack;   /* typed -> stream */
} MPIR_Fast_copy;

/* pack: typed -> packed + *position; else packed + *position -> typed. position is an int * when
 * int_pos (the MPI-1 binding), else an MPI_Count *. When the call is this case, moves *position on
 * and returns true with the copy left to do in *copy (MPIR_Fast_done, called last); else changes
 * nothing. */
static inline __attribute__((always_inline)) bool
MPIR_Pack_unpack_fast(bool pack, const void *typed, MPI_Count count, MPI_Datatype type, const void *packed,
                      MPI_Count bufsize, void *position, bool int_pos, MPI_Comm comm, MPIR_Fast_copy *copy)
{
    if (!MPIR_Is_initialized() || position == NULL || count < 0 || bufsize < 0 || packed == NULL
        || (comm != MPI_COMM_WORLD && comm != MPI_COMM_SELF))
        return false;
    MPID_Datatype *dt = MPID_Datatype_lookup(type);
    if (!dt || !dt->is_committed)
        return false;
    /* the plan of one instance, once the dataloop is built (commit builds it) */
    const MPID_Plan *plan = dt->is_contig || count != 1
        ? NULL : MPID_Loop_plan(atomic_load_explicit(&dt->dataloop, memory_order_acquire));
    if (!dt->is_contig && !plan)
        return false;
    /* longer contiguous copies go to the general path's copy in pieces (MPID_Copy_long), streams
     * beyond the last-level cache to its streaming stores */
    MPI_Count pos = int_pos ? *(int *) position : *(MPI_Count *) position, bytes, end;
    if (__builtin_mul_overflow(count, dt->size, &bytes) || bytes == 0 || pos < 0 || pos > bufsize
        || bytes > bufsize - pos || (!plan && (size_t) bytes > MPID_Copy_chunk)
        || (size_t) bytes >= MPID_Stream_min)
        return false;
    end = pos + bytes;   /* <= bufsize: fits an int in the int binding */
    if (int_pos)
        *(int *) position = (int) end;
    else
        *(MPI_Count *) position = end;
    /* integer arithmetic: typed may be MPI_BOTTOM */
    copy->typed = (char *) ((uintptr_t) typed + (uintptr_t) (plan ? 0 : dt->true_lb));
    copy->stream = (char *) ((uintptr_t) packed + (uintptr_t) pos);
    copy->n = (size_t) bytes;
    copy->plan = plan;
    copy->pack = pack;
    return true;
}

/* The copy, then MPI_SUCCESS: the binding's tail call, out of line (pack.c) so that the binding
 * restores its registers before the copy rather than after. */
int MPIR_Fast_done(char *typed, char *stream, size_t n, const MPID_Plan *plan, bool pack);

#define MPIR_POS_IS_INT(position) _Generic((position), int *: true, default: false)
#define MPIR_Pack_fast(inbuf, incount, datatype, outbuf, outsize, position, comm, copy) \
    MPIR_Pack_unpack_fast(true, inbuf, incount, datatype, outbuf, outsize, position, MPIR_POS_IS_INT(position), \
                          comm, copy)
#define MPIR_Unpack_fast(inbuf, insize, position, outbuf, outcount, datatype, comm, copy) \
    MPIR_Pack_unpack_fast(false, outbuf, outcount, datatype, inbuf, insize, position, MPIR_POS_IS_INT(position), \
                          comm, copy)

#endif
