/*
 * MPI_BOTTOM with absolute addresses: a struct built from MPI_Get_address of separate variables
 * packs them from MPI_BOTTOM in type-map order and unpacks them back to where they live; the same
 * with an hindexed type over two separate arrays, with count 2 of a resized type (instances an
 * extent apart from MPI_BOTTOM), and through MPI_Pack_external (big-endian bytes).
 */
#include <stdint.h>
#include "mtest.h"

/* separate objects, not members of one struct */
static int a = 0x01020304;
static double b = -6.5;
static char c[3] = { 'x', 'y', 'z' };

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* {c, a, b}: type-map order differs from address order on purpose */
    MPI_Aint disp[3];
    int bl[3] = { 3, 1, 1 };
    MPI_Datatype types[3] = { MPI_CHAR, MPI_INT, MPI_DOUBLE }, t;
    MPI_Get_address(c, &disp[0]);
    MPI_Get_address(&a, &disp[1]);
    MPI_Get_address(&b, &disp[2]);
    CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &t));
    CHECK_MPI(MPI_Type_commit(&t));

    unsigned char buf[32], want[15];
    memcpy(want, c, 3);
    memcpy(want + 3, &a, 4);
    memcpy(want + 7, &b, 8);
    int pos = 0, size = 0;
    CHECK_MPI(MPI_Pack_size(1, t, MPI_COMM_WORLD, &size));
    CHECK_EQ(size, 15);
    memset(buf, 0, sizeof buf);
    CHECK_MPI(MPI_Pack(MPI_BOTTOM, 1, t, buf, 32, &pos, MPI_COMM_WORLD));
    CHECK_EQ(pos, 15);
    CHECK(memcmp(buf, want, 15) == 0, "bytes packed from MPI_BOTTOM differ");

    a = 0;
    b = 0;
    memset(c, 0, 3);
    pos = 0;
    CHECK_MPI(MPI_Unpack(buf, 15, &pos, MPI_BOTTOM, 1, t, MPI_COMM_WORLD));
    CHECK_EQ(pos, 15);
    CHECK(a == 0x01020304 && b == -6.5 && c[0] == 'x' && c[2] == 'z',
          "unpack to MPI_BOTTOM: a=%#x b=%g c=%.3s", a, b, c);

    /* external32 from MPI_BOTTOM: chars, then the int and the double big-endian */
    MPI_Aint epos = 0;
    unsigned char ext[15] = { 'x', 'y', 'z', 1, 2, 3, 4, 0xc0, 0x1a, 0, 0, 0, 0, 0, 0 };
    memset(buf, 0, sizeof buf);
    CHECK_MPI(MPI_Pack_external("external32", MPI_BOTTOM, 1, t, buf, 32, &epos));
    CHECK_EQ(epos, 15);
    CHECK(memcmp(buf, ext, 15) == 0, "external32 bytes packed from MPI_BOTTOM differ");
    a = 0;
    b = 0;
    epos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, 15, &epos, MPI_BOTTOM, 1, t));
    CHECK(a == 0x01020304 && b == -6.5, "unpack_external to MPI_BOTTOM: a=%#x b=%g", a, b);
    MPI_Type_free(&t);

    /* hindexed over two separate arrays: u[1..2], then w[0] */
    int u[4] = { 10, 11, 12, 13 }, w[2] = { 20, 21 };
    int hbl[2] = { 2, 1 };
    MPI_Aint hd[2];
    MPI_Get_address(&u[1], &hd[0]);
    MPI_Get_address(&w[0], &hd[1]);
    CHECK_MPI(MPI_Type_create_hindexed(2, hbl, hd, MPI_INT, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    int packed[3] = { 0 };
    pos = 0;
    CHECK_MPI(MPI_Pack(MPI_BOTTOM, 1, t, packed, 12, &pos, MPI_COMM_WORLD));
    CHECK(packed[0] == 11 && packed[1] == 12 && packed[2] == 20, "hindexed from MPI_BOTTOM: %d %d %d",
          packed[0], packed[1], packed[2]);
    packed[0] = -1;
    packed[1] = -2;
    packed[2] = -3;
    pos = 0;
    CHECK_MPI(MPI_Unpack(packed, 12, &pos, MPI_BOTTOM, 1, t, MPI_COMM_WORLD));
    CHECK(u[0] == 10 && u[1] == -1 && u[2] == -2 && u[3] == 13 && w[0] == -3 && w[1] == 21,
          "hindexed unpack to MPI_BOTTOM");
    MPI_Type_free(&t);

    /* count 2 from MPI_BOTTOM: instance i at disp + i * extent; here extent = 2 ints of arr */
    int arr[4] = { 1, 2, 3, 4 };
    MPI_Aint base;
    MPI_Datatype one, two;
    MPI_Get_address(&arr[0], &base);
    int obl[1] = { 1 };
    CHECK_MPI(MPI_Type_create_hindexed(1, obl, &base, MPI_INT, &one));
    CHECK_MPI(MPI_Type_create_resized(one, 0, 2 * sizeof(int), &two));
    CHECK_MPI(MPI_Type_commit(&two));
    pos = 0;
    CHECK_MPI(MPI_Pack(MPI_BOTTOM, 2, two, packed, 12, &pos, MPI_COMM_WORLD));
    CHECK_EQ(pos, 8);
    CHECK(packed[0] == 1 && packed[1] == 3, "resized from MPI_BOTTOM, count 2: %d %d", packed[0], packed[1]);
    MPI_Type_free(&one);
    MPI_Type_free(&two);

    return MTest_Finalize();
}
