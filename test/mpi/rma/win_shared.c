/*
 * Shared-memory windows (MPI 4.1, 12.2.3): MPI_Win_allocate_shared and MPI_Win_shared_query.
 *
 * Each rank allocates a part of its own size (rank 1 none at all), in rank order and contiguous
 * (the standard's default): the part of rank r+1 starts where that of rank r ends, as seen
 * through MPI_Win_shared_query in every process's own mapping. Every rank writes its part with
 * plain stores, and after MPI_Win_sync and a barrier inside a lock_all epoch (the unified model's
 * way) reads every other part with plain loads. MPI_PROC_NULL queries the first non-empty part.
 * One-sided operations work on the window too (a put into the next rank's part in a fence
 * epoch, seen by its owner's loads). The window's flavor attribute is MPI_WIN_FLAVOR_SHARED; the
 * query on a window of another flavor fails with MPI_ERR_RMA_FLAVOR, and with a rank outside the
 * group with MPI_ERR_RANK. The same on the halves of MPI_COMM_WORLD, and with every part empty.
 * The large-count twins of the creations and of the query take and give MPI_Aint units; a unit
 * beyond the int of the MPI_WIN_DISP_UNIT attribute is refused (MPI_ERR_DISP).
 */
#include "mtest.h"
#include <stdint.h>

static int ints_of(int r)
{
    return r == 1 ? 0 : 3 + 2 * r;     /* rank 1 exposes nothing */
}

static int value(int r, int i)
{
    return 1000 * r + i;
}

static void check_comm(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *mine = NULL;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate_shared((MPI_Aint) ints_of(rank) * sizeof(int), sizeof(int), MPI_INFO_NULL, comm,
                                      &mine, &win));
    int *flavor = NULL, flag = 0;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
    CHECK(flag && *flavor == MPI_WIN_FLAVOR_SHARED, "flavor %d", flag ? *flavor : -1);

    for (int i = 0; i < ints_of(rank); i++)
        mine[i] = value(rank, i);
    CHECK_MPI(MPI_Win_lock_all(0, win));
    CHECK_MPI(MPI_Win_sync(win));
    CHECK_MPI(MPI_Barrier(comm));
    CHECK_MPI(MPI_Win_sync(win));
    char *expect_base = NULL;
    for (int r = 0; r < size; r++) {
        MPI_Aint sz = -1;
        int unit = -1;
        int *base = NULL;
        CHECK_MPI(MPI_Win_shared_query(win, r, &sz, &unit, &base));
        CHECK(sz == (MPI_Aint) ints_of(r) * (MPI_Aint) sizeof(int) && unit == sizeof(int),
              "query of %d: size %ld, unit %d", r, (long) sz, unit);
        if (r == rank)
            CHECK(base == mine, "query of this rank: %p, allocated %p", (void *) base, (void *) mine);
        if (expect_base && sz > 0)
            CHECK((char *) base == expect_base, "part of %d at %p, expected %p (contiguous)", r, (void *) base,
                  (void *) expect_base);
        if (sz > 0)
            expect_base = (char *) base + sz;
        for (int i = 0; i < ints_of(r); i++)
            if (base[i] != value(r, i))
                MTEST_FAIL("part of %d [%d] = %d, expected %d", r, i, base[i], value(r, i));
    }
    MPI_Aint sz;
    int unit, *first = NULL, *zero = NULL;
    CHECK_MPI(MPI_Win_shared_query(win, MPI_PROC_NULL, &sz, &unit, &first));
    CHECK_MPI(MPI_Win_shared_query(win, 0, &sz, &unit, &zero));
    CHECK(first == zero, "MPI_PROC_NULL: %p, rank 0's part %p", (void *) first, (void *) zero);
    CHECK_MPI(MPI_Barrier(comm));
    CHECK_MPI(MPI_Win_unlock_all(win));

    /* a put into the next non-empty part; its owner reads it with plain loads after the fence */
    int next = (rank + 1) % size;
    while (ints_of(next) == 0)
        next = (next + 1) % size;
    int v = -1 - rank;
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, next, ints_of(next) - 1, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    int from = -1, puts = 0;
    for (int r = 0; r < size; r++) {
        int n = (r + 1) % size;
        while (ints_of(n) == 0)
            n = (n + 1) % size;
        if (n == rank) {
            from = r;
            puts++;
        }
    }
    if (ints_of(rank) > 0 && puts == 1)
        CHECK(mine[ints_of(rank) - 1] == -1 - from, "put from %d: %d", from, mine[ints_of(rank) - 1]);

    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_ERR(MPI_Win_shared_query(win, size, &sz, &unit, &first), MPI_ERR_RANK);
    CHECK_MPI(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_comm(MPI_COMM_WORLD);

    MPI_Comm half;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    check_comm(half);
    CHECK_MPI(MPI_Comm_free(&half));

    int buf[4], flag_c = 0;

    /* every part empty: the query gives size 0 and no address */
    void *mem = NULL, *got = (void *) &got;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate_shared(0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    MPI_Aint sz = -1;
    int unit = -1;
    CHECK_MPI(MPI_Win_shared_query(win, MPI_PROC_NULL, &sz, &unit, &got));
    CHECK(sz == 0 && got == NULL, "all empty: size %ld, address %p", (long) sz, got);
    CHECK_MPI(MPI_Win_free(&win));

    /* the large-count twins: disp_unit as MPI_Aint (up to INT_MAX here, the attribute's int) */
    int *shared = NULL, *unit_attr = NULL;
    CHECK_MPI(MPI_Win_allocate_shared_c(2 * sizeof(int), (MPI_Aint) sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                                        &shared, &win));
    MPI_Aint big_unit = -1;
    void *first_c = NULL;
    CHECK_MPI(MPI_Win_shared_query_c(win, size - 1, &sz, &big_unit, &first_c));
    CHECK(sz == 2 * sizeof(int) && big_unit == sizeof(int), "MPI_Win_shared_query_c: size %ld, unit %ld", (long) sz,
          (long) big_unit);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit_attr, &flag_c));
    CHECK(flag_c && *unit_attr == sizeof(int), "MPI_WIN_DISP_UNIT after MPI_Win_allocate_shared_c");
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Win_allocate_c(16, (MPI_Aint) 8, MPI_INFO_NULL, MPI_COMM_WORLD, &first_c, &win));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Win_create_c(buf, sizeof buf, (MPI_Aint) 2, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit_attr, &flag_c));
    CHECK(flag_c && *unit_attr == 2, "MPI_WIN_DISP_UNIT after MPI_Win_create_c");
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_ERR(MPI_Win_create_c(buf, sizeof buf, (MPI_Aint) 1 << 33, MPI_INFO_NULL, MPI_COMM_WORLD, &win),
              MPI_ERR_DISP);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    /* the query is for shared windows only */
    CHECK_MPI(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_ERR(MPI_Win_shared_query(win, 0, &sz, &unit, &got), MPI_ERR_RMA_FLAVOR);
    CHECK_MPI(MPI_Win_free(&win));

    return MTest_Finalize();
}
