/*
 * external32 of every predefined datatype: MPI_Pack_external writes the exact bytes of the
 * standard's representation (big-endian, two's complement, IEEE, the sizes of its table: MPI_LONG
 * 4, MPI_WCHAR 2, MPI_LONG_DOUBLE 16 as IEEE quad, pair types without padding), the size agrees,
 * and MPI_Unpack_external gives the value back. MPI_LB and MPI_UB carry no data.
 */
#include <complex.h>
#include <stdbool.h>
#include <stdint.h>
#include <wchar.h>
#include "mtest.h"

/* Packs one value (and a block of three, to see elements follow each other), compares the bytes,
 * unpacks into out. want_one: the external32 bytes of one value. */
static void check_one(const char *name, MPI_Datatype type, const void *in, void *out, size_t extent,
                      const unsigned char *want, int len)
{
    unsigned char buf[3 * 40 + 8], in3[3 * 64];
    MPI_Aint size = -1, pos = 0;

    CHECK_MPI(MPI_Pack_external_size("external32", 1, type, &size));
    CHECK(size == len, "%s: external32 size %ld, expected %d", name, (long) size, len);
    memset(buf, 0xee, sizeof buf);
    CHECK_MPI(MPI_Pack_external("external32", in, 1, type, buf, len, &pos));
    CHECK(pos == len, "%s: position %ld after packing, expected %d", name, (long) pos, len);
    for (int i = 0; i < len; i++)
        CHECK(buf[i] == want[i], "%s: byte %d is %02x, expected %02x", name, i, buf[i], want[i]);
    CHECK(buf[len] == 0xee, "%s: wrote past its %d bytes", name, len);
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, len, &pos, out, 1, type));
    CHECK(pos == len, "%s: position %ld after unpacking, expected %d", name, (long) pos, len);

    /* three copies: three copies of the bytes, back to back */
    for (int k = 0; k < 3; k++)
        memcpy(in3 + k * extent, in, extent);
    pos = 0;
    CHECK_MPI(MPI_Pack_external_size("external32", 3, type, &size));
    CHECK(size == 3 * len, "%s: external32 size of 3 is %ld, expected %d", name, (long) size, 3 * len);
    CHECK_MPI(MPI_Pack_external("external32", in3, 3, type, buf, sizeof buf, &pos));
    CHECK(pos == 3 * len, "%s: position %ld after packing 3, expected %d", name, (long) pos, 3 * len);
    for (int k = 0; k < 3; k++)
        CHECK(memcmp(buf + k * len, want, (size_t) len) == 0, "%s: copy %d differs", name, k);
}

#define BYTES(...) ((const unsigned char[]) { __VA_ARGS__ }), (int) sizeof((const unsigned char[]) { __VA_ARGS__ })

/* A scalar (or complex) C type: compared with == after the round trip. */
#define SCALAR(type, ctype, value, ...) do { \
        ctype in_, out_; \
        memset(&in_, 0, sizeof in_); \
        memset(&out_, 0, sizeof out_); \
        in_ = (value); \
        check_one(#type, type, &in_, &out_, sizeof in_, BYTES(__VA_ARGS__)); \
        CHECK(in_ == out_, "%s: value changed by the round trip", #type); \
    } while (0)

/* Pair types: the C struct { value; index; }. */
#define PAIR(type, vtype, itype, value, index, ...) do { \
        struct { vtype v; itype i; } in_, out_; \
        memset(&in_, 0, sizeof in_); \
        memset(&out_, 0, sizeof out_); \
        in_.v = (value); \
        in_.i = (index); \
        check_one(#type, type, &in_, &out_, sizeof in_, BYTES(__VA_ARGS__)); \
        CHECK(in_.v == out_.v && in_.i == out_.i, "%s: value changed by the round trip", #type); \
    } while (0)

#define Z4 0, 0, 0, 0
#define Z6 0, 0, 0, 0, 0, 0
#define Z14 Z4, Z4, Z6
#define LD_ONE 0x3f, 0xff, Z14             /* 1.0 as IEEE quad */
#define LD_MINUS_TWO 0xc0, 0x00, Z14       /* -2.0 */

static void test_c_types(void)
{
    SCALAR(MPI_CHAR, char, 'A', 0x41);
    SCALAR(MPI_SIGNED_CHAR, signed char, -2, 0xfe);
    SCALAR(MPI_UNSIGNED_CHAR, unsigned char, 0xab, 0xab);
    SCALAR(MPI_BYTE, unsigned char, 0x5a, 0x5a);
    SCALAR(MPI_PACKED, unsigned char, 0x7e, 0x7e);
    SCALAR(MPI_WCHAR, wchar_t, 0x20ac, 0x20, 0xac);
    SCALAR(MPI_WCHAR, wchar_t, 0xfffd, 0xff, 0xfd);   /* unsigned: no sign to extend */
    SCALAR(MPI_SHORT, short, -2, 0xff, 0xfe);
    SCALAR(MPI_UNSIGNED_SHORT, unsigned short, 0x1234, 0x12, 0x34);
    SCALAR(MPI_INT, int, 0x01020304, 0x01, 0x02, 0x03, 0x04);
    SCALAR(MPI_UNSIGNED, unsigned, 0xfffffffeu, 0xff, 0xff, 0xff, 0xfe);
    SCALAR(MPI_LONG, long, -2, 0xff, 0xff, 0xff, 0xfe);
    SCALAR(MPI_LONG, long, 0x7fffffffL, 0x7f, 0xff, 0xff, 0xff);
    SCALAR(MPI_LONG, long, -0x7fffffffL - 1, 0x80, 0x00, 0x00, 0x00);
    SCALAR(MPI_UNSIGNED_LONG, unsigned long, 0x89abcdefUL, 0x89, 0xab, 0xcd, 0xef);
    SCALAR(MPI_LONG_LONG_INT, long long, 0x0102030405060708LL, 1, 2, 3, 4, 5, 6, 7, 8);
    SCALAR(MPI_LONG_LONG, long long, -2, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe);
    SCALAR(MPI_UNSIGNED_LONG_LONG, unsigned long long, 0xfedcba9876543210ULL,
           0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10);
    SCALAR(MPI_FLOAT, float, 1.0f, 0x3f, 0x80, 0x00, 0x00);
    SCALAR(MPI_FLOAT, float, -0.375f, 0xbe, 0xc0, 0x00, 0x00);
    SCALAR(MPI_DOUBLE, double, 1.0, 0x3f, 0xf0, Z6);
    SCALAR(MPI_DOUBLE, double, -2.5, 0xc0, 0x04, Z6);
    SCALAR(MPI_LONG_DOUBLE, long double, 1.0L, LD_ONE);
    SCALAR(MPI_LONG_DOUBLE, long double, -2.0L, LD_MINUS_TWO);
    /* 1 + 2^-63, the last bit of the x87 significand: quad fraction bit 112 - 63 = 49 */
    SCALAR(MPI_LONG_DOUBLE, long double, 1.0L + 0x1p-63L, 0x3f, 0xff, 0, 0, 0, 0, 0, 0, 0, 0x02, Z6);
    SCALAR(MPI_C_BOOL, _Bool, true, 0x01);
    SCALAR(MPI_INT8_T, int8_t, -1, 0xff);
    SCALAR(MPI_INT16_T, int16_t, 0x0102, 0x01, 0x02);
    SCALAR(MPI_INT32_T, int32_t, -0x10000, 0xff, 0xff, 0x00, 0x00);
    SCALAR(MPI_INT64_T, int64_t, -2, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe);
    SCALAR(MPI_UINT8_T, uint8_t, 0x80, 0x80);
    SCALAR(MPI_UINT16_T, uint16_t, 0xbeef, 0xbe, 0xef);
    SCALAR(MPI_UINT32_T, uint32_t, 0xdeadbeef, 0xde, 0xad, 0xbe, 0xef);
    SCALAR(MPI_UINT64_T, uint64_t, 0x0123456789abcdefULL, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef);
    SCALAR(MPI_AINT, MPI_Aint, -8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xf8);
    SCALAR(MPI_COUNT, MPI_Count, (MPI_Count) 1 << 32, 0, 0, 0, 1, 0, 0, 0, 0);
    SCALAR(MPI_OFFSET, MPI_Offset, 0x1122334455667788LL, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88);
    SCALAR(MPI_C_FLOAT_COMPLEX, float _Complex, 1.0f + 2.0f * I, 0x3f, 0x80, 0, 0, 0x40, 0x00, 0, 0);
    SCALAR(MPI_C_COMPLEX, float _Complex, -1.0f, 0xbf, 0x80, 0, 0, Z4);
    SCALAR(MPI_C_DOUBLE_COMPLEX, double _Complex, 1.0 - 2.0 * I, 0x3f, 0xf0, Z6, 0xc0, 0x00, Z6);
    SCALAR(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex, 1.0L - 2.0L * I, LD_ONE, LD_MINUS_TWO);
}

static void test_cxx_types(void)
{
    SCALAR(MPI_CXX_BOOL, _Bool, true, 0x01);   /* C++ bool is one byte, like _Bool */
    SCALAR(MPI_CXX_FLOAT_COMPLEX, float _Complex, 2.0f + 1.0f * I, 0x40, 0x00, 0, 0, 0x3f, 0x80, 0, 0);
    SCALAR(MPI_CXX_DOUBLE_COMPLEX, double _Complex, -2.5 + 1.0 * I, 0xc0, 0x04, Z6, 0x3f, 0xf0, Z6);
    SCALAR(MPI_CXX_LONG_DOUBLE_COMPLEX, long double _Complex, -2.0L + 1.0L * I, LD_MINUS_TWO, LD_ONE);
}

static void test_fortran_types(void)
{
    SCALAR(MPI_CHARACTER, char, 'z', 0x7a);
    SCALAR(MPI_LOGICAL, int, 1, 0, 0, 0, 1);
    SCALAR(MPI_INTEGER, int, -3, 0xff, 0xff, 0xff, 0xfd);
    SCALAR(MPI_REAL, float, 0.5f, 0x3f, 0x00, 0x00, 0x00);
    SCALAR(MPI_DOUBLE_PRECISION, double, 2.0, 0x40, 0x00, Z6);
    SCALAR(MPI_COMPLEX, float _Complex, 0.5f + 1.0f * I, 0x3f, 0x00, 0, 0, 0x3f, 0x80, 0, 0);
    SCALAR(MPI_DOUBLE_COMPLEX, double _Complex, 2.0 + 0.5 * I, 0x40, 0x00, Z6, 0x3f, 0xe0, Z6);
    SCALAR(MPI_INTEGER1, int8_t, -128, 0x80);
    SCALAR(MPI_INTEGER2, int16_t, -2, 0xff, 0xfe);
    SCALAR(MPI_INTEGER4, int32_t, 0x01020304, 1, 2, 3, 4);
    SCALAR(MPI_INTEGER8, int64_t, 0x0102030405060708LL, 1, 2, 3, 4, 5, 6, 7, 8);
    SCALAR(MPI_INTEGER16, __int128, -((__int128) 1 << 64) - 2,
           0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe);
    /* REAL2 is an IEEE half: 1.0 is 0x3c00, -2.0 is 0xc000 */
    SCALAR(MPI_REAL2, uint16_t, 0x3c00, 0x3c, 0x00);
    SCALAR(MPI_REAL4, float, 1.0f, 0x3f, 0x80, 0, 0);
    SCALAR(MPI_REAL8, double, -2.5, 0xc0, 0x04, Z6);
    SCALAR(MPI_REAL16, long double, 1.0L, LD_ONE);
    {   /* COMPLEX4: two halves, 1.0 - 2.0i */
        uint16_t in[2] = { 0x3c00, 0xc000 }, out[2] = { 0, 0 };
        check_one("MPI_COMPLEX4", MPI_COMPLEX4, in, out, sizeof in, BYTES(0x3c, 0x00, 0xc0, 0x00));
        CHECK(in[0] == out[0] && in[1] == out[1], "MPI_COMPLEX4: value changed by the round trip");
    }
    SCALAR(MPI_COMPLEX8, float _Complex, 1.0f + 2.0f * I, 0x3f, 0x80, 0, 0, 0x40, 0x00, 0, 0);
    SCALAR(MPI_COMPLEX16, double _Complex, 1.0 - 2.0 * I, 0x3f, 0xf0, Z6, 0xc0, 0x00, Z6);
    SCALAR(MPI_COMPLEX32, long double _Complex, 1.0L - 2.0L * I, LD_ONE, LD_MINUS_TWO);
}

static void test_pairs(void)
{
    PAIR(MPI_FLOAT_INT, float, int, 1.0f, 7, 0x3f, 0x80, 0, 0, 0, 0, 0, 7);
    PAIR(MPI_DOUBLE_INT, double, int, -2.5, -1, 0xc0, 0x04, Z6, 0xff, 0xff, 0xff, 0xff);
    PAIR(MPI_LONG_INT, long, int, -2, 3, 0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 3);
    PAIR(MPI_2INT, int, int, 1, 2, 0, 0, 0, 1, 0, 0, 0, 2);
    PAIR(MPI_SHORT_INT, short, int, -2, 0x01020304, 0xff, 0xfe, 1, 2, 3, 4);
    PAIR(MPI_LONG_DOUBLE_INT, long double, int, 1.0L, 5, LD_ONE, 0, 0, 0, 5);
    PAIR(MPI_2REAL, float, float, 1.0f, 2.0f, 0x3f, 0x80, 0, 0, 0x40, 0x00, 0, 0);
    PAIR(MPI_2DOUBLE_PRECISION, double, double, 1.0, -2.5, 0x3f, 0xf0, Z6, 0xc0, 0x04, Z6);
    PAIR(MPI_2INTEGER, int, int, -1, 0x10, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0x10);
}

/* Markers have no data: size 0 and nothing written. */
static void test_markers(void)
{
    MPI_Datatype markers[] = { MPI_LB, MPI_UB };
    for (int k = 0; k < 2; k++) {
        MPI_Aint size = -1, pos = 0;
        unsigned char buf[4] = { 0xee, 0xee, 0xee, 0xee };
        CHECK_MPI(MPI_Pack_external_size("external32", 5, markers[k], &size));
        CHECK_EQ(size, 0);
        CHECK_MPI(MPI_Pack_external("external32", buf, 1, markers[k], buf, 0, &pos));
        CHECK_EQ(pos, 0);
        CHECK_EQ(buf[0], 0xee);
    }
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    test_c_types();
    test_cxx_types();
    test_fortran_types();
    test_pairs();
    test_markers();
    return MTest_Finalize();
}
