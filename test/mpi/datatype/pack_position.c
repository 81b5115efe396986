/*
 * Several MPI_Pack calls into one buffer: each starts at *position and advances it by exactly its
 * data's size; MPI_Unpack reads the pieces back in the same order. Also through the large-count
 * MPI_Pack_c / MPI_Unpack_c / MPI_Pack_size_c, and a pack starting at a position that is not a
 * multiple of anything (the packed buffer has no alignment).
 */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int a[3] = { 11, 12, 13 }, v[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    double d = 3.25;
    char ch = 'q';
    MPI_Datatype vec;   /* vector(2, 2, 3): v[0], v[1], v[3], v[4] */
    CHECK_MPI(MPI_Type_vector(2, 2, 3, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));

    /* char (1) + 3 ints (12) + double (8) + vector (16) = 37 bytes, positions 1, 13, 21, 37 */
    unsigned char buf[48];
    memset(buf, 0xee, sizeof buf);
    int pos = 0;
    CHECK_MPI(MPI_Pack(&ch, 1, MPI_CHAR, buf, 48, &pos, MPI_COMM_WORLD));
    CHECK_EQ(pos, 1);
    CHECK_MPI(MPI_Pack(a, 3, MPI_INT, buf, 48, &pos, MPI_COMM_WORLD));
    CHECK_EQ(pos, 13);
    CHECK_MPI(MPI_Pack(&d, 1, MPI_DOUBLE, buf, 48, &pos, MPI_COMM_WORLD));
    CHECK_EQ(pos, 21);
    CHECK_MPI(MPI_Pack(v, 1, vec, buf, 48, &pos, MPI_COMM_WORLD));
    CHECK_EQ(pos, 37);
    CHECK(buf[37] == 0xee, "byte after the last piece was written");

    /* the bytes sit where the positions say */
    int x;
    double y;
    CHECK(buf[0] == 'q', "char at 0");
    memcpy(&x, buf + 1, 4);
    CHECK_EQ(x, 11);
    memcpy(&x, buf + 9, 4);
    CHECK_EQ(x, 13);
    memcpy(&y, buf + 13, 8);
    CHECK(y == 3.25, "double at 13 = %g", y);
    int want_v[4] = { 1, 2, 4, 5 };
    for (int k = 0; k < 4; k++) {
        memcpy(&x, buf + 21 + 4 * k, 4);
        CHECK_EQ(x, want_v[k]);
    }

    /* read back in the same order */
    char ch2 = 0;
    int a2[3] = { 0 }, v2[9] = { 0 };
    double d2 = 0;
    pos = 0;
    CHECK_MPI(MPI_Unpack(buf, 37, &pos, &ch2, 1, MPI_CHAR, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Unpack(buf, 37, &pos, a2, 3, MPI_INT, MPI_COMM_WORLD));
    CHECK_EQ(pos, 13);
    CHECK_MPI(MPI_Unpack(buf, 37, &pos, &d2, 1, MPI_DOUBLE, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Unpack(buf, 37, &pos, v2, 1, vec, MPI_COMM_WORLD));
    CHECK_EQ(pos, 37);
    CHECK(ch2 == 'q' && a2[0] == 11 && a2[2] == 13 && d2 == 3.25, "scalars read back");
    CHECK(v2[0] == 1 && v2[1] == 2 && v2[2] == 0 && v2[3] == 4 && v2[4] == 5 && v2[5] == 0,
          "vector read back: %d %d %d %d %d %d", v2[0], v2[1], v2[2], v2[3], v2[4], v2[5]);

    /* the same through the _c functions */
    MPI_Count cpos = 0, csize = 0;
    CHECK_MPI(MPI_Pack_size_c(2, vec, MPI_COMM_WORLD, &csize));
    CHECK_EQ(csize, 32);
    memset(buf, 0xee, sizeof buf);
    CHECK_MPI(MPI_Pack_c(&ch, 1, MPI_CHAR, buf, 48, &cpos, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Pack_c(v, 1, vec, buf, 48, &cpos, MPI_COMM_WORLD));
    CHECK_EQ(cpos, 17);
    memcpy(&x, buf + 13, 4);
    CHECK_EQ(x, 5);
    CHECK(buf[17] == 0xee, "MPI_Pack_c wrote past its data");
    memset(v2, 0, sizeof v2);
    cpos = 1;
    CHECK_MPI(MPI_Unpack_c(buf, 17, &cpos, v2, 1, vec, MPI_COMM_WORLD));
    CHECK_EQ(cpos, 17);
    CHECK(v2[0] == 1 && v2[4] == 5, "MPI_Unpack_c read back");

    /* a position exactly at the end with nothing to pack is fine */
    pos = 48;
    CHECK_MPI(MPI_Pack(a, 0, MPI_INT, buf, 48, &pos, MPI_COMM_WORLD));
    CHECK_EQ(pos, 48);
    pos = 37;
    CHECK_MPI(MPI_Unpack(buf, 37, &pos, a2, 0, MPI_INT, MPI_COMM_WORLD));
    CHECK_EQ(pos, 37);

    MPI_Type_free(&vec);
    return MTest_Finalize();
}
