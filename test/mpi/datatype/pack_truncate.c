/*
 * MPI_Pack / MPI_Unpack errors, and the promise that a failed call writes nothing:
 *   - output too small: MPI_ERR_TRUNCATE, no byte of the output buffer changes and the position
 *     stays (MPICH packs what fits here; this library packs all or nothing);
 *   - input holding less than the type needs: MPI_ERR_TRUNCATE, the typed buffer stays as it was;
 *   - a position outside [0, size]: MPI_ERR_ARG;
 *   - an uncommitted type: MPI_ERR_TYPE;
 *   - a communicator that is null or freed: MPI_ERR_COMM; any valid one (not only the predefined
 *     ones) packs the same bytes;
 *   - a count whose byte size overflows MPI_Count: MPI_ERR_COUNT (never a wrapped size);
 *   - MPI_Pack_size of more than INT_MAX bytes: MPI_UNDEFINED in the int binding.
 * Zero bytes of data with NULL buffers is not an error.
 */
#include <limits.h>
#include "mtest.h"

#define GUARD 0xa5

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int src[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    unsigned char buf[64];
    MPI_Datatype vec;   /* vector(3, 1, 2): 12 bytes of data */
    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));

    /* pack: 12 bytes do not fit in 11, nor at position 5 of 16 */
    int pos = 0;
    memset(buf, GUARD, sizeof buf);
    CHECK_ERR(MPI_Pack(src, 1, vec, buf, 11, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    CHECK_EQ(pos, 0);
    CHECK(mtest_untouched(buf, 64, GUARD), "a truncated MPI_Pack wrote into the buffer");
    pos = 5;
    CHECK_ERR(MPI_Pack(src, 1, vec, buf, 16, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    CHECK_EQ(pos, 5);
    CHECK(mtest_untouched(buf, 64, GUARD), "a truncated MPI_Pack wrote into the buffer");
    CHECK_ERR(MPI_Pack(src, 3, MPI_INT, buf, 8, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    CHECK(mtest_untouched(buf, 64, GUARD), "a truncated MPI_Pack of MPI_INT wrote into the buffer");
    /* exactly enough room is fine */
    pos = 4;
    CHECK_MPI(MPI_Pack(src, 1, vec, buf, 16, &pos, MPI_COMM_WORLD));
    CHECK_EQ(pos, 16);
    CHECK(mtest_untouched(buf, 4, GUARD) && mtest_untouched(buf + 16, 48, GUARD), "MPI_Pack wrote outside [4, 16)");

    /* large count: the same rules */
    MPI_Count cpos = 0;
    memset(buf, GUARD, sizeof buf);
    CHECK_ERR(MPI_Pack_c(src, 2, MPI_INT, buf, 7, &cpos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    CHECK(mtest_untouched(buf, 64, GUARD) && cpos == 0, "a truncated MPI_Pack_c wrote or moved");

    /* positions outside the buffer */
    pos = 17;
    CHECK_ERR(MPI_Pack(src, 0, MPI_INT, buf, 16, &pos, MPI_COMM_WORLD), MPI_ERR_ARG);
    pos = -1;
    CHECK_ERR(MPI_Pack(src, 1, MPI_INT, buf, 16, &pos, MPI_COMM_WORLD), MPI_ERR_ARG);
    CHECK(mtest_untouched(buf, 64, GUARD), "MPI_Pack at a bad position wrote into the buffer");

    /* unpack: 8 bytes of input cannot fill vector (12 bytes); the typed buffer stays */
    int dst[8];
    for (int i = 0; i < 8; i++)
        dst[i] = -7;
    memset(buf, 1, sizeof buf);
    pos = 0;
    CHECK_ERR(MPI_Unpack(buf, 8, &pos, dst, 1, vec, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    CHECK_EQ(pos, 0);
    pos = 60;
    CHECK_ERR(MPI_Unpack(buf, 64, &pos, dst, 2, MPI_INT, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    CHECK_EQ(pos, 60);
    cpos = 1;
    CHECK_ERR(MPI_Unpack_c(buf, 12, &cpos, dst, 1, vec, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    pos = 65;
    CHECK_ERR(MPI_Unpack(buf, 64, &pos, dst, 0, MPI_INT, MPI_COMM_WORLD), MPI_ERR_ARG);
    int same = 1;
    for (int i = 0; i < 8; i++)
        same &= dst[i] == -7;
    CHECK(same, "a failed MPI_Unpack wrote into the typed buffer");

    /* uncommitted types */
    MPI_Datatype raw;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &raw));
    pos = 0;
    CHECK_ERR(MPI_Pack(src, 1, raw, buf, 64, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Unpack(buf, 64, &pos, dst, 1, raw, MPI_COMM_WORLD), MPI_ERR_TYPE);
    /* MPI_Pack_size needs no commit */
    int size = -1;
    CHECK_MPI(MPI_Pack_size(3, raw, MPI_COMM_WORLD, &size));
    CHECK_EQ(size, 24);
    MPI_Type_free(&raw);

    /* byte sizes that overflow MPI_Count */
    MPI_Count big = LLONG_MAX / 2, csize = 0;
    CHECK_ERR(MPI_Pack_size_c(big, MPI_INT, MPI_COMM_WORLD, &csize), MPI_ERR_COUNT);
    cpos = 0;
    memset(buf, GUARD, sizeof buf);
    CHECK_ERR(MPI_Pack_c(src, big, MPI_INT, buf, 64, &cpos, MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Unpack_c(buf, 64, &cpos, dst, big, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK(mtest_untouched(buf, 64, GUARD) && cpos == 0, "an overflowing MPI_Pack_c wrote or moved");
    /* a size beyond INT_MAX is MPI_UNDEFINED for the int binding, exact for the _c one */
    CHECK_MPI(MPI_Pack_size(INT_MAX, MPI_DOUBLE, MPI_COMM_WORLD, &size));
    CHECK_EQ(size, MPI_UNDEFINED);
    CHECK_MPI(MPI_Pack_size_c(INT_MAX, MPI_DOUBLE, MPI_COMM_WORLD, &csize));
    CHECK_EQ(csize, 8LL * INT_MAX);

    /* nothing to move: NULL buffers are fine */
    MPI_Datatype empty;
    CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &empty));
    CHECK_MPI(MPI_Type_commit(&empty));
    pos = 0;
    CHECK_MPI(MPI_Pack(NULL, 0, MPI_INT, NULL, 0, &pos, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Pack(NULL, 5, empty, NULL, 0, &pos, MPI_COMM_WORLD));
    CHECK_EQ(pos, 0);
    CHECK_MPI(MPI_Unpack(NULL, 0, &pos, NULL, 0, MPI_INT, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Unpack(NULL, 0, &pos, NULL, 3, empty, MPI_COMM_WORLD));
    CHECK_EQ(pos, 0);
    CHECK_MPI(MPI_Pack_size(7, empty, MPI_COMM_WORLD, &size));
    CHECK_EQ(size, 0);
    MPI_Type_free(&empty);

    /* the communicator: checked, but any valid one gives the same bytes */
    MPI_Comm dup, freed;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &freed));
    MPI_Comm stale = freed;
    CHECK_MPI(MPI_Comm_free(&freed));
    memset(buf, GUARD, sizeof buf);
    pos = 0;
    CHECK_ERR(MPI_Pack(src, 1, vec, buf, 64, &pos, MPI_COMM_NULL), MPI_ERR_COMM);
    CHECK_ERR(MPI_Pack(src, 1, vec, buf, 64, &pos, stale), MPI_ERR_COMM);
    CHECK_ERR(MPI_Unpack(buf, 64, &pos, dst, 1, vec, MPI_COMM_NULL), MPI_ERR_COMM);
    CHECK_ERR(MPI_Unpack(buf, 64, &pos, dst, 1, vec, stale), MPI_ERR_COMM);
    CHECK(mtest_untouched(buf, 64, GUARD) && pos == 0, "a pack on a bad communicator wrote or moved");
    CHECK_MPI(MPI_Pack(src, 1, vec, buf, 64, &pos, dup));
    CHECK_MPI(MPI_Pack(src, 1, vec, buf, 64, &pos, MPI_COMM_SELF));
    CHECK_EQ(pos, 24);
    int want[6] = { 1, 3, 5, 1, 3, 5 }, got[6];
    memcpy(got, buf, sizeof got);
    CHECK(memcmp(got, want, sizeof want) == 0, "MPI_Pack on a dup of MPI_COMM_WORLD / MPI_COMM_SELF packed wrong bytes");
    int back[8] = { 0 };
    pos = 0;
    CHECK_MPI(MPI_Unpack(buf, 64, &pos, back, 1, vec, dup));
    CHECK(back[0] == 1 && back[2] == 3 && back[4] == 5 && back[1] == 0 && pos == 12, "MPI_Unpack on a dup unpacked wrong");
    MPI_Comm_free(&dup);

    MPI_Type_free(&vec);
    return MTest_Finalize();
}
