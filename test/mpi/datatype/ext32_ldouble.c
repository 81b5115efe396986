/*
 * MPI_LONG_DOUBLE in external32 is IEEE quad (16 bytes, 15 exponent bits, 112 fraction bits).
 * Where long double is x87 extended, packing must be exact and unpacking must round to nearest,
 * ties to even. Checked here with hand-computed bytes for zeros, infinities, NaNs, denormals,
 * pseudo-denormals, the encodings the FPU rejects, the largest value and rounding ties, then
 * against GCC's own conversions between long double and __float128 for many random values.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "mtest.h"

#if LDBL_MANT_DIG == 64 && defined(__SIZEOF_FLOAT128__)
typedef unsigned __int128 u128;

/* An x87 value from its fields. */
static long double x87(unsigned sign_exp, uint64_t m)
{
    long double v;
    uint16_t se = (uint16_t) sign_exp;
    memset(&v, 0, sizeof v);
    memcpy(&v, &m, 8);
    memcpy((char *) &v + 8, &se, 2);
    return v;
}

static void x87_fields(long double v, unsigned *se, uint64_t *m)
{
    uint16_t s;
    memcpy(m, &v, 8);
    memcpy(&s, (char *) &v + 8, 2);
    *se = s;
}

static u128 quad_bits(unsigned sign_exp, uint64_t frac_hi48, uint64_t frac_lo64)
{
    return (u128) sign_exp << 112 | (u128) frac_hi48 << 64 | frac_lo64;
}

static void to_be(u128 q, unsigned char *b)
{
    for (int i = 15; i >= 0; i--, q >>= 8)
        b[i] = (unsigned char) q;
}

static u128 from_be(const unsigned char *b)
{
    u128 q = 0;
    for (int i = 0; i < 16; i++)
        q = q << 8 | b[i];
    return q;
}

static u128 pack_ld(long double v)
{
    unsigned char b[16];
    MPI_Aint pos = 0;
    CHECK_MPI(MPI_Pack_external("external32", &v, 1, MPI_LONG_DOUBLE, b, sizeof b, &pos));
    CHECK_EQ(pos, 16);
    return from_be(b);
}

static long double unpack_ld(u128 q)
{
    unsigned char b[16];
    long double v;
    MPI_Aint pos = 0;
    to_be(q, b);
    memset(&v, 0x55, sizeof v);
    CHECK_MPI(MPI_Unpack_external("external32", b, sizeof b, &pos, &v, 1, MPI_LONG_DOUBLE));
    CHECK_EQ(pos, 16);
    return v;
}

static void check_pack(const char *what, unsigned se, uint64_t m, u128 want)
{
    u128 got = pack_ld(x87(se, m));
    CHECK(got == want, "%s: packed %016llx%016llx, expected %016llx%016llx", what,
          (unsigned long long) (got >> 64), (unsigned long long) got,
          (unsigned long long) (want >> 64), (unsigned long long) want);
}

static void check_unpack(const char *what, u128 q, unsigned want_se, uint64_t want_m)
{
    unsigned se;
    uint64_t m;
    x87_fields(unpack_ld(q), &se, &m);
    CHECK(se == want_se && m == want_m, "%s: unpacked %04x:%016llx, expected %04x:%016llx", what, se,
          (unsigned long long) m, want_se, (unsigned long long) want_m);
}

#define J ((uint64_t) 1 << 63)

static void test_special_pack(void)
{
    check_pack("+0", 0, 0, 0);
    check_pack("-0", 0x8000, 0, quad_bits(0x8000, 0, 0));
    check_pack("1", 0x3fff, J, quad_bits(0x3fff, 0, 0));
    check_pack("-1.5", 0xbfff, J | J >> 1, quad_bits(0xbfff, 0x800000000000, 0));
    check_pack("+inf", 0x7fff, J, quad_bits(0x7fff, 0, 0));
    check_pack("-inf", 0xffff, J, quad_bits(0xffff, 0, 0));
    check_pack("quiet NaN", 0x7fff, J | J >> 1, quad_bits(0x7fff, 0x800000000000, 0));
    /* a signaling NaN keeps its payload: fraction bit 0 lands on quad fraction bit 49 */
    check_pack("signaling NaN", 0x7fff, J | 1, quad_bits(0x7fff, 0, (uint64_t) 1 << 49));
    /* largest finite: 63 fraction ones become quad fraction bits 111..49 */
    check_pack("LDBL_MAX", 0x7ffe, ~(uint64_t) 0, quad_bits(0x7ffe, 0xffffffffffff, 0xfffe000000000000));
    check_pack("smallest normal", 0x0001, J, quad_bits(0x0001, 0, 0));
    /* denormals: value m * 2^-16445 is quad fraction m << 49 with exponent 0 */
    check_pack("smallest denormal", 0, 1, quad_bits(0, 0, (uint64_t) 1 << 49));
    check_pack("largest denormal", 0, J - 1, quad_bits(0, 0xffffffffffff, 0xfffe000000000000));
    check_pack("-denormal", 0x8000, 0x123456789abcdef, quad_bits(0x8000, 0x2468acf1357, 0x9bde000000000000));
    /* pseudo-denormal (J set, exponent 0) means 2^-16382 * 1.f: the smallest normal's binade */
    check_pack("pseudo-denormal", 0, J | 1, quad_bits(0x0001, 0, (uint64_t) 1 << 49));
    /* what the FPU rejects becomes a quiet NaN */
    check_pack("unnormal", 0x3fff, J >> 1, quad_bits(0x7fff, 0x800000000000, 0));
    check_pack("pseudo-infinity", 0x7fff, 0, quad_bits(0x7fff, 0x800000000000, 0));
}

static void test_special_unpack(void)
{
    check_unpack("+0", 0, 0, 0);
    check_unpack("-0", quad_bits(0x8000, 0, 0), 0x8000, 0);
    check_unpack("1", quad_bits(0x3fff, 0, 0), 0x3fff, J);
    check_unpack("-inf", quad_bits(0xffff, 0, 0), 0xffff, J);
    check_unpack("quiet NaN", quad_bits(0x7fff, 0x800000000000, 0), 0x7fff, J | J >> 1);
    /* a NaN whose payload lies only in the 49 dropped bits stays a NaN */
    check_unpack("NaN, low payload", quad_bits(0x7fff, 0, 1), 0x7fff, J | J >> 1);
    /* 1 + 2^-64: exactly half an x87 ulp, ties to even: 1 */
    check_unpack("tie to even, down", quad_bits(0x3fff, 0, (uint64_t) 1 << 48), 0x3fff, J);
    /* 1 + 2^-63 + 2^-64: tie with an odd last bit: up to 1 + 2^-62 */
    check_unpack("tie to even, up", quad_bits(0x3fff, 0, (uint64_t) 3 << 48), 0x3fff, J | 2);
    /* just above half: up */
    check_unpack("above half", quad_bits(0x3fff, 0, ((uint64_t) 1 << 48) | 1), 0x3fff, J | 1);
    /* just below half: down */
    check_unpack("below half", quad_bits(0x3fff, 0, ((uint64_t) 1 << 48) - 1), 0x3fff, J);
    /* the largest quad below 2 rounds up into the next binade */
    check_unpack("carry", quad_bits(0x3fff, 0xffffffffffff, ~(uint64_t) 0), 0x4000, J);
    /* the largest quad is beyond the x87 range once rounded: infinity */
    check_unpack("overflow", quad_bits(0x7ffe, 0xffffffffffff, ~(uint64_t) 0), 0x7fff, J);
    check_unpack("-overflow", quad_bits(0xfffe, 0xffffffffffff, ~(uint64_t) 0), 0xffff, J);
    /* quad denormals: scale 2^-16494; x87 denormal ulp 2^-16445 = quad fraction 1 << 49 */
    check_unpack("tiniest quad denormal", quad_bits(0, 0, 1), 0, 0);
    check_unpack("half an x87 denormal ulp", quad_bits(0, 0, (uint64_t) 1 << 48), 0, 0);
    check_unpack("over half an x87 denormal ulp", quad_bits(0, 0, ((uint64_t) 1 << 48) + 1), 0, 1);
    check_unpack("1.5 x87 denormal ulps", quad_bits(0x8000, 0, (uint64_t) 3 << 48), 0x8000, 2);
    check_unpack("x87 denormal", quad_bits(0, 0x2468acf1357, 0x9bde000000000000), 0, 0x123456789abcdef);
    /* the largest quad denormal rounds up to the smallest normal */
    check_unpack("largest quad denormal", quad_bits(0, 0xffffffffffff, ~(uint64_t) 0), 0x0001, J);
}

/* Random bits, 64 at a time. */
static uint64_t rnd64(void)
{
    uint64_t v = 0;
    for (int i = 0; i < 4; i++)
        v = v << 16 | (uint64_t) (rand() & 0xffff);
    return v;
}

/* Random x87 values in every class GCC converts (no NaNs: GCC quiets signaling ones, we keep
 * them): packing equals GCC's conversion, and unpacking gives the value back bit for bit. */
static void test_random_pack(void)
{
    int bad = 0;
    for (int k = 0; k < 200000 && bad < 10; k++) {
        unsigned se = (unsigned) rand() & 0xffff;
        uint64_t m = rnd64();
        int e = se & 0x7fff;
        if (k % 8 == 0)
            se = (se & 0x8000) | (e = 0);    /* plenty of denormals */
        if (e == 0)
            m &= ~J;
        else if (e == 0x7fff)
            m = J;                          /* infinity */
        else
            m |= J;
        long double v = x87(se, m);
        __float128 q = (__float128) v;
        u128 want, got = pack_ld(v);
        memcpy(&want, &q, 16);
        if (got != want) {
            bad++;
            MTEST_FAIL("%04x:%016llx packed %016llx%016llx, GCC says %016llx%016llx", se,
                       (unsigned long long) m, (unsigned long long) (got >> 64), (unsigned long long) got,
                       (unsigned long long) (want >> 64), (unsigned long long) want);
        }
        unsigned se2;
        uint64_t m2;
        x87_fields(unpack_ld(got), &se2, &m2);
        if (se2 != se || m2 != m) {
            bad++;
            MTEST_FAIL("%04x:%016llx came back as %04x:%016llx", se, (unsigned long long) m, se2,
                       (unsigned long long) m2);
        }
    }
}

/* Random quads, exponents concentrated where rounding is interesting: unpacking equals GCC's
 * conversion (round to nearest, ties to even). */
static void test_random_unpack(void)
{
    int bad = 0;
    for (int k = 0; k < 200000 && bad < 10; k++) {
        unsigned se = (unsigned) rand() & 0xffff;
        switch (k % 4) {
        case 0: se = (se & 0x8000) | (k % 3); break;           /* denormals and the smallest normals */
        case 1: se = (se & 0x8000) | (0x7ffe - k % 2); break;   /* the top of the range */
        default: break;
        }
        if ((se & 0x7fff) == 0x7fff)
            se &= 0xbfff;   /* no NaNs */
        uint64_t hi = rnd64() & 0xffffffffffff, lo = rnd64();
        if (k % 5 == 0)
            lo = (lo & ~(((uint64_t) 1 << 49) - 1)) | (uint64_t) 1 << 48;   /* an exact tie */
        u128 q = quad_bits(se, hi, lo);
        __float128 f;
        memcpy(&f, &q, 16);
        long double want = (long double) f, got = unpack_ld(q);
        if (memcmp(&want, &got, 10) != 0) {
            unsigned s1, s2;
            uint64_t m1, m2;
            x87_fields(got, &s1, &m1);
            x87_fields(want, &s2, &m2);
            bad++;
            MTEST_FAIL("%016llx%016llx unpacked to %04x:%016llx, GCC says %04x:%016llx",
                       (unsigned long long) (q >> 64), (unsigned long long) q, s1, (unsigned long long) m1,
                       s2, (unsigned long long) m2);
        }
    }
}

/* Complex long double and arrays: every part converted, in order. */
static void test_arrays(void)
{
    long double _Complex z[3] = { 1.0L, -2.0L, __builtin_complex(0.5L, -1.0L) }, back[3];
    unsigned char b[96];
    MPI_Aint pos = 0;
    CHECK_MPI(MPI_Pack_external("external32", z, 3, MPI_C_LONG_DOUBLE_COMPLEX, b, sizeof b, &pos));
    CHECK_EQ(pos, 96);
    CHECK(from_be(b) == quad_bits(0x3fff, 0, 0), "real part of z[0]");
    CHECK(from_be(b + 16) == 0, "imaginary part of z[0]");
    CHECK(from_be(b + 32) == quad_bits(0xc000, 0, 0), "real part of z[1]");
    CHECK(from_be(b + 64) == quad_bits(0x3ffe, 0, 0), "real part of z[2]");
    CHECK(from_be(b + 80) == quad_bits(0xbfff, 0, 0), "imaginary part of z[2]");
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", b, sizeof b, &pos, back, 3, MPI_C_LONG_DOUBLE_COMPLEX));
    for (int i = 0; i < 3; i++)
        CHECK(back[i] == z[i], "z[%d] changed by the round trip", i);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    srand(12345);
    test_special_pack();
    test_special_unpack();
    test_random_pack();
    test_random_unpack();
    test_arrays();
    return MTest_Finalize();
}

#else
/* long double is not x87 extended here: only the value 1.0 is checked. */
int main(int argc, char **argv)
{
    long double one = 1.0L;
    unsigned char b[16], want[16] = { 0x3f, 0xff };
    MPI_Aint pos = 0;
    MTest_Init(&argc, &argv);
    CHECK_MPI(MPI_Pack_external("external32", &one, 1, MPI_LONG_DOUBLE, b, sizeof b, &pos));
    CHECK(memcmp(b, want, 16) == 0, "1.0L is not 3fff 0...");
    return MTest_Finalize();
}
#endif
