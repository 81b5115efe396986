/*
 * Typed copies within one process (a collective's own block, in-place snapshots, MPI_REPLACE).
 *
 * Both sides are packed streams in type-map order: a contiguous side is read or written directly
 * by the other side's segment; two non-contiguous sides meet in a small bounce buffer, chunk by
 * chunk. A chunk ends on the source's element boundaries and the destination takes the elements
 * that are whole in it; the rest waits at the front of the buffer for the next chunk.
 */
#include "mpiimpl.h"
#include "mpid_dataloop.h"

#define BOUNCE_BYTES (64 * 1024)

/* The type matching rule the device applies to messages (MPI 4.1 section 3.3.1): the source's
 * signature must be a prefix of the destination's; MPI_PACKED matches anything, and
 * LOOM_TYPE_CHECK=0 turns the check off. Checked here where the source fills whole instances of
 * the destination type, which is every copy of a correct program's collective. */
static int check_signatures(const MPID_Datatype *s, MPI_Count scount, const MPID_Datatype *d)
{
    static int enabled = -1;
    if (enabled < 0) {
        const char *e = getenv("LOOM_TYPE_CHECK");
        enabled = !(e && e[0] == '0');
    }
    MPI_Count n = scount * s->n_elements;
    if (!enabled || s == d || s->basic_type == MPI_PACKED || d->basic_type == MPI_PACKED || d->n_elements == 0
        || n % d->n_elements != 0)
        return MPI_SUCCESS;
    if (MPID_Datatype_signature(s, scount) == MPID_Datatype_signature(d, n / d->n_elements))
        return MPI_SUCCESS;
    char sn[MPIR_HANDLE_STR_MAX], dn[MPIR_HANDLE_STR_MAX];
    return MPIR_Err(MPI_ERR_TYPE, "type signatures do not match: %lld x %s copied into %lld x %s",
                    (long long) scount, MPIR_Datatype_str(MPID_Datatype_handle(s), sn),
                    (long long) (n / d->n_elements), MPIR_Datatype_str(MPID_Datatype_handle(d), dn));
}

/* Both sides non-contiguous: pack and unpack through the bounce buffer. */
static int copy_bounced(MPID_Segment *src, MPID_Segment *dst, MPI_Count bytes)
{
    char *bounce = malloc(BOUNCE_BYTES);
    if (!bounce)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory for a copy buffer");
    int err = MPI_SUCCESS;
    MPI_Count packed = 0, unpacked = 0;     /* bounce holds stream bytes [unpacked, packed) */
    while (unpacked < bytes) {
        MPI_Count last = unpacked + BOUNCE_BYTES < bytes ? unpacked + BOUNCE_BYTES : bytes;
        if (packed < last) {
            MPI_Count got = last;
            if ((err = MPID_Segment_pack(src, packed, &got, bounce + (packed - unpacked))) != MPI_SUCCESS)
                break;
            packed = got;
        }
        MPI_Count done = packed;
        if ((err = MPID_Segment_unpack(dst, unpacked, &done, bounce)) != MPI_SUCCESS)
            break;
        /* the buffer holds far more than any element: no progress means a partial element at the
         * end of the stream, which only mismatched signatures produce */
        if (done == unpacked) {
            err = MPIR_Err(MPI_ERR_TYPE, "the source and destination type signatures do not match "
                           "(no whole destination element at byte %lld)", (long long) unpacked);
            break;
        }
        memmove(bounce, bounce + (done - unpacked), (size_t) (packed - done));
        unpacked = done;
    }
    free(bounce);
    return err;
}

int MPIR_Localcopy(const void *src, MPI_Count scount, MPI_Datatype stype, void *dst, MPI_Count dcount,
                   MPI_Datatype dtype)
{
    const MPID_Datatype *s = MPID_Datatype_get(stype), *d = MPID_Datatype_get(dtype);
    MPI_Count sbytes = scount * s->size, dbytes = dcount * d->size;
    if (sbytes > dbytes)
        return MPIR_Err(MPI_ERR_TRUNCATE, "%lld bytes of data do not fit in a buffer of %lld bytes",
                        (long long) sbytes, (long long) dbytes);
    if (sbytes == 0)
        return MPI_SUCCESS;
    int err = check_signatures(s, scount, d);
    if (err)
        return err;
    bool s_contig = s->is_contig, d_contig = d->is_contig;
    const char *sdata = (const char *) ((uintptr_t) src + (uintptr_t) s->true_lb);
    char *ddata = (char *) ((uintptr_t) dst + (uintptr_t) d->true_lb);
    if (s_contig && d_contig) {
        memmove(ddata, sdata, (size_t) sbytes);
        return MPI_SUCCESS;
    }

    MPID_Segment sseg, dseg;
    MPI_Count last = sbytes;
    if (s_contig) {
        if ((err = MPID_Segment_init(&dseg, dst, dcount, dtype)) != MPI_SUCCESS)
            return err;
        err = MPID_Segment_unpack(&dseg, 0, &last, sdata);
        MPID_Segment_free(&dseg);
    } else if (d_contig) {
        if ((err = MPID_Segment_init(&sseg, src, scount, stype)) != MPI_SUCCESS)
            return err;
        err = MPID_Segment_pack(&sseg, 0, &last, ddata);
        MPID_Segment_free(&sseg);
    } else {
        if ((err = MPID_Segment_init(&sseg, src, scount, stype)) != MPI_SUCCESS)
            return err;
        if ((err = MPID_Segment_init(&dseg, dst, dcount, dtype)) != MPI_SUCCESS) {
            MPID_Segment_free(&sseg);
            return err;
        }
        err = copy_bounced(&sseg, &dseg, sbytes);
        MPID_Segment_free(&sseg);
        MPID_Segment_free(&dseg);
    }
    if (err == MPI_SUCCESS && last != sbytes)
        err = MPIR_Err(MPI_ERR_TYPE, "the source and destination type signatures do not match "
                       "(copy stopped at byte %lld of %lld)", (long long) last, (long long) sbytes);
    return err;
}
