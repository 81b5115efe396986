/*
 * Group algebra (MPI 4.1, 7.3): incl/excl and their range forms, union, intersection, difference,
 * translate_ranks, compare, size and rank, with the orders the standard prescribes, hand-computed
 * on the world group of 8 processes (works with any size >= 4: the group arithmetic is done on
 * world ranks and then compared).
 */
#include "mtest.h"

static int size, rank;

/* Checks that g lists exactly the n world ranks in want, in order (and the caller's rank in it). */
static void check_members(MPI_Group g, const int *want, int n, int line)
{
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int s = -1, r = -2, idx[64], got[64];
    MPI_Group_size(g, &s);
    if (s != n) {
        MTEST_FAIL("line %d: group size %d, expected %d", line, s, n);
        MPI_Group_free(&world);
        return;
    }
    for (int i = 0; i < n; i++)
        idx[i] = i;
    MPI_Group_translate_ranks(g, n, idx, world, got);
    int myrank = MPI_UNDEFINED;
    for (int i = 0; i < n; i++) {
        if (got[i] != want[i])
            MTEST_FAIL("line %d: member %d is world rank %d, expected %d", line, i, got[i], want[i]);
        if (want[i] == rank)
            myrank = i;
    }
    MPI_Group_rank(g, &r);
    if (r != myrank)
        MTEST_FAIL("line %d: MPI_Group_rank gave %d, expected %d", line, r, myrank);
    MPI_Group_free(&world);
}
#define MEMBERS(g, ...) do { int w_[] = { __VA_ARGS__ }; check_members((g), w_, (int) (sizeof w_ / sizeof w_[0]), __LINE__); } while (0)

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 4) {
        MTEST_FAIL("run with at least 4 processes");
        return MTest_Finalize();
    }
    MPI_Group world, a, b, g;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));

    /* incl follows the ranks argument; excl keeps the group's order */
    int r3[3] = { 3, 0, 2 };
    CHECK_MPI(MPI_Group_incl(world, 3, r3, &a));            /* a = [3 0 2] */
    MEMBERS(a, 3, 0, 2);
    CHECK_MPI(MPI_Group_excl(a, 1, &r3[2], &g));            /* drop rank 2 of a (world 2) */
    MEMBERS(g, 3, 0);
    CHECK_MPI(MPI_Group_free(&g));
    int r2[2] = { 1, 2 };
    CHECK_MPI(MPI_Group_incl(world, 2, r2, &b));            /* b = [1 2] */
    MEMBERS(b, 1, 2);

    /* union: a, then b's members not in a; intersection and difference: in a's order */
    CHECK_MPI(MPI_Group_union(a, b, &g));
    MEMBERS(g, 3, 0, 2, 1);
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Group_union(b, a, &g));
    MEMBERS(g, 1, 2, 3, 0);
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Group_intersection(a, b, &g));
    MEMBERS(g, 2);
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Group_difference(a, b, &g));
    MEMBERS(g, 3, 0);
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Group_difference(b, a, &g));
    MEMBERS(g, 1);
    CHECK_MPI(MPI_Group_free(&g));

    /* empty results are MPI_GROUP_EMPTY, which may be freed like any result */
    CHECK_MPI(MPI_Group_difference(a, a, &g));
    CHECK(g == MPI_GROUP_EMPTY, "a - a = %#x", (unsigned) g);
    CHECK_MPI(MPI_Group_free(&g));
    CHECK(g == MPI_GROUP_NULL, "free left %#x", (unsigned) g);
    CHECK_MPI(MPI_Group_incl(world, 0, NULL, &g));
    CHECK(g == MPI_GROUP_EMPTY, "incl of none = %#x", (unsigned) g);
    int s = -1, r = -1;
    CHECK_MPI(MPI_Group_size(MPI_GROUP_EMPTY, &s));
    CHECK_MPI(MPI_Group_rank(MPI_GROUP_EMPTY, &r));
    CHECK_EQ(s, 0);
    CHECK_EQ(r, MPI_UNDEFINED);

    /* ranges: (first, last, stride) triplets, strides of both signs */
    int rin[2][3] = { { 0, 3, 2 }, { 3, 1, -2 } };          /* 0 2, 3 1 */
    CHECK_MPI(MPI_Group_range_incl(world, 2, rin, &g));
    MEMBERS(g, 0, 2, 3, 1);
    CHECK_MPI(MPI_Group_free(&g));
    int rex[1][3] = { { 1, size - 1, 2 } };                  /* exclude the odd ranks */
    CHECK_MPI(MPI_Group_range_excl(world, 1, rex, &g));
    int evens[32], ne = 0;
    for (int i = 0; i < size; i += 2)
        evens[ne++] = i;
    check_members(g, evens, ne, __LINE__);
    CHECK_MPI(MPI_Group_free(&g));
    int single[1][3] = { { 2, 2, 5 } };
    CHECK_MPI(MPI_Group_range_incl(world, 1, single, &g));
    MEMBERS(g, 2);
    CHECK_MPI(MPI_Group_free(&g));

    /* translate_ranks: MPI_PROC_NULL maps to itself, non-members to MPI_UNDEFINED */
    int in[4] = { 0, 1, 2, MPI_PROC_NULL }, out[4];
    CHECK_MPI(MPI_Group_translate_ranks(a, 4, in, b, out));  /* a = [3 0 2], b = [1 2] */
    CHECK_EQ(out[0], MPI_UNDEFINED);
    CHECK_EQ(out[1], MPI_UNDEFINED);
    CHECK_EQ(out[2], 1);
    CHECK_EQ(out[3], MPI_PROC_NULL);
    CHECK_MPI(MPI_Group_translate_ranks(a, 0, NULL, b, NULL));

    /* compare */
    int result;
    int r3b[3] = { 0, 2, 3 };
    CHECK_MPI(MPI_Group_incl(world, 3, r3b, &g));           /* same members as a, other order */
    CHECK_MPI(MPI_Group_compare(a, g, &result));
    CHECK_EQ(result, MPI_SIMILAR);
    CHECK_MPI(MPI_Group_compare(a, a, &result));
    CHECK_EQ(result, MPI_IDENT);
    CHECK_MPI(MPI_Group_compare(a, b, &result));
    CHECK_EQ(result, MPI_UNEQUAL);
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Group_incl(world, 3, r3, &g));            /* a rebuilt: identical */
    CHECK_MPI(MPI_Group_compare(a, g, &result));
    CHECK_EQ(result, MPI_IDENT);
    CHECK_MPI(MPI_Group_free(&g));
    CHECK_MPI(MPI_Group_compare(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, &result));
    CHECK_EQ(result, MPI_IDENT);

    /* errors: invalid or repeated ranks, zero stride, bad n, invalid and freed handles */
    int badr[2] = { 0, size }, dup2[2] = { 1, 1 };
    CHECK_ERR(MPI_Group_incl(world, 2, badr, &g), MPI_ERR_RANK);
    CHECK_ERR(MPI_Group_incl(world, 2, dup2, &g), MPI_ERR_RANK);
    CHECK_ERR(MPI_Group_excl(world, 2, dup2, &g), MPI_ERR_RANK);
    CHECK_ERR(MPI_Group_incl(world, -1, r3, &g), MPI_ERR_ARG);
    int zero_stride[1][3] = { { 0, 2, 0 } }, backwards[1][3] = { { 2, 0, 1 } }, overlap[2][3] = { { 0, 2, 1 }, { 2, 3, 1 } };
    int out_of_range[1][3] = { { 0, size, 1 } };
    CHECK_ERR(MPI_Group_range_incl(world, 1, zero_stride, &g), MPI_ERR_ARG);
    CHECK_ERR(MPI_Group_range_incl(world, 1, backwards, &g), MPI_ERR_ARG);
    CHECK_ERR(MPI_Group_range_excl(world, 2, overlap, &g), MPI_ERR_RANK);
    CHECK_ERR(MPI_Group_range_incl(world, 1, out_of_range, &g), MPI_ERR_RANK);
    int badin[1] = { 3 };
    CHECK_ERR(MPI_Group_translate_ranks(b, 1, badin, a, out), MPI_ERR_RANK);
    CHECK_ERR(MPI_Group_size(MPI_GROUP_NULL, &s), MPI_ERR_GROUP);
    g = MPI_GROUP_NULL;
    CHECK_ERR(MPI_Group_free(&g), MPI_ERR_GROUP);
    MPI_Group stale = b;
    CHECK_MPI(MPI_Group_free(&b));
    CHECK(b == MPI_GROUP_NULL, "freed group is %#x", (unsigned) b);
    CHECK_ERR(MPI_Group_size(stale, &s), MPI_ERR_GROUP);
    CHECK_ERR(MPI_Group_union(a, stale, &g), MPI_ERR_GROUP);
    CHECK_ERR(MPI_Group_free(&stale), MPI_ERR_GROUP);
    MPI_Comm none;
    CHECK_ERR(MPI_Comm_create(MPI_COMM_WORLD, stale, &none), MPI_ERR_GROUP);

    /* each MPI_Comm_group is a handle of its own: freeing one leaves the other valid */
    MPI_Group w2;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &w2));
    CHECK_MPI(MPI_Group_compare(world, w2, &result));
    CHECK_EQ(result, MPI_IDENT);
    CHECK_MPI(MPI_Group_free(&w2));
    CHECK_MPI(MPI_Group_size(world, &s));
    CHECK_EQ(s, size);
    CHECK_MPI(MPI_Group_rank(world, &r));
    CHECK_EQ(r, rank);

    CHECK_MPI(MPI_Group_free(&a));
    CHECK_MPI(MPI_Group_free(&world));
    return MTest_Finalize();
}
