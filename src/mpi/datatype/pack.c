/*
 * MPI_Pack, MPI_Unpack and MPI_Pack_size, and their external32 twins.
 *
 * Both directions check the whole transfer before touching memory: a buffer too small for the
 * data is MPI_ERR_TRUNCATE and nothing is written (MPICH packs what fits; we do not, so a failed
 * call leaves the user's buffers as they were). The copy itself is one segment call over the
 * whole stream (mpid_dataloop.h); contiguous types are one copy (with streaming stores beyond the
 * last-level cache, copy_kernels.h).
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"
#include "mpid_dataloop.h"
#include "mpid_external32.h"
#include "copy_kernels.h"
#include "mpir_pack_fast.h"

/* Packed bytes of count instances of dt; a count whose bytes overflow MPI_Count is MPI_ERR_COUNT,
 * as in a send or receive (segment.c) and the external32 size. */
static int stream_bytes(MPI_Count count, const MPID_Datatype *dt, MPI_Count *bytes)
{
    if (MPIR_Mul_overflows(count, dt->size, bytes))
        return MPIR_Err(MPI_ERR_COUNT, "count %lld of a type of %lld bytes overflows the byte count",
                        (long long) count, (long long) dt->size);
    return MPI_SUCCESS;
}

/* position must lie in the buffer, and need bytes must fit between it and the buffer's end. */
static inline __attribute__((always_inline)) int check_room(const char *bufname, MPI_Count bufsize, MPI_Count position, MPI_Count need)
{
    if (bufsize < 0)
        return MPIR_Err(MPI_ERR_ARG, "invalid %s size %lld, must be non-negative", bufname,
                        (long long) bufsize);
    if (position < 0 || position > bufsize)
        return MPIR_Err(MPI_ERR_ARG, "position %lld is outside the %s [0, %lld]", (long long) position,
                        bufname, (long long) bufsize);
    if (need > bufsize - position)
        return MPIR_Err(MPI_ERR_TRUNCATE,
                        "the data needs %lld bytes but the %s has %lld left after position %lld",
                        (long long) need, bufname, (long long) (bufsize - position),
                        (long long) position);
    return MPI_SUCCESS;
}

/* Copies the whole packed stream of (buf, count, dt), bytes long, to packed (pack) or from it.
 * Inline, as check_room: on a small contiguous pack the calls were a tenth of the time. */
static inline __attribute__((always_inline)) int copy_stream(const void *buf, MPI_Count count, MPID_Datatype *dt, char *packed, MPI_Count bytes,
                       bool pack)
{
    if (bytes == 0)
        return MPI_SUCCESS;
    /* one run of bytes (contiguous types, and e.g. a subarray face that is one run): one copy;
     * integer arithmetic, since buf may be MPI_BOTTOM */
    MPI_Aint offset = dt->true_lb;
    if (dt->is_contig || MPID_Datatype_one_run(dt, count, &offset)) {
        char *data = (char *) ((uintptr_t) buf + (uintptr_t) offset);
        copy_run(pack ? packed : data, pack ? data : packed, (size_t) bytes, (size_t) bytes);
        return MPI_SUCCESS;
    }
    return MPID_Stream_copy(buf, count, dt, packed, pack);
}

/* dt: the record the binding looked up and checked (committed) */
int MPIR_Pack_impl(const void *inbuf, MPI_Count incount, MPID_Datatype *dt, void *outbuf,
                   MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
    (void) comm;   /* a pack for a homogeneous machine is the same for every communicator */
    MPI_Count bytes;
    int err = stream_bytes(incount, dt, &bytes);
    if (err == MPI_SUCCESS)
        err = check_room("output buffer", outsize, *position, bytes);
    if (err)
        return err;
    if (bytes > 0 && outbuf == NULL)
        return MPIR_Err(MPI_ERR_BUFFER, "outbuf is NULL");
    err = copy_stream(inbuf, incount, dt, (char *) ((uintptr_t) outbuf + (uintptr_t) *position), bytes, true);
    if (err == MPI_SUCCESS)
        *position += bytes;
    return err;
}

int MPIR_Unpack_impl(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                     MPI_Count outcount, MPID_Datatype *dt, MPI_Comm comm)
{
    (void) comm;
    MPI_Count bytes;
    int err = stream_bytes(outcount, dt, &bytes);
    if (err == MPI_SUCCESS)
        err = check_room("input buffer", insize, *position, bytes);
    if (err)
        return err;
    if (bytes > 0 && inbuf == NULL)
        return MPIR_Err(MPI_ERR_BUFFER, "inbuf is NULL");
    err = copy_stream(outbuf, outcount, dt, (char *) ((uintptr_t) inbuf + (uintptr_t) *position), bytes, false);
    if (err == MPI_SUCCESS)
        *position += bytes;
    return err;
}

MPIR_LATE int MPIR_Fast_done(char *typed, char *stream, size_t n, const MPID_Plan *plan, bool pack)
{
    if (plan)
        MPID_Plan_run(plan, typed, stream, pack);
    else if (pack)
        MPID_Copy_long(stream, typed, n);
    else
        MPID_Copy_long(typed, stream, n);
    return MPI_SUCCESS;
}

int MPIR_Pack_size_impl(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size)
{
    (void) comm;
    return stream_bytes(incount, MPID_Datatype_get(datatype), size);
}

/* ---- external32 ---- */

static int check_datarep(const char *datarep)
{
    if (strcmp(datarep, "external32") != 0)
        return MPIR_Err(MPI_ERR_UNSUPPORTED_DATAREP,
                        "data representation \"%.64s\" is not supported (only \"external32\")", datarep);
    return MPI_SUCCESS;
}

int MPIR_Pack_external_impl(const char *datarep, const void *inbuf, MPI_Count incount,
                            MPI_Datatype datatype, void *outbuf, MPI_Aint outsize, MPI_Aint *position)
{
    MPI_Count bytes = 0;
    int err = check_datarep(datarep);
    if (err == MPI_SUCCESS)
        err = MPID_External32_size(datatype, incount, &bytes);
    if (err == MPI_SUCCESS)
        err = check_room("output buffer", outsize, *position, bytes);
    if (err)
        return err;
    if (bytes == 0)
        return MPI_SUCCESS;
    if (outbuf == NULL)
        return MPIR_Err(MPI_ERR_BUFFER, "outbuf is NULL");
    err = MPID_External32_pack(inbuf, incount, datatype, (char *) ((uintptr_t) outbuf + (uintptr_t) *position));
    if (err == MPI_SUCCESS)
        *position += bytes;
    return err;
}

int MPIR_Unpack_external_impl(const char *datarep, const void *inbuf, MPI_Aint insize,
                              MPI_Aint *position, void *outbuf, MPI_Count outcount,
                              MPI_Datatype datatype)
{
    MPI_Count bytes = 0;
    int err = check_datarep(datarep);
    if (err == MPI_SUCCESS)
        err = MPID_External32_size(datatype, outcount, &bytes);
    if (err == MPI_SUCCESS)
        err = check_room("input buffer", insize, *position, bytes);
    if (err)
        return err;
    if (bytes == 0)
        return MPI_SUCCESS;
    if (inbuf == NULL)
        return MPIR_Err(MPI_ERR_BUFFER, "inbuf is NULL");
    err = MPID_External32_unpack((const char *) ((uintptr_t) inbuf + (uintptr_t) *position), outbuf, outcount, datatype);
    if (err == MPI_SUCCESS)
        *position += bytes;
    return err;
}

int MPIR_Pack_external_size_impl(const char *datarep, MPI_Count incount, MPI_Datatype datatype,
                                 MPI_Aint *size)
{
    MPI_Count bytes = 0;
    int err = check_datarep(datarep);
    if (err == MPI_SUCCESS)
        err = MPID_External32_size(datatype, incount, &bytes);
    if (err == MPI_SUCCESS)
        *size = (MPI_Aint) bytes;
    return err;
}
