/*
 * The copy kernels (interface in copy_kernels.h). No calls per element, no allocation: the walker
 * in segment.c calls one kernel per run of blocks.
 */
#include <cpuid.h>
#include <immintrin.h>
#include <stdatomic.h>
#include <x86intrin.h>
#include <stdlib.h>
#include "mpiimpl.h"
#include "mpid_device.h"
#include "copy_kernels.h"

/* Kernels start on cache lines: where a loop sits moves its speed by up to a third on Zen 4 (unpack
 * of small strided blocks: 18 or 27 GB/s), and this way it depends on the kernel's own code only,
 * not on whatever was linked before it. HOT_LOOPS also puts each loop on a cache line; which of
 * the two is better differs per kernel (measured with bench/run.sh): recheck after editing one. */
#define HOT __attribute__((aligned(64)))
#ifdef __clang__   /* the fuzz build: clang has neither GCC attribute (nor is that build timed) */
#define HOT_LOOPS HOT
#define NO_IPA __attribute__((noinline))
#else
#define HOT_LOOPS __attribute__((aligned(64), optimize("align-loops=64")))
#define NO_IPA __attribute__((noipa))
#endif
/* New code goes after the kernels (MPIR_LATE): the same bytes of pack_strided_avx2 64 bytes
 * further on packed NAS MG z face class B at 49 instead of 68 GB/s. */
#define LATE MPIR_LATE

/* ---- the copy kernels: n blocks of bs bytes, stride bytes apart in the typed buffer ----
 * Compiled at -O3 whatever the library's level: unrolled and vectorised, the 8-byte strided loop
 * runs nearly twice as fast as at -O2. Each kernel exists twice (KERNEL_SET): for the baseline
 * x86-64 and for AVX2, whose 32-byte moves copy blocks of 64 B - 2 KiB up to 1.5x faster; the
 * set is chosen once, from the processor. */
#pragma GCC push_options
#pragma GCC optimize("O3")

/* Blocks a page or more apart are each a TLB miss and, beyond the caches, a DRAM access: more of
 * them must be in flight than for nearer blocks, so they are prefetched this many blocks ahead
 * (measured on faces of a 512^3 array: +10-20%; nearer blocks lose with it). */
#define PAGE_AHEAD 32
/* Pages the L2 TLB maps at once: the smaller of Zen 3's (2048) and Zen 4's (3072). */
#define TLB_PAGES 2048
/* always_inline: the -O3 kernels and the -O2 functions below both use it, and GCC inlines
 * nothing across differing optimize levels otherwise */
#define STRIDE_TEST static inline __attribute__((always_inline)) bool
STRIDE_TEST page_apart(MPI_Aint stride)
{
    return stride >= 4096 || stride <= -4096;
}
/* Blocks whole pages apart (faces of power-of-two arrays): the 8-byte pack row loop prefetches
 * these PAGE_AHEAD blocks ahead (unpack rows of them throttle, see scratch_stores). At other
 * strides of a page or more the hardware follows them better without (NAS MG x face class D,
 * 4112 bytes apart: pack 2.73 vs 2.87 GB/s, unpack +27-43% in one process next to the old code,
 * on a host where memory ran at half its usual speed). */
STRIDE_TEST whole_pages_apart(MPI_Aint stride)
{
    return page_apart(stride) && stride % 4096 == 0;
}
/* A page or more apart, not whole pages (NAS MG x faces): each block is a TLB miss, which bounds
 * the 8-byte loops that copy them one move per block (pack_row, unpack_row, unpack_rows2_8). */
STRIDE_TEST uneven_pages_apart(MPI_Aint stride)
{
    return page_apart(stride) && !whole_pages_apart(stride);
}
/* Blocks a few cache lines apart or more: the hardware prefetcher does not follow them. */
STRIDE_TEST lines_apart(MPI_Aint stride)
{
    return stride >= 256 || stride <= -256;
}
/* How many of n blocks prefetch the one `ahead` blocks on (i < lead), when they prefetch at all
 * (far): the last `ahead` have none left to prefetch. */
static inline __attribute__((always_inline)) MPI_Count prefetch_lead(bool far, MPI_Count n, MPI_Count ahead)
{
    return far && n > ahead ? n - ahead : 0;
}

/* Long blocks with a gap of lines between them: the hardware prefetcher stops at each block's end
 * and at each page boundary, so each block's lines are prefetched while the block before it is
 * copied, four lines per 256 copied bytes. Packing: NAS MG y face class D +4-7%, FFT2D N=1536
 * +9-14%; not where it measured slower: where the blocks each fit in one page (they stream well
 * without it; -6%), nor where the next block falls in the L2 sets of this one, as with
 * power-of-two strides (there it evicts what is being copied: 4 KiB y faces of a 512^3 array -7
 * to -12%). Unpacking, prefetched for writing, gains at every such stride (in one process next
 * to the grouped copy: FFT2D N=1536 +31%, N=512 +6%, MG y face class D +6%, 512^3 y face +3%),
 * with each 256 bytes' eight loads ahead of their stores (as 256-byte memcpys, whose loads and
 * stores interleave: 512^3 y face -11%, MG y face -3%; packing is the other way round, FFT2D
 * N=1536 -16% with the loads ahead). All that on Zen 4. On the Xeon host packing measured faster
 * without the lead (MG y face class D +12%, FFT2D N=1536 +3%), and so did unpacking where the
 * next block falls in the same L2 sets (512^3 y face +7-9%), in one process next to it; FFT2D
 * N=512 unpack (2 KiB blocks 8 KiB apart) kept its gain (+12%). */
#define LEAD_MIN 2048
static size_t l2_set_span = 128 << 10;   /* set by MPID_Copy_init */
/* Whose measurements the kernels follow, set by pick_kernels from the processor (LOOM_RULES=intel,
 * zen3, zen4 or zen5 says so whatever the processor, so that the tests run every way). The rules
 * measured on Zen 4 that the Xeon host measured otherwise hold on AMD processors (amd_host:
 * lead_blocks, scratch_stores, narrow_unpack, pack_paced, loop_skewed); Zen 5 (family
 * 1Ah), an AMD processor too, has rules of its own where it measured otherwise again (zen5_host:
 * string_blocks, zen5_short_blocks, mid_blocks_512, zen5_gathers, the loops of 8-byte blocks a
 * page and a bit apart, the streaming stores: zen5_streams); Zen 3 one (loop_always). */
static bool amd_host, zen5_host;
/* Where long copies take the kernels' loop instead of the string move (copy_kernels.h:
 * MPID_Copy_long): skewed ones, d at another offset than s within 64-byte lines, or all. */
static bool loop_skewed, loop_always;
static inline __attribute__((always_inline)) bool long_by_loop(const char *d, const char *s)
{
    return loop_always || (loop_skewed && ((uintptr_t) d - (uintptr_t) s) % 64 != 0);
}
static bool gather_unit;   /* AVX-512's gathers and scatters are there (pack_gather_8) */
#define GATHER_TARGET __attribute__((target("avx512f")))
/* The distance between blocks, whichever way the stride runs (no overflow at the most negative). */
static inline __attribute__((always_inline)) size_t stride_dist(MPI_Aint stride)
{
    return (size_t) (stride < 0 ? -(uintptr_t) stride : (uintptr_t) stride);
}
/* Whether the next block falls in other L2 sets than this one (power-of-two strides do not). */
STRIDE_TEST other_l2_sets(MPI_Aint stride, MPI_Count bs)
{
    size_t dist = stride_dist(stride);
    size_t sets_apart = dist % l2_set_span;
    return sets_apart >= (size_t) bs && sets_apart <= l2_set_span - (size_t) bs;
}
STRIDE_TEST lead_blocks(const char *typed, MPI_Aint stride, MPI_Count bs, bool unpack)
{
    size_t dist = stride_dist(stride);
    bool gap = dist >= (size_t) bs + 256;
    bool straddle = dist % 4096 != 0 || (uintptr_t) typed % 4096 + (uintptr_t) bs > 4096;
    bool other_sets = other_l2_sets(stride, bs);
    if (unpack)
        return bs >= LEAD_MIN && gap && (amd_host || other_sets);
    return bs >= LEAD_MIN && gap && amd_host && straddle && other_sets;
}
static inline __attribute__((always_inline)) void copy_leading(char *d, const char *s, MPI_Count n,
                                                               const char *next, bool unpack)
{
    MPI_Count o = 0;
    for (; o + 256 <= n; o += 256) {
        for (int k = 0; k < 256; k += 64)
            if (unpack)
                __builtin_prefetch(next + o + k, 1);
            else
                __builtin_prefetch(next + o + k, 0);
        if (!unpack) {
            memcpy(d + o, s + o, 256);
            continue;
        }
        V32 v[8];
        for (int k = 0; k < 8; k++)
            v[k] = *(const V32 *) (s + o + 32 * k);
        for (int k = 0; k < 8; k++)
            *(V32 *) (d + o + 32 * k) = v[k];
    }
    copy_bytes(d + o, s + o, n - o);
}

/* Blocks of 129 B up to MPID_Copy_chunk: four loads ahead of their four stores, as in glibc's
 * memcpy loop. One load and its store at a time, as in copy_bytes, keeps fewer cache misses in
 * flight: vec_1KiB from memory packed at 12.3 instead of 16.1 GB/s (memcpy per block, as Open MPI
 * does: 12.3). Longer blocks went to memcpy once; this loop with the next block's first line
 * prefetched (BLOCKS_NEXT_LINE_AHEAD) beat it on 4 KiB rows, in one process next to it: y faces
 * of a 512^3 array pack +17% (from 0.94 to 1.10 of Open MPI), NAS MG z face class D +12% pack and
 * +8% unpack, MG y face unpack +5%; nothing measured slower. A kernel of its own, so that the
 * loops for smaller blocks keep their code and place (inlined into them, it cost 1 KiB of code
 * per kernel, and 92-byte WRF blocks 12-23% from the move alone). */
static inline __attribute__((always_inline)) void copy_grouped_ahead(char *d, const char *s, MPI_Count n, bool align,
                                                                     MPI_Count ahead)
{
    V32 last = *(const V32 *) (s + n - 32);
    if (align) {
        MPI_Count head = (MPI_Count) (-(uintptr_t) d & 31);
        *(V32 *) d = *(const V32 *) s;
        d += head, s += head, n -= head;
    }
    MPI_Count i = 0;
    for (; i + 128 < n; i += 128) {
        if (ahead) {   /* (a prefetch past the end does no harm: it never faults) */
            __builtin_prefetch(s + i + ahead, 0);
            __builtin_prefetch(s + i + ahead + 64, 0);
            __builtin_prefetch(d + i + ahead, 1);
            __builtin_prefetch(d + i + ahead + 64, 1);
        }
        V32 a = *(const V32 *) (s + i), b = *(const V32 *) (s + i + 32);
        V32 c = *(const V32 *) (s + i + 64), e = *(const V32 *) (s + i + 96);
        *(V32 *) (d + i) = a;
        *(V32 *) (d + i + 32) = b;
        *(V32 *) (d + i + 64) = c;
        *(V32 *) (d + i + 96) = e;
    }
    for (; i + 32 < n; i += 32)
        *(V32 *) (d + i) = *(const V32 *) (s + i);
    *(V32 *) (d + n - 32) = last;
}
static inline __attribute__((always_inline)) void copy_grouped(char *d, const char *s, MPI_Count n, bool align)
{
    copy_grouped_ahead(d, s, n, align, 0);
}
/* Unpacking, the stores go from the block's first 32-byte boundary on, so that none of them
 * crosses a cache line (NAS MG y and z faces, 1 KiB blocks 8 bytes past a boundary: unpack
 * +14-17% in the L2, +6-7% class D, in one process next to unaligned stores; packing, aligned
 * stores to the stream measured 2-5% slower). */
static inline __attribute__((always_inline)) void copy_grouped_pack(char *d, const char *s, MPI_Count n)
{
    copy_grouped(d, s, n, false);
}
static inline __attribute__((always_inline)) void copy_grouped_unpack(char *d, const char *s, MPI_Count n)
{
    copy_grouped(d, s, n, true);
}
/* Blocks copied by the processor's string move (rep movsb), where it beats the loops below
 * (string_min, set by pick_kernels; 0: nowhere).
 * On Intel processors with ERMS, packed blocks of 4 KiB or more with a gap of a page or more after
 * each: each such block starts cold, and on the Xeon host the string move ran 5-15% faster there
 * than the 32-byte groups in a loop over blocks (4 KiB rows 1 MiB apart, 56 bytes past a line:
 * +15%); in the benchmark NAS MG y face class D packed +15-20%, the 512^3 y face and FFT2D N=1536
 * tied. Nearer or smaller blocks lost: MG z face class D (4 KiB rows 16 bytes apart) -5%, FFT2D
 * N=512 (2 KiB blocks, 6 KiB gaps) -7%; and unpacking, where the blocks are the stores, gained
 * nowhere consistently there. On the Ice Lake host unpacking such blocks gained where the next
 * block falls in the same L2 sets (power-of-two strides): the 512^3 y face (4 KiB rows 2 MiB
 * apart) +1-10% in eight processes next to the 32-byte groups, median +3%, level with Open MPI's
 * memcpy; elsewhere it lost (NAS MG y face class D -1-4%, FFT2D N=1536 -2-30%).
 * On Zen 4 the 512^3 y face packed 17% slower with it, and unpacking gained nothing: never there.
 * On Zen 5 (family 1Ah) the string move of more than 2080 bytes runs in a faster way than shorter
 * ones, at any stride, packing and unpacking: in a test program, 2112-byte blocks 48 KiB apart in
 * the L2 copied at 78-87 GB/s where 2048-byte ones and the 32- or 64-byte loops ran 57-62 (glibc's
 * memcpy takes the string move from 2112 bytes on there too); 3-8 KiB blocks at 1.3-1.6x the
 * loops, whatever their stride, and as fast as they from memory. Packed blocks with gaps beyond
 * the L2 measured otherwise on a later guest (zen5_cold_pack). */
#define STRING_ERMS_MIN 4096
#define STRING_ZEN5_MIN 2112
static MPI_Count string_min;
static bool string_any;   /* any direction and stride, not only packs a page apart */
static inline __attribute__((always_inline)) void copy_string(char *d, const char *s, MPI_Count n)
{
    if (long_by_loop(d, s)) {   /* as MPID_Copy_long (never on Zen 3, which has no string rules) */
        copy_grouped(d, s, n, true);
        return;
    }
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}
STRIDE_TEST string_blocks(MPI_Aint stride, MPI_Count bs, bool unpack)
{
    size_t dist = stride_dist(stride);
    if (!string_min || bs < string_min)
        return false;
    if (string_any)
        return true;
    return dist >= (size_t) bs + 4096 && (!unpack || !other_l2_sets(stride, bs));
}
/* n blocks of bs bytes copied by COPY, each prefetching the next block's first line where they are
 * far apart (far): the hardware prefetcher does not jump the gap */
#define BLOCKS_NEXT_LINE_AHEAD(COPY, DST, SRC, RW) \
    for (MPI_Count i = 0; i < n; i++, packed += bs, typed = at(typed, stride)) { \
        if (far && i + 1 < n) \
            __builtin_prefetch(at(typed, stride), RW); \
        COPY(DST, SRC, bs); \
    }
#define MID_BLOCKS_MIN 129
/* The same blocks on Zen 5, by 64-byte moves (unpacking, from the block's first 64-byte boundary
 * on, as copy_grouped_unpack does with 32) and no line prefetched ahead: in test programs, next to
 * copy_grouped with its prefetch, 640-2048-byte blocks unpacked 5-35% faster, 384-1024-byte ones
 * packed 0-17% faster (in the benchmark: 1 KiB blocks 2 KiB apart in the L2 +26% packed, +22%
 * unpacked; NAS MG y face class B +2% and +4.5%); not 2 KiB blocks packed (-3%, FFT2D N=512 too),
 * nor blocks whole pages apart unpacked (512 B 32 KiB apart: -15-20%). */
LATE GATHER_TARGET __attribute__((noinline)) static void mid_blocks_512(char *packed, char *typed, MPI_Aint stride,
                                                                        MPI_Count bs, MPI_Count n, bool unpack)
{
    for (MPI_Count b = 0; b < n; b++, packed += bs, typed = at(typed, stride)) {
        char *d = unpack ? typed : packed, *s = unpack ? packed : typed;
        MPI_Count len = bs;
        __m512i last = _mm512_loadu_si512((const void *) (s + len - 64));
        if (unpack) {
            MPI_Count head = (MPI_Count) (-(uintptr_t) d & 63);
            _mm512_storeu_si512((void *) d, _mm512_loadu_si512((const void *) s));
            d += head, s += head, len -= head;
        }
        MPI_Count i = 0;
        for (; i + 256 < len; i += 256) {
            __m512i v0 = _mm512_loadu_si512((const void *) (s + i));
            __m512i v1 = _mm512_loadu_si512((const void *) (s + i + 64));
            __m512i v2 = _mm512_loadu_si512((const void *) (s + i + 128));
            __m512i v3 = _mm512_loadu_si512((const void *) (s + i + 192));
            _mm512_storeu_si512((void *) (d + i), v0);
            _mm512_storeu_si512((void *) (d + i + 64), v1);
            _mm512_storeu_si512((void *) (d + i + 128), v2);
            _mm512_storeu_si512((void *) (d + i + 192), v3);
        }
        for (; i + 64 < len; i += 64)
            _mm512_storeu_si512((void *) (d + i), _mm512_loadu_si512((const void *) (s + i)));
        _mm512_storeu_si512((void *) (d + len - 64), last);
    }
}
/* Blocks of 65-128 bytes on Zen 5 (the y faces of WRF: 92-byte rows 128 bytes apart), with no
 * loop inside a block: packed by two 64-byte moves, the block's first and last 64 bytes (as glibc's
 * memcpy copies them), unpacked by four 32-byte ones. This guest runs in two states that change
 * every few minutes (WRF's hand loop at 38-40 or 20-22 GB/s). The loop of copy_bytes packed those
 * rows at 1.08-1.12x Open MPI in the fast one and 0.84-0.86x in the slow one, and unpacked them at
 * 1.16-1.28x and 0.81-0.91x; these, in one process next to it: packing 1.03-1.05x and 1.10-1.12x
 * (a loss of about 5% in the fast state for a gain of 30% in the slow one), unpacking 1.26-1.28x
 * and 1.08-1.18x. Four 32-byte moves packing: 1.12x and 0.90x; two 64-byte ones unpacking lost to
 * four 32-byte ones; mid_blocks_512, whose loop runs once here, packed at 0.94-1.03x in both. In
 * copy_bytes itself, four 32-byte moves cost the irregular indexed rows 3-6%. */
LATE GATHER_TARGET __attribute__((noinline)) static void pack_two_64(char *packed, char *typed, MPI_Aint stride,
                                                                     MPI_Count bs, MPI_Count n)
{
    for (MPI_Count b = 0; b < n; b++, packed += bs, typed = at(typed, stride)) {
        __m512i head = _mm512_loadu_si512((const void *) typed);
        __m512i tail = _mm512_loadu_si512((const void *) (typed + bs - 64));
        _mm512_storeu_si512((void *) packed, head);
        _mm512_storeu_si512((void *) (packed + bs - 64), tail);
    }
}
LATE __attribute__((target("avx2"), noinline)) static void unpack_four_32(char *packed, char *typed,
                                                                          MPI_Aint stride, MPI_Count bs, MPI_Count n)
{
    for (MPI_Count b = 0; b < n; b++, packed += bs, typed = at(typed, stride)) {
        __m256i v0 = _mm256_loadu_si256((const __m256i *) packed);
        __m256i v1 = _mm256_loadu_si256((const __m256i *) (packed + 32));
        __m256i v2 = _mm256_loadu_si256((const __m256i *) (packed + bs - 64));
        __m256i v3 = _mm256_loadu_si256((const __m256i *) (packed + bs - 32));
        _mm256_storeu_si256((__m256i *) typed, v0);
        _mm256_storeu_si256((__m256i *) (typed + 32), v1);
        _mm256_storeu_si256((__m256i *) (typed + bs - 64), v2);
        _mm256_storeu_si256((__m256i *) (typed + bs - 32), v3);
    }
}
STRIDE_TEST zen5_short_blocks(MPI_Count bs)
{
    return zen5_host && gather_unit && bs > 64 && bs <= 128;
}
STRIDE_TEST zen5_mid_blocks(MPI_Aint stride, MPI_Count bs, bool unpack)
{
    return zen5_host && gather_unit && (unpack ? !whole_pages_apart(stride) : bs < 2048);
}
/* Packed blocks of the string move's sizes that cannot stay in the L2 from one call to the next
 * (more than the chunk in one call), with a gap of 256 bytes or more after each: on Zen 5 by
 * 64-byte moves (mid_blocks_512), not the string move, whose lead holds in the L2 only. In a test
 * program on the 2-core guest of 2026-12-05, 4-6 KiB blocks four times their size apart, 8-9 MB
 * of them (in the L3): 64-byte moves 24-34 GB/s, the string move 20-26, memcpy 21-28; in the
 * benchmark, in one process next to the string move (4 runs): FFT2D N=1536 +8-29% (1.05-1.35x
 * Open MPI, from 0.92-1.09x), 512^3 y face (blocks in the same L2 sets, which went to memcpy)
 * -3% to +9%, ahead in 3 of 4, NAS MG y face class D +3-6%. Not blocks a few bytes apart, which
 * the string move streams (MG z face class D, 4 KiB rows 16 bytes apart: -4%), nor unpacking,
 * where the string move and memcpy beat the 64-byte stores by a fifth. */
STRIDE_TEST zen5_cold_pack(MPI_Aint stride, MPI_Count bs, MPI_Count n, bool unpack)
{
    size_t dist = stride_dist(stride);
    return zen5_host && gather_unit && !unpack && bs >= STRING_ZEN5_MIN && dist >= (size_t) bs + 256
        && (size_t) n > MPID_Copy_chunk / (size_t) bs;
}
#define MID_KERNEL(NAME, DST, SRC, RW, COPY, TARGET) \
    TARGET __attribute__((noinline)) static void NAME(char *packed, char *typed, MPI_Aint stride, MPI_Count bs, \
                                                      MPI_Count n) \
    { \
        bool far = lines_apart(stride), cold = zen5_cold_pack(stride, bs, n, RW); \
        if (string_blocks(stride, bs, RW) && !cold) { \
            far = far && !string_any;   /* Zen 5: no line prefetched ahead */ \
            if (string_any && !other_l2_sets(stride, bs)) \
                BLOCKS_NEXT_LINE_AHEAD(MPID_Copy_long, DST, SRC, RW) \
            else \
                BLOCKS_NEXT_LINE_AHEAD(copy_string, DST, SRC, RW) \
            return; \
        } \
        if (zen5_mid_blocks(stride, bs, RW) || cold) { \
            mid_blocks_512(packed, typed, stride, bs, n, RW); \
            return; \
        } \
        BLOCKS_NEXT_LINE_AHEAD(COPY, DST, SRC, RW) \
    }

/* One move of a T that the compiler may not join with its neighbours (the asm hides the value):
 * where the width of each store was measured to matter. */
#define MOVE_APART(T, D, S) \
    do { \
        T w_; \
        memcpy(&w_, (S), sizeof w_); \
        __asm__("" : "+r"(w_)); \
        memcpy((D), &w_, sizeof w_); \
    } while (0)
/* n bytes, n a constant: 32-byte moves first, the rest as the compiler likes. GCC's own copy of
 * a constant 32-96 bytes uses 16-byte moves even in the AVX2 kernels; a 32-byte move per 32 bytes
 * packed 40-byte blocks 6560 bytes apart 1.3x as fast, 32- and 64-byte blocks 1.3-1.9x, in a loop
 * over blocks in the L1 on the Xeon host; in the benchmark NAS LU y face class C pack +36% and
 * unpack +17%, class E pack +15%. Unpacking, a 32-byte store that crosses a cache line costs more
 * than it saves (40-byte blocks 80 bytes apart: -4%), so unpack kernels use these moves only where
 * every block starts on a 32-byte boundary (move_block's wide). */
static inline __attribute__((always_inline)) void move_fixed(char *d, const char *s, MPI_Count n)
{
    MPI_Count k = 0;
    for (; k + 32 <= n; k += 32)
        *(V32 *) (d + k) = *(const V32 *) (s + k);
    memcpy(d + k, s + k, n - k);
}
/* A block of constant size n. 12 bytes (three floats) on lines of their own (at least 64
 * bytes apart: WRF x faces) as three 4-byte moves, kept apart by the asm: the compiler's 8 + 4
 * moves measured slower there (in one process, pack +1-4% and unpack +0-2% with these, ahead in
 * each of 8 runs), but faster on blocks close together, where the moves bound the loop (SPECFEM3D
 * mt, 24 bytes apart: the 4-byte moves lost a third). */
static inline __attribute__((always_inline)) void move_block(char *d, const char *s, MPI_Count n, bool own_lines,
                                                             bool wide)
{
    if (n == 12 && own_lines) {
        for (int k = 0; k < 12; k += 4)
            MOVE_APART(uint32_t, d + k, s + k);
        return;
    }
    if (wide)
        move_fixed(d, s, n);
    else
        memcpy(d, s, n);
}
/* A constant size lets the compiler turn each copy into a few moves. The first lead blocks
 * prefetch the block ahead blocks on; the rest do not, since a prefetch past the run's end may
 * hit an unmapped page, whose page walk costs more than the copy (NAS LU y faces: 48 vs 29 GB/s). */
#define STRIDED_CASE(N, DST, SRC, RW) \
    case N: { \
        MPI_Count i = 0; \
        for (; i < lead; i++, packed += N, typed = at(typed, stride)) { \
            __builtin_prefetch(at_k(typed, ahead, stride), RW); \
            move_block(DST, SRC, N, own_lines, wide); \
        } \
        for (; i < n; i++, packed += N, typed = at(typed, stride)) \
            move_block(DST, SRC, N, own_lines, wide); \
        return; \
    }
/* RW: 1 when the typed buffer is written (unpack), so its lines are prefetched for writing.
 * LEAD: 0 in the variant that never prefetches small blocks ahead (see MPID_Strided_row_kernel). */
#define STRIDED_KERNEL(NAME, DST, SRC, RW, LEAD, MID, TARGET) \
    TARGET static void NAME(char *packed, char *typed, MPI_Aint stride, MPI_Count bs, MPI_Count n) \
    { \
        bool far = lines_apart(stride);   /* the hardware prefetcher does not follow: we lead */ \
        MPI_Count ahead = page_apart(stride) ? PAGE_AHEAD : RW ? 8 : 16; \
        MPI_Count lead = prefetch_lead(LEAD && far, n, ahead); \
        bool own_lines = stride >= 64 || stride <= -64; \
        bool wide = !RW || ((uintptr_t) typed % 32 == 0 && stride % 32 == 0);   /* see move_fixed */ \
        switch (bs) { \
            STRIDED_CASE(1, DST, SRC, RW) STRIDED_CASE(2, DST, SRC, RW) STRIDED_CASE(4, DST, SRC, RW) \
            STRIDED_CASE(8, DST, SRC, RW) STRIDED_CASE(12, DST, SRC, RW) STRIDED_CASE(16, DST, SRC, RW) \
            STRIDED_CASE(24, DST, SRC, RW) STRIDED_CASE(32, DST, SRC, RW) STRIDED_CASE(40, DST, SRC, RW) \
            STRIDED_CASE(48, DST, SRC, RW) STRIDED_CASE(64, DST, SRC, RW) \
        default: \
            if (lead_blocks(typed, stride, bs, RW) && !string_blocks(stride, bs, RW)) { \
                MPI_Count i = 0; \
                for (; i + 1 < n; i++, packed += bs, typed = at(typed, stride)) \
                    copy_leading(DST, SRC, bs, at(typed, stride), RW); \
                if (n > 0) \
                    copy_bytes(DST, SRC, bs); \
                return; \
            } \
            if (zen5_short_blocks(bs)) { \
                (RW ? unpack_four_32 : pack_two_64)(packed, typed, stride, bs, n); \
                return; \
            } \
            if (bs >= MID_BLOCKS_MIN && (size_t) bs <= MPID_Copy_chunk) { \
                MID(packed, typed, stride, bs, n); \
                return; \
            } \
            BLOCKS_NEXT_LINE_AHEAD(copy_bytes, DST, SRC, RW) \
        } \
    }

/* Same with the blocks at explicit offsets from base. WIDE: 32-byte moves (move_fixed) when
 * packing; 32-byte blocks at random offsets in the L1 packed 25-30% faster with them on Zen 4
 * (unpacking gained there too, even across lines, but that was not measured on the Xeon host,
 * where the strided unpack lost with stores across lines). */
#define INDEXED_CASE(N, DST, SRC, WIDE) \
    case N: \
        for (MPI_Count i = 0; i < n; i++, packed += N) { \
            char *typed = at(base, offs[i]); \
            move_block(DST, SRC, N, false, WIDE); \
        } \
        return;
/* Blocks of the size of a scalar T: four loads, then their four stores, so that four misses on the
 * scattered side are in flight at once (LAMMPS atomic pack +8%; on Zen 5, 4-byte blocks at random
 * offsets in the L2, SPECFEM3D's outer core, +10-13% in a test program and in the benchmark, next
 * to one at a time). Unpacking those sixteen at a time by one AVX-512 scatter ran 22-40% faster in
 * test programs but 3% slower in the benchmark, and gathers gained nothing for these nor for
 * 8-byte blocks (pack_gather_8 takes strided ones): not kept. */
#define GROUPED_CASE(N, T, DST, SRC) \
    case N: { \
        MPI_Count i = 0; \
        for (; i + 4 <= n; i += 4, packed += 4 * N) { \
            char *const p0 = packed; \
            char *t[4] = { at(base, offs[i]), at(base, offs[i + 1]), at(base, offs[i + 2]), at(base, offs[i + 3]) }; \
            T v[4]; \
            for (int k = 0; k < 4; k++) { \
                char *typed = t[k], *packed = p0 + k * N; \
                (void) typed, (void) packed;   /* SRC names one of them */ \
                memcpy(&v[k], SRC, N); \
            } \
            for (int k = 0; k < 4; k++) { \
                char *typed = t[k], *packed = p0 + k * N; \
                (void) typed, (void) packed; \
                memcpy(DST, &v[k], N); \
            } \
        } \
        for (; i < n; i++, packed += N) { \
            char *typed = at(base, offs[i]); \
            memcpy(DST, SRC, N); \
        } \
        return; \
    }
#define BLKIDX_KERNEL(NAME, DST, SRC, OFF, WIDE, TARGET) \
    TARGET static void NAME(char *packed, char *base, const OFF *offs, MPI_Count bs, MPI_Count n) \
    { \
        switch (bs) { \
            INDEXED_CASE(1, DST, SRC, WIDE) INDEXED_CASE(2, DST, SRC, WIDE) \
            GROUPED_CASE(4, uint32_t, DST, SRC) GROUPED_CASE(8, uint64_t, DST, SRC) \
            INDEXED_CASE(12, DST, SRC, WIDE) INDEXED_CASE(16, DST, SRC, WIDE) \
            INDEXED_CASE(24, DST, SRC, WIDE) INDEXED_CASE(32, DST, SRC, WIDE) \
        default: \
            for (MPI_Count i = 0; i < n; i++, packed += bs) { \
                char *typed = at(base, offs[i]); \
                copy_bytes(DST, SRC, bs); \
            } \
        } \
    }

/* The full blocks [b, ...) of an indexed leaf that end by to, from *stream on; returns the first
 * block left. The kernel of irregular types: per block one offset, one prefix sum, a copy. */
#define INDEXED_KERNEL(NAME, DST, SRC, OFF_T, PRE_T, TARGET) \
    TARGET static MPI_Count NAME(char **stream_p, char *base, const OFF_T *off, const PRE_T *pre, MPI_Count b, \
                                 MPI_Count n, MPI_Count to) \
    { \
        char *stream = *stream_p; \
        for (MPI_Count next = pre[b]; b < n && (next = pre[b + 1]) <= to; b++) { \
            MPI_Count len = next - pre[b]; \
            char *typed = at(base, off[b]); \
            copy_bytes(DST, SRC, len); \
            stream += len; \
        } \
        *stream_p = stream; \
        return b; \
    }


#define KERNEL_SET(SET, TARGET) \
    MID_KERNEL(pack_mid_##SET, packed, typed, 0, copy_grouped_pack, TARGET) \
    MID_KERNEL(unpack_mid_##SET, typed, packed, 1, copy_grouped_unpack, TARGET) \
    STRIDED_KERNEL(pack_strided_##SET, packed, typed, 0, 1, pack_mid_##SET, TARGET) \
    STRIDED_KERNEL(unpack_strided_##SET, typed, packed, 1, 1, unpack_mid_##SET, TARGET) \
    BLKIDX_KERNEL(pack_blkidx32_##SET, packed, typed, int32_t, true, TARGET) \
    BLKIDX_KERNEL(unpack_blkidx32_##SET, typed, packed, int32_t, false, TARGET) \
    INDEXED_KERNEL(pack_indexed_##SET, stream, typed, MPI_Aint, MPI_Count, TARGET) \
    INDEXED_KERNEL(unpack_indexed_##SET, typed, stream, MPI_Aint, MPI_Count, TARGET) \
    STRIDED_KERNEL(pack_cached_##SET, packed, typed, 0, 0, pack_mid_##SET, TARGET LATE) \
    STRIDED_KERNEL(unpack_cached_##SET, typed, packed, 1, 0, unpack_mid_##SET, TARGET LATE) \
    BLKIDX_KERNEL(pack_blkidx_##SET, packed, typed, MPI_Aint, true, TARGET LATE) \
    BLKIDX_KERNEL(unpack_blkidx_##SET, typed, packed, MPI_Aint, false, TARGET LATE) \
    INDEXED_KERNEL(pack_indexed32_##SET, stream, typed, int32_t, uint32_t, TARGET LATE) \
    INDEXED_KERNEL(unpack_indexed32_##SET, typed, stream, int32_t, uint32_t, TARGET LATE) \
    static const MPID_Kernel_set kernels_##SET = { pack_strided_##SET, unpack_strided_##SET, pack_blkidx_##SET, \
                                              unpack_blkidx_##SET, pack_blkidx32_##SET, unpack_blkidx32_##SET, \
                                              pack_indexed_##SET, unpack_indexed_##SET, \
                                              pack_cached_##SET, unpack_cached_##SET, \
                                              pack_indexed32_##SET, unpack_indexed32_##SET };
KERNEL_SET(base, HOT_LOOPS)
KERNEL_SET(avx2, __attribute__((target("avx2"))) HOT_LOOPS)
/* MPID_Copy_long's loop in each set's width. Copies of MPID_Copy_chunk or more, whose source and
 * destination do not both fit in the L2, prefetch both LONG_AHEAD bytes ahead: the hardware
 * prefetcher alone left the loop waiting on the L3. Zen 3, a test program, medians of 21 turns in
 * one process: 2 MiB in the L3 at 35.7-38.3 GB/s where the loop without ran 34.3-34.8 and glibc's
 * memcpy 34.1-36.5, 1 MiB 38.9 (36.4, 37.1), 8 MiB 26.8 (23.2, 23.1); 1 and 3 KiB ahead gained
 * less at 8 MiB, the destination alone less everywhere. In the L2 (64 KiB) the prefetches cost
 * 1-8%. */
#define LONG_AHEAD 2048
#define LONG_COPY(SET, TARGET) \
    TARGET __attribute__((noinline)) static void copy_by_loop_##SET(char *d, const char *s, size_t n) \
    { \
        if (n >= MPID_Copy_chunk) \
            copy_grouped_ahead(d, s, (MPI_Count) n, true, LONG_AHEAD); \
        else \
            copy_grouped(d, s, (MPI_Count) n, true); \
    }
LONG_COPY(base, HOT_LOOPS LATE)
LONG_COPY(avx2, __attribute__((target("avx2"))) HOT_LOOPS LATE)
#pragma GCC pop_options

const MPID_Kernel_set *MPID_Kernels = &kernels_base;
static bool stream_unit;   /* the streaming stores' AVX2 is there (set by pick_kernels) */
static bool stream_wide;   /* and AVX-512's 64-byte ones (stream_lines) */
static size_t l1_ways = 8;    /* set by MPID_Copy_init */

size_t MPID_Copy_chunk = 512 << 10;
LATE void MPID_Copy_long(char *d, const char *s, size_t n)
{
    if (n > COPY_INLINE_MAX && long_by_loop(d, s)) {
        (MPID_Kernels == &kernels_avx2 ? copy_by_loop_avx2 : copy_by_loop_base)(d, s, n);
        return;
    }
    size_t chunk = MPID_Copy_chunk;
    for (; n > chunk; n -= chunk, d += chunk, s += chunk)
        memcpy(d, s, chunk);
    memcpy(d, s, n);
}
/* The most of the last-level cache one core's stream is taken to keep on AMD processors, whose L3
 * belongs to a group of cores (a CCD: 32 MiB on Zen 4 and Zen 5, 96 with 3D V-Cache). A guest may
 * be told the L3 of the whole package: the Zen 5 host's hwloc reports 508 MB for each core, where
 * copies of 16 MiB already run at memory speed, and nothing was streamed. (An Intel core can fill
 * the whole L3 of its die, whose size is taken as reported.) */
#define AMD_STREAM_MIN_MAX ((size_t) 32 << 20)

void MPID_Copy_init(void)
{
    size_t half_l2 = MPID_Cache_size(2) / 2;
    if (half_l2 >= 64 << 10)
        MPID_Copy_chunk = half_l2;
    if (MPID_Cache_set_span(2) >= 4096)
        l2_set_span = MPID_Cache_set_span(2);
    if (MPID_Cache_set_span(1) > 0 && MPID_Cache_size(1) / MPID_Cache_set_span(1) > 0)
        l1_ways = MPID_Cache_size(1) / MPID_Cache_set_span(1);
    if (MPID_Cache_size(3) >= MPID_Copy_chunk)
        MPID_Stream_min = MPID_Cache_size(3);
    if (amd_host && MPID_Stream_min > AMD_STREAM_MIN_MAX)
        MPID_Stream_min = AMD_STREAM_MIN_MAX;
    const char *min = getenv("LOOM_STREAM_MIN");   /* tests: stream small packs too */
    if (min && *min)
        MPID_Stream_min = strtoull(min, NULL, 10);
}

/* The processor's family as AMD counts it (base plus extended family): 19h Zen 3 and 4, 1Ah Zen 5. */
static unsigned amd_family(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    unsigned family = (a >> 8) & 0xf;
    return family == 0xf ? family + ((a >> 20) & 0xff) : family;
}

/* Zen 3 among the processors of family 19h (Zen 4 the others): models 00-0Fh, 20-2Fh, 40-5Fh. */
static bool zen3_model(void)
{
    unsigned a, b, c, d;
    if (amd_family() != 0x19 || !__get_cpuid(1, &a, &b, &c, &d))
        return false;
    unsigned model = ((a >> 4) & 0xf) | (((a >> 16) & 0xf) << 4);
    return model <= 0x0f || (model >= 0x20 && model <= 0x2f) || (model >= 0x40 && model <= 0x5f);
}

/* LOOM_KERNELS=base keeps the baseline set on an AVX2 machine (the tests run both). */
__attribute__((constructor)) static void pick_kernels(void)
{
    const char *want = getenv("LOOM_KERNELS"), *rules = getenv("LOOM_RULES");
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && !(want && strcmp(want, "base") == 0))
        MPID_Kernels = &kernels_avx2;
    stream_unit = __builtin_cpu_supports("avx2");
    stream_wide = stream_unit && __builtin_cpu_supports("avx512f");
    gather_unit = MPID_Kernels == &kernels_avx2 && __builtin_cpu_supports("avx512f");   /* not with the baseline set */
    if (rules && *rules) {
        amd_host = strcmp(rules, "intel") != 0;
        zen5_host = strcmp(rules, "zen5") == 0;
    } else {
        amd_host = __builtin_cpu_is("amd");
        zen5_host = amd_host && amd_family() >= 0x1a;
    }
    loop_skewed = amd_host;
    loop_always = rules && *rules ? strcmp(rules, "zen3") == 0 : amd_host && zen3_model();
    unsigned a, b, c, d;
    bool erms = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 9));
    if (zen5_host) {
        string_min = STRING_ZEN5_MIN;
        string_any = true;
    } else if (!amd_host && erms) {
        string_min = STRING_ERMS_MIN;
    }
}

/* Blocks taken to be in the cache, as in a loop of exchanges of the same face: their lines fit in
 * the chunk the engine copies at once (half the L2). Divided, so that absurd counts cannot wrap. */
STRIDE_TEST lines_fit_chunk(size_t lines_per_block, MPI_Count blocks)
{
    return (size_t) blocks <= MPID_Copy_chunk / (lines_per_block * 64);
}

/* 8-byte blocks two lines or more apart, eight at a time by one AVX-512 gather (packing) or
 * scatter (unpacking), on Zen 5, where their loads and stores run faster so than one by one
 * (zen5_gathers). In a test program, 4096 blocks in the L2: packed 512 bytes apart (the x face of
 * a 64^3 array, whose lines share eight of the L1's sets) at 9.5 GB/s, where the kernels' four
 * loads ahead of their stores ran 5.0 and one load at a time 6.3; 128-2064 bytes apart 14.8-15.1
 * where those ran 12.1-13.4 (256 bytes: a tie); unpacked 64-2064 bytes apart at 11.7-19.0 where one
 * store at a time ran 11.2-12.3, 512 bytes apart at 8.6 where two scratch stores per block ran 6.0.
 * Not a page or more apart, where each block is a TLB miss: whole pages apart gathers gained in the
 * L3 (1.26 vs 0.80) but lost from memory (the 512^3 x face, in the benchmark: 0.40 vs 0.60 GB/s)
 * and scatters lost (0.64 vs 0.75); a page and a bit apart both lost to the loops below (12.3 vs
 * 9.9 packing in the L2). Nor nearer blocks (16 and 24 bytes apart: 15 where the joined stores ran
 * 37-40). In the benchmark, next to the loops: the 64^3 x face packed 1.68x and unpacked 1.24x as
 * fast, NAS MG x face class B (1040 bytes apart) 1.25x and 1.38x. The index vector holds the
 * eight blocks' offsets (k * stride, in 64 bits). */
static inline __attribute__((always_inline)) GATHER_TARGET __m512i eight_offsets(MPI_Aint stride)
{
    uint64_t s = (uint64_t) stride;
    return _mm512_set_epi64((long long) (7 * s), (long long) (6 * s), (long long) (5 * s), (long long) (4 * s),
                            (long long) (3 * s), (long long) (2 * s), (long long) s, 0);
}
LATE GATHER_TARGET __attribute__((noinline)) static void pack_gather_8(char *packed, char *typed, MPI_Aint stride,
                                                                       MPI_Count n)
{
    const __m512i offs = eight_offsets(stride);
    MPI_Count i = 0;
    for (; i + 8 <= n; i += 8, packed += 64, typed = at_k(typed, 8, stride))
        _mm512_storeu_si512((void *) packed, _mm512_i64gather_epi64(offs, (const void *) typed, 1));
    for (; i < n; i++, packed += 8, typed = at(typed, stride))
        memcpy(packed, typed, 8);
}
LATE GATHER_TARGET __attribute__((noinline)) static void unpack_scatter_8(char *packed, char *typed, MPI_Aint stride,
                                                                          MPI_Count n)
{
    const __m512i offs = eight_offsets(stride);
    MPI_Count i = 0;
    for (; i + 8 <= n; i += 8, packed += 64, typed = at_k(typed, 8, stride))
        _mm512_i64scatter_epi64((void *) typed, offs, _mm512_loadu_si512((const void *) packed), 1);
    for (; i < n; i++, packed += 8, typed = at(typed, stride))
        memcpy(typed, packed, 8);
}
/* 8-byte blocks 16 bytes apart (every other word: the real parts of complex numbers), on Zen 5:
 * packed by whole 32-byte loads, two of them shuffled into one store, unpacked by one 64-byte
 * load and two masked 64-byte stores. In a test program, 16384 blocks in the L2: packed at 73
 * GB/s where the joined loads and stores of pack_row ran 49 (as the hand loop), unpacked at 69
 * where the hand loop ran 38 (in the benchmark +19% and +16%). From memory the masked stores
 * lost a third (the 64 MiB vector), so only blocks taken to be cached (their lines fit the
 * chunk). Chosen ahead of the row loops (MPID_Strided_row_kernel): a test inside them moved their
 * code, and the 64 MiB vector unpacked at 0.96x. The pack reads the gap after its group's last
 * block, so a group is taken only where a block follows it. The pack needs AVX2 only, and gains on
 * Zen 3 too (in the benchmark next to pack_row, eight runs: vec_8B/L2 -9 to +6%, median +4%; the
 * 64 MiB vector +0-12%, median +6%) and on the Ice Lake host (vec_8B/L2 32 GB/s where pack_row
 * ran 21, in two processes next to it; the 64 MiB vector streams); the unpack's masked stores
 * need AVX-512. */
STRIDE_TEST alternate_8(bool pack, MPI_Count bs, MPI_Aint stride)
{
    return bs == 8 && stride == 16
        && (pack ? MPID_Kernels == &kernels_avx2 : zen5_host && gather_unit);
}
LATE __attribute__((target("avx2"), noinline)) static void pack_alternate_8(char *packed, char *typed, MPI_Aint stride,
                                                                            MPI_Count bs, MPI_Count n)
{
    (void) stride, (void) bs;   /* 16 and 8: a row kernel (MPID_Strided_row_kernel) */
    MPI_Count i = 0;
    for (; i + 4 < n; i += 4, packed += 32, typed += 64) {
        __m256i a = _mm256_loadu_si256((const __m256i *) typed);
        __m256i b = _mm256_loadu_si256((const __m256i *) (typed + 32));
        __m256i evens = _mm256_unpacklo_epi64(a, b);   /* words 0 4 2 6 of the eight */
        _mm256_storeu_si256((__m256i *) packed, _mm256_permute4x64_epi64(evens, 0xd8));
    }
    for (; i < n; i++, packed += 8, typed += 16)
        memcpy(packed, typed, 8);
}
LATE GATHER_TARGET __attribute__((noinline)) static void unpack_alternate_8(char *packed, char *typed, MPI_Aint stride,
                                                                            MPI_Count bs, MPI_Count n)
{
    (void) stride, (void) bs;
    const __m512i low = _mm512_set_epi64(0, 3, 0, 2, 0, 1, 0, 0), high = _mm512_set_epi64(0, 7, 0, 6, 0, 5, 0, 4);
    MPI_Count i = 0;
    for (; i + 8 <= n; i += 8, packed += 64, typed += 128) {
        __m512i v = _mm512_loadu_si512((const void *) packed);
        _mm512_mask_storeu_epi64((void *) typed, 0x55, _mm512_permutexvar_epi64(low, v));
        _mm512_mask_storeu_epi64((void *) (typed + 64), 0x55, _mm512_permutexvar_epi64(high, v));
    }
    for (; i < n; i++, packed += 8, typed += 16)
        memcpy(typed, packed, 8);
}

/* The row kernel chosen ahead of the row loops, or NULL: 8-byte blocks 16 bytes apart
 * (alternate_8; unpacked on Zen 5 only, where cached, four blocks to a line), and small blocks pages apart
 * that are taken to be in the cache (lines_fit_chunk). The small-block loops then need not prefetch
 * those ahead: each block is a TLB miss, but a prefetch adds a second TLB lookup per block and
 * keeps nothing in flight that the out-of-order core does not already have (NAS LU y face class E,
 * 1020 blocks of 40 B 40 KB apart, 130 KB of lines: 35 GB/s with, 40 without; packing them cold
 * from memory is ~10% slower without). Unpacking blocks whose lines fit in the L1 still gains from
 * it (class C, 162 blocks: 52 vs 49 GB/s), and unpacked strides of a multiple of 512 B go to the
 * row loop where it throttles the stores (scratch_stores). */
LATE MPID_Row_kernel MPID_Strided_row_kernel(bool pack, MPI_Aint stride, MPI_Count bs, MPI_Count blocks)
{
    if (alternate_8(pack, bs, stride) && (pack || lines_fit_chunk(1, blocks / 4)))
        return pack ? pack_alternate_8 : unpack_alternate_8;
    if (bs > 64 || !page_apart(stride) || (!pack && amd_host && stride % 512 == 0))
        return NULL;
    size_t lines = (size_t) (bs + 63) / 64 + 1;   /* a block may straddle one more */
    if (!lines_fit_chunk(lines, blocks))
        return NULL;
    if (!pack && (size_t) blocks * lines * 64 <= MPID_Cache_size(1))
        return NULL;
    return pack ? MPID_Kernels->pack_cached : MPID_Kernels->unpack_cached;
}

STRIDE_TEST zen5_gathers(bool unpack, MPI_Aint stride)
{
    if (!zen5_host || !gather_unit)
        return false;
    MPI_Aint near = unpack ? 64 : 128;
    return (stride >= near || stride <= -near) && !page_apart(stride);
}

/* 8-byte blocks a page or more apart, each a TLB miss, with at most PACED_LOADS of their loads
 * in flight: each load's address depends (times an opaque zero) on the block packed that many
 * before it. A plain loop lets the core run some 60 loads ahead, and their page walks then take
 * longer than fewer of them do: on Zen 4, NAS MG x face class D (256x256 blocks 4112 bytes apart,
 * 4 KiB pages) packed at 1.44-1.58 GB/s plainly, 1.14-1.32 with 6 in flight, 1.38-1.57 with 8,
 * 1.70-1.82 with 10, 1.78-1.90 with 12, 1.76-1.83 with 14 (a test program, 3-6 runs each; in the
 * benchmark 1.82-1.88 where the plain loop ran 1.51-1.55 and Open MPI 1.54-1.67). Whole pages
 * apart it lost (512^3 x face, 0.42 vs 0.53 GB/s): those go to the prefetching loop below. The
 * dependency goes through the store just made, which the core forwards. */
#define PACED_LOADS 12
LATE static __attribute__((noinline)) void pack_paced(char *packed, char *typed, MPI_Aint stride, MPI_Count n)
{
    uintptr_t zero = 0;
    __asm__("" : "+r"(zero));
    MPI_Count i = 0;
    for (; i < n && i < PACED_LOADS; i++, packed += 8, typed = at(typed, stride))
        memcpy(packed, typed, 8);
    for (; i < n; i++, packed += 8, typed = at(typed, stride)) {
        uintptr_t before;
        memcpy(&before, packed - 8 * PACED_LOADS, sizeof before);
        memcpy(packed, typed + (before & zero), 8);
    }
}

/* 8-byte blocks a page or more apart, not whole pages (NAS MG x faces), each a TLB miss: the row
 * loops copy them one move per block, packing (pack_row) and unpacking (row_way), except on Zen 5,
 * where the joined loops beat that both ways. */
STRIDE_TEST page_walk_blocks(MPI_Aint stride)
{
    return uneven_pages_apart(stride) && !zen5_host;
}

/* One row of blocks. The row functions stay out of line: inlined into the loop over rows, their
 * loops sit elsewhere, and where a loop sits moves its speed (see HOT; vec_8B/L2 unpack ran 29
 * instead of 55 GB/s). 8-byte blocks, the most common strided case: two loads joined into one
 * 16-byte store halve the stores, which bound this loop. Its loop starts on a cache line too:
 * moved 16 bytes by a change elsewhere in the function, vec_8B/L2 pack fell from 48 to 44 GB/s. */
static HOT_LOOPS __attribute__((noinline)) void pack_row(char *packed, char *typed, MPI_Aint stride, MPI_Count bs,
                                                  MPI_Count n, bool cached)
{
    bool far = lines_apart(stride), pages = whole_pages_apart(stride);
    if (bs == 8 && zen5_gathers(false, stride)) {
        pack_gather_8(packed, typed, stride, n);
        return;
    }
    if (bs != 8 || (far && !page_apart(stride))) {   /* far apart, loads bound it: no joined stores */
        /* Taken to be cached: no prefetch ahead, as unpack_row does (Xeon, NAS MG x face class B,
         * 1040 bytes apart: +2%, in two runs next to it), and four loads ahead of their four
         * stores, so that four misses are in flight before a store waits (MG x face class B
         * +8.6%, to the hand loop's speed; as one 32-byte copy of an array of the four, they went
         * through the stack and ran at a third of that) */
        if (bs == 8 && cached) {   /* 8-byte blocks reach here only lines apart */
            MPI_Count i = 0;
            for (; i + 4 <= n; i += 4, packed += 32, typed = at_k(typed, 4, stride)) {
                uint64_t v0, v1, v2, v3;
                memcpy(&v0, typed, 8);
                memcpy(&v1, at_k(typed, 1, stride), 8);
                memcpy(&v2, at_k(typed, 2, stride), 8);
                memcpy(&v3, at_k(typed, 3, stride), 8);
                memcpy(packed, &v0, 8);
                memcpy(packed + 8, &v1, 8);
                memcpy(packed + 16, &v2, 8);
                memcpy(packed + 24, &v3, 8);
            }
            MPID_Kernels->pack_cached(packed, typed, stride, bs, n - i);
        } else
            MPID_Kernels->pack_strided(packed, typed, stride, bs, n);
        return;
    }
    /* A page or more apart, not whole pages (NAS MG x faces): each load is a TLB miss, and one
     * load per block keeps the most of them in flight (Xeon, MG x face class D: 0.68 to 0.84 GB/s,
     * as MPICH and the hand loop; the joined loads below waited on each other's page walks).
     * On AMD processors fewer in flight are faster (pack_paced); on Zen 5 the joined loads below
     * beat both (in the benchmark, next to them: +8% over the paced loop, +4% over this one). */
    if (page_walk_blocks(stride)) {
        if (amd_host)
            pack_paced(packed, typed, stride, n);
        else
            for (MPI_Count i = 0; i < n; i++, packed += 8, typed = at(typed, stride))
                memcpy(packed, typed, 8);
        return;
    }
    MPI_Count i = 0;
    for (; i + 4 <= n; i += 4, packed += 32, typed = at_k(typed, 4, stride)) {
        if (pages && i + PAGE_AHEAD + 4 <= n)
            for (int k = 0; k < 4; k++)
                __builtin_prefetch(at_k(typed, PAGE_AHEAD + k, stride), 0);
        __m128i a = _mm_loadl_epi64((const __m128i *) typed);
        __m128i b = _mm_loadl_epi64((const __m128i *) (typed + stride));
        __m128i c = _mm_loadl_epi64((const __m128i *) (typed + 2 * stride));
        __m128i d = _mm_loadl_epi64((const __m128i *) (typed + 3 * stride));
        _mm_storeu_si128((__m128i *) packed, _mm_unpacklo_epi64(a, b));
        _mm_storeu_si128((__m128i *) (packed + 16), _mm_unpacklo_epi64(c, d));
    }
    MPID_Kernels->pack_strided(packed, typed, stride, 8, n - i);
}

HOT NO_IPA void MPID_Pack_rows(char *packed, char *typed, MPI_Aint stride, MPI_Count bs, MPI_Count n,
                               MPI_Aint row_step, MPI_Count rows)
{
    /* One row at a time. Four rows of 8-byte blocks at once, one block of each in turn, gained
     * 2-10% on Zen 4 but lost 15% on a Xeon (NAS MG x face class B: 13.5 vs 15.8 GB/s), whose
     * stride prefetcher follows one row's blocks. */
    bool cached = lines_fit_chunk(1, n * rows);   /* n * rows: the blocks of this call */
    for (MPI_Count r = 0; r < rows; r++, packed += n * bs, typed = at(typed, row_step))
        pack_row(packed, typed, stride, bs, n, cached);
}

/* Blocks whose stride is a multiple of 512 bytes all fall in one to eight of the L1 cache's 64
 * sets (columns of power-of-two arrays). When they are many times more lines than those sets
 * hold, their store misses, written at full speed, pile up on those sets, and unpacking small
 * blocks runs 2-6x slower than at a stride a line longer (Zen 4, 8-byte blocks: 0.9 GB/s at
 * 4 KiB, 7 at 4128 B). A few stores to a scratch line per block fill the store queue with hits,
 * so fewer misses are in flight at once. When the lines fit, the extra stores only cost (up to
 * 3x on 16-byte blocks), so the count depends on how many sets the blocks share, how many times
 * over they fill them (rows a multiple of the set span apart add their lines), and the block
 * size; each value is the best of a sweep over strides of 512 B - 8 KiB, blocks of 8-256 B and
 * 64-1024 blocks. 0: no throttle.
 * All that was measured on Zen 4. On a Xeon (Sapphire Rapids, 48 KiB 12-way L1) the same sweep
 * found the opposite at most points: at whole-page strides these counts ran 2-2.6x slower than
 * none, which was the best there; 2-6 stores gained up to 30% at strides of 512 and 1536 B in the
 * sweep, but in the benchmark the 64^3 x face (512 B apart) unpacked 7-19% faster without (two
 * runs in one process next to the throttle; 1.97-2.06 GB/s next to Open MPI's 1.93-2.00). So only
 * AMD processors throttle, and there only where a trial finds it faster (MPID_Unpack_rows). */
static int scratch_stores(MPI_Aint stride, MPI_Count bs, MPI_Count n, MPI_Aint row_step, MPI_Count rows)
{
    if (!amd_host || !lines_apart(stride) || stride % 512 != 0 || bs > 256 || n < 1 || rows < 1
        || (bs == 8 && zen5_gathers(true, stride)))
        return 0;   /* (a call with no blocks is not timed: the trial divides by their number) */
    int sets = stride % 4096 == 0 ? 1 : stride % 2048 == 0 ? 2 : stride % 1024 == 0 ? 4 : 8;
    MPI_Count lines = (bs + 63) / 64;   /* of one block */
    MPI_Count blocks = row_step % (4096 / sets) == 0 ? n * rows : n;
    /* Blocks each on a page of its own, more pages than the L2 TLB holds: every store waits for a
     * page walk, which spaces the misses out already, and the scratch stores only cost (8-byte x
     * faces of a 512^3 array, 262144 pages: 0.38 to 0.56 GB/s, where MPICH ran at 0.47; prefetched
     * ahead as unpack_throttled does, 0.48). */
    if (sets == 1 && blocks > TLB_PAGES)   /* one row's blocks, or all rows' (rows pages apart) */
        return 0;
    MPI_Count span = sets * lines < 64 ? sets * lines : 64;   /* sets the blocks fall in */
    MPI_Count fill = blocks * lines / (8 * span);              /* times their 8 ways over */
    if (fill < 4)
        return 0;
    switch (sets) {
    case 8:
        return bs <= 16 ? 2 : 0;
    case 4:
        return bs <= 8 ? 4 : bs <= 32 ? 2 : bs <= 64 && fill >= 32 ? 2 : 0;
    case 2:
        if (bs <= 32)
            return fill >= 64 ? 6 : bs <= 16 ? 4 : 2;
        return bs <= 64 && fill >= 16 ? 2 : bs <= 128 && fill >= 32 ? 2 : 0;
    default:   /* one set per line of a block */
        if (bs <= 32)
            return fill < 16 ? 4 : fill < 64 ? 8 : 12;
        if (bs <= 64)
            return fill < 16 ? 2 : 8;
        return fill < 16 ? 0 : bs <= 128 ? 6 : 1;
    }
}

/* The other throttle on trial (MPID_Unpack_rows): no scratch stores, but a pause after every
 * PAUSE_BLOCKS blocks of a row and after its last, which leaves the store misses in flight time to
 * drain without taking store queue entries. On the Zen 3 guest, where two scratch stores per block
 * held the 64^3 x face at 3.1-3.3 GB/s in every process, a pause after each row of 64 blocks
 * unpacked it at 4.6-4.9 in the processes where MPICH's plain loop ran 3.8-4.7 (the pause left
 * the time between MPICH's calls: a plain loop with a pause or an mfence before each call of
 * 4096 blocks ran near MPICH, without it 2.2-3.0). Larger blocks, or fewer of them, lost up to
 * half with pauses in a sweep, so the trial decides. */
#define PAUSE_BLOCKS 64
#define PAUSE_WAY 13   /* unpack_row's scratch_k for pauses (scratch counts are 1-12) */

/* Two tight inner loops: with a test of the block size or of the count per block, the same
 * pauses ran at 3.1-3.2 GB/s. */
static inline __attribute__((always_inline)) void unpack_paused(char *packed, char *typed, MPI_Aint stride,
                                                               MPI_Count bs, MPI_Count n)
{
    for (MPI_Count i = 0; i < n; _mm_pause()) {
        MPI_Count end = n - i < PAUSE_BLOCKS ? n : i + PAUSE_BLOCKS;
        if (bs == 8)
            for (; i < end; i++, packed += 8, typed = at(typed, stride))
                memcpy(typed, packed, 8);
        else
            for (; i < end; i++, packed += bs, typed = at(typed, stride))
                copy_bytes(typed, packed, bs);
    }
}

/* k is a constant at each call, so the scratch stores are straight-line code. Blocks pages apart
 * are each a TLB miss too: they are prefetched as in the other kernels (8-byte faces of a 512^3
 * array, when they throttled: 0.72 to 0.88 GB/s). */
static inline __attribute__((always_inline)) void unpack_throttled(char *packed, char *typed, MPI_Aint stride,
                                                                  MPI_Count bs, MPI_Count n, const int k)
{
    MPI_Count line[12];
    volatile MPI_Count *scratch = line;
    MPI_Count lead = prefetch_lead(page_apart(stride), n, PAGE_AHEAD);
    for (MPI_Count i = 0; i < n; i++, packed += bs, typed = at(typed, stride)) {
        if (i < lead)
            __builtin_prefetch(at_k(typed, PAGE_AHEAD, stride), 1);
        if (bs == 8)   /* the common case, one move */
            memcpy(typed, packed, 8);
        else
            copy_bytes(typed, packed, bs);
        for (int j = 0; j < k; j++)
            scratch[j] = i;
    }
}

/* Blocks of MID_BLOCKS_MIN up to NARROW_MAX bytes whole pages apart, more of them than the L1 has
 * ways: their lines all fall in the same few L1 sets, and each store misses the L1. On the Xeon
 * host one 16-byte move at a time ran faster there than the kernels' 32-byte groups: the y face
 * of a 64^3 array (64 rows of 512 B 32 KiB apart) unpacked at 48 instead of 37 GB/s in the
 * benchmark (the hand loop, which has this form: 50), and in a test program 512-byte rows 16 KiB
 * apart gained as much; rows of 1 KiB and 2 KiB lost 9-12% (FFT2D N=512, 2 KiB blocks 8 KiB
 * apart: -12%), 256-byte rows tied, and where the lines do not conflict 16-byte moves lose
 * (512 B rows 33024 B apart: 42 vs 50). Its loop has a cache line of its own (HOT_LOOPS):
 * inlined into unpack_row, the same moves ran at 25 GB/s. Not on AMD processors, where it was not
 * measured (they throttle such stores instead: scratch_stores). */
#define NARROW_MAX 512
STRIDE_TEST narrow_unpack(MPI_Aint stride, MPI_Count bs, MPI_Count n)
{
    return !amd_host && whole_pages_apart(stride) && bs >= MID_BLOCKS_MIN && bs <= NARROW_MAX
        && (size_t) n > l1_ways;
}
static HOT_LOOPS __attribute__((noinline)) void unpack_narrow(char *packed, char *typed, MPI_Aint stride,
                                                               MPI_Count bs, MPI_Count n)
{
    for (MPI_Count b = 0; b < n; b++, packed += bs, typed = at(typed, stride)) {
        V16 last = *(const V16 *) (packed + bs - 16);
        for (MPI_Count i = 0; i + 16 < bs; i += 16) {
            V16 v = *(const V16 *) (packed + i);
            __asm__("" : "+x"(v));   /* not joined into wider moves */
            *(V16 *) (typed + i) = v;
        }
        *(V16 *) (typed + bs - 16) = last;
    }
}

/* 8-byte blocks an odd multiple of 512 bytes apart, whose lines all fall in 8 of the L1's 64 sets,
 * unpacked on Intel processors with each block's line prefetched for writing CROWDED_AHEAD blocks
 * before its store, so that the store finds it in the L1. Ice Lake host, a test program, 64 rows
 * of 64 blocks in the L2: 512 and 1536 bytes apart (the x face of a 64^3 array) +8-24% over the
 * plain loop; 2560 apart a tie; 1024 or 1040 apart (fewer or all sets) it lost 5-10%, so those
 * keep the plain loop. A page or more apart (such rows come here only when their lines fit the
 * L1: MPID_Strided_row_kernel) one row of 256-300 blocks 4608 or 5632 bytes apart gained 5-10%
 * over the plain loop, but two or more rows ran 20-50% faster two at a time (ROW_PAIRED). (AMD
 * processors throttle such stores instead: scratch_stores.) */
#define CROWDED_AHEAD 4
STRIDE_TEST set_crowded(MPI_Aint stride)
{
    return !amd_host && stride_dist(stride) % 1024 == 512;
}
static HOT_LOOPS __attribute__((noinline)) void unpack_crowded_8(char *packed, char *typed, MPI_Aint stride,
                                                                  MPI_Count n)
{
    MPI_Count i = 0;
    for (; i + CROWDED_AHEAD < n; i++, packed += 8, typed = at(typed, stride)) {
        __builtin_prefetch(at_k(typed, CROWDED_AHEAD, stride), 1);
        memcpy(typed, packed, 8);
    }
    for (; i < n; i++, packed += 8, typed = at(typed, stride))
        memcpy(typed, packed, 8);
}

/* How unpack_rows unpacks a call's rows, decided once per call (row_way, which holds the order of
 * precedence). */
enum row_way {
    ROW_THROTTLED,   /* scratch stores or pauses, as the throttle's trial says (k) */
    ROW_WIDE,        /* blocks other than 8 bytes: unpack_narrow or the kernels */
    ROW_SCATTER,     /* AVX-512 scatters (zen5_gathers) */
    ROW_PAIRED,      /* two rows at a time (unpack_rows2_8), then the plain loop for the one left */
    ROW_CROWDED,     /* a write prefetch ahead (set_crowded) */
    ROW_PLAIN,       /* the plain loop, all rows in one nest (unpack_plain_8) */
    ROW_JOINED,      /* two blocks from each 16-byte load, a write prefetch ahead lines apart */
};
/* 8-byte blocks take the plain loop, one move each, a page or more apart but not whole pages: each
 * is a TLB miss, which bounds the loop; one move per block, with no prefetch and no joined loads,
 * measured best (NAS MG x face class D, 4112 bytes apart: +7% over the joined loop, +3.5% over it
 * without the prefetch; prefetching each block 16 or 32 ahead: -30%). Whole pages apart the joined
 * loop is better (512^3 x face: the plain loop -12%), and on Zen 5 for these too (NAS MG x face
 * class D, in the benchmark next to the two-row loop: +5%). The plain loop also takes blocks lines
 * apart whose lines are taken to be in the cache (cached: lines_fit_chunk): the prefetch and the
 * joined stores only cost there (Xeon, NAS MG x face class B, 1040 bytes apart: 6.5 to 7.5 GB/s;
 * from memory they gain 10%). Two or more rows a page or more apart go two at a time first
 * (unpack_rows2_8). */
static inline __attribute__((always_inline)) enum row_way row_way(MPI_Aint stride, MPI_Count bs, MPI_Count rows,
                                                                  int k, bool cached)
{
    if (k)
        return ROW_THROTTLED;
    if (bs != 8)
        return ROW_WIDE;
    if (zen5_gathers(true, stride))
        return ROW_SCATTER;
    bool page_walk = page_walk_blocks(stride);
    if (page_walk && rows >= 2)
        return ROW_PAIRED;
    if (cached && set_crowded(stride))   /* one such row too, where the stride is crowded */
        return ROW_CROWDED;
    return page_walk || (cached && lines_apart(stride)) ? ROW_PLAIN : ROW_JOINED;
}
/* Rows of them in one loop nest, which unpack_rows calls once for all rows: through unpack_row, a
 * call and its tests per row ran NAS MG x face class B (64 rows of 64 blocks 1040 bytes apart) at
 * 6.4-6.8 GB/s, this loop at 6.9-7.4 (Ice Lake host, three processes next to it; MPICH 6.3-6.7). */
static HOT_LOOPS __attribute__((noinline)) void unpack_plain_8(char *packed, char *typed, MPI_Aint stride, MPI_Count n,
                                                                MPI_Aint row_step, MPI_Count rows)
{
    for (MPI_Count r = 0; r < rows; r++, typed = at(typed, row_step)) {
        char *t = typed;
        for (MPI_Count i = 0; i < n; i++, packed += 8, t = at(t, stride))
            memcpy(t, packed, 8);
    }
}

/* One row of blocks the way way says (not ROW_PAIRED or ROW_PLAIN, which unpack_rows runs itself),
 * with scratch_k scratch stores per block when throttled (PAUSE_WAY: pauses instead). */
static HOT __attribute__((noinline)) void unpack_row(char *packed, char *typed, MPI_Aint stride, MPI_Count bs,
                                                    MPI_Count n, enum row_way way, int scratch_k)
{
#define THROTTLED(K) \
    case K: \
        unpack_throttled(packed, typed, stride, bs, n, K); \
        return;
    switch (way) {
    case ROW_THROTTLED:
        switch (scratch_k) {
            THROTTLED(1) THROTTLED(2) THROTTLED(4) THROTTLED(6) THROTTLED(8) THROTTLED(12)
        case PAUSE_WAY:
        default:   /* (scratch_stores gives no other counts) */
            unpack_paused(packed, typed, stride, bs, n);
            return;
        }
    case ROW_WIDE:
        if (narrow_unpack(stride, bs, n))
            unpack_narrow(packed, typed, stride, bs, n);
        else
            MPID_Kernels->unpack_strided(packed, typed, stride, bs, n);
        return;
    case ROW_SCATTER:
        unpack_scatter_8(packed, typed, stride, n);
        return;
    case ROW_CROWDED:
        unpack_crowded_8(packed, typed, stride, n);
        return;
    default:
        break;
    }
#undef THROTTLED
    /* ROW_JOINED. Blocks whole pages apart come here only in short rows or on more pages than the
     * TLB maps (others throttle, see scratch_stores); they are not prefetched at all (the many
     * pages measured slower with PAGE_AHEAD). */
    bool lead = lines_apart(stride) && !page_apart(stride);
    MPI_Count i = 0;
    for (; i + 4 <= n; i += 4, packed += 32, typed = at_k(typed, 4, stride)) {
        if (lead && i + 12 <= n)   /* one write prefetch per four lines measured best (MG x faces: +10%) */
            __builtin_prefetch(at_k(typed, 8, stride), 1);
        __m128i ab = _mm_loadu_si128((const __m128i *) packed);
        __m128i cd = _mm_loadu_si128((const __m128i *) (packed + 16));
        _mm_storel_epi64((__m128i *) typed, ab);
        _mm_storel_epi64((__m128i *) (typed + stride), _mm_unpackhi_epi64(ab, ab));
        _mm_storel_epi64((__m128i *) (typed + 2 * stride), cd);
        _mm_storel_epi64((__m128i *) (typed + 3 * stride), _mm_unpackhi_epi64(cd, cd));
    }
    MPID_Kernels->unpack_strided(packed, typed, stride, 8, n - i);
}

/* Two rows of 8-byte blocks a page or more apart (not whole pages) at once, one block of each in
 * turn: each store waits for a page walk, and two rows' walks overlap better than one row's
 * (NAS MG x face class D unpack +2-6% in each of 11 runs, in one process next to one row at a
 * time; three or four rows at once: +0-2%). */
static HOT __attribute__((noinline)) void unpack_rows2_8(char *packed, char *typed, MPI_Aint stride, MPI_Count n,
                                                        MPI_Aint row_step)
{
    char *t0 = typed, *t1 = at(t0, row_step);
    for (MPI_Count i = 0; i < n; i++, packed += 8) {
        MPI_Aint off = (MPI_Aint) ((uintptr_t) i * (uintptr_t) stride);
        memcpy(at(t0, off), packed, 8);
        memcpy(at(t1, off), packed + 8 * n, 8);
    }
}

static inline __attribute__((always_inline)) void unpack_rows(char *packed, char *typed, MPI_Aint stride,
                                                             MPI_Count bs, MPI_Count n, MPI_Aint row_step,
                                                             MPI_Count rows, int k)
{
    enum row_way way = row_way(stride, bs, rows, k, lines_fit_chunk(1, n * rows));   /* n * rows: this call's blocks */
    MPI_Count r = 0;
    if (way == ROW_PAIRED || way == ROW_PLAIN) {
        if (way == ROW_PAIRED)
            for (; r + 2 <= rows; r += 2, packed += 2 * n * bs, typed = at_k(typed, 2, row_step))
                unpack_rows2_8(packed, typed, stride, n, row_step);
        unpack_plain_8(packed, typed, stride, n, row_step, rows - r);   /* all rows, or the one the pairs left */
        return;
    }
    for (; r < rows; r++, packed += n * bs, typed = at(typed, row_step))
        unpack_row(packed, typed, stride, bs, n, way, k);
}

/* Whether the throttle helps depends on more than the processor. On the Zen 4 guest at its usual
 * speed the 64^3 x face unpacked at 6.3 GB/s throttled, where MPICH and the hand loop managed 2.3;
 * on days when the same guest ran at half speed, they unpacked it at 6.0-6.6 unthrottled, and the
 * throttle's two stores per block ran at 7-8 or at 4.2-5.5 GB/s, from process to process and
 * from moment to moment (in a test program: 165-180 or 280-330 TSC ticks per 64 blocks where none
 * took 190-215, which of the two set by where the face, the packed buffer and the stack fall).
 * So the throttle is put on trial: the first calls of every epoch of each scratch count take
 * turns with it, without it and with pauses instead (PAUSE_BLOCKS), timed per block by the TSC,
 * and the way with the lowest median time (the best time favours the way whose times spread more)
 * is kept for the rest of the epoch. The turns follow the Thue-Morse sequence over three symbols
 * (the sum of the turn number's base-3 digits, mod 3), so that a program that alternates layouts
 * does not time a way on one of them only. Trials take 72 of every 2048 calls; at worst two
 * thirds of those run a slower way. A call runs differently after calls of another way (1024
 * 8-byte blocks a page apart: 782 ticks throttled and 873 not call after call, but 1332 throttled
 * after an unthrottled call and 673 the other way round; the 64^3 x face on Zen 3 took 3-5 calls
 * to settle), so a turn is 8 calls and only its last 4 are timed. With turns of one call, or of
 * four with the last three timed, the trial kept no throttle in most epochs on Zen 3, whose first
 * unthrottled calls ran fast, and the face then unpacked at 2.3-3.2 GB/s; with turns of 8, at
 * 3.9-4.4. */
enum { WAY_SCRATCH, WAY_NONE, WAY_PAUSE, THROTTLE_WAYS };   /* WAY_SCRATCH until a verdict */
#define THROTTLE_TRIALS 3                                    /* turns of each way */
#define TURN_CALLS 8                                         /* a turn's calls, half of them timed */
#define TRIAL_TURNS (THROTTLE_WAYS * THROTTLE_TRIALS)
#define TRIAL_CALLS (TRIAL_TURNS * TURN_CALLS)
#define THROTTLE_EPOCH 2048
/* A trial's next call number within its epoch. No atomic add: threads that race on the count
 * only lose calls from it, or share a turn. (The streaming trial counts the same way.) */
static unsigned trial_call(_Atomic unsigned *calls, unsigned epoch)
{
    unsigned call = atomic_load_explicit(calls, memory_order_relaxed);
    atomic_store_explicit(calls, call + 1, memory_order_relaxed);
    return call % epoch;
}
static struct throttle_trial {
    _Atomic unsigned calls;
    _Atomic uint32_t ticks[TRIAL_TURNS];   /* per 64 blocks, summed over each turn's timed calls */
    _Atomic int way;                       /* the epoch's verdict */
} throttle_trials[13];                     /* by scratch count (at most 12) */

/* The way trial turn c takes (9 turns: 3 of each). */
static int trial_way(unsigned c)
{
    unsigned digits = 0;
    for (; c; c /= 3)
        digits += c % 3;
    return (int) (digits % THROTTLE_WAYS);
}

/* The median of one way's trial times. */
static uint32_t trial_median(struct throttle_trial *t, int way)
{
    uint32_t v[THROTTLE_TRIALS];
    int m = 0;
    for (unsigned c = 0; c < TRIAL_TURNS; c++)
        if (trial_way(c) == way) {
            uint32_t x = atomic_load_explicit(&t->ticks[c], memory_order_relaxed);
            int j = m++;
            for (; j > 0 && v[j - 1] > x; j--)   /* insertion sort */
                v[j] = v[j - 1];
            v[j] = x;
        }
    return v[THROTTLE_TRIALS / 2];
}

/* Adds the time of trial call call of the epoch to its turn's; the last one gives the epoch's
 * verdict. */
static void trial_record(struct throttle_trial *t, unsigned call, uint64_t ticks)
{
    unsigned turn = call / TURN_CALLS;
    uint64_t sum = ticks;
    if (call % TURN_CALLS != TURN_CALLS / 2)   /* not the turn's first timed call */
        sum += atomic_load_explicit(&t->ticks[turn], memory_order_relaxed);
    atomic_store_explicit(&t->ticks[turn], sum < UINT32_MAX ? (uint32_t) sum : UINT32_MAX,
                          memory_order_relaxed);
    /* A time another thread has not stored yet is last epoch's, which does no harm. */
    if (call == TRIAL_CALLS - 1) {
        int best = 0;
        uint32_t best_ticks = trial_median(t, 0);
        for (int way = 1; way < THROTTLE_WAYS; way++) {
            uint32_t ticks = trial_median(t, way);
            if (ticks < best_ticks)
                best = way, best_ticks = ticks;
        }
        atomic_store_explicit(&t->way, best, memory_order_relaxed);
    }
}

HOT NO_IPA void MPID_Unpack_rows(char *packed, char *typed, MPI_Aint stride, MPI_Count bs,
                                 MPI_Count n, MPI_Aint row_step, MPI_Count rows)
{
    int k = scratch_stores(stride, bs, n, row_step, rows);
    struct throttle_trial *t = &throttle_trials[k];
    unsigned call = 0;
    bool timed = false;
    if (k) {
        call = trial_call(&t->calls, THROTTLE_EPOCH);
        bool trial = call < TRIAL_CALLS;
        int way = trial ? trial_way(call / TURN_CALLS) : atomic_load_explicit(&t->way, memory_order_relaxed);
        timed = trial && call % TURN_CALLS >= TURN_CALLS / 2;   /* a turn's last calls */
        k = way == WAY_NONE ? 0 : way == WAY_PAUSE ? PAUSE_WAY : k;
    }
    uint64_t start = timed ? __rdtsc() : 0;
    unpack_rows(packed, typed, stride, bs, n, row_step, rows, k);
    if (timed)
        trial_record(t, call, (__rdtsc() - start) * 64 / (uint64_t) (n * rows));
}

/* The entry points: small blocks pages apart taken to be cached go to the kernels without the
 * prefetch ahead (the two differ for blocks of up to 64 B only), all others to the row loops. */
LATE void MPID_Each_row(MPID_Row_kernel row, char *packed, char *typed, MPI_Aint stride, MPI_Count bs, MPI_Count n,
                        MPI_Aint row_step, MPI_Count rows)
{
    for (MPI_Count r = 0; r < rows; r++, packed += n * bs, typed = at(typed, row_step))
        row(packed, typed, stride, bs, n);
}

LATE void MPID_Pack_strided(char *packed, char *typed, MPI_Aint stride, MPI_Count bs, MPI_Count n,
                            MPI_Aint row_step, MPI_Count rows)
{
    MPID_Row_kernel row = MPID_Strided_row_kernel(true, stride, bs, n * rows);
    if (row)
        MPID_Each_row(row, packed, typed, stride, bs, n, row_step, rows);
    else
        MPID_Pack_rows(packed, typed, stride, bs, n, row_step, rows);
}

LATE void MPID_Unpack_strided(char *packed, char *typed, MPI_Aint stride, MPI_Count bs, MPI_Count n,
                              MPI_Aint row_step, MPI_Count rows)
{
    MPID_Row_kernel row = MPID_Strided_row_kernel(false, stride, bs, n * rows);
    if (row)
        MPID_Each_row(row, packed, typed, stride, bs, n, row_step, rows);
    else
        MPID_Unpack_rows(packed, typed, stride, bs, n, row_step, rows);
}

/* ---- windows: small in-order elements copied whole by the vector unit ----
 *
 * An element (one instance of a loop) whose data lies in at most MAX_WINDOWS 64-byte windows and
 * comes in memory order is moved with one masked load, one compress (pack) or expand (unpack) and
 * one masked store per window: exact bytes, no read or write outside the type map, no branch per
 * field. This is what makes padded structs of mixed types fast. Needs AVX-512 VBMI2; elsewhere
 * windows are never built and the walker does the work. */

/* masked loads do not train the hardware prefetcher: prefetch the elements ahead by hand */
#define PREFETCH_AHEAD 16
#define WINDOW_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi2"))) HOT_LOOPS

/* One kernel pair per vector width. Pack stores whole vectors (what spills past an element is
 * overwritten by the next one) except for the last elements of the range, which store exactly. */
#define WINDOW_KERNELS(W, VEC, MASK, LOAD, STORE, MSTORE, COMPRESS, EXPAND) \
    WINDOW_TARGET static void window_pack_##W(const MPID_Windows *w, char *out, char *src, MPI_Aint step, \
                                               MPI_Count n) \
    { \
        /* locals, so the stores through char * do not force reloads of the descriptor */ \
        const int nw = w->n, tail = w->tail; \
        const MASK m0 = (MASK) w->mask[0]; \
        const int c0 = w->count[0]; \
        src = at(src, w->start); \
        if (nw == 1) { \
            for (MPI_Count i = 0; i < n - tail; i++, src = at(src, step), out += c0) { \
                _mm_prefetch(at_k(src, PREFETCH_AHEAD, step), _MM_HINT_T0); \
                STORE((void *) out, COMPRESS(m0, LOAD(m0, src))); \
            } \
        } else { \
            for (MPI_Count i = 0; i < n - tail; i++, src = at(src, step)) { \
                _mm_prefetch(at_k(src, PREFETCH_AHEAD, step), _MM_HINT_T0); \
                for (int k = 0; k < nw; k++) { \
                    MASK m = (MASK) w->mask[k]; \
                    STORE((void *) out, COMPRESS(m, LOAD(m, src + W * k))); \
                    out += w->count[k]; \
                } \
            } \
        } \
        /* the last elements store exactly: nothing is written past the range */ \
        for (MPI_Count i = n - tail < 0 ? 0 : n - tail; i < n; i++, src = at(src, step)) \
            for (int k = 0; k < nw; k++) { \
                MASK m = (MASK) w->mask[k]; \
                MSTORE(out, (MASK) w->low[k], COMPRESS(m, LOAD(m, src + W * k))); \
                out += w->count[k]; \
            } \
    } \
    WINDOW_TARGET static void window_unpack_##W(const MPID_Windows *w, char *in, char *dst, MPI_Aint step, \
                                                 MPI_Count n) \
    { \
        const int nw = w->n; \
        const MASK m0 = (MASK) w->mask[0], l0 = (MASK) w->low[0]; \
        const int c0 = w->count[0]; \
        dst = at(dst, w->start); \
        for (MPI_Count i = 0; i < n; i++, dst = at(dst, step)) { \
            __builtin_prefetch(at_k(dst, PREFETCH_AHEAD, step), 1); \
            __builtin_prefetch(in + 512, 0); \
            if (nw == 1) { \
                MSTORE(dst, m0, EXPAND(m0, LOAD(l0, in))); \
                in += c0; \
                continue; \
            } \
            for (int k = 0; k < nw; k++) { \
                MASK m = (MASK) w->mask[k]; \
                MSTORE(dst + W * k, m, EXPAND(m, LOAD((MASK) w->low[k], in))); \
                in += w->count[k]; \
            } \
        } \
    }
WINDOW_KERNELS(16, __m128i, __mmask16, _mm_maskz_loadu_epi8, _mm_storeu_si128, _mm_mask_storeu_epi8,
               _mm_maskz_compress_epi8, _mm_maskz_expand_epi8)
WINDOW_KERNELS(32, __m256i, __mmask32, _mm256_maskz_loadu_epi8, _mm256_storeu_si256, _mm256_mask_storeu_epi8,
               _mm256_maskz_compress_epi8, _mm256_maskz_expand_epi8)
WINDOW_KERNELS(64, __m512i, __mmask64, _mm512_maskz_loadu_epi8, _mm512_storeu_si512, _mm512_mask_storeu_epi8,
               _mm512_maskz_compress_epi8, _mm512_maskz_expand_epi8)

void MPID_Window_pack(const MPID_Windows *w, char *out, char *src, MPI_Aint step, MPI_Count n)
{
    (w->width == 16 ? window_pack_16 : w->width == 32 ? window_pack_32 : window_pack_64)(w, out, src, step, n);
}

void MPID_Window_unpack(const MPID_Windows *w, char *in, char *dst, MPI_Aint step, MPI_Count n)
{
    (w->width == 16 ? window_unpack_16 : w->width == 32 ? window_unpack_32 : window_unpack_64)(w, in, dst, step, n);
}

/* ---- streaming stores (copy_kernels.h) ---- */

size_t MPID_Stream_min = 32 << 20;   /* set by MPID_Copy_init */

/* n bytes with streaming stores, n a multiple of 8 and d 8-byte aligned: 32-byte stores from d's
 * first 32-byte boundary on, 8-byte ones before and after (8-byte ones only, a 1 KiB block
 * unpacked from memory ran at 8 GB/s, with 32-byte ones at 13; ordinary stores: 5.4). A run of
 * them fills whole lines, which the processor's write-combining buffers send to memory at once. */
#define STREAM_TARGET __attribute__((target("avx2")))
static inline bool words(const char *d, MPI_Count bs)
{
    return (((uintptr_t) d | (uintptr_t) bs) & 7) == 0;
}
/* Whole lines, n a multiple of 64 and d on a line: one 64-byte streaming store per line on Zen 5
 * where the processor has AVX-512 (stream_wide; elsewhere not measured). There 1 KiB blocks 2 KiB
 * apart packed from memory at 17.9 GB/s so, 14.6 with two 32-byte stores per line, in a test
 * program, and unpacked at 17.4 and 16.3. Out of line, since the callers are compiled for AVX2. */
__attribute__((target("avx512f"), noinline)) static void stream_lines(char *d, const char *s, MPI_Count n)
{
    for (; n > 0; n -= 64, d += 64, s += 64)
        _mm512_stream_si512((__m512i *) d, _mm512_loadu_si512((const __m512i *) s));
}
#define STREAM_LINES_MIN 256
static inline __attribute__((always_inline)) STREAM_TARGET void stream_words(char *d, const char *s, MPI_Count n)
{
    long long w;
    for (; n > 0 && (uintptr_t) d % 32; n -= 8, d += 8, s += 8) {
        memcpy(&w, s, 8);
        _mm_stream_si64((long long *) d, w);
    }
    if (stream_wide && zen5_host && n >= STREAM_LINES_MIN) {
        if ((uintptr_t) d % 64) {
            _mm256_stream_si256((__m256i *) d, _mm256_loadu_si256((const __m256i *) s));
            n -= 32, d += 32, s += 32;
        }
        MPI_Count lines = n & ~(MPI_Count) 63;
        stream_lines(d, s, lines);
        n -= lines, d += lines, s += lines;
    }
    for (; n >= 32; n -= 32, d += 32, s += 32)
        _mm256_stream_si256((__m256i *) d, _mm256_loadu_si256((const __m256i *) s));
    for (; n > 0; n -= 8, d += 8, s += 8) {
        memcpy(&w, s, 8);
        _mm_stream_si64((long long *) d, w);
    }
}
/* n 8-byte blocks stride apart packed to d (8-byte aligned), two to a 16-byte streaming store:
 * per block, the run of stream_words with its alignment tests halved the speed. */
static inline __attribute__((always_inline)) STREAM_TARGET void stream_pack_8(char *d, const char *s,
                                                                              MPI_Aint stride, MPI_Count n)
{
    MPI_Count i = 0, lead = prefetch_lead(lines_apart(stride), n, 17);
    if ((uintptr_t) d % 16 && n > 0) {
        stream_words(d, s, 8);
        d += 8, s = at((char *) s, stride), i++;
    }
    for (; i + 2 <= n; i += 2, d += 16, s = at_k((char *) s, 2, stride)) {
        if (i < lead) {
            __builtin_prefetch(at_k((char *) s, 16, stride), 0);
            __builtin_prefetch(at_k((char *) s, 17, stride), 0);
        }
        __m128i a = _mm_loadl_epi64((const __m128i *) s), b = _mm_loadl_epi64((const __m128i *) (s + stride));
        _mm_stream_si128((__m128i *) d, _mm_unpacklo_epi64(a, b));
    }
    if (i < n)
        stream_words(d, s, 8);
}

/* Block i of n, bs bytes, between the stream and the typed buffer at ADDR(i), with streaming
 * stores on the side written; blocks lines apart are prefetched ahead, as in the kernels. */
#define STREAM_BLOCKS(PACK, ADDR, FAR) \
    do { \
        MPI_Count lead = prefetch_lead(FAR, n, 16); \
        for (MPI_Count i = 0; i < n; i++, stream += bs) { \
            if (i < lead) \
                __builtin_prefetch(ADDR(i + 16), !(PACK)); \
            if (PACK) \
                stream_words(stream, ADDR(i), bs); \
            else \
                stream_words(ADDR(i), stream, bs); \
        } \
    } while (0)

/* Unpacked blocks are streamed only from this size on: smaller ones write parts of lines whose
 * other bytes the typed buffer keeps, which must be read anyway (and streaming parts of lines is
 * slower still: irregular blocks of 8-256 bytes with the 256-byte ones streamed, -16%). Smaller
 * blocks of whole words are written with ordinary 16-byte stores and an 8-byte one for the rest,
 * which from memory measured faster than the kernels' 32-byte and overlapping moves (in one
 * process next to them: strided 40-byte blocks +13%, 8-byte ones +6-20%, where two scratch stores
 * per block instead, as unpack_throttled makes, gave +13% and +4%; irregular blocks of 8-256
 * bytes +3-6%; 8-byte stores alone were 13% slower on the irregular ones, but are a little
 * faster on short strided blocks: unpack_each_word). Not at the strides the kernels throttle
 * (scratch_stores). The asm keeps the compiler from joining the moves. */
#define STREAM_UNPACK_MIN 256
static inline __attribute__((always_inline)) STREAM_TARGET void store_words(char *d, const char *s, MPI_Count n)
{
    MPI_Count i = 0;
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *) (s + i));
        __asm__("" : "+x"(v));
        _mm_storeu_si128((__m128i *) (d + i), v);
    }
    if (i < n)
        MOVE_APART(uint64_t, d + i, s + i);
}

/* Strided blocks of up to 64 bytes one 8-byte store per word, in a loop the compiler may not
 * join or unroll: 40-byte blocks 80 apart unpacked from memory +1-10% (mean +4%) next to
 * store_words, ahead in each of 16 runs (MPICH's unpack loop has this form). A loop of its own,
 * over the words of a block and then the blocks, as a hand loop has it: inlined into
 * MPID_Stream_strided, where the compiler addressed the stream from the typed pointer, 64 MiB of
 * these blocks unpacked 3-4% slower than a hand loop of this form in the same process (0.96-0.97
 * of its speed; 0.99-1.00 now; in the benchmark 0.94-0.96 of MPICH's, 0.97-0.98 now). */
#define WORD_UNPACK_MAX 64
LATE static HOT_LOOPS __attribute__((noinline)) void unpack_each_word(char *typed, const char *stream, MPI_Aint stride,
                                                                       MPI_Count bs, MPI_Count n)
{
    for (MPI_Count i = 0; i < n; i++, stream += bs, typed = at(typed, stride))
#pragma GCC unroll 1
        for (MPI_Count k = 0; k < bs; k += 8)
            MOVE_APART(uint64_t, typed + k, stream + k);
}

/* What Zen 5 streams: blocks of whole lines, mostly (STREAM_LINES_MIN and more), and 8-byte blocks
 * packed two to a store. The rest, from memory as from the caches, goes through the kernels: in one
 * process next to the streamed forms, 40-byte blocks 80 apart packed 13-38% faster so (their
 * streaming stores of 8 and 32 bytes fill lines piecemeal), and unpacked as fast; 8-byte blocks 16
 * apart unpacked 2-6% faster; irregular blocks of 8-256 bytes packed 30% and unpacked 16% faster. */
STRIDE_TEST zen5_streams(bool pack, MPI_Count bs)
{
    return bs >= STREAM_LINES_MIN || (pack && bs == 8);
}

/* Blocks of an odd number of words, 24 to 120 bytes, packed two at a time into 16-byte stores on
 * 16-byte boundaries of the stream: the first block's last word and the second's first share a
 * store. Stores at a block's own offsets cross a line of the packed buffer every so often, and
 * each such store waits on two lines from memory; streamed, they fill lines in pieces of 8 and 32
 * bytes. Zen 3, 64 MiB of 40-byte blocks 80 apart in a test program, each way's median of 15 in
 * turns: with ordinary stores 1.08-1.14x the blocks' own 16-byte moves (ten runs; 0.98-1.03x a hand
 * loop of this form, as gcc makes it), streamed 1.28-1.31x stream_words (three runs; 7.9-8.5 GB/s).
 * Blocks of 72-120 bytes 2 x their size apart, 64 MiB through MPI_Pack (the trial picking the
 * way), next to the hand loop in each of three processes: 1.17-1.22x it at 72 bytes where the
 * kernels' moves ran 0.98-1.07x, 1.09-1.16x at 88 and 104 (1.00-1.06x), 1.08-1.11x at 120
 * (0.90-1.06x). The second block's last two words are one load that ends at its end, so no byte
 * past a block is read. */
STRIDE_TEST odd_words(MPI_Count bs)
{
    return bs % 16 == 8 && bs >= 24 && bs <= 120;
}
/* Packed blocks from a stream beyond the last-level cache, where the trial keeps ordinary stores:
 * 16-byte moves for 48-byte ones, odd-word pairs for the odd ones. One in three of the kernels'
 * 32-byte moves of 40-byte blocks crosses a line of the packed buffer, and there, with the lines
 * to come from memory, they ran slower (Zen 3, 40-byte blocks 80 apart, 64 MiB in a test program:
 * 8.5-8.7 GB/s with 16-byte moves, 7.4-7.6 with 32-byte ones); in the L3 the two tie, and in the
 * L1 the 32-byte moves win by a third (blocks 6560 apart, 6.3 KB: 54 against 40 GB/s). */
STRIDE_TEST far_words(MPI_Count bs)
{
    return bs == 48 || odd_words(bs);
}
static inline __attribute__((always_inline)) STREAM_TARGET void pack_far_words(char *stream, char *typed,
                                                                             MPI_Aint stride, MPI_Count bs,
                                                                             MPI_Count n)
{
    for (MPI_Count i = 0; i < n; i++, stream += bs, typed = at(typed, stride))
        store_words(stream, typed, bs);
}

static inline __attribute__((always_inline)) STREAM_TARGET void store_16(char *d, __m128d v, bool streamed)
{
    if (streamed)
        _mm_stream_pd((double *) d, v);
    else
        _mm_store_pd((double *) d, v);
}
static inline __attribute__((always_inline)) STREAM_TARGET void pack_odd_pair(char *d, const char *a, const char *b,
                                                                              const int m, bool streamed)
{
    const int p = (m - 1) / 2;   /* whole pairs of words in a block */
    for (int j = 0; j < p; j++)
        store_16(d + 16 * j, _mm_loadu_pd((const double *) (a + 16 * j)), streamed);
    __m128d lo = _mm_loadu_pd((const double *) b);
    __m128d last = _mm_castsi128_pd(_mm_loadl_epi64((const __m128i *) (a + 16 * p)));   /* typed: any alignment */
    store_16(d + 16 * p, _mm_unpacklo_pd(last, lo), streamed);
    for (int j = 1; j < p; j++) {
        __m128d hi = _mm_loadu_pd((const double *) (b + 16 * j));
        store_16(d + 16 * (p + j), _mm_shuffle_pd(lo, hi, 1), streamed);
        lo = hi;
    }
    store_16(d + 16 * (2 * p), _mm_loadu_pd((const double *) (b + 8 * (m - 2))), streamed);
}
static inline __attribute__((always_inline)) STREAM_TARGET void pack_odd_one(char *d, const char *a, const int m,
                                                                             bool streamed)
{
    if (streamed)
        stream_words(d, a, 8 * m);
    else
        store_words(d, a, 8 * m);
}
static inline __attribute__((always_inline)) STREAM_TARGET void pack_odd_row(char *d, char *typed, MPI_Aint stride,
                                                                             MPI_Count n, const int m, bool streamed)
{
    MPI_Count i = 0, lead = prefetch_lead(lines_apart(stride), n, 17);
    if ((uintptr_t) d % 16 && n > 0) {   /* one block alone, after which the stream is on a boundary */
        pack_odd_one(d, typed, m, streamed);
        d += 8 * m, typed = at(typed, stride), i++;
    }
    for (; i + 2 <= n; i += 2, d += 16 * m, typed = at_k(typed, 2, stride)) {
        if (i < lead) {   /* as STREAM_BLOCKS does */
            __builtin_prefetch(at_k(typed, 16, stride), 0);
            __builtin_prefetch(at_k(typed, 17, stride), 0);
        }
        pack_odd_pair(d, typed, at(typed, stride), m, streamed);
    }
    if (i < n)
        pack_odd_one(d, typed, m, streamed);
}
static STREAM_TARGET __attribute__((noinline)) void pack_odd_words(char *d, char *typed, MPI_Aint stride,
                                                                   MPI_Count bs, MPI_Count n, bool streamed)
{
#define ODD_ROW(M) \
    (streamed ? pack_odd_row(d, typed, stride, n, M, true) : pack_odd_row(d, typed, stride, n, M, false))
    switch (bs / 8) {
    case 3: ODD_ROW(3); break;
    case 5: ODD_ROW(5); break;
    case 7: ODD_ROW(7); break;
    case 9: ODD_ROW(9); break;
    case 11: ODD_ROW(11); break;
    case 13: ODD_ROW(13); break;
    default: ODD_ROW(15); break;
    }
#undef ODD_ROW
}

/* Blocks of an odd number of 16-byte pairs of words, 16 to 112 bytes, streamed to a stream on a
 * 16-byte boundary: 16-byte streaming stores straight through each block. stream_words would
 * store every other such block, the ones 16 bytes past a 32-byte boundary, in 8-byte pieces, by
 * its three loops per block. Zen 3, 64 MiB through MPI_Pack (the trial picking the way), blocks 2
 * x their size apart, next to the hand loop in four processes each: 48 bytes 1.18-1.29x it where
 * stream_words ran 0.95-1.03x, 16 bytes 1.15-1.21x (1.08-1.12x), 80 bytes 1.08-1.11x
 * (0.97-1.07x), 112 bytes 1.12-1.15x (1.03-1.06x). Not blocks of 32 or 96 bytes (ties), nor of 64
 * (whole lines: -13% with 16-byte stores, in a variant that took them in both turns). */
STRIDE_TEST odd_pairs(MPI_Count bs)
{
    return bs % 32 == 16 && bs <= 112;
}
static inline __attribute__((always_inline)) STREAM_TARGET void stream_pairs_row(char *d, char *typed,
                                                                                 MPI_Aint stride, MPI_Count n,
                                                                                 const int pairs)
{
    MPI_Count lead = prefetch_lead(lines_apart(stride), n, 16);
    for (MPI_Count i = 0; i < n; i++, d += 16 * pairs, typed = at(typed, stride)) {
        if (i < lead)   /* as STREAM_BLOCKS does */
            __builtin_prefetch(at_k(typed, 16, stride), 0);
        for (int j = 0; j < pairs; j++)
            _mm_stream_pd((double *) (d + 16 * j), _mm_loadu_pd((const double *) (typed + 16 * j)));
    }
}
static STREAM_TARGET __attribute__((noinline)) void stream_odd_pairs(char *d, char *typed, MPI_Aint stride,
                                                                     MPI_Count bs, MPI_Count n)
{
    switch (bs / 16) {
    case 1: stream_pairs_row(d, typed, stride, n, 1); break;
    case 3: stream_pairs_row(d, typed, stride, n, 3); break;
    case 5: stream_pairs_row(d, typed, stride, n, 5); break;
    default: stream_pairs_row(d, typed, stride, n, 7); break;
    }
}

/* One row of n blocks stride apart packed into the stream, by streaming stores or ordinary ones;
 * ordinary ones only for the blocks far_words takes. */
static inline __attribute__((always_inline)) STREAM_TARGET void pack_stream_row(bool streamed, char *stream,
                                                                                char *row, MPI_Aint stride,
                                                                                MPI_Count bs, MPI_Count n)
{
#define ROW_BLOCK(i) at_k(row, i, stride)
    if (odd_words(bs))
        pack_odd_words(stream, row, stride, bs, n, streamed);
    else if (streamed && odd_pairs(bs) && (uintptr_t) stream % 16 == 0)
        stream_odd_pairs(stream, row, stride, bs, n);
    else if (!streamed)
        pack_far_words(stream, row, stride, bs, n);
    else if (bs == 8)
        stream_pack_8(stream, row, stride, n);
    else
        STREAM_BLOCKS(true, ROW_BLOCK, lines_apart(stride));
}
/* The same unpacking, always streamed (the unpacked side's stores) */
static inline __attribute__((always_inline)) STREAM_TARGET void unpack_stream_row(char *stream, char *row,
                                                                                  MPI_Aint stride, MPI_Count bs,
                                                                                  MPI_Count n)
{
    if (bs >= STREAM_UNPACK_MIN)
        STREAM_BLOCKS(false, ROW_BLOCK, lines_apart(stride));
    else if (bs <= WORD_UNPACK_MAX)
        unpack_each_word(row, stream, stride, bs, n);
    else
        for (MPI_Count i = 0; i < n; i++, stream += bs)
            store_words(ROW_BLOCK(i), stream, bs);
#undef ROW_BLOCK
}

LATE STREAM_TARGET bool MPID_Stream_strided(bool pack, bool streamed, char *stream, char *typed, MPI_Aint stride,
                                            MPI_Count bs, MPI_Count n, MPI_Aint row_step, MPI_Count rows)
{
    bool whole_words = pack ? words(stream, bs) : words(typed, bs) && stride % 8 == 0 && row_step % 8 == 0;
    if (!stream_unit || !whole_words)
        return false;
    if (!streamed && !(pack && far_words(bs)))
        return false;
    if (streamed && ((!pack && bs < STREAM_UNPACK_MIN && scratch_stores(stride, bs, n, row_step, rows))
                     || (zen5_host && !zen5_streams(pack, bs))))
        return false;
    for (MPI_Count r = 0; r < rows; r++, stream += n * bs) {
        char *row = at_k(typed, r, row_step);
        if (pack)
            pack_stream_row(streamed, stream, row, stride, bs, n);
        else
            unpack_stream_row(stream, row, stride, bs, n);
    }
    return true;
}

LATE STREAM_TARGET bool MPID_Stream_blkidx(char *stream, char *base, const MPI_Aint *offs, const int32_t *offs32,
                                            MPI_Count bs, MPI_Count n)
{
    if (!stream_unit || !words(stream, bs) || (zen5_host && bs < STREAM_LINES_MIN))
        return false;
#define AT_OFFSET(i) at(base, offs32 ? offs32[i] : offs[i])
    STREAM_BLOCKS(true, AT_OFFSET, true);
#undef AT_OFFSET
    return true;
}

LATE STREAM_TARGET MPI_Count MPID_Stream_indexed(bool pack, char **stream_p, char *base, const MPI_Aint *off,
                                                  const MPI_Count *pre, const int32_t *off32, const uint32_t *pre32,
                                                  MPI_Count b, MPI_Count n, MPI_Count to)
{
    if (!stream_unit || zen5_host)
        return MPID_Copy_indexed(pack, stream_p, base, off, pre, off32, pre32, b, n, to);
    char *stream = *stream_p;
#define PRE(k) (pre32 ? (MPI_Count) pre32[k] : pre[k])
    for (MPI_Count next = PRE(b); b < n && (next = PRE(b + 1)) <= to; b++) {
        MPI_Count len = next - PRE(b);
        char *typed = at(base, off32 ? off32[b] : off[b]);
        if (!words(pack ? stream : typed, len))
            copy_bytes(pack ? stream : typed, pack ? typed : stream, len);
        else if (pack)
            stream_words(stream, typed, len);
        else   /* lines shared with other bytes, as a rule: not streamed */
            store_words(typed, stream, len);
        stream += len;
    }
#undef PRE
    *stream_p = stream;
    return b;
}

/* Four pages of a run at once, 128 bytes of each per step, all 16 loads ahead of their stores, and
 * each page's next lines prefetched, on Intel processors (the form of glibc's memcpy beyond its
 * non-temporal threshold). The plain loop loses there twice: the hardware prefetcher follows one
 * page at a time, and where the destination lies a few bytes past the source modulo 4 KiB (an
 * unpack into a row of doubles 8 bytes past a line, the packed buffer on a line) every load waits
 * on the store before it to the same low address bits (4K aliasing). Ice Lake host, 64 MiB from
 * memory in a test program: unpacked 10.5-11.1 GB/s where the plain loop ran 4.5-4.7 (glibc's
 * memcpy 10.9-11.3), packed 10.4-11.1 where it ran 7.4-8.3 (memcpy 10.4-10.7). Not measured on
 * AMD processors, which keep the plain loop. */
#define STREAM_PAGE 4096
static inline __attribute__((always_inline)) STREAM_TARGET void stream_four_pages(char *d, const char *s)
{
    for (size_t o = 0; o < STREAM_PAGE; o += 128) {
        __m256i v[16];   /* in registers: the loops are unrolled */
#pragma GCC unroll 16
        for (int i = 0; i < 16; i++)   /* the next two steps' lines: one step ahead lost a quarter */
            __builtin_prefetch(s + (i / 4) * STREAM_PAGE + o + 128 + (i % 4) * 64);
#pragma GCC unroll 16
        for (int i = 0; i < 16; i++)
            v[i] = _mm256_loadu_si256((const __m256i *) (s + (i / 4) * STREAM_PAGE + o + (i % 4) * 32));
#pragma GCC unroll 16
        for (int i = 0; i < 16; i++)
            _mm256_stream_si256((__m256i *) (d + (i / 4) * STREAM_PAGE + o + (i % 4) * 32), v[i]);
    }
}

LATE STREAM_TARGET bool MPID_Stream_run(char *d, const char *s, size_t n)
{
    if (!stream_unit)
        return false;
    size_t head = (size_t) (-(uintptr_t) d & (amd_host ? 31 : 63));   /* to d's next 32- or 64-byte boundary */
    head = head < n ? head : n;
    copy_bytes(d, s, (MPI_Count) head);
    d += head, s += head, n -= head;
    if (!amd_host)
        for (; n >= 4 * STREAM_PAGE; n -= 4 * STREAM_PAGE, d += 4 * STREAM_PAGE, s += 4 * STREAM_PAGE)
            stream_four_pages(d, s);
    for (; n >= 32; n -= 32, d += 32, s += 32)
        _mm256_stream_si256((__m256i *) d, _mm256_loadu_si256((const __m256i *) s));
    copy_bytes(d, s, (MPI_Count) n);
    _mm_sfence();
    return true;
}

LATE void MPID_Stream_end(void)
{
    _mm_sfence();
}

/* The trial of streaming stores (copy_kernels.h). Its first calls of every epoch take turns, in
 * the Thue-Morse order of the throttle's trial (streamed, plain, plain, streamed), and the way
 * with the lower of its two times per KiB is kept for the rest of the epoch: a first call may
 * include the page faults of a fresh buffer, and the lower time leaves them out. These copies are
 * long (32 MiB at least, milliseconds), so one time each way is a fair measure and the trial
 * costs at most two slower copies in an epoch. */
#define STREAM_EPOCH 256
bool MPID_Stream_turn_begin(MPID_Stream_trial *t, MPID_Stream_turn *turn)
{
    turn->call = trial_call(&t->calls, STREAM_EPOCH);
    turn->timed = turn->call < MPID_STREAM_TRIALS;
    turn->start = turn->timed ? __rdtsc() : 0;
    turn->spent = 0;
    turn->streams = turn->timed ? !__builtin_parity(turn->call) : MPID_Stream_pays(t);
    return turn->streams;
}

void MPID_Stream_turn_pause(MPID_Stream_turn *turn)
{
    if (turn->timed)
        turn->spent += __rdtsc() - turn->start;
}

void MPID_Stream_turn_resume(MPID_Stream_turn *turn)
{
    if (turn->timed)
        turn->start = __rdtsc();
}

void MPID_Stream_turn_end(MPID_Stream_trial *t, MPID_Stream_turn *turn, MPI_Count bytes)
{
    MPID_Stream_turn_pause(turn);
    MPID_Stream_turn_record(t, turn, bytes);
}

void MPID_Stream_turn_record(MPID_Stream_trial *t, const MPID_Stream_turn *turn, MPI_Count bytes)
{
    if (!turn->timed || bytes < 1024)
        return;
    uint64_t per_kib = turn->spent / ((uint64_t) bytes / 1024);
    atomic_store_explicit(&t->ticks[turn->call], per_kib < UINT32_MAX ? (uint32_t) per_kib : UINT32_MAX,
                          memory_order_relaxed);
    if (turn->call != MPID_STREAM_TRIALS - 1)
        return;
    uint32_t best[2] = { UINT32_MAX, UINT32_MAX };   /* [0] streamed, [1] plain */
    for (unsigned c = 0; c < MPID_STREAM_TRIALS; c++) {
        uint32_t x = atomic_load_explicit(&t->ticks[c], memory_order_relaxed);
        int way = __builtin_parity(c);
        best[way] = x < best[way] ? x : best[way];
    }
    atomic_store_explicit(&t->plain, best[1] < best[0], memory_order_relaxed);
}

bool MPID_Stream_pays(const MPID_Stream_trial *t)
{
    return !atomic_load_explicit(&t->plain, memory_order_relaxed);
}

bool MPID_Have_window_unit(void)
{
    static _Atomic int have = -1;   /* threads may race to fill it: they store the same value */
    if (have < 0) {
        __builtin_cpu_init();
        have = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
            && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vbmi2")
            && !getenv("LOOM_NO_WINDOWS");
    }
    return have;
}

