/*
 * MPI_Get_address, MPI_Aint_add and MPI_Aint_diff on real arrays and records, and the bounds of
 * types built from the addresses they give: absolute (used with MPI_BOTTOM) and relative.
 * MPI 4.1, 5.1.12: MPI_Aint_diff(a, b) is the distance a - b between two addresses in the same
 * object, MPI_Aint_add(base, d) the address d bytes after base.
 * Layout (x86-64): struct rec {char c; double d; int i;} has c@0, d@8, i@16, sizeof 24.
 */
#include <stddef.h>
#include "bounds.h"

struct rec {
    char c;
    double d;
    int i;
};

static MPI_Aint addr(const void *p)
{
    MPI_Aint a = 0;
    CHECK_MPI(MPI_Get_address(p, &a));
    return a;
}

static void arithmetic_cases(void)
{
    double a[10] = { 0 };
    struct rec r[3] = { { 0 } };

    /* doubles 5 apart are 40 bytes apart, in either direction */
    CHECK_EQ(MPI_Aint_diff(addr(&a[7]), addr(&a[2])), 40);
    CHECK_EQ(MPI_Aint_diff(addr(&a[2]), addr(&a[7])), -40);
    CHECK(MPI_Aint_add(addr(&a[2]), 40) == addr(&a[7]), "a[2] + 40 is not a[7]");
    CHECK(MPI_Aint_add(addr(&a[7]), -40) == addr(&a[2]), "a[7] - 40 is not a[2]");
    CHECK_EQ(MPI_Aint_diff(addr(&a[3]), addr(&a[3])), 0);

    /* records: the layout above, and r[1].i is 24 + 16 = 40 bytes after r[0] */
    CHECK_EQ(sizeof(struct rec), 24);
    CHECK_EQ(offsetof(struct rec, i), 16);
    CHECK_EQ(MPI_Aint_diff(addr(&r[0].d), addr(&r[0])), 8);
    CHECK_EQ(MPI_Aint_diff(addr(&r[1].i), addr(&r[0])), 40);
    CHECK_EQ(MPI_Aint_diff(addr(&r[0]), addr(&r[2].c)), -48);
    CHECK(MPI_Aint_add(addr(&r[0]), 2 * 24 + 8) == addr(&r[2].d), "r[0] + 56 is not r[2].d");

    /* addresses are relative to MPI_BOTTOM, so MPI_BOTTOM itself is 0 and adding an address to
     * it gives the address back */
    CHECK_EQ(addr(MPI_BOTTOM), 0);
    CHECK(MPI_Aint_add((MPI_Aint) MPI_BOTTOM, addr(&a[5])) == addr(&a[5]), "MPI_BOTTOM + a[5]");
}

static void type_cases(void)
{
    double a[10] = { 0 };
    struct rec r[3] = { { 0 } };
    MPI_Datatype t;

    /* absolute addresses (a type for MPI_BOTTOM): 2 doubles at a[4], 1 at a[1]:
     * [&a[1], &a[2]) and [&a[4], &a[6]): lb &a[1], extent 5 * 8 = 40 (a multiple of 8: no
     * padding), 3 doubles */
    {
        int bl[2] = { 2, 1 };
        MPI_Aint disp[2] = { addr(&a[4]), addr(&a[1]) };
        MPI_Datatype types[2] = { MPI_DOUBLE, MPI_DOUBLE };
        CHECK_NEW_BOUNDS(t, MPI_Type_create_struct(2, bl, disp, types, &t), 24, addr(&a[1]), 40, addr(&a[1]), 40);
        /* hindexed with the same absolute displacements */
        CHECK_NEW_BOUNDS(t, MPI_Type_create_hindexed(2, bl, disp, MPI_DOUBLE, &t),
                         24, addr(&a[1]), 40, addr(&a[1]), 40);
    }

    /* the same relative to a[0] (MPI_Aint_diff): [8, 48) */
    {
        int bl[2] = { 2, 1 };
        MPI_Aint base = addr(&a[0]);
        MPI_Aint disp[2] = { MPI_Aint_diff(addr(&a[4]), base), MPI_Aint_diff(addr(&a[1]), base) };
        MPI_Datatype types[2] = { MPI_DOUBLE, MPI_DOUBLE };
        CHECK_EQ(disp[0], 32);
        CHECK_EQ(disp[1], 8);
        CHECK_NEW_BOUNDS(t, MPI_Type_create_struct(2, bl, disp, types, &t), 24, 8, 40, 8, 40);
    }

    /* the record type the usual way: displacements {0, 8, 16} from the addresses of r[0]'s
     * members; data [0, 20), padded to 8: extent 24 = sizeof(struct rec), size 13 */
    {
        int bl[3] = { 1, 1, 1 };
        MPI_Aint base = addr(&r[0]);
        MPI_Aint disp[3] = { MPI_Aint_diff(addr(&r[0].c), base), MPI_Aint_diff(addr(&r[0].d), base),
                             MPI_Aint_diff(addr(&r[0].i), base) };
        MPI_Datatype types[3] = { MPI_CHAR, MPI_DOUBLE, MPI_INT }, arr;
        CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &t));
        CHECK_BOUNDS(t, 13, 0, 24, 0, 20);
        /* an array of 3 records matches the C array: [0, 72), data up to 48 + 20 */
        CHECK_MPI(MPI_Type_contiguous(3, t, &arr));
        CHECK_BOUNDS(arr, 39, 0, 72, 0, 68);
        CHECK_EQ(MPI_Aint_diff(addr(&r[3]), addr(&r[0])), 72);
        MPI_Type_free(&arr);
        MPI_Type_free(&t);
    }
}

int main(int argc, char **argv)
{
    bounds_init(&argc, &argv);
    arithmetic_cases();
    type_cases();
    return MTest_Finalize();
}
