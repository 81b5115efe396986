/*
 * The MPI-1 functions removed in MPI-3 (MPI_Type_extent, MPI_Type_lb, MPI_Type_ub, MPI_Address,
 * MPI_Type_hvector, MPI_Type_hindexed, MPI_Type_struct) still give the same answers as their
 * replacements (MPI_Type_get_extent, MPI_Get_address, MPI_Type_create_*), against hand values.
 * MPI_Type_ub is lb + extent: the ub of the type map, markers and struct padding included.
 */
#include "bounds.h"

/* MPI_Type_lb/ub/extent of t are lb, ub, ub - lb, and agree with MPI_Type_get_extent. */
static void check_mpi1(int line, MPI_Datatype t, MPI_Aint lb, MPI_Aint ub)
{
    MPI_Aint l = -1, u = -1, e = -1, glb = -1, gext = -1;
    bounds_call(line, "", "MPI_Type_lb", MPI_Type_lb(t, &l));
    bounds_call(line, "", "MPI_Type_ub", MPI_Type_ub(t, &u));
    bounds_call(line, "", "MPI_Type_extent", MPI_Type_extent(t, &e));
    bounds_call(line, "", "MPI_Type_get_extent", MPI_Type_get_extent(t, &glb, &gext));
    bounds_expect(line, "MPI-1", "MPI_Type_lb", l, lb);
    bounds_expect(line, "MPI-1", "MPI_Type_ub", u, ub);
    bounds_expect(line, "MPI-1", "MPI_Type_extent", e, ub - lb);
    bounds_expect(line, "MPI-1", "MPI_Type_lb vs get_extent", l, glb);
    bounds_expect(line, "MPI-1", "MPI_Type_extent vs get_extent", e, gext);
}
#define CHECK_MPI1(t, lb, ub) check_mpi1(__LINE__, t, lb, ub)

static void query_cases(void)
{
    MPI_Datatype t;

    /* predefined: [0, size); pair MPI_DOUBLE_INT [0, 16); markers [0, 0) */
    CHECK_MPI1(MPI_INT, 0, 4);
    CHECK_MPI1(MPI_DOUBLE, 0, 8);
    CHECK_MPI1(MPI_DOUBLE_INT, 0, 16);
    CHECK_MPI1(MPI_SHORT_INT, 0, 8);
    CHECK_MPI1(MPI_LB, 0, 0);
    CHECK_MPI1(MPI_UB, 0, 0);

    /* negative stride: vector(3, 2, -4, INT) = [-32, 8) */
    CHECK_MPI(MPI_Type_vector(3, 2, -4, MPI_INT, &t));
    CHECK_MPI1(t, -32, 8);
    MPI_Type_free(&t);

    /* resized(INT, -4, 12) = [-4, 8) */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 12, &t));
    CHECK_MPI1(t, -4, 8);
    MPI_Type_free(&t);

    /* padded struct {double@0, char@8}: ub 16, not 9 */
    {
        int bl[2] = { 1, 1 };
        MPI_Aint disp[2] = { 0, 8 };
        MPI_Datatype types[2] = { MPI_DOUBLE, MPI_CHAR };
        CHECK_MPI(MPI_Type_create_struct(2, bl, disp, types, &t));
        CHECK_MPI1(t, 0, 16);
        MPI_Type_free(&t);
    }

    /* markers: {LB@-8, int@0, UB@16} = [-8, 16) */
    {
        int bl[3] = { 1, 1, 1 };
        MPI_Aint disp[3] = { -8, 0, 16 };
        MPI_Datatype types[3] = { MPI_LB, MPI_INT, MPI_UB };
        CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &t));
        CHECK_MPI1(t, -8, 16);
        MPI_Type_free(&t);
    }

    /* empty: [0, 0) */
    CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &t));
    CHECK_MPI1(t, 0, 0);
    MPI_Type_free(&t);
}

static void constructor_cases(void)
{
    MPI_Datatype t;

    /* hvector(3, 2, -20, INT): blocks [0,8) [-20,-12) [-40,-32): [-40, 8) */
    CHECK_MPI(MPI_Type_hvector(3, 2, -20, MPI_INT, &t));
    CHECK_BOUNDS(t, 24, -40, 48, -40, 48);
    CHECK_MPI1(t, -40, 8);
    MPI_Type_free(&t);
    CHECK_NEW_BOUNDS(t, MPI_Type_create_hvector(3, 2, -20, MPI_INT, &t), 24, -40, 48, -40, 48);

    /* hindexed({1, 2, 0}, {10, -6, 99}, DOUBLE): [10,18) [-6,10), the empty block nothing:
     * [-6, 18) */
    {
        int bl[3] = { 1, 2, 0 };
        MPI_Aint disp[3] = { 10, -6, 99 };
        CHECK_MPI(MPI_Type_hindexed(3, bl, disp, MPI_DOUBLE, &t));
        CHECK_BOUNDS(t, 24, -6, 24, -6, 24);
        CHECK_MPI1(t, -6, 18);
        MPI_Type_free(&t);
        CHECK_NEW_BOUNDS(t, MPI_Type_create_hindexed(3, bl, disp, MPI_DOUBLE, &t), 24, -6, 24, -6, 24);
    }

    /* struct with markers and padding, the MPI-1 way:
     * {LB@-2, char@0, double@8}: lb marker -2, no ub marker: [-2, 16), 18 padded to 24
     * (project decision; MPICH 4.0.2 does not pad once a marker is present: extent 18) */
    {
        int bl[3] = { 1, 1, 1 };
        MPI_Aint disp[3] = { -2, 0, 8 };
        MPI_Datatype types[3] = { MPI_LB, MPI_CHAR, MPI_DOUBLE };
        CHECK_MPI(MPI_Type_struct(3, bl, disp, types, &t));
        CHECK_BOUNDS(t, 9, -2, 24, 0, 16);
        CHECK_MPI1(t, -2, 22);
        MPI_Type_free(&t);
        CHECK_NEW_BOUNDS(t, MPI_Type_create_struct(3, bl, disp, types, &t), 9, -2, 24, 0, 16);
    }
}

/* MPI_Address is MPI_Get_address; both give the pointer value (addresses are relative to
 * MPI_BOTTOM, which is the null pointer in both libraries this test runs against). */
static void address_cases(void)
{
    double a[4];
    struct { char c; double d; } s;
    void *where[] = { &a[0], &a[3], &s, &s.d };
    for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
        MPI_Aint old = 0, now = 0;
        CHECK_MPI(MPI_Address(where[i], &old));
        CHECK_MPI(MPI_Get_address(where[i], &now));
        CHECK(old == now, "MPI_Address %ld, MPI_Get_address %ld", (long) old, (long) now);
        CHECK(now == (MPI_Aint) (intptr_t) where[i], "address %ld of %p", (long) now, where[i]);
    }
}

int main(int argc, char **argv)
{
    bounds_init(&argc, &argv);
    query_cases();
    constructor_cases();
    address_cases();
    return MTest_Finalize();
}
