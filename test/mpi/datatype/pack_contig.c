/*
 * MPI_Pack / MPI_Unpack of contiguous types, which the binding handles on a short path of its
 * own (mpir_pack_fast.h) and hands to the checked path whenever anything is unusual. Both must give
 * the same results; these are the cases on either side of that line:
 *   - data that does not start at the buffer (true lb 16) and MPI_BOTTOM with an absolute address;
 *   - positions at 0, in the middle, and an exact fit; one byte short: MPI_ERR_TRUNCATE and
 *     nothing written; a position outside the buffer: MPI_ERR_ARG;
 *   - a communicator that is not predefined (a dup) and a copy longer than the engine's copy
 *     chunk (4 MiB: both take the checked path) give the same bytes;
 *   - the int and the _c bindings.
 */
#include "mtest.h"

#define GUARD 0xa5

static void fill(int *a, int n, int base)
{
    for (int i = 0; i < n; i++)
        a[i] = base + i;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int src[16], back[16];
    unsigned char buf[128];
    fill(src, 16, 100);

    /* one block of 4 ints 16 bytes into the buffer: contiguous for any count, true lb 16 */
    MPI_Datatype off;
    CHECK_MPI(MPI_Type_create_hindexed(1, (int[]) { 4 }, (MPI_Aint[]) { 16 }, MPI_INT, &off));
    CHECK_MPI(MPI_Type_commit(&off));
    memset(buf, GUARD, sizeof buf);
    int pos = 5;
    CHECK_MPI(MPI_Pack(src, 2, off, buf, 37, &pos, MPI_COMM_WORLD));   /* 32 bytes: exact fit */
    CHECK_EQ(pos, 37);
    CHECK(memcmp(buf + 5, src + 4, 32) == 0, "contiguous pack with true lb 16 took the wrong bytes");
    CHECK(mtest_untouched(buf, 5, GUARD) && mtest_untouched(buf + 37, 91, GUARD),
          "contiguous pack wrote outside [5, 37)");
    fill(back, 16, 0);
    pos = 5;
    CHECK_MPI(MPI_Unpack(buf, 37, &pos, back, 2, off, MPI_COMM_WORLD));
    CHECK_EQ(pos, 37);
    CHECK(back[3] == 3 && memcmp(back + 4, src + 4, 32) == 0 && back[12] == 12,
          "contiguous unpack with true lb 16 wrote the wrong ints");

    /* one byte short, and positions outside the buffer: errors, nothing written or moved */
    memset(buf, GUARD, sizeof buf);
    pos = 6;
    CHECK_ERR(MPI_Pack(src, 2, off, buf, 37, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    CHECK(pos == 6 && mtest_untouched(buf, sizeof buf, GUARD), "a truncated contiguous pack wrote or moved");
    pos = -1;
    CHECK_ERR(MPI_Pack(src, 1, MPI_INT, buf, 37, &pos, MPI_COMM_WORLD), MPI_ERR_ARG);
    pos = 38;
    CHECK_ERR(MPI_Pack(src, 1, MPI_INT, buf, 37, &pos, MPI_COMM_WORLD), MPI_ERR_ARG);
    pos = 36;
    fill(back, 16, 0);
    CHECK_ERR(MPI_Unpack(buf, 37, &pos, back, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    CHECK(pos == 36 && back[0] == 0, "a truncated contiguous unpack wrote or moved");
    CHECK(mtest_untouched(buf, sizeof buf, GUARD), "a failed contiguous call wrote into the buffer");

    /* MPI_BOTTOM: the block's displacement is its absolute address */
    MPI_Aint addr;
    MPI_Datatype abs_type;
    CHECK_MPI(MPI_Get_address(src + 8, &addr));
    CHECK_MPI(MPI_Type_create_hindexed(1, (int[]) { 3 }, &addr, MPI_INT, &abs_type));
    CHECK_MPI(MPI_Type_commit(&abs_type));
    MPI_Count cpos = 0;
    CHECK_MPI(MPI_Pack_c(MPI_BOTTOM, 1, abs_type, buf, 128, &cpos, MPI_COMM_WORLD));
    CHECK_EQ(cpos, 12);
    CHECK(memcmp(buf, src + 8, 12) == 0, "contiguous pack from MPI_BOTTOM took the wrong bytes");
    int saved[3];
    memcpy(saved, src + 8, 12);
    memset(src + 8, 0, 12);
    cpos = 0;
    CHECK_MPI(MPI_Unpack_c(buf, 12, &cpos, MPI_BOTTOM, 1, abs_type, MPI_COMM_WORLD));
    CHECK(cpos == 12 && memcmp(src + 8, saved, 12) == 0, "contiguous unpack to MPI_BOTTOM went wrong");

    /* a dup of MPI_COMM_WORLD, and 4 MiB at once: the same bytes as the short path's */
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    unsigned char dup_buf[128];
    memset(dup_buf, GUARD, sizeof dup_buf);
    memset(buf, GUARD, sizeof buf);
    int p1 = 3, p2 = 3;
    CHECK_MPI(MPI_Pack(src, 2, off, buf, 128, &p1, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Pack(src, 2, off, dup_buf, 128, &p2, dup));
    CHECK(p1 == 35 && p2 == 35 && memcmp(buf, dup_buf, sizeof buf) == 0,
          "MPI_Pack on a dup gave other bytes than on MPI_COMM_WORLD");
    MPI_Comm_free(&dup);

    size_t big = 4 << 20;
    unsigned char *large = malloc(big), *packed = malloc(big + 8), *again = malloc(big);
    CHECK(large && packed && again, "out of memory");
    if (large && packed && again) {
        for (size_t i = 0; i < big; i++)
            large[i] = (unsigned char) (i * 7 + 1);
        memset(packed, GUARD, big + 8);
        cpos = 4;
        CHECK_MPI(MPI_Pack_c(large, (MPI_Count) big, MPI_BYTE, packed, (MPI_Count) big + 8, &cpos, MPI_COMM_WORLD));
        CHECK_EQ(cpos, (MPI_Count) big + 4);
        CHECK(memcmp(packed + 4, large, big) == 0 && mtest_untouched(packed, 4, GUARD)
              && mtest_untouched(packed + 4 + big, 4, GUARD), "a 4 MiB contiguous pack went wrong");
        memset(again, 0, big);
        pos = 4;
        CHECK_MPI(MPI_Unpack(packed, (int) big + 8, &pos, again, (int) big, MPI_BYTE, MPI_COMM_WORLD));
        CHECK(pos == (int) big + 4 && memcmp(again, large, big) == 0, "a 4 MiB contiguous unpack went wrong");
    }
    free(large);
    free(packed);
    free(again);

    MPI_Type_free(&off);
    MPI_Type_free(&abs_type);
    return MTest_Finalize();
}
