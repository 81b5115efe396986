/*
 * The copy kernels of the segment processor (segment.c walks the dataloops and hands them runs of
 * bytes and blocks): exact inline copies, strided and indexed block kernels in a baseline and an
 * AVX2 set chosen once from the processor, and the AVX-512 "window" kernels that move small
 * in-order elements (padded structs) whole.
 */
#ifndef COPY_KERNELS_H_INCLUDED
#define COPY_KERNELS_H_INCLUDED

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "mpi.h"
#include "mpid_datatype.h"

/* A typed-buffer address. The base may be MPI_BOTTOM (NULL) with absolute displacements, so the
 * arithmetic is done on integers, where C defines it. */
static inline char *at(char *base, MPI_Aint off)
{
    return (char *) ((uintptr_t) base + (uintptr_t) off);
}

/* base + k * step, the same way (k elements of a possibly huge extent: no signed overflow). */
static inline char *at_k(char *base, MPI_Count k, MPI_Aint step)
{
    return (char *) ((uintptr_t) base + (uintptr_t) k * (uintptr_t) step);
}
/* Unaligned vectors: the compiler uses the widest moves the function's target allows (two 16-byte
 * moves for a V32 in the baseline build, one in the AVX2 kernels). */
typedef char V16 __attribute__((vector_size(16), aligned(1), may_alias));
typedef char V32 __attribute__((vector_size(32), aligned(1), may_alias));

/* Blocks up to this size are copied inline; longer ones go to memcpy, which is faster there. */
#define COPY_INLINE_MAX 2048

/* Long copies go to memcpy in pieces of MPID_Copy_chunk bytes, half the L2 cache (set by
 * MPID_Copy_init): on Zen 4, glibc's rep movsb of a megabyte or more runs about 15% slower than
 * the same bytes in pieces that fit the L2 (2 MiB from L3: 47 vs 55 GB/s; 64 MiB from memory:
 * 20 vs 23). Some go by the kernels' own loop instead, 32-byte moves stored from d's first
 * 32-byte boundary on: glibc's memcpy copies 2113 bytes up to the L2's size with the string move
 * (rep movsb), which crawls on Zen 3 where d lies at another offset than s within 64-byte lines
 * ("skewed"): in a test program, 16 KiB with d 8-24 bytes past s (mod 64) at 1.6-3 GB/s, 40-56
 * bytes past at 20-48, where the loop ran 85-99; MPI_Pack of a contiguous type at position 8 ran
 * 3 GB/s from 4 KiB to 16 MiB. So on AMD processors skewed pairs take the loop (Zen 4 and 5
 * unmeasured there; Intel's string move ran faster than the loops on skewed 4 KiB blocks,
 * copy_kernels.c: copy_string). On Zen 3 the loop also beat the string move lined up, 1.3-1.8x
 * at 2.2-12 KiB in the L1 (6.3 KiB: 85 against 58 GB/s), tied from 32 KiB on: there every long
 * copy takes it (with prefetches ahead beyond the L2: copy_kernels.c, LONG_AHEAD). Out of line,
 * so that the kernels that inline copy_bytes keep their size. */
extern size_t MPID_Copy_chunk;
void MPID_Copy_init(void);
void MPID_Copy_long(char *d, const char *s, size_t n);

/* Copies n bytes exactly: two overlapping moves cover any length up to twice the move size, so
 * short runs cost a few instructions instead of a call to memcpy. Always inlined, so that each
 * kernel set (see KERNEL_SET) gets it compiled for its own vector width. */
static inline __attribute__((always_inline)) void copy_bytes(char *d, const char *s, MPI_Count n)
{
    if (n <= 16) {
        if (n >= 8) {
            uint64_t a, b;
            memcpy(&a, s, 8);
            memcpy(&b, s + n - 8, 8);
            memcpy(d, &a, 8);
            memcpy(d + n - 8, &b, 8);
        } else if (n >= 4) {
            uint32_t a, b;
            memcpy(&a, s, 4);
            memcpy(&b, s + n - 4, 4);
            memcpy(d, &a, 4);
            memcpy(d + n - 4, &b, 4);
        } else if (n > 0) {
            char a = s[0], b = s[n / 2], c = s[n - 1];
            d[0] = a;
            d[n / 2] = b;
            d[n - 1] = c;
        }
    } else if (n <= 32) {
        V16 a = *(const V16 *) s, b = *(const V16 *) (s + n - 16);
        *(V16 *) d = a;
        *(V16 *) (d + n - 16) = b;
    } else if (n <= COPY_INLINE_MAX) {
        /* 32-byte moves, the last one overlapping the one before; it is loaded first, so no load
         * waits behind this copy's stores */
        V32 last = *(const V32 *) (s + n - 32);
        for (MPI_Count i = 0; i + 32 < n; i += 32)
            *(V32 *) (d + i) = *(const V32 *) (s + i);
        *(V32 *) (d + n - 32) = last;
    } else {
        MPID_Copy_long(d, s, (size_t) n);
    }
}

/* Streams of MPID_Stream_min bytes or more, the size of the last-level cache (set by
 * MPID_Copy_init), cannot stay in the caches until they are used, and are copied as from and to
 * memory. Packed blocks of whole 8-byte words, and unpacked blocks of 256 bytes or more, are
 * written with streaming stores (AVX2) where their type's trial (below) finds that faster. These
 * send whole lines to memory without first reading them into the cache as an ordinary store to a
 * line not in the cache does: packing 8-byte blocks at a 16-byte stride, a third less memory
 * traffic. Smaller unpacked strided blocks, whose lines keep other bytes, are written with
 * ordinary 16- and 8-byte stores (copy_kernels.c says why), strided and indexed ones. The
 * functions below take the kernels' arguments (offs32 or offs) and pack (the blkidx one only
 * packs); where none of that applies (blocks not whole words, no AVX2, strides the unpack kernels
 * throttle their own way) the strided and blkidx ones return false and the indexed one copies as
 * the kernels do. MPID_Stream_end, after the last of them, makes the stores visible to other
 * threads and processes (streaming stores are weakly ordered). */
extern size_t MPID_Stream_min;
/* streamed: the trial's way for this copy; without, only packed blocks of 48 bytes and of an odd
 * number of words from 24 to 120 bytes are taken, with 16-byte moves (copy_kernels.c: far_words). */
bool MPID_Stream_strided(bool pack, bool streamed, char *stream, char *typed, MPI_Aint stride, MPI_Count bs,
                         MPI_Count n, MPI_Aint row_step, MPI_Count rows);
bool MPID_Stream_blkidx(char *stream, char *base, const MPI_Aint *offs, const int32_t *offs32, MPI_Count bs,
                        MPI_Count n);
MPI_Count MPID_Stream_indexed(bool pack, char **stream, char *base, const MPI_Aint *off, const MPI_Count *pre,
                              const int32_t *off32, const uint32_t *pre32, MPI_Count b, MPI_Count n, MPI_Count to);
void MPID_Stream_end(void);
/* Whether streaming stores pay depends on the processor as much as on the layout (40-byte blocks
 * 80 apart packed from memory: a third faster than ordinary stores on Zen 4, a sixth slower on
 * Zen 3, more on Zen 5; 1 KiB blocks unpacked: 2-3x faster on Zen 3 and Zen 4), so a type's copies
 * of MPID_Stream_min bytes or more put them on trial (one MPID_Stream_trial per type and
 * direction): MPID_Stream_turn_begin says whether this copy streams and starts its clock,
 * MPID_Stream_turn_end stops it and records the time (bytes: the copy's size). A copy in pieces
 * (a segment's chunks) stops the clock after each (_pause), starts it again before the next
 * (_resume), and records the time after the last (_record). */
bool MPID_Stream_turn_begin(MPID_Stream_trial *t, MPID_Stream_turn *turn);
void MPID_Stream_turn_pause(MPID_Stream_turn *turn);
void MPID_Stream_turn_resume(MPID_Stream_turn *turn);
void MPID_Stream_turn_record(MPID_Stream_trial *t, const MPID_Stream_turn *turn, MPI_Count bytes);
void MPID_Stream_turn_end(MPID_Stream_trial *t, MPID_Stream_turn *turn, MPI_Count bytes);
/* The trial's verdict, for copies that take no turn (a segment's unpack that starts mid-stream). */
bool MPID_Stream_pays(const MPID_Stream_trial *t);
/* One run of n bytes (a contiguous type) with streaming stores, visible when it returns; false
 * without AVX2. */
bool MPID_Stream_run(char *d, const char *s, size_t n);
/* n bytes of one run, part of a stream of stream_bytes in all: streamed beyond the last-level
 * cache, else MPID_Copy_long. */
static inline void copy_run(char *d, const char *s, size_t n, size_t stream_bytes)
{
    if (!(stream_bytes >= MPID_Stream_min && MPID_Stream_run(d, s, n)))
        MPID_Copy_long(d, s, n);
}

/* n blocks of bs bytes between the packed stream and the typed buffer: block i at typed + i * stride
 * (strided) or at base + offs[i] (blkidx, with 64- or 32-bit offsets); and the full blocks [b, ...)
 * of an indexed leaf that end by stream byte to, from *stream on (returns the first block left;
 * with 64-bit offsets and prefix sums, or 32-bit ones). */
typedef void (*MPID_Row_kernel)(char *packed, char *typed, MPI_Aint stride, MPI_Count bs, MPI_Count n);
typedef struct {
    void (*pack_strided)(char *packed, char *typed, MPI_Aint stride, MPI_Count bs, MPI_Count n);
    void (*unpack_strided)(char *packed, char *typed, MPI_Aint stride, MPI_Count bs, MPI_Count n);
    void (*pack_blkidx)(char *packed, char *base, const MPI_Aint *offs, MPI_Count bs, MPI_Count n);
    void (*unpack_blkidx)(char *packed, char *base, const MPI_Aint *offs, MPI_Count bs, MPI_Count n);
    void (*pack_blkidx32)(char *packed, char *base, const int32_t *offs, MPI_Count bs, MPI_Count n);
    void (*unpack_blkidx32)(char *packed, char *base, const int32_t *offs, MPI_Count bs, MPI_Count n);
    MPI_Count (*pack_indexed)(char **stream, char *base, const MPI_Aint *off, const MPI_Count *pre, MPI_Count b,
                              MPI_Count n, MPI_Count to);
    MPI_Count (*unpack_indexed)(char **stream, char *base, const MPI_Aint *off, const MPI_Count *pre,
                                MPI_Count b, MPI_Count n, MPI_Count to);
    /* the strided kernels without the prefetch ahead of small blocks pages apart (in the L2) */
    void (*pack_cached)(char *packed, char *typed, MPI_Aint stride, MPI_Count bs, MPI_Count n);
    void (*unpack_cached)(char *packed, char *typed, MPI_Aint stride, MPI_Count bs, MPI_Count n);
    MPI_Count (*pack_indexed32)(char **stream, char *base, const int32_t *off, const uint32_t *pre, MPI_Count b,
                                MPI_Count n, MPI_Count to);
    MPI_Count (*unpack_indexed32)(char **stream, char *base, const int32_t *off, const uint32_t *pre,
                                  MPI_Count b, MPI_Count n, MPI_Count to);
} MPID_Kernel_set;
extern const MPID_Kernel_set *MPID_Kernels;

/* The indexed kernel for the arrays an indexed leaf keeps: 32-bit (off32 and pre32) or 64-bit. */
static inline MPI_Count MPID_Copy_indexed(bool pack, char **stream, char *base, const MPI_Aint *off,
                                          const MPI_Count *pre, const int32_t *off32, const uint32_t *pre32,
                                          MPI_Count b, MPI_Count n, MPI_Count to)
{
    if (pre32)
        return (pack ? MPID_Kernels->pack_indexed32 : MPID_Kernels->unpack_indexed32)(stream, base, off32, pre32, b,
                                                                                   n, to);
    return (pack ? MPID_Kernels->pack_indexed : MPID_Kernels->unpack_indexed)(stream, base, off, pre, b, n, to);
}

/* The strided kernels: rows of n blocks of bs bytes, block i of row r at
 * typed + r * row_step + i * stride, in that order in the packed stream (one run of blocks is one
 * row). 8-byte blocks close together go two to a 16-byte move. */
void MPID_Pack_strided(char *packed, char *typed, MPI_Aint stride, MPI_Count bs, MPI_Count n,
                       MPI_Aint row_step, MPI_Count rows);
void MPID_Unpack_strided(char *packed, char *typed, MPI_Aint stride, MPI_Count bs, MPI_Count n,
                         MPI_Aint row_step, MPI_Count rows);
/* The row kernel those two run for each row of blocks blocks of bs bytes stride apart when they
 * choose one ahead of their row loops, or NULL where they do more: what a copy plan may call
 * directly. */
MPID_Row_kernel MPID_Strided_row_kernel(bool pack, MPI_Aint stride, MPI_Count bs, MPI_Count blocks);
/* rows rows of n blocks through row, rows row_step apart in the typed buffer */
void MPID_Each_row(MPID_Row_kernel row, char *packed, char *typed, MPI_Aint stride, MPI_Count bs, MPI_Count n,
                   MPI_Aint row_step, MPI_Count rows);
/* What the two entry points run where MPID_Strided_row_kernel chose no row kernel: their own row
 * loops, which a copy plan that found none at build calls directly. (Not static also so that the
 * compiler emits them where they were before LATE code existed.) */
void MPID_Pack_rows(char *packed, char *typed, MPI_Aint stride, MPI_Count bs, MPI_Count n, MPI_Aint row_step,
                    MPI_Count rows);
void MPID_Unpack_rows(char *packed, char *typed, MPI_Aint stride, MPI_Count bs, MPI_Count n, MPI_Aint row_step,
                      MPI_Count rows);

/* Windows: the byte masks of one small in-order element (built by segment.c's set_windows), and
 * n such elements step bytes apart moved whole. Only where MPID_Have_window_unit(). */
#define MAX_WINDOWS 4
typedef struct MPID_Windows {
    MPI_Aint start;                 /* first data byte, relative to the element's origin */
    int n;                          /* windows per element */
    int width;                      /* 16, 32 or 64 bytes: the narrowest vector that fits */
    uint64_t mask[MAX_WINDOWS];     /* data bytes of window k */
    uint64_t low[MAX_WINDOWS];      /* the low count[k] bits: where they sit packed */
    int count[MAX_WINDOWS];
    int tail;                       /* last elements of a range that need exact (masked) stores */
} MPID_Windows;
void MPID_Window_pack(const MPID_Windows *w, char *out, char *src, MPI_Aint step, MPI_Count n);
void MPID_Window_unpack(const MPID_Windows *w, char *in, char *dst, MPI_Aint step, MPI_Count n);
/* AVX-512 VBMI2 is there and LOOM_NO_WINDOWS is not set. */
bool MPID_Have_window_unit(void);

#endif
