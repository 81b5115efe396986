/*
 * external32 conversion (format: mpid_external32.h).
 *
 * Packing walks the segment of (buf, count, type) run by run (MPID_Segment_for_each_run): every run
 * is n basic elements of one type, which one loop converts to or from the next bytes of the
 * external stream. The size needs no walk: it follows from the type tree (one multiplication for
 * types of a single basic type, a pass over the stored constructor arguments otherwise), so it also
 * works for types that are not committed, as MPI_Pack_external_size allows.
 */
#include <float.h>
#include "mpiimpl.h"
#include "mpid_dataloop.h"
#include "mpid_external32.h"

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

#define WCHAR_KIND (WCHAR_MIN < 0 ? K_INT : K_UINT)
#define R(h, k, p, e) [MPIR_BUILTIN_INDEX(h)] = { k, p, e }

static const Rep reps[MPID_BUILTIN_TYPE_MAX] = {
    R(MPI_CHAR, K_INT, 1, 1), R(MPI_SIGNED_CHAR, K_INT, 1, 1), R(MPI_UNSIGNED_CHAR, K_UINT, 1, 1),
    R(MPI_BYTE, K_UINT, 1, 1), R(MPI_PACKED, K_UINT, 1, 1), R(MPI_CHARACTER, K_UINT, 1, 1),
    R(MPI_WCHAR, WCHAR_KIND, 1, 4), R(MPI_C_BOOL, K_UINT, 1, 1), R(MPI_CXX_BOOL, K_UINT, 1, 1),
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
typedef unsigned __int128 u128;

/* n elements of w bytes each from src to dst, each reversed on a little-endian host (the same
 * operation in both directions). */
static void copy_big_endian(unsigned char *dst, const unsigned char *src, MPI_Count n, int w)
{
    if (w == 1 || !HOST_IS_LITTLE) {
        memcpy(dst, src, (size_t) (n * w));
        return;
    }
    switch (w) {
    case 2:
        for (MPI_Count i = 0; i < n; i++) {
            uint16_t v;
            memcpy(&v, src + 2 * i, 2);
            v = __builtin_bswap16(v);
            memcpy(dst + 2 * i, &v, 2);
        }
        break;
    case 4:
        for (MPI_Count i = 0; i < n; i++) {
            uint32_t v;
            memcpy(&v, src + 4 * i, 4);
            v = __builtin_bswap32(v);
            memcpy(dst + 4 * i, &v, 4);
        }
        break;
    case 8:
        for (MPI_Count i = 0; i < n; i++) {
            uint64_t v;
            memcpy(&v, src + 8 * i, 8);
            v = __builtin_bswap64(v);
            memcpy(dst + 8 * i, &v, 8);
        }
        break;
    default:
        for (MPI_Count i = 0; i < n; i++)
            for (int b = 0; b < w; b++)
                dst[i * w + b] = src[i * w + w - 1 - b];
    }
}

static void store_be128(unsigned char *p, u128 v)
{
    for (int b = 15; b >= 0; b--, v >>= 8)
        p[b] = (unsigned char) v;
}

static u128 load_be128(const unsigned char *p)
{
    u128 v = 0;
    for (int b = 0; b < 16; b++)
        v = v << 8 | p[b];
    return v;
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
 * x87 extended: 64-bit significand with an explicit integer bit J, 15-bit exponent with the bias
 * of quad (16383), sign; little-endian in the first 10 bytes, the rest padding. Quad has the same
 * exponent range and 112 fraction bits, so every x87 value is exact in quad: the fraction moves up
 * 49 bits. The encodings that the FPU rejects since the 387 (pseudo-infinity, pseudo-NaN,
 * unnormals: J clear with a nonzero exponent) become quiet NaNs; pseudo-denormals (J set, exponent
 * 0) keep their value.
 */
#define QUAD_FRAC_BITS 112
#define QUAD_EXP_MAX 0x7fff
#define QUAD_QUIET ((u128) 1 << 111)
#define J_BIT ((uint64_t) 1 << 63)

static void ldbl_to_quad(const unsigned char *src, unsigned char *dst)
{
    uint64_t m;
    uint16_t se;
    memcpy(&m, src, 8);
    memcpy(&se, src + 8, 2);
    unsigned e = se & QUAD_EXP_MAX;
    uint64_t frac = m & ~J_BIT;
    u128 q;
    if (e == 0) {
        /* denormal (or pseudo-denormal): m * 2^(1-16383-63), i.e. quad fraction m << 49 with
         * exponent field 0; a set J bit carries into the exponent field, which is exactly right */
        q = (u128) m << (QUAD_FRAC_BITS - 63);
    } else if (!(m & J_BIT)) {
        q = (u128) QUAD_EXP_MAX << QUAD_FRAC_BITS | QUAD_QUIET;   /* not a number to the FPU */
    } else {
        q = (u128) e << QUAD_FRAC_BITS | (u128) frac << (QUAD_FRAC_BITS - 63);   /* incl. inf, NaN */
    }
    q |= (u128) (se >> 15) << 127;
    store_be128(dst, q);
}

/* Quad to x87: 113 significant bits to 64, rounded to nearest, ties to even. */
static void quad_to_ldbl(const unsigned char *src, unsigned char *dst)
{
    u128 q = load_be128(src);
    unsigned sign = (unsigned) (q >> 127), e = (unsigned) (q >> QUAD_FRAC_BITS) & QUAD_EXP_MAX;
    u128 f = q & (((u128) 1 << QUAD_FRAC_BITS) - 1);
    const int drop = QUAD_FRAC_BITS - 63;   /* 49 bits */
    uint64_t m;
    if (e == QUAD_EXP_MAX) {
        /* infinity or NaN: keep the top of the payload; a NaN whose payload lies only in the
         * dropped bits stays a NaN (quiet) */
        m = J_BIT | (uint64_t) (f >> drop);
        if (f != 0 && (f >> drop) == 0)
            m |= J_BIT >> 1;
    } else {
        /* the significand as an integer (no hidden bit for denormals, whose exponent field 0 means
         * the same scale in both formats) */
        u128 sig = e ? f | (u128) 1 << QUAD_FRAC_BITS : f;
        uint64_t rest = (uint64_t) sig & (((uint64_t) 1 << drop) - 1), half = (uint64_t) 1 << (drop - 1);
        m = (uint64_t) (sig >> drop);
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
    memset(dst, 0, sizeof(long double));
    memcpy(dst, &m, 8);
    memcpy(dst + 8, &se, 2);
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

/* ---- converting runs ---- */

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
static int convert_ints(Conv_state *s, unsigned char *addr, MPI_Datatype t, MPI_Count n, int nw, int ew,
                        bool is_signed)
{
    for (MPI_Count i = 0; i < n; i++) {
        unsigned char *nat = addr + i * nw, *ext = s->ext + i * ew;
        uint64_t v = s->pack ? load_native(nat, nw, is_signed) : load_be(ext, ew, is_signed);
        int to = s->pack ? ew : nw;
        if (!fits(v, to, is_signed))
            return conversion_error(t, s->elements + i, v, is_signed, to);
        if (s->pack)
            store_be(ext, ew, v);
        else
            store_native(nat, nw, v);
    }
    return MPI_SUCCESS;
}

static int convert_run(void *state, char *addr_, MPI_Datatype t, MPI_Count n)
{
    Conv_state *s = state;
    unsigned char *addr = (unsigned char *) addr_;
    const Rep *r = rep_of(t);
    if (!r || r->kind == K_PAIR)
        return MPIR_Err(MPI_ERR_INTERN, "external32: the engine handed over a run of datatype 0x%x, "
                        "which is not a basic type", (unsigned) t);
    int nw = native_width(t, r), ew = r->ext, err = MPI_SUCCESS;
    MPI_Count parts = n * r->parts;
    switch (r->kind) {
    case K_NONE:
        return MPI_SUCCESS;
    case K_LDBL:
        for (MPI_Count i = 0; i < parts; i++) {
            if (s->pack)
                ldbl_to_quad(addr + i * nw, s->ext + i * ew);
            else
                quad_to_ldbl(s->ext + i * ew, addr + i * nw);
        }
        break;
    default:
        if (nw == ew) {
            if (s->pack)
                copy_big_endian(s->ext, addr, parts, nw);
            else
                copy_big_endian(addr, s->ext, parts, nw);
        } else if (r->kind != K_FLOAT && nw <= 8 && ew <= 8) {
            err = convert_ints(s, addr, t, parts, nw, ew, r->kind == K_INT);
        } else {
            err = MPIR_Err(MPI_ERR_INTERN, "external32: no conversion for %s (%d native bytes)",
                           MPID_Builtin_name(t), nw);
        }
    }
    if (err)
        return err;
    s->ext += parts * ew;
    s->elements += n;
    return MPI_SUCCESS;
}

static int convert(void *buf, MPI_Count count, MPI_Datatype type, unsigned char *ext, bool pack)
{
    MPID_Segment seg;
    int err = MPID_Segment_init(&seg, buf, count, type);
    if (err)
        return err;
    Conv_state s = { .ext = ext, .pack = pack, .elements = 0 };
    MPI_Count last = seg.size;
    err = MPID_Segment_for_each_run(&seg, 0, &last, convert_run, &s);
    if (!err && last != seg.size)
        err = MPIR_Err(MPI_ERR_INTERN, "external32: the engine stopped at byte %lld of %lld", last, seg.size);
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

/* External32 bytes of one instance of dt, from the type tree. */
static int instance_size(const MPID_Datatype *dt, MPI_Count *out)
{
    MPI_Datatype h = MPID_Datatype_handle(dt);
    MPI_Count n = 0, child = 0;
    int err;
    if (dt->size == 0) {
        *out = 0;
        return MPI_SUCCESS;
    }
    if (MPID_Datatype_is_builtin(h)) {
        const Rep *r = rep_of(h);
        if (!r)
            return MPIR_Err(MPI_ERR_INTERN, "external32: unknown predefined datatype 0x%x", (unsigned) h);
        *out = (MPI_Count) r->parts * r->ext;
        return MPI_SUCCESS;
    }
    const Rep *basic = rep_of(dt->basic_type);
    if (basic && basic->kind != K_PAIR) {   /* all elements of one type: no walk */
        if (MPIR_Mul_overflows(dt->n_elements, (MPI_Count) basic->parts * basic->ext, out))
            return size_overflow();
        return MPI_SUCCESS;
    }
    if (dt->impl_type)   /* dup, subarray, darray, f90: the internal equivalent */
        return instance_size(dt->impl_type, out);

    const int64_t *v;
    const MPI_Datatype *types;
    int nvals, ntypes;
    int combiner = MPID_Contents_get(dt, &v, &nvals, &types, &ntypes);
    if (combiner == MPI_COMBINER_STRUCT || combiner == MPI_COMBINER_STRUCT_INTEGER) {
        /* children often repeat: remember the last one */
        MPI_Datatype last = MPI_DATATYPE_NULL;
        MPI_Count total = 0, term;
        for (int64_t k = 0; k < v[0]; k++) {
            if (types[k] != last) {
                if ((err = instance_size(MPID_Datatype_get(types[k]), &child)))
                    return err;
                last = types[k];
            }
            if (MPIR_Mul_overflows(v[1 + k], child, &term) || MPIR_Add_overflows(total, term, &total))
                return size_overflow();
        }
        *out = total;
        return MPI_SUCCESS;
    }
    switch (combiner) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:
        n = 1;
        break;
    case MPI_COMBINER_CONTIGUOUS:
        n = v[0];
        break;
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR:
    case MPI_COMBINER_HVECTOR_INTEGER:
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK:
        if (MPIR_Mul_overflows(v[0], v[1], &n))
            return size_overflow();
        break;
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED:
    case MPI_COMBINER_HINDEXED_INTEGER:
        for (int64_t k = 0; k < v[0]; k++)
            if (MPIR_Add_overflows(n, v[1 + k], &n))
                return size_overflow();
        break;
    default:
        return MPIR_Err(MPI_ERR_INTERN, "external32: no size rule for combiner %d", combiner);
    }
    if ((err = instance_size(MPID_Datatype_get(types[0]), &child)))
        return err;
    if (MPIR_Mul_overflows(n, child, out))
        return size_overflow();
    return MPI_SUCCESS;
}

int MPID_External32_size(MPI_Datatype type, MPI_Count count, MPI_Count *size)
{
    MPID_Datatype *dt = MPID_Datatype_get(type);
    MPI_Count one;
    if (!dt)
        return MPIR_Err_datatype("datatype", type, -1);
    int err = instance_size(dt, &one);
    if (err)
        return err;
    if (MPIR_Mul_overflows(count, one, size))
        return size_overflow();
    return MPI_SUCCESS;
}
