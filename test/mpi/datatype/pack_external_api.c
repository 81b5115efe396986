/*
 * The MPI_Pack_external family as an API: the data representation must be exactly "external32"
 * (anything else is MPI_ERR_UNSUPPORTED_DATAREP), sizes follow the standard's fixed table
 * (MPI_LONG 4 bytes, MPI_LONG_DOUBLE 16, pairs without padding), positions advance by the
 * external size, and a buffer too small is MPI_ERR_TRUNCATE with nothing written. The exact
 * conversions of every predefined type are tested with the external32 engine.
 */
#include <limits.h>
#include "mtest.h"

#define GUARD 0xc3

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    MPI_Aint size = -1;
    MPI_Count csize = -1;
    CHECK_MPI(MPI_Pack_external_size("external32", 3, MPI_LONG, &size));
    CHECK_EQ(size, 12);
    CHECK_MPI(MPI_Pack_external_size("external32", 2, MPI_LONG_DOUBLE, &size));
    CHECK_EQ(size, 32);
    CHECK_MPI(MPI_Pack_external_size("external32", 1, MPI_DOUBLE_INT, &size));
    CHECK_EQ(size, 12);
    CHECK_MPI(MPI_Pack_external_size_c("external32", 5, MPI_SHORT, &csize));
    CHECK_EQ(csize, 10);
    CHECK_MPI(MPI_Pack_external_size("external32", 0, MPI_INT, &size));
    CHECK_EQ(size, 0);

    /* only "external32", spelled exactly */
    const char *bad[] = { "native", "External32", "external32 ", "internal", "" };
    for (int i = 0; i < 5; i++) {
        CHECK_ERR(MPI_Pack_external_size(bad[i], 1, MPI_INT, &size), MPI_ERR_UNSUPPORTED_DATAREP);
        MPI_Aint p = 0;
        int x = 1;
        unsigned char out[8];
        CHECK_ERR(MPI_Pack_external(bad[i], &x, 1, MPI_INT, out, 8, &p), MPI_ERR_UNSUPPORTED_DATAREP);
        CHECK_ERR(MPI_Unpack_external(bad[i], out, 8, &p, &x, 1, MPI_INT), MPI_ERR_UNSUPPORTED_DATAREP);
    }

    /* several packs into one buffer: big-endian ints and shorts, positions by external size */
    int iv[2] = { 0x0a0b0c0d, -2 };
    short sv = 0x1234;
    long lv = -3;
    unsigned char buf[32];
    memset(buf, GUARD, sizeof buf);
    MPI_Aint pos = 0;
    CHECK_MPI(MPI_Pack_external("external32", iv, 2, MPI_INT, buf, 32, &pos));
    CHECK_EQ(pos, 8);
    CHECK_MPI(MPI_Pack_external("external32", &sv, 1, MPI_SHORT, buf, 32, &pos));
    CHECK_EQ(pos, 10);
    CHECK_MPI(MPI_Pack_external("external32", &lv, 1, MPI_LONG, buf, 32, &pos));
    CHECK_EQ(pos, 14);
    const unsigned char want[14] = { 0x0a, 0x0b, 0x0c, 0x0d, 0xff, 0xff, 0xff, 0xfe, 0x12, 0x34,
                                     0xff, 0xff, 0xff, 0xfd };
    CHECK(memcmp(buf, want, 14) == 0, "external32 bytes differ");
    CHECK(mtest_untouched(buf + 14, 18, GUARD), "bytes after the external data were written");

    int iv2[2] = { 0, 0 };
    short sv2 = 0;
    long lv2 = 0;
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, 14, &pos, iv2, 2, MPI_INT));
    CHECK_MPI(MPI_Unpack_external("external32", buf, 14, &pos, &sv2, 1, MPI_SHORT));
    CHECK_MPI(MPI_Unpack_external("external32", buf, 14, &pos, &lv2, 1, MPI_LONG));
    CHECK_EQ(pos, 14);
    CHECK(iv2[0] == iv[0] && iv2[1] == -2 && sv2 == 0x1234 && lv2 == -3, "external32 round trip");

    /* _c twins */
    MPI_Count cpos = 2;
    memset(buf, GUARD, sizeof buf);
    CHECK_MPI(MPI_Pack_external_c("external32", &sv, 1, MPI_SHORT, buf, 4, &cpos));
    CHECK_EQ(cpos, 4);
    CHECK(buf[2] == 0x12 && buf[3] == 0x34 && buf[0] == GUARD && buf[4] == GUARD, "MPI_Pack_external_c");
    cpos = 2;
    sv2 = 0;
    CHECK_MPI(MPI_Unpack_external_c("external32", buf, 4, &cpos, &sv2, 1, MPI_SHORT));
    CHECK(cpos == 4 && sv2 == 0x1234, "MPI_Unpack_external_c");

    /* too small: nothing written, position unchanged (MPI_LONG needs 4 bytes, not 8) */
    memset(buf, GUARD, sizeof buf);
    pos = 0;
    CHECK_ERR(MPI_Pack_external("external32", iv, 2, MPI_INT, buf, 7, &pos), MPI_ERR_TRUNCATE);
    pos = 1;
    CHECK_ERR(MPI_Pack_external("external32", &lv, 1, MPI_LONG, buf, 4, &pos), MPI_ERR_TRUNCATE);
    CHECK_EQ(pos, 1);
    CHECK(mtest_untouched(buf, 32, GUARD), "a truncated MPI_Pack_external wrote into the buffer");
    pos = 0;
    CHECK_MPI(MPI_Pack_external("external32", &lv, 1, MPI_LONG, buf, 4, &pos));
    CHECK_EQ(pos, 4);

    iv2[0] = iv2[1] = 77;
    pos = 0;
    CHECK_ERR(MPI_Unpack_external("external32", buf, 7, &pos, iv2, 2, MPI_INT), MPI_ERR_TRUNCATE);
    CHECK(pos == 0 && iv2[0] == 77 && iv2[1] == 77, "a truncated MPI_Unpack_external wrote or moved");

    /* positions outside the buffer; uncommitted type */
    pos = 9;
    CHECK_ERR(MPI_Pack_external("external32", iv, 0, MPI_INT, buf, 8, &pos), MPI_ERR_ARG);
    pos = -1;
    CHECK_ERR(MPI_Unpack_external("external32", buf, 8, &pos, iv2, 1, MPI_INT), MPI_ERR_ARG);
    MPI_Datatype raw;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &raw));
    pos = 0;
    CHECK_ERR(MPI_Pack_external("external32", iv, 1, raw, buf, 32, &pos), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Unpack_external("external32", buf, 32, &pos, iv2, 1, raw), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Pack_external_size("external32", 2, raw, &size));   /* no commit needed */
    CHECK_EQ(size, 16);
    MPI_Type_free(&raw);

    /* nothing to convert: NULL buffers are fine */
    pos = 0;
    CHECK_MPI(MPI_Pack_external("external32", NULL, 0, MPI_INT, NULL, 0, &pos));
    CHECK_MPI(MPI_Unpack_external("external32", NULL, 0, &pos, NULL, 0, MPI_INT));
    CHECK_EQ(pos, 0);

    return MTest_Finalize();
}
