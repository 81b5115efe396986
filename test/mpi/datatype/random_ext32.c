/*
 * external32 of thousands of random nested datatypes (randtype.h) against a model built on the
 * reference type map (reftype.h): the basic elements of the map, in map order, each in the form
 * the standard gives it (MPI 4.1, 14.5.2: big-endian, the sizes of its table, e.g. MPI_LONG in 4
 * bytes and long double as IEEE quad), converted here by code of its own, not the engine's:
 *   - MPI_Pack_external_size(_c) equals the model's size;
 *   - MPI_Pack_external(_c) at a nonzero position writes the model's bytes and nothing outside
 *     them, and leaves its input alone; a long whose value does not fit 4 bytes (a wchar_t
 *     beyond 0xFFFF) is MPI_ERR_CONVERSION;
 *   - MPI_Unpack_external(_c) of the model's stream of other values stores exactly those values
 *     (long double padding zeroed) and leaves gaps and guard bytes alone.
 * Typed values are random bytes, made representable where the format asks for it: a long fits
 * 32 bits and a wchar_t 16 unsigned ones (but in one type in 16 one of them does not, to check the
 * error), a long double is a normal number or zero (its special encodings are ext32_ldouble's
 * business).
 * Then long strided runs of one basic type, which the engine converts a chunk at a time.
 * 2000 random types by default (typecheck.h: REFTYPE_ITERS, REFTYPE_SEED, REFTYPE_VERBOSE).
 */
#include <stdlib.h>
#include "mtest.h"
#include "randtype.h"
#include "reftype.h"
#include "typecheck.h"

/* ---- the model: one basic type's external32 form ---- */

typedef enum { F_INT, F_UINT, F_REAL, F_LDBL } form_kind;

typedef struct {
    form_kind kind;
    int parts;      /* 2 for complex types */
    int native;     /* bytes of one part here */
    int ext;        /* bytes of one part in external32 */
} form;

/* The standard's external32 sizes for the basic types the generator uses (pair types reach the
 * model as their two members). */
static int form_of(MPI_Datatype t, form *f)
{
    static const struct {
        MPI_Datatype t;
        form f;
    } table[] = {
        { MPI_CHAR, { F_INT, 1, 1, 1 } }, { MPI_SHORT, { F_INT, 1, 2, 2 } },
        { MPI_INT, { F_INT, 1, 4, 4 } }, { MPI_LONG, { F_INT, 1, sizeof(long), 4 } },
        { MPI_BYTE, { F_UINT, 1, 1, 1 } }, { MPI_UNSIGNED_CHAR, { F_UINT, 1, 1, 1 } },
        { MPI_INT8_T, { F_INT, 1, 1, 1 } }, { MPI_UINT16_T, { F_UINT, 1, 2, 2 } },
        { MPI_INT64_T, { F_INT, 1, 8, 8 } }, { MPI_C_BOOL, { F_UINT, 1, 1, 1 } },
        { MPI_WCHAR, { F_UINT, 1, sizeof(wchar_t), 2 } }, { MPI_UNSIGNED_LONG_LONG, { F_UINT, 1, 8, 8 } },
        { MPI_FLOAT, { F_REAL, 1, 4, 4 } }, { MPI_DOUBLE, { F_REAL, 1, 8, 8 } },
        { MPI_C_FLOAT_COMPLEX, { F_REAL, 2, 4, 4 } }, { MPI_C_DOUBLE_COMPLEX, { F_REAL, 2, 8, 8 } },
        { MPI_LONG_DOUBLE, { F_LDBL, 1, sizeof(long double), 16 } },
    };
    for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
        if (table[k].t == t) {
            *f = table[k].f;
            return 0;
        }
    MPI_Count ni, na, nc, nd;
    int comb, size;
    MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &comb);
    MPI_Type_size(t, &size);
    if (comb == MPI_COMBINER_F90_REAL && (size == 4 || size == 8)) {   /* the generator's f90 reals */
        *f = (form) { F_REAL, 1, size, size };
        return 0;
    }
    return -1;
}

static uint64_t load_le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int b = n - 1; b >= 0; b--)
        v = v << 8 | p[b];
    return v;
}

static void store_le(unsigned char *p, int n, uint64_t v)
{
    for (int b = 0; b < n; b++, v >>= 8)
        p[b] = (unsigned char) v;
}

static uint64_t load_be(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int b = 0; b < n; b++)
        v = v << 8 | p[b];
    return v;
}

static void store_be(unsigned char *p, int n, uint64_t v)
{
    for (int b = n - 1; b >= 0; b--, v >>= 8)
        p[b] = (unsigned char) v;
}

/* x87 extended (64-bit significand with explicit integer bit, 15-bit exponent, sign; the rest of
 * the 16 bytes padding) and IEEE quad (same exponent, 112 fraction bits) of a normal number or
 * zero: the fraction below the integer bit moves to the top of quad's. */
#define J_BIT ((uint64_t) 1 << 63)

static int ldbl_is_model(const unsigned char *p)
{
    uint64_t m = load_le(p, 8);
    unsigned e = (unsigned) load_le(p + 8, 2) & 0x7fff;
    return (e == 0 && m == 0) || (e > 0 && e < 0x7fff && (m & J_BIT));
}

static void ldbl_to_quad(const unsigned char *x, unsigned char *q)
{
    uint64_t m = load_le(x, 8), se = load_le(x + 8, 2);
    uint64_t hi = (se >> 15) << 63, lo = 0;
    if ((se & 0x7fff) != 0) {
        hi |= (se & 0x7fff) << 48 | (m & ~J_BIT) >> 15;
        lo = m << 49;
    }
    store_be(q, 8, hi);
    store_be(q + 8, 8, lo);
}

static void quad_to_ldbl(const unsigned char *q, unsigned char *x)
{
    uint64_t hi = load_be(q, 8), lo = load_be(q + 8, 8);
    uint64_t e = hi >> 48 & 0x7fff;
    uint64_t m = e ? J_BIT | (hi & (((uint64_t) 1 << 48) - 1)) << 15 | lo >> 49 : 0;
    store_le(x, 8, m);
    store_le(x + 8, 2, hi >> 48);
    memset(x + 10, 0, sizeof(long double) - 10);
}

/* One part native -> external32. Returns -1 if the value does not fit. */
static int part_to_ext(const form *f, const unsigned char *n, unsigned char *e)
{
    if (f->kind == F_LDBL) {
        ldbl_to_quad(n, e);
        return 0;
    }
    uint64_t v = load_le(n, f->native);
    if (f->ext < f->native) {   /* narrowed: the dropped bytes must be the sign's (or zero) */
        uint64_t top = v >> (8 * f->ext - 1);
        uint64_t all = ~(uint64_t) 0 >> (8 * f->ext - 1 + 64 - 8 * f->native);
        if (f->kind == F_UINT ? v >> 8 * f->ext != 0 : (top != 0 && top != all))
            return -1;
    }
    store_be(e, f->ext, v);
    return 0;
}

static void part_from_ext(const form *f, const unsigned char *e, unsigned char *n)
{
    if (f->kind == F_LDBL) {
        quad_to_ldbl(e, n);
        return;
    }
    uint64_t v = load_be(e, f->ext);
    if (f->kind == F_INT && f->ext < 8 && (e[0] & 0x80))
        v |= ~(uint64_t) 0 << 8 * f->ext;   /* sign extension when widened */
    store_le(n, f->native, v);
}

/* ---- the model over a type map ---- */

typedef struct {
    form *forms;        /* one per map entry */
    MPI_Count size;     /* external32 bytes */
} ext_model;

static int model_build(const ref_map *m, ext_model *x)
{
    x->forms = malloc((m->n + 1) * sizeof *x->forms);
    x->size = 0;
    if (!x->forms)
        return -1;
    for (size_t k = 0; k < m->n; k++) {
        if (form_of(m->e[k].type, &x->forms[k]))
            return -2;
        x->size += (MPI_Count) x->forms[k].parts * x->forms[k].ext;
    }
    return 0;
}

/* The stream of buf; -1 if a value does not fit its external32 size. */
static int model_pack(const ref_map *m, const ext_model *x, const char *buf, unsigned char *out)
{
    int err = 0;
    for (size_t k = 0; k < m->n; k++) {
        const form *f = &x->forms[k];
        for (int p = 0; p < f->parts; p++, out += f->ext)
            err |= part_to_ext(f, (const unsigned char *) buf + m->e[k].disp + p * f->native, out);
    }
    return err;
}

static void model_unpack(const ref_map *m, const ext_model *x, const unsigned char *in, char *buf)
{
    for (size_t k = 0; k < m->n; k++) {
        const form *f = &x->forms[k];
        for (int p = 0; p < f->parts; p++, in += f->ext)
            part_from_ext(f, in, (unsigned char *) buf + m->e[k].disp + p * f->native);
    }
}

/* Makes the values of buf representable: longs fit 32 bits, wchar_ts 16 (all but one if
 * keep_wide), long doubles are normal numbers or zero. Returns 0 if they all are afterwards
 * (overlapping entries may undo each other's work). */
static int make_representable(const ref_map *m, const ext_model *x, char *buf, rt_rng *r, int keep_wide)
{
    long wide = -1;
    if (keep_wide) {
        long longs = 0;
        for (size_t k = 0; k < m->n; k++)
            longs += x->forms[k].ext < x->forms[k].native && x->forms[k].kind != F_LDBL;
        if (longs > 0) {
            long pick = (long) rt_range(r, 0, longs - 1);
            for (size_t k = 0; k < m->n && wide < 0; k++)
                if (x->forms[k].ext < x->forms[k].native && x->forms[k].kind != F_LDBL && pick-- == 0)
                    wide = (long) k;
        }
    }
    for (size_t k = 0; k < m->n; k++) {
        const form *f = &x->forms[k];
        unsigned char *p = (unsigned char *) buf + m->e[k].disp;
        if (f->kind == F_LDBL) {
            for (int q = 0; q < f->parts; q++, p += f->native) {
                int zero = rt_chance(r, 10);
                store_le(p, 8, zero ? 0 : rt_next(r) | J_BIT);
                store_le(p + 8, 2, (uint64_t) (rt_chance(r, 50) << 15 | (zero ? 0 : rt_range(r, 1, 0x7ffe))));
            }
        } else if (f->ext < f->native && (long) k != wide) {
            uint64_t v = rt_next(r) & ~(uint64_t) 0 >> (64 - 8 * f->ext);   /* fits ext bytes */
            if (f->kind == F_INT && v >> (8 * f->ext - 1))
                v |= ~(uint64_t) 0 << 8 * f->ext;                          /* sign-extended */
            store_le(p, f->native, v);
        } else if ((long) k == wide) {
            store_le(p, f->native, rt_next(r) | (uint64_t) 1 << (8 * f->ext + 8));   /* never fits */
        }
    }
    for (size_t k = 0; k < m->n; k++)
        if (x->forms[k].kind == F_LDBL && !ldbl_is_model((unsigned char *) buf + m->e[k].disp))
            return -1;
    return 0;
}

/* ---- the checks ---- */

static long skipped, conversion_checks;

static int error_class(int rc)
{
    int cls = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    return cls;
}

/* The first differing stream byte, with the map entry it belongs to. */
static void cmp_stream(const ref_map *m, const ext_model *x, const unsigned char *want,
                       const unsigned char *got, const char *what)
{
    for (MPI_Count i = 0; i < x->size; i++) {
        if (want[i] == got[i])
            continue;
        MPI_Count pos = 0;
        size_t k = 0;
        while (k < m->n && pos + x->forms[k].parts * x->forms[k].ext <= i)
            pos += x->forms[k].parts * x->forms[k].ext, k++;
        TFAIL("%s: external byte %lld is 0x%02x, expected 0x%02x (byte %lld of entry %zu, %s at "
              "displacement %ld)", what, (long long) i, got[i], want[i], (long long) (i - pos), k,
              k < m->n ? ref_type_name(m->e[k].type) : "?", k < m->n ? (long) m->e[k].disp : 0L);
        return;
    }
}

static void check_size(MPI_Datatype t, int count, const ext_model *x)
{
    MPI_Aint size = -1;
    MPI_Count size_c = -1;
    if (tc_mpi_ok(MPI_Pack_external_size("external32", count, t, &size), "MPI_Pack_external_size")
        && size != x->size)
        TFAIL("MPI_Pack_external_size(count=%d) = %ld, model %lld", count, (long) size, (long long) x->size);
    if (tc_mpi_ok(MPI_Pack_external_size_c("external32", count, t, &size_c), "MPI_Pack_external_size_c")
        && size_c != x->size)
        TFAIL("MPI_Pack_external_size_c(count=%d) = %lld, model %lld", count, (long long) size_c,
              (long long) x->size);
}

static void check_pack(MPI_Datatype t, int count, const ref_map *m, const ext_model *x, rt_rng *r)
{
    ref_buf in, in_copy;
    MPI_Aint p0 = (MPI_Aint) rt_range(r, 0, 7), outsize = p0 + (MPI_Aint) x->size;
    unsigned char *want = malloc((size_t) x->size + 1), *out = malloc((size_t) outsize + REF_GUARD);
    unsigned char *pristine = malloc((size_t) outsize + REF_GUARD);
    if (!want || !out || !pristine || ref_buf_alloc(&in, m, rt_next(r))) {
        TFAIL("out of memory");
        exit(1);
    }
    if (make_representable(m, x, in.base, r, rt_chance(r, 6))) {
        skipped++;
        goto done;
    }
    if (ref_buf_clone(&in_copy, &in))
        exit(1);
    int fits = model_pack(m, x, in.base, want) == 0;
    ref_fill(out, (size_t) outsize + REF_GUARD, rt_next(r));
    memcpy(pristine, out, (size_t) outsize + REF_GUARD);

    char what[64];
    int rc;
    MPI_Aint pos = p0;
    MPI_Count pos_c = p0;
    if (count % 2) {
        snprintf(what, sizeof what, "MPI_Pack_external(count=%d)", count);
        rc = MPI_Pack_external("external32", in.base, count, t, out, outsize, &pos);
    } else {
        snprintf(what, sizeof what, "MPI_Pack_external_c(count=%d)", count);
        rc = MPI_Pack_external_c("external32", in.base, count, t, out, outsize, &pos_c);
        pos = (MPI_Aint) pos_c;
    }
    if (!fits) {
        conversion_checks++;
        if (error_class(rc) != MPI_ERR_CONVERSION)
            TFAIL("%s of a value that does not fit its external32 bytes: error class %d, "
                  "expected MPI_ERR_CONVERSION", what, error_class(rc));
    } else if (tc_mpi_ok(rc, what)) {
        if (pos != outsize)
            TFAIL("%s: position %ld, expected %ld", what, (long) pos, (long) outsize);
        cmp_stream(m, x, want, out + p0, what);
    }
    if (memcmp(out, pristine, (size_t) p0) || memcmp(out + outsize, pristine + outsize, REF_GUARD))
        TFAIL("%s wrote outside [position, position + size)", what);
    if (ref_cmp_buf(m, &in_copy, &in, NULL, what))
        TFAIL("%s changed its input buffer", what);
    ref_buf_free(&in_copy);
  done:
    free(want);
    free(out);
    free(pristine);
    ref_buf_free(&in);
}

static void check_unpack(MPI_Datatype t, int count, const ref_map *m, const ext_model *x, rt_rng *r)
{
    ref_buf values, got, want;
    MPI_Aint p0 = (MPI_Aint) rt_range(r, 0, 7), insize = p0 + (MPI_Aint) x->size;
    unsigned char *in = malloc((size_t) insize + 1);
    if (!in || ref_buf_alloc(&values, m, rt_next(r)) || ref_buf_alloc(&got, m, rt_next(r))
        || ref_buf_clone(&want, &got)) {
        TFAIL("out of memory");
        exit(1);
    }
    unsigned char *writes = ref_buf_writes(m, &want);
    if (!writes)
        exit(1);
    if (make_representable(m, x, values.base, r, 0) || model_pack(m, x, values.base, in + p0)) {
        skipped++;
        goto done;
    }
    model_unpack(m, x, in + p0, want.base);

    char what[64];
    int rc;
    MPI_Aint pos = p0;
    MPI_Count pos_c = p0;
    if (count % 2 == 0) {
        snprintf(what, sizeof what, "MPI_Unpack_external(count=%d)", count);
        rc = MPI_Unpack_external("external32", in, insize, &pos, got.base, count, t);
    } else {
        snprintf(what, sizeof what, "MPI_Unpack_external_c(count=%d)", count);
        rc = MPI_Unpack_external_c("external32", in, insize, &pos_c, got.base, count, t);
        pos = (MPI_Aint) pos_c;
    }
    if (tc_mpi_ok(rc, what)) {
        if (pos != insize)
            TFAIL("%s: position %ld, expected %ld", what, (long) pos, (long) insize);
        if (ref_cmp_buf(m, &want, &got, writes, what))
            TFAIL("%s: the buffer differs from the model's (count %d)", what, count);
    }
  done:
    free(writes);
    free(in);
    ref_buf_free(&values);
    ref_buf_free(&got);
    ref_buf_free(&want);
}

static void check_type(MPI_Datatype t, unsigned long long seed)
{
    rt_rng r;
    rt_seed(&r, seed);
    tc_begin(t, seed);
    if (t == MPI_DATATYPE_NULL) {
        TFAIL("the generator could not build the type");
        return;
    }
    if (!tc_mpi_ok(MPI_Type_commit(&t), "MPI_Type_commit"))
        goto free_type;
    for (int count = 0; count <= 3; count++) {
        ref_map m;
        ext_model x;
        if (ref_map_build(t, count, &m)) {
            TFAIL("the model could not expand %d instances", count);
            break;
        }
        int err = model_build(&m, &x);
        if (err == -1) {
            TFAIL("out of memory");
            exit(1);
        }
        if (err == -2)
            TFAIL("the model has no external32 form for one of the basic types");
        else {
            check_size(t, count, &x);
            check_pack(t, count, &m, &x, &r);
            check_unpack(t, count, &m, &x, &r);
        }
        free(x.forms);
        ref_map_free(&m);
    }
  free_type:
    MPI_Type_free(&t);
}

/* Long strided runs of one basic type, beyond the engine's conversion chunk, forward and backward */
static void check_long_runs(void)
{
    static const MPI_Datatype types[] = { MPI_DOUBLE, MPI_INT, MPI_LONG, MPI_SHORT, MPI_LONG_DOUBLE,
                                          MPI_C_FLOAT_COMPLEX };
    static const int counts[] = { 700, 5000 };
    unsigned long long seed = 1u << 20;
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
            for (int blocklen = 1; blocklen <= 3; blocklen += 2)
                for (int dir = 1; dir >= -1; dir -= 2) {
                    MPI_Aint lb, extent;
                    MPI_Datatype t = MPI_DATATYPE_NULL;
                    MPI_Type_get_extent(types[k], &lb, &extent);
                    tc_mpi_ok(MPI_Type_create_hvector(counts[c], blocklen, dir * (blocklen + 1) * extent, types[k], &t),
                           "MPI_Type_create_hvector");
                    check_type(t, seed++);
                }
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    long long iters = tc_each_random_type(2000, check_type);
    check_long_runs();
    tc_end();
    /* over a full run: the conversion error was seen, and overlaps skipped few checks */
    if (iters >= 500) {
        CHECK(conversion_checks > 0, "no packed long was too wide for 4 bytes");
        CHECK(skipped * 10 < iters * 8, "%ld of %lld pack and unpack checks skipped", skipped, iters * 8);
    }
    if (tc.verbose)
        fprintf(stderr, "%ld conversion errors checked, %ld checks skipped\n", conversion_checks, skipped);
    return MTest_Finalize();
}
