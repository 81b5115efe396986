/*
 * MPI_Type_dup keeps the size and every bound (MPI 4.1, 5.1.10: "a new datatype with exactly the
 * same properties as oldtype"), including lb/ub markers and the alignment that pads an
 * enclosing struct; the duplicate lives on when the original is freed; committing changes no
 * bound. The duplicate of a committed type is committed, of an uncommitted one uncommitted
 * ("exactly the same properties"), which MPI_Pack shows. (MPICH 4.0.2 packs with the dup of an
 * uncommitted type as well: its dups come out committed.)
 */
#include <stdbool.h>
#include "bounds.h"

typedef struct {
    MPI_Count size, lb, extent, true_lb, true_extent;
} bounds;

/* Checks the type t (consumed: freed at the end unless predefined) and its duplicates at every
 * stage: before and after committing t, after freeing t, and a dup of a dup. */
static void check_dups(int line, MPI_Datatype t, bool derived, bounds b)
{
    MPI_Datatype d1 = MPI_DATATYPE_NULL, d2 = MPI_DATATYPE_NULL, d3 = MPI_DATATYPE_NULL;
#define AT(what, type) bounds_check(line, what, type, b.size, b.lb, b.extent, b.true_lb, \
                                    b.true_extent)
    AT("original", t);
    CHECK_MPI(MPI_Type_dup(t, &d1));                /* dup of an uncommitted type */
    AT("dup", d1);
    if (derived) {
        CHECK_MPI(MPI_Type_commit(&t));
        AT("original, committed", t);
    }
    CHECK_MPI(MPI_Type_dup(t, &d2));                /* dup of a committed type */
    AT("dup of committed", d2);
    CHECK_MPI(MPI_Type_commit(&d2));
    AT("dup of committed, committed", d2);
    if (derived)
        CHECK_MPI(MPI_Type_free(&t));
    AT("dup after freeing the original", d1);
    CHECK_MPI(MPI_Type_dup(d1, &d3));
    AT("dup of dup", d3);
    CHECK_MPI(MPI_Type_free(&d1));
    CHECK_MPI(MPI_Type_free(&d2));
    CHECK_MPI(MPI_Type_free(&d3));
#undef AT
}

#define CHECK_DUPS(t, derived, ...) check_dups(__LINE__, t, derived, (bounds) { __VA_ARGS__ })

static MPI_Datatype pair2(MPI_Datatype a, MPI_Datatype b, MPI_Aint db)
{
    int bl[2] = { 1, 1 };
    MPI_Aint disp[2] = { 0, db };
    MPI_Datatype types[2] = { a, b }, t = MPI_DATATYPE_NULL;
    CHECK_MPI(MPI_Type_create_struct(2, bl, disp, types, &t));
    return t;
}

/* The committed state travels with the dup: MPI_Pack refuses an uncommitted type
 * (MPI_ERR_TYPE) and packs a committed one. v = vector(2, 1, 2, INT) packs a[0] and a[2]. */
static void committed_cases(void)
{
    int a[3] = { 1, 2, 3 }, out[2] = { 0, 0 }, pos = 0;
    MPI_Datatype v, d_uncommitted, d_committed, d_int;

    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &v));
    CHECK_MPI(MPI_Type_dup(v, &d_uncommitted));
    CHECK_ERR(MPI_Pack(a, 1, d_uncommitted, out, sizeof out, &pos, MPI_COMM_SELF), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_commit(&v));
    CHECK_MPI(MPI_Type_dup(v, &d_committed));
    pos = 0;
    CHECK_MPI(MPI_Pack(a, 1, d_committed, out, sizeof out, &pos, MPI_COMM_SELF));
    CHECK_EQ(pos, 8);
    CHECK(out[0] == 1 && out[1] == 3, "packed %d %d, expected 1 3", out[0], out[1]);
    /* a dup of a predefined type is committed too */
    CHECK_MPI(MPI_Type_dup(MPI_INT, &d_int));
    pos = 0;
    CHECK_MPI(MPI_Pack(a, 2, d_int, out, sizeof out, &pos, MPI_COMM_SELF));
    CHECK_EQ(pos, 8);
    MPI_Type_free(&d_int);
    MPI_Type_free(&d_committed);
    MPI_Type_free(&d_uncommitted);
    MPI_Type_free(&v);
}

int main(int argc, char **argv)
{
    MPI_Datatype t, d, s;
    bounds_init(&argc, &argv);

    /* predefined: MPI_INT [0, 4); MPI_DOUBLE_INT [0, 16), data [0, 12) */
    CHECK_DUPS(MPI_INT, false, 4, 0, 4, 0, 4);
    CHECK_DUPS(MPI_DOUBLE_INT, false, 12, 0, 16, 0, 12);

    /* vector(3, 2, -4, INT): blocks [0,8) [-16,-8) [-32,-24) */
    CHECK_MPI(MPI_Type_vector(3, 2, -4, MPI_INT, &t));
    CHECK_DUPS(t, true, 24, -32, 40, -32, 40);

    /* {LB@-4, int@0, UB@12}: markers [-4, 12), data [0, 4) */
    {
        int bl[3] = { 1, 1, 1 };
        MPI_Aint disp[3] = { -4, 0, 12 };
        MPI_Datatype types[3] = { MPI_LB, MPI_INT, MPI_UB };
        CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &t));
        CHECK_DUPS(t, true, 4, -4, 16, 0, 4);
    }

    /* resized(INT, -4, 12) */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 12, &t));
    CHECK_DUPS(t, true, 4, -4, 12, 0, 4);

    /* padded struct {double@0, char@8}: [0, 16), data [0, 9) */
    t = pair2(MPI_DOUBLE, MPI_CHAR, 8);
    CHECK_DUPS(t, true, 9, 0, 16, 0, 9);

    /* empty */
    CHECK_MPI(MPI_Type_contiguous(0, MPI_DOUBLE, &t));
    CHECK_DUPS(t, true, 0, 0, 0, 0, 0);

    /* A dup carries its original's markers into a struct: R = resized(INT, 0, 5);
     * {dup(R)@0, char@8}: R's markers win, [0, 5), data [0, 9) (as without the dup; MPICH 4.0.2
     * does not treat a resized child's bounds as markers and pads: extent 12) */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 5, &t));
    CHECK_MPI(MPI_Type_dup(t, &d));
    MPI_Type_free(&t);
    s = pair2(d, MPI_CHAR, 8);
    CHECK_BOUNDS(s, 5, 0, 5, 0, 9);
    MPI_Type_free(&s);
    MPI_Type_free(&d);

    /* ... and MPI_LB/MPI_UB markers: M = {LB@-4, int@0, UB@12}; {dup(M)@0, int@-20}: [-4, 12),
     * data [-20, 4). (MPICH 4.0.2 loses a child's markers in a struct: lb -20, extent 32.) */
    {
        int bl[3] = { 1, 1, 1 };
        MPI_Aint disp[3] = { -4, 0, 12 };
        MPI_Datatype types[3] = { MPI_LB, MPI_INT, MPI_UB };
        CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &t));
        CHECK_MPI(MPI_Type_dup(t, &d));
        MPI_Type_free(&t);
        s = pair2(d, MPI_INT, -20);
        CHECK_BOUNDS(s, 8, -4, 16, -20, 24);
        MPI_Type_free(&s);
        MPI_Type_free(&d);
    }

    /* ... and its alignment: dup(long double) placed at 1 after a char: [0, 17) -> 32 */
    CHECK_MPI(MPI_Type_dup(MPI_LONG_DOUBLE, &d));
    s = pair2(MPI_CHAR, d, 1);
    CHECK_BOUNDS(s, 17, 0, 32, 0, 17);
    MPI_Type_free(&s);
    MPI_Type_free(&d);

    committed_cases();
    return MTest_Finalize();
}
