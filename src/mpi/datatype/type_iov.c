/*
 * MPIX_Type_iov_len and MPIX_Type_iov (MPICH's extension): the contiguous pieces of ONE instance
 * of a type, as (address, length) pairs relative to buffer address 0, in type-map order, pieces
 * that touch merged into one.
 *
 * Both walk the pieces from the start with the segment's iov builder (a chunk at a time, so the
 * memory used does not depend on the type); a request for pieces [iov_offset, ...) costs a walk
 * over the skipped ones, which the segment cannot index by piece number. Counting all the pieces
 * needs no iov: the segment counts them.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"
#include "mpid_dataloop.h"

#define CHUNK 64

/* Calls visit on each piece of one instance of type, in order, until it returns false. */
typedef bool (*Piece_fn)(void *state, void *base, MPI_Aint len);

static int for_each_piece(MPI_Datatype type, Piece_fn visit, void *state)
{
    MPID_Segment seg;
    int err = MPID_Segment_init(&seg, NULL, 1, type);
    if (err)
        return err;

    MPID_Iov chunk[CHUNK];
    MPID_Iov piece = { NULL, 0 };   /* the piece being assembled: the next chunk may extend it */
    bool more = true;
    for (MPI_Count pos = 0; pos < seg.size && more;) {
        MPI_Count last = seg.size, n = 0;
        if ((err = MPID_Segment_to_iov(&seg, pos, &last, chunk, CHUNK, &n)))
            break;
        if (last <= pos || n == 0) {
            err = MPIR_Err(MPI_ERR_INTERN, "the segment made no progress at byte %lld", (long long) pos);
            break;
        }
        for (MPI_Count i = 0; i < n && more; i++) {
            /* integer arithmetic: the bases are offsets from a NULL buffer */
            if (piece.len > 0 && (uintptr_t) piece.base + (uintptr_t) piece.len == (uintptr_t) chunk[i].base) {
                piece.len += chunk[i].len;
            } else {
                if (piece.len > 0)
                    more = visit(state, piece.base, piece.len);
                piece = chunk[i];
            }
        }
        pos = last;
    }
    if (err == MPI_SUCCESS && more && piece.len > 0)
        visit(state, piece.base, piece.len);
    MPID_Segment_free(&seg);
    return err;
}

typedef struct {
    MPI_Count max_bytes, n, bytes;
} Len_state;

/* Counts the pieces whose running total of bytes stays within max_bytes. */
static bool count_piece(void *state, void *base, MPI_Aint len)
{
    (void) base;
    Len_state *s = state;
    if (len > s->max_bytes - s->bytes)
        return false;
    s->n++;
    s->bytes += len;
    return true;
}

int MPIR_Type_iov_len_impl(MPI_Datatype datatype, MPI_Count max_iov_bytes, MPI_Count *iov_len,
                           MPI_Count *actual_iov_bytes)
{
    if (max_iov_bytes < 0)
        return MPIR_Err(MPI_ERR_ARG, "invalid max_iov_bytes %lld, must be non-negative",
                        (long long) max_iov_bytes);
    MPID_Segment seg;
    int err = MPID_Segment_init(&seg, NULL, 1, datatype);
    if (err)
        return err;
    MPI_Count size = seg.size, last = size, n = 0;
    if (max_iov_bytes >= size)   /* all pieces, the usual question: counted without an iov */
        err = MPID_Segment_count_blocks(&seg, 0, &last, &n);
    MPID_Segment_free(&seg);
    if (err)
        return err;
    if (max_iov_bytes >= size) {
        *iov_len = n;
        *actual_iov_bytes = size;
        return MPI_SUCCESS;
    }
    Len_state s = { max_iov_bytes, 0, 0 };
    err = for_each_piece(datatype, count_piece, &s);
    if (err)
        return err;
    *iov_len = s.n;
    *actual_iov_bytes = s.bytes;
    return MPI_SUCCESS;
}

typedef struct {
    MPI_Count skip;
    MPIX_Iov *iov;
    MPI_Count max, n;
} Iov_state;

/* Skips the first pieces, then stores pieces until the array is full. */
static bool store_piece(void *state, void *base, MPI_Aint len)
{
    Iov_state *s = state;
    if (s->skip > 0) {
        s->skip--;
        return true;
    }
    s->iov[s->n].iov_base = base;
    s->iov[s->n].iov_len = len;
    return ++s->n < s->max;
}

int MPIR_Type_iov_impl(MPI_Datatype datatype, MPI_Count iov_offset, MPIX_Iov *iov,
                       MPI_Count max_iov_len, MPI_Count *actual_iov_len)
{
    if (iov_offset < 0)
        return MPIR_Err(MPI_ERR_ARG, "invalid iov_offset %lld, must be non-negative", (long long) iov_offset);
    if (max_iov_len < 0)
        return MPIR_Err(MPI_ERR_ARG, "invalid max_iov_len %lld, must be non-negative",
                        (long long) max_iov_len);
    if (max_iov_len > 0 && iov == NULL)
        return MPIR_Err(MPI_ERR_ARG, "iov is NULL");
    Iov_state s = { iov_offset, iov, max_iov_len, 0 };
    int err = max_iov_len > 0 ? for_each_piece(datatype, store_piece, &s) : MPI_SUCCESS;
    if (err)
        return err;
    *actual_iov_len = s.n;
    return MPI_SUCCESS;
}
