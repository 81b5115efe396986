/*
 * Dynamic windows (MPI 4.1, 12.2.4): MPI_Win_create_dynamic, MPI_Win_attach, MPI_Win_detach; and
 * the info hints of windows (MPI_Win_set_info, MPI_Win_get_info).
 *
 * Each rank attaches two buffers and publishes their addresses (MPI_Get_address, allgathered):
 * target displacements are those addresses. In a fence epoch every rank puts into its next
 * neighbour's first buffer, accumulates into its second, and gets from its previous neighbour's
 * second buffer, with a vector on the target side; every byte is then checked. In a lock epoch an
 * access that reaches past an attached buffer, or into a detached one, is not done, and the
 * origin's MPI_Win_unlock reports MPI_ERR_RMA_RANGE (the target checks, since only it knows what
 * is attached); a get of it leaves the origin buffer as it was. Attaching memory that overlaps
 * memory attached before, and detaching an address nothing was attached at, fail with
 * MPI_ERR_RMA_ATTACH; attaching to a window of another flavor with MPI_ERR_RMA_FLAVOR.
 * The hints given at creation and by MPI_Win_set_info come back from MPI_Win_get_info.
 */
#include "mtest.h"

#define N 64

static int rank, size, prev, next;

static int initial(int r, int buf, int i)
{
    return 100000 * r + 1000 * buf + i;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    prev = (rank + size - 1) % size;
    next = (rank + 1) % size;

    MPI_Info hints;
    MPI_Info_create(&hints);
    MPI_Info_set(hints, "no_locks", "false");
    MPI_Win win;
    CHECK_MPI(MPI_Win_create_dynamic(hints, MPI_COMM_WORLD, &win));
    MPI_Info_free(&hints);
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    int *flavor = NULL, flag = 0;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
    CHECK(flag && *flavor == MPI_WIN_FLAVOR_DYNAMIC, "flavor %d", flag ? *flavor : -1);

    int *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *spare = malloc(N * sizeof *spare);
    for (int i = 0; i < N; i++) {
        a[i] = initial(rank, 0, i);
        b[i] = initial(rank, 1, i);
    }
    CHECK_MPI(MPI_Win_attach(win, a, N * sizeof *a));
    CHECK_MPI(MPI_Win_attach(win, b, N * sizeof *b));
    CHECK_MPI(MPI_Win_attach(win, spare, N * sizeof *spare));
    MPI_Aint mine[3], *addr = malloc((size_t) size * 3 * sizeof *addr);
    MPI_Get_address(a, &mine[0]);
    MPI_Get_address(b, &mine[1]);
    MPI_Get_address(spare, &mine[2]);
    MPI_Allgather(mine, 3, MPI_AINT, addr, 3, MPI_AINT, MPI_COMM_WORLD);

    /* errors of attaching and detaching */
    CHECK_ERR(MPI_Win_attach(win, a + 8, 4 * sizeof *a), MPI_ERR_RMA_ATTACH);
    CHECK_ERR(MPI_Win_attach(win, (char *) b - 4, 8), MPI_ERR_RMA_ATTACH);
    CHECK_ERR(MPI_Win_detach(win, a + 1), MPI_ERR_RMA_ATTACH);

    /* a fence epoch: puts into next's a (even ints), accumulates into next's b, gets prev's b */
    MPI_Datatype even;
    MPI_Type_vector(N / 2, 1, 2, MPI_INT, &even);
    MPI_Type_commit(&even);
    int out[N / 2], ones[N], got[N];
    for (int i = 0; i < N / 2; i++)
        out[i] = -1 - rank * 100 - i;
    for (int i = 0; i < N; i++) {
        ones[i] = i + 1;
        got[i] = -7;
    }
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(out, N / 2, MPI_INT, next, addr[3 * next], 1, even, win));
    CHECK_MPI(MPI_Accumulate(ones, N, MPI_INT, next, addr[3 * next + 1], N, MPI_INT, MPI_SUM, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Get(got, N, MPI_INT, prev, addr[3 * prev + 1], N, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < N; i++) {
        int want_a = i % 2 ? initial(rank, 0, i) : -1 - prev * 100 - i / 2;
        if (a[i] != want_a)
            MTEST_FAIL("a[%d] = %d, expected %d", i, a[i], want_a);
        if (b[i] != initial(rank, 1, i) + i + 1)
            MTEST_FAIL("b[%d] = %d, expected %d", i, b[i], initial(rank, 1, i) + i + 1);
        if (got[i] != initial(prev, 1, i) + i + 1)
            MTEST_FAIL("got[%d] from %d = %d, expected %d", i, prev, got[i], initial(prev, 1, i) + i + 1);
    }

    /* outside the attached memory: not done, reported at the unlock */
    CHECK_MPI(MPI_Win_detach(win, spare));
    int before[4] = { 5, 6, 7, 8 }, probe[4] = { 5, 6, 7, 8 };
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, next, 0, win));
    CHECK_MPI(MPI_Put(out, 4, MPI_INT, next, addr[3 * next + 1] + (N - 2) * (MPI_Aint) sizeof(int), 4, MPI_INT,
                      win));
    CHECK_ERR(MPI_Win_unlock(next, win), MPI_ERR_RMA_RANGE);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, next, 0, win));
    CHECK_MPI(MPI_Get(probe, 4, MPI_INT, next, addr[3 * next + 2], 4, MPI_INT, win));
    CHECK_ERR(MPI_Win_unlock(next, win), MPI_ERR_RMA_RANGE);
    CHECK(memcmp(probe, before, sizeof probe) == 0, "a get of detached memory wrote the origin buffer");
    /* and the window works on */
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, next, 0, win));
    CHECK_MPI(MPI_Get(probe, 2, MPI_INT, next, addr[3 * next], 2, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(next, win));
    CHECK(probe[1] == initial(next, 0, 1), "get after the errors: %d, expected %d", probe[1], initial(next, 0, 1));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(b[N - 2] == initial(rank, 1, N - 2) + N - 1, "the put past b changed b[%d] to %d", N - 2, b[N - 2]);

    /* hints: the one given at creation, and one set later */
    CHECK_MPI(MPI_Win_set_info(win, MPI_INFO_NULL));
    MPI_Info_create(&hints);
    MPI_Info_set(hints, "accumulate_ordering", "none");
    CHECK_MPI(MPI_Win_set_info(win, hints));
    MPI_Info_free(&hints);
    MPI_Info used;
    char value[64];
    CHECK_MPI(MPI_Win_get_info(win, &used));
    MPI_Info_get(used, "no_locks", sizeof value - 1, value, &flag);
    CHECK(flag && strcmp(value, "false") == 0, "no_locks: flag %d", flag);
    MPI_Info_get(used, "accumulate_ordering", sizeof value - 1, value, &flag);
    CHECK(flag && strcmp(value, "none") == 0, "accumulate_ordering: flag %d", flag);
    MPI_Info_free(&used);

    CHECK_MPI(MPI_Win_detach(win, a));
    CHECK_MPI(MPI_Win_detach(win, b));
    MPI_Type_free(&even);
    CHECK_MPI(MPI_Win_free(&win));

    /* attaching is for dynamic windows only */
    CHECK_MPI(MPI_Win_create(a, N * sizeof *a, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_ERR(MPI_Win_attach(win, b, 8), MPI_ERR_RMA_FLAVOR);
    CHECK_MPI(MPI_Win_free(&win));
    free(a);
    free(b);
    free(spare);
    free(addr);
    return MTest_Finalize();
}
