/*
 * external32 conversion (format: mpid_external32.h).
 *
 * The typed buffer is reached through a segment, one of two ways:
 *   - runs (any type): MPID_Segment_for_each_run hands over each run of basic elements where it
 *     lies, and one loop converts it to or from the next bytes of the external stream;
 *   - gathered (scattered types of a single basic type, e.g. a vector of doubles): the engine's
 *     copy kernels pack or unpack the native stream a cache-sized chunk at a time through a small
 *     buffer, and one loop converts the whole chunk, instead of one call per short run.
 * Byte swaps go eight bytes at a time; long double (x87) <-> IEEE quad is integer arithmetic on the
 * two 64-bit halves of the quad, exact one way and rounded to nearest-even the other.
 *
 * The size needs no walk: every type record carries its own (ext32_size, composed by the
 * constructors from the children's as size is), so it also works for types that are not
 * committed, as MPI_Pack_external_size allows, and costs the same at any nesting depth.
 */
#include <float.h>
#include "mpiimpl.h"
#include "mpid_dataloop.h"
#include "mpid_external32.h"
#include "copy_kernels.h"

/* ---- the representation of each predefined type ---- */

typedef enum {
    K_NONE,     /* no data (MPI_LB, MPI_UB) */
    K_INT,      /* two's complement integer: resized with sign extension if widths differ */
    K_UINT,     /* unsigned integer: resized with zero extension */
    K_FLOAT,    /* IEEE real of the same width natively: bytes reordered only */
    K_LDBL,     /* long double: IEEE quad externally */
    K_PAIR      /* pair type: the engine hands its two members over as separate runs */
} Kind;

typedef struct {
    unsigned char kind;
    unsigned char parts;    /* 2 for complex types: two reals */
    unsigned char ext;      /* external32 bytes of one part (the whole pair for K_PAIR) */
} Rep;

#define R(h, k, p, e) [MPIR_BUILTIN_INDEX(h)] = { k, p, e }

static const Rep reps[MPID_BUILTIN_TYPE_MAX] = {
    R(MPI_CHAR, K_INT, 1, 1), R(MPI_SIGNED_CHAR, K_INT, 1, 1), R(MPI_UNSIGNED_CHAR, K_UINT, 1, 1),
    R(MPI_BYTE, K_UINT, 1, 1), R(MPI_PACKED, K_UINT, 1, 1), R(MPI_CHARACTER, K_UINT, 1, 1),
    R(MPI_WCHAR, K_UINT, 1, 2), R(MPI_C_BOOL, K_UINT, 1, 1), R(MPI_CXX_BOOL, K_UINT, 1, 1),
    R(MPI_SHORT, K_INT, 1, 2), R(MPI_UNSIGNED_SHORT, K_UINT, 1, 2),
    R(MPI_INT, K_INT, 1, 4), R(MPI_UNSIGNED, K_UINT, 1, 4),
    R(MPI_LONG, K_INT, 1, 4), R(MPI_UNSIGNED_LONG, K_UINT, 1, 4),
    R(MPI_LONG_LONG_INT, K_INT, 1, 8), R(MPI_UNSIGNED_LONG_LONG, K_UINT, 1, 8),
    R(MPI_INT8_T, K_INT, 1, 1), R(MPI_INT16_T, K_INT, 1, 2), R(MPI_INT32_T, K_INT, 1, 4),
    R(MPI_INT64_T, K_INT, 1, 8), R(MPI_UINT8_T, K_UINT, 1, 1), R(MPI_UINT16_T, K_UINT, 1, 2),
    R(MPI_UINT32_T, K_UINT, 1, 4), R(MPI_UINT64_T, K_UINT, 1, 8),
    R(MPI_AINT, K_INT, 1, 8), R(MPI_COUNT, K_INT, 1, 8), R(MPI_OFFSET, K_INT, 1, 8),
    R(MPI_LOGICAL, K_INT, 1, 4), R(MPI_INTEGER, K_INT, 1, 4), R(MPI_INTEGER1, K_INT, 1, 1),
    R(MPI_INTEGER2, K_INT, 1, 2), R(MPI_INTEGER4, K_INT, 1, 4), R(MPI_INTEGER8, K_INT, 1, 8),
    R(MPI_INTEGER16, K_INT, 1, 16),
    R(MPI_FLOAT, K_FLOAT, 1, 4), R(MPI_DOUBLE, K_FLOAT, 1, 8), R(MPI_LONG_DOUBLE, K_LDBL, 1, 16),
    R(MPI_REAL, K_FLOAT, 1, 4), R(MPI_DOUBLE_PRECISION, K_FLOAT, 1, 8), R(MPI_REAL2, K_FLOAT, 1, 2),
    R(MPI_REAL4, K_FLOAT, 1, 4), R(MPI_REAL8, K_FLOAT, 1, 8), R(MPI_REAL16, K_LDBL, 1, 16),
    R(MPI_C_FLOAT_COMPLEX, K_FLOAT, 2, 4), R(MPI_C_DOUBLE_COMPLEX, K_FLOAT, 2, 8),
    R(MPI_C_LONG_DOUBLE_COMPLEX, K_LDBL, 2, 16), R(MPI_CXX_FLOAT_COMPLEX, K_FLOAT, 2, 4),
    R(MPI_CXX_DOUBLE_COMPLEX, K_FLOAT, 2, 8), R(MPI_CXX_LONG_DOUBLE_COMPLEX, K_LDBL, 2, 16),
    R(MPI_COMPLEX, K_FLOAT, 2, 4), R(MPI_DOUBLE_COMPLEX, K_FLOAT, 2, 8),
    R(MPI_COMPLEX4, K_FLOAT, 2, 2), R(MPI_COMPLEX8, K_FLOAT, 2, 4), R(MPI_COMPLEX16, K_FLOAT, 2, 8),
    R(MPI_COMPLEX32, K_LDBL, 2, 16),
    R(MPI_FLOAT_INT, K_PAIR, 1, 4 + 4), R(MPI_DOUBLE_INT, K_PAIR, 1, 8 + 4),
    R(MPI_LONG_INT, K_PAIR, 1, 4 + 4), R(MPI_2INT, K_PAIR, 1, 4 + 4), R(MPI_SHORT_INT, K_PAIR, 1, 2 + 4),
    R(MPI_LONG_DOUBLE_INT, K_PAIR, 1, 16 + 4), R(MPI_2REAL, K_PAIR, 1, 4 + 4),
    R(MPI_2DOUBLE_PRECISION, K_PAIR, 1, 8 + 8), R(MPI_2INTEGER, K_PAIR, 1, 4 + 4),
    R(MPI_LB, K_NONE, 1, 0), R(MPI_UB, K_NONE, 1, 0),
};

/* The representation of a predefined type, NULL for anything else. */
static const Rep *rep_of(MPI_Datatype t)
{
    if (!MPID_Datatype_is_builtin(t) || MPIR_HANDLE_CLASS(t) != MPIR_CLASS_DATATYPE
        || MPIR_BUILTIN_INDEX(t) >= MPID_BUILTIN_TYPE_MAX)
        return NULL;
    const Rep *r = &reps[MPIR_BUILTIN_INDEX(t)];
    return r->parts ? r : NULL;
}

/* Native bytes of one part: predefined handles carry their size (mpi.h). */
static int native_width(MPI_Datatype t, const Rep *r)
{
    return (int) (((unsigned) t >> 8) & 0xff) / r->parts;
}

/* ---- byte order ---- */

#define HOST_IS_LITTLE (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)

/* Reverses the bytes of every w-byte element (w = 2, 4 or 8) inside the 64-bit word v. */
static inline uint64_t swap_in_word(uint64_t v, int w)
{
    if (w == 2)
        return (v & 0x00ff00ff00ff00ffULL) << 8 | (v >> 8 & 0x00ff00ff00ff00ffULL);
    v = __builtin_bswap64(v);
    return w == 4 ? v << 32 | v >> 32 : v;
}

/* nbytes of w-byte elements, eight bytes at a time (32 per iteration), then the elements left.
 * dst may be src. Called with a constant w, so each use compiles to its own loop. */
static inline void swap_words(unsigned char *dst, const unsigned char *src, size_t nbytes, int w)
{
    size_t i = 0;
    for (; i + 32 <= nbytes; i += 32) {
        uint64_t v[4];
        memcpy(v, src + i, 32);
        for (int k = 0; k < 4; k++)
            v[k] = swap_in_word(v[k], w);
        memcpy(dst + i, v, 32);
    }
    for (; i + 8 <= nbytes; i += 8) {
        uint64_t v;
        memcpy(&v, src + i, 8);
        v = swap_in_word(v, w);
        memcpy(dst + i, &v, 8);
    }
    for (; i < nbytes; i += (size_t) w) {
        if (w == 2) {
            uint16_t v;
            memcpy(&v, src + i, 2);
            v = __builtin_bswap16(v);
            memcpy(dst + i, &v, 2);
        } else {
            uint32_t v;
            memcpy(&v, src + i, 4);
            v = __builtin_bswap32(v);
            memcpy(dst + i, &v, 4);
        }
    }
}

/* n elements of w bytes each from src to dst, each reversed on a little-endian host (the same
 * operation in both directions). dst may be src. */
static void copy_big_endian(unsigned char *dst, const unsigned char *src, MPI_Count n, int w)
{
    size_t nbytes = (size_t) (n * w);
    if (w == 1 || !HOST_IS_LITTLE) {
        if (dst != src)
            MPID_Copy_long((char *) dst, (const char *) src, nbytes);   /* memcpy, or a loop where it crawls */
        return;
    }
    switch (w) {
    case 2: swap_words(dst, src, nbytes, 2); break;
    case 4: swap_words(dst, src, nbytes, 4); break;
    case 8: swap_words(dst, src, nbytes, 8); break;
    case 16:
        for (size_t i = 0; i < nbytes; i += 16) {
            uint64_t v[2], r[2];
            memcpy(v, src + i, 16);
            r[0] = __builtin_bswap64(v[1]);
            r[1] = __builtin_bswap64(v[0]);
            memcpy(dst + i, r, 16);
        }
        break;
    default:
        for (MPI_Count i = 0; i < n; i++)
            for (int b = 0; b < w / 2; b++) {
                unsigned char lo = src[i * w + b], hi = src[i * w + w - 1 - b];
                dst[i * w + b] = hi;
                dst[i * w + w - 1 - b] = lo;
            }
    }
}

static uint64_t load_be64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return HOST_IS_LITTLE ? __builtin_bswap64(v) : v;
}

static void store_be64(unsigned char *p, uint64_t v)
{
    v = HOST_IS_LITTLE ? __builtin_bswap64(v) : v;
    memcpy(p, &v, 8);
}

/* ---- integers whose native and external widths differ (MPI_LONG on LP64) ---- */

/* A native integer of w <= 8 bytes, sign- or zero-extended to 64 bits. */
static uint64_t load_native(const unsigned char *p, int w, bool is_signed)
{
    union { int8_t i8; int16_t i16; int32_t i32; int64_t i64; unsigned char b[8]; } u;
    memcpy(u.b, p, (size_t) w);
    switch (w) {
    case 1: return is_signed ? (uint64_t) u.i8 : (uint8_t) u.i8;
    case 2: return is_signed ? (uint64_t) u.i16 : (uint16_t) u.i16;
    case 4: return is_signed ? (uint64_t) u.i32 : (uint32_t) u.i32;
    default: return (uint64_t) u.i64;
    }
}

static void store_native(unsigned char *p, int w, uint64_t v)
{
    union { uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64; unsigned char b[8]; } u;
    switch (w) {
    case 1: u.u8 = (uint8_t) v; break;
    case 2: u.u16 = (uint16_t) v; break;
    case 4: u.u32 = (uint32_t) v; break;
    default: u.u64 = v;
    }
    memcpy(p, u.b, (size_t) w);
}

static uint64_t load_be(const unsigned char *p, int w, bool is_signed)
{
    uint64_t v = 0;
    for (int b = 0; b < w; b++)
        v = v << 8 | p[b];
    if (is_signed && w < 8 && (p[0] & 0x80))
        v |= ~(uint64_t) 0 << (8 * w);
    return v;
}

static void store_be(unsigned char *p, int w, uint64_t v)
{
    for (int b = w - 1; b >= 0; b--, v >>= 8)
        p[b] = (unsigned char) v;
}

/* Does v (sign- or zero-extended) survive truncation to w bytes? */
static bool fits(uint64_t v, int w, bool is_signed)
{
    if (w >= 8)
        return true;
    if (is_signed) {
        int64_t s = (int64_t) v, lim = (int64_t) 1 << (8 * w - 1);
        return s >= -lim && s < lim;
    }
    return v >> (8 * w) == 0;
}

/* ---- long double <-> IEEE quad ---- */

#if LDBL_MANT_DIG == 64 && HOST_IS_LITTLE
/*
 * x87 extended: 64-bit significand m with an explicit integer bit J, 15-bit exponent with the bias
 * of quad (16383), sign; little-endian in the first 10 bytes, the rest padding. Quad has the same
 * exponent range and 112 fraction bits, so every x87 value is exact in quad: the fraction moves up
 * 49 bits. Quad is handled as two 64-bit halves: hi = sign, exponent, top 48 fraction bits.
 * The encodings that the FPU rejects since the 387 (pseudo-infinity, pseudo-NaN, unnormals: J
 * clear with a nonzero exponent) become quiet NaNs; pseudo-denormals (J set, exponent 0) keep
 * their value.
 */
#define J_BIT ((uint64_t) 1 << 63)
#define EXP_MAX 0x7fff
#define QUAD_QNAN_HI ((uint64_t) EXP_MAX << 48 | (uint64_t) 1 << 47)
#define DROP 49    /* quad fraction bits below the x87 ones */

static void ldbl_to_quad(const unsigned char *src, unsigned char *dst)
{
    uint64_t m, hi, lo;
    uint16_t se;
    memcpy(&m, src, 8);
    memcpy(&se, src + 8, 2);
    unsigned e = se & EXP_MAX;
    if (e == 0) {
        /* denormal (or pseudo-denormal): m * 2^(1-16383-63), i.e. quad fraction m << 49 with
         * exponent field 0; a set J bit lands on the exponent's low bit, which is exactly right */
        hi = m >> (64 - DROP);
        lo = m << DROP;
    } else if (!(m & J_BIT)) {
        hi = QUAD_QNAN_HI;   /* not a number to the FPU */
        lo = 0;
    } else {
        hi = (uint64_t) e << 48 | (m & ~J_BIT) >> (64 - DROP);   /* normals, infinities, NaNs */
        lo = m << DROP;
    }
    hi |= (uint64_t) (se >> 15) << 63;
    store_be64(dst, hi);
    store_be64(dst + 8, lo);
}

/* Quad to x87: 113 significant bits to 64, rounded to nearest, ties to even. */
static void quad_to_ldbl(const unsigned char *src, unsigned char *dst)
{
    uint64_t hi = load_be64(src), lo = load_be64(src + 8);
    unsigned sign = (unsigned) (hi >> 63), e = (unsigned) (hi >> 48) & EXP_MAX;
    uint64_t f_hi = hi & (((uint64_t) 1 << 48) - 1);
    uint64_t top = f_hi << (64 - DROP) | lo >> DROP;       /* the 63 fraction bits x87 keeps */
    uint64_t rest = lo & (((uint64_t) 1 << DROP) - 1), half = (uint64_t) 1 << (DROP - 1);
    uint64_t m;
    if (e == EXP_MAX) {
        /* infinity or NaN: a NaN whose payload lies only in the dropped bits stays a NaN (quiet) */
        m = J_BIT | top;
        if ((f_hi | lo) != 0 && top == 0)
            m |= J_BIT >> 1;
    } else {
        /* denormals have no hidden bit, and exponent field 0 means the same scale in both formats */
        m = (e ? J_BIT : 0) | top;
        if (rest > half || (rest == half && (m & 1))) {
            if (++m == 0) {            /* carried out of 64 bits: the next binade, or infinity */
                m = J_BIT;
                e++;
            } else if (e == 0 && (m & J_BIT)) {
                e = 1;                 /* a denormal rounded up to the smallest normal */
            }
        }
    }
    uint16_t se = (uint16_t) (sign << 15 | e);
    memcpy(dst, &m, 8);
    memcpy(dst + 8, &se, 2);
    memset(dst + 10, 0, sizeof(long double) - 10);
}

#elif LDBL_MANT_DIG == 113
/* long double is IEEE quad already. */
static void ldbl_to_quad(const unsigned char *src, unsigned char *dst)
{
    copy_big_endian(dst, src, 1, 16);
}

static void quad_to_ldbl(const unsigned char *src, unsigned char *dst)
{
    copy_big_endian(dst, src, 1, 16);
}
#else
#error "external32: no conversion between this platform's long double and IEEE quad"
#endif

/* ---- converting elements ---- */

typedef struct {
    unsigned char *ext;     /* the next external32 byte */
    bool pack;              /* native -> external32, else external32 -> native */
    MPI_Count elements;     /* basic elements converted so far, for error messages */
} Conv_state;

static int conversion_error(MPI_Datatype t, MPI_Count element, uint64_t v, bool is_signed, int w)
{
    const char *name = MPID_Builtin_name(t);
    if (is_signed)
        return MPIR_Err(MPI_ERR_CONVERSION, "element %lld (%s) has the value %lld, which does not fit "
                        "the %d bytes of its external32 representation", element, name, (long long) v, w);
    return MPIR_Err(MPI_ERR_CONVERSION, "element %lld (%s) has the value %llu, which does not fit "
                    "the %d bytes of its external32 representation", element, name,
                    (unsigned long long) v, w);
}

/* n integers of native width nw to or from external width ew (nw != ew, both at most 8). */
static int convert_ints(const Conv_state *s, MPI_Datatype t, unsigned char *nat, unsigned char *ext,
                        MPI_Count n, int nw, int ew, bool is_signed)
{
    int to = s->pack ? ew : nw;
    for (MPI_Count i = 0; i < n; i++, nat += nw, ext += ew) {
        uint64_t v = s->pack ? load_native(nat, nw, is_signed) : load_be(ext, ew, is_signed);
        if (!fits(v, to, is_signed))
            return conversion_error(t, s->elements + i, v, is_signed, to);
        if (s->pack)
            store_be(ext, ew, v);
        else
            store_native(nat, nw, v);
    }
    return MPI_SUCCESS;
}

/* n elements of the basic type t (representation r), native ones at nat and external32 ones at
 * s->ext, in the direction of s; then advances s past them. */
static int convert_elements(Conv_state *s, MPI_Datatype t, const Rep *r, unsigned char *nat, MPI_Count n)
{
    int nw = native_width(t, r), ew = r->ext, err = MPI_SUCCESS;
    MPI_Count parts = n * r->parts;
    unsigned char *ext = s->ext;
    if (r->kind == K_LDBL) {
        for (MPI_Count i = 0; i < parts; i++, nat += nw, ext += ew) {
            if (s->pack)
                ldbl_to_quad(nat, ext);
            else
                quad_to_ldbl(ext, nat);
        }
    } else if (nw == ew) {
        if (s->pack)
            copy_big_endian(ext, nat, parts, nw);
        else
            copy_big_endian(nat, ext, parts, nw);
    } else if ((r->kind == K_INT || r->kind == K_UINT) && nw <= 8 && ew <= 8) {
        err = convert_ints(s, t, nat, ext, parts, nw, ew, r->kind == K_INT);
    } else {
        err = MPIR_Err(MPI_ERR_INTERN, "external32: no conversion for %s (%d native bytes)",
                       MPID_Builtin_name(t), nw);
    }
    if (err)
        return err;
    s->ext += parts * ew;
    s->elements += n;
    return MPI_SUCCESS;
}

/* ---- two ways through the typed buffer ---- */

/* Any type: the engine hands over each run of basic elements where it lies in the typed buffer. */
static int convert_run(void *state, char *addr, MPI_Datatype t, MPI_Count n)
{
    const Rep *r = rep_of(t);
    if (!r || r->kind == K_PAIR)
        return MPIR_Err(MPI_ERR_INTERN, "external32: the engine handed over a run of datatype 0x%x, "
                        "which is not a basic type", (unsigned) t);
    if (r->kind == K_NONE)
        return MPI_SUCCESS;
    return convert_elements(state, t, r, (unsigned char *) addr, n);
}

static int convert_runs(MPID_Segment *seg, Conv_state *s)
{
    MPI_Count last = seg->size;
    int err = MPID_Segment_for_each_run(seg, 0, &last, convert_run, s);
    if (!err && last != seg->size)
        err = MPIR_Err(MPI_ERR_INTERN, "external32: the engine stopped at byte %lld of %lld", last, seg->size);
    return err;
}

/* A type made of one basic type t but scattered: runs may be short (a vector of single doubles),
 * so instead the engine's copy kernels gather the elements a chunk at a time into a buffer that
 * stays in the L1 cache, and one loop converts the chunk. */
#define CHUNK 8192

static int convert_gathered(MPID_Segment *seg, MPI_Datatype t, const Rep *r, Conv_state *s)
{
    _Alignas(16) unsigned char tmp[CHUNK];
    MPI_Count el = (MPI_Count) native_width(t, r) * r->parts, step = CHUNK / el * el;
    for (MPI_Count first = 0; first < seg->size;) {
        MPI_Count want = first + step < seg->size ? first + step : seg->size, last = want;
        int err;
        if (s->pack) {
            if ((err = MPID_Segment_pack(seg, first, &last, tmp)) == MPI_SUCCESS && last == want)
                err = convert_elements(s, t, r, tmp, (last - first) / el);
        } else {
            if ((err = convert_elements(s, t, r, tmp, (last - first) / el)) == MPI_SUCCESS)
                err = MPID_Segment_unpack(seg, first, &last, tmp);
        }
        if (!err && last != want)
            err = MPIR_Err(MPI_ERR_INTERN, "external32: the engine stopped at byte %lld, not %lld", last, want);
        if (err)
            return err;
        first = last;
    }
    return MPI_SUCCESS;
}

static int convert(void *buf, MPI_Count count, MPI_Datatype type, unsigned char *ext, bool pack)
{
    MPID_Segment seg;
    MPID_Datatype *dt = MPID_Datatype_get(type);
    if (!dt)
        return MPIR_Err_datatype("datatype", type, -1);
    int err = MPID_Segment_init(&seg, buf, count, type);
    if (err)
        return err;
    Conv_state s = { .ext = ext, .pack = pack, .elements = 0 };
    const Rep *basic = rep_of(dt->basic_type);
    if (basic && basic->kind != K_PAIR && basic->kind != K_NONE && !dt->is_contig)
        err = convert_gathered(&seg, dt->basic_type, basic, &s);
    else
        err = convert_runs(&seg, &s);
    MPID_Segment_free(&seg);
    return err;
}

int MPID_External32_pack(const void *inbuf, MPI_Count incount, MPI_Datatype type, void *out)
{
    /* the segment's buffer is not const because it also serves unpacking; nothing writes it here */
    return convert((void *) inbuf, incount, type, out, true);
}

int MPID_External32_unpack(const void *in, void *outbuf, MPI_Count outcount, MPI_Datatype type)
{
    return convert(outbuf, outcount, type, (unsigned char *) in, false);
}

/* ---- size ---- */

static int size_overflow(void)
{
    return MPIR_Err(MPI_ERR_COUNT, "the external32 size does not fit an MPI_Count");
}

MPI_Count MPID_External32_basic_size(MPI_Datatype type)
{
    const Rep *r = rep_of(type);
    return r ? (MPI_Count) r->parts * r->ext : INT64_MAX;
}

/* One instance's size is composed at construction (dt_create.c), as size is: no walk, however
 * deep the type or however often it lists a child. */
int MPID_External32_size(MPI_Datatype type, MPI_Count count, MPI_Count *size)
{
    MPID_Datatype *dt = MPID_Datatype_get(type);
    if (!dt)
        return MPIR_Err_datatype("datatype", type, -1);
    if (dt->ext32_size == INT64_MAX || MPIR_Mul_overflows(count, dt->ext32_size, size))
        return size_overflow();
    return MPI_SUCCESS;
}
