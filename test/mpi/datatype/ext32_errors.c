/*
 * Errors of the external32 functions (under MPI_ERRORS_RETURN):
 *   - a data representation other than "external32" gives MPI_ERR_UNSUPPORTED_DATAREP;
 *   - a buffer too small for the data gives MPI_ERR_TRUNCATE, writes nothing (guard bytes stay)
 *     and leaves position alone;
 *   - an MPI_LONG or MPI_UNSIGNED_LONG value that does not fit the 4 bytes of external32, or an
 *     MPI_WCHAR beyond the 16-bit code units of its 2 bytes, gives MPI_ERR_CONVERSION, and nothing
 *     after that element is written;
 *   - an uncommitted type gives MPI_ERR_TYPE for packing, but has an external32 size.
 */
#include <limits.h>
#include "mtest.h"

static void test_datarep(void)
{
    const char *reps[] = { "native", "foo", "", "internal", "external32 " };
    int v = 1;
    unsigned char buf[8];
    for (int k = 0; k < 5; k++) {
        MPI_Aint pos = 0, size = -1;
        MPI_Count cpos = 0, csize = -1;
        CHECK_ERR(MPI_Pack_external(reps[k], &v, 1, MPI_INT, buf, sizeof buf, &pos), MPI_ERR_UNSUPPORTED_DATAREP);
        CHECK_ERR(MPI_Unpack_external(reps[k], buf, sizeof buf, &pos, &v, 1, MPI_INT), MPI_ERR_UNSUPPORTED_DATAREP);
        CHECK_ERR(MPI_Pack_external_size(reps[k], 1, MPI_INT, &size), MPI_ERR_UNSUPPORTED_DATAREP);
        CHECK_ERR(MPI_Pack_external_c(reps[k], &v, 1, MPI_INT, buf, sizeof buf, &cpos), MPI_ERR_UNSUPPORTED_DATAREP);
        CHECK_ERR(MPI_Unpack_external_c(reps[k], buf, sizeof buf, &cpos, &v, 1, MPI_INT), MPI_ERR_UNSUPPORTED_DATAREP);
        CHECK_ERR(MPI_Pack_external_size_c(reps[k], 1, MPI_INT, &csize), MPI_ERR_UNSUPPORTED_DATAREP);
        CHECK_EQ(pos, 0);
        CHECK_EQ(cpos, 0);
    }
}

static void test_truncate(void)
{
    long in[3] = { 1, 2, 3 }, out[3] = { 7, 7, 7 };
    unsigned char buf[16];
    MPI_Aint pos;
    MPI_Count cpos;

    /* 12 bytes of data, 11 of room */
    memset(buf, 0xee, sizeof buf);
    pos = 0;
    CHECK_ERR(MPI_Pack_external("external32", in, 3, MPI_LONG, buf, 11, &pos), MPI_ERR_TRUNCATE);
    CHECK_EQ(pos, 0);
    for (int i = 0; i < 16; i++)
        CHECK(buf[i] == 0xee, "byte %d written by a truncated pack", i);
    /* room for 12, but 5 already used */
    pos = 5;
    CHECK_ERR(MPI_Pack_external("external32", in, 3, MPI_LONG, buf, 16, &pos), MPI_ERR_TRUNCATE);
    CHECK_EQ(pos, 5);
    cpos = 5;
    CHECK_ERR(MPI_Pack_external_c("external32", in, 3, MPI_LONG, buf, 16, &cpos), MPI_ERR_TRUNCATE);
    CHECK_EQ(cpos, 5);
    for (int i = 0; i < 16; i++)
        CHECK(buf[i] == 0xee, "byte %d written by a truncated pack", i);
    /* exactly enough: fine */
    pos = 4;
    CHECK_MPI(MPI_Pack_external("external32", in, 3, MPI_LONG, buf, 16, &pos));
    CHECK_EQ(pos, 16);

    /* unpacking 3 longs from 11 bytes */
    pos = 4;
    CHECK_ERR(MPI_Unpack_external("external32", buf, 15, &pos, out, 3, MPI_LONG), MPI_ERR_TRUNCATE);
    CHECK_EQ(pos, 4);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(out[i], 7);
    cpos = 4;
    CHECK_ERR(MPI_Unpack_external_c("external32", buf, 15, &cpos, out, 3, MPI_LONG), MPI_ERR_TRUNCATE);
    CHECK_EQ(cpos, 4);
    pos = 4;
    CHECK_MPI(MPI_Unpack_external("external32", buf, 16, &pos, out, 3, MPI_LONG));
    for (int i = 0; i < 3; i++)
        CHECK_EQ(out[i], in[i]);
}

static void test_conversion(void)
{
    unsigned char buf[16];
    MPI_Aint pos;
    if (sizeof(long) > 4) {
        long bad[] = { (long) INT_MAX + 1, (long) INT_MIN - 1, LONG_MAX, LONG_MIN };
        for (int k = 0; k < 4; k++) {
            pos = 0;
            CHECK_ERR(MPI_Pack_external("external32", &bad[k], 1, MPI_LONG, buf, sizeof buf, &pos),
                      MPI_ERR_CONVERSION);
            CHECK_EQ(pos, 0);
        }
        unsigned long ubad = (unsigned long) UINT_MAX + 1, ugood = UINT_MAX;
        pos = 0;
        CHECK_ERR(MPI_Pack_external("external32", &ubad, 1, MPI_UNSIGNED_LONG, buf, sizeof buf, &pos),
                  MPI_ERR_CONVERSION);
        CHECK_MPI(MPI_Pack_external("external32", &ugood, 1, MPI_UNSIGNED_LONG, buf, sizeof buf, &pos));
        CHECK_EQ(pos, 4);

        /* the third of four elements does not fit: the fourth slot is not written */
        long v[4] = { 1, 2, (long) 1 << 40, 4 };
        memset(buf, 0xee, sizeof buf);
        pos = 0;
        CHECK_ERR(MPI_Pack_external("external32", v, 4, MPI_LONG, buf, sizeof buf, &pos), MPI_ERR_CONVERSION);
        CHECK_EQ(pos, 0);
        for (int i = 12; i < 16; i++)
            CHECK(buf[i] == 0xee, "byte %d written after the element that failed", i);

        /* inside a pair type */
        struct { long v; int i; } li = { (long) 1 << 33, 1 };
        pos = 0;
        CHECK_ERR(MPI_Pack_external("external32", &li, 1, MPI_LONG_INT, buf, sizeof buf, &pos),
                  MPI_ERR_CONVERSION);
    }
    if (sizeof(wchar_t) > 2) {
        wchar_t wbad[] = { (wchar_t) 0x10000, (wchar_t) 0x1f600, (wchar_t) -1 };
        for (int k = 0; k < 3; k++) {
            pos = 0;
            CHECK_ERR(MPI_Pack_external("external32", &wbad[k], 1, MPI_WCHAR, buf, sizeof buf, &pos),
                      MPI_ERR_CONVERSION);
            CHECK_EQ(pos, 0);
        }
        wchar_t w[3] = { 0x41, 0xffff, 0x10000 };
        memset(buf, 0xee, sizeof buf);
        pos = 0;
        CHECK_ERR(MPI_Pack_external("external32", w, 3, MPI_WCHAR, buf, sizeof buf, &pos), MPI_ERR_CONVERSION);
        for (int i = 4; i < 16; i++)
            CHECK(buf[i] == 0xee, "byte %d written after the wchar_t that failed", i);
    }
    /* unpacking widens: sign extension for long, zero extension for unsigned long and wchar_t */
    {
        const unsigned char ext[8] = { 0x80, 0, 0, 0, 0xff, 0xff, 0xff, 0xff };
        long l[2];
        unsigned long ul[2];
        wchar_t w[2];
        pos = 0;
        CHECK_MPI(MPI_Unpack_external("external32", ext + 2, 4, &pos, w, 2, MPI_WCHAR));
        CHECK(w[0] == 0 && w[1] == (wchar_t) 0xffff, "wchar_t not zero-extended");
        CHECK_EQ(pos, 4);
        pos = 0;
        CHECK_MPI(MPI_Unpack_external("external32", ext, 8, &pos, l, 2, MPI_LONG));
        CHECK_EQ(l[0], (long) INT_MIN);
        CHECK_EQ(l[1], -1);
        pos = 0;
        CHECK_MPI(MPI_Unpack_external("external32", ext, 8, &pos, ul, 2, MPI_UNSIGNED_LONG));
        CHECK(ul[0] == 0x80000000UL && ul[1] == 0xffffffffUL, "unsigned long not zero-extended");
    }
}

static void test_uncommitted(void)
{
    MPI_Datatype t;
    int v[4] = { 1, 2, 3, 4 };
    unsigned char buf[16];
    MPI_Aint pos = 0, size = -1;
    CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &t));
    CHECK_MPI(MPI_Pack_external_size("external32", 1, t, &size));
    CHECK_EQ(size, 16);
    CHECK_ERR(MPI_Pack_external("external32", v, 1, t, buf, sizeof buf, &pos), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Unpack_external("external32", buf, sizeof buf, &pos, v, 1, t), MPI_ERR_TYPE);
    CHECK_EQ(pos, 0);
    MPI_Datatype freed = t;
    MPI_Type_free(&t);
    CHECK_ERR(MPI_Pack_external_size("external32", 1, freed, &size), MPI_ERR_TYPE);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    test_datarep();
    test_truncate();
    test_conversion();
    test_uncommitted();
    return MTest_Finalize();
}
