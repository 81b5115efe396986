/*
 * MPI_Win_create and MPI_Win_allocate over every rank, and the predefined window attributes
 * (MPI 4.1, "Window Attributes"): MPI_WIN_BASE gives the base address itself, MPI_WIN_SIZE a
 * pointer to an MPI_Aint, MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR and MPI_WIN_MODEL pointers to
 * ints. Each rank exposes a different size and displacement unit. The window outlives the user's
 * communicator, and MPI_Win_get_group gives the communicator's group.
 */
#include "mtest.h"
#include <stdint.h>

static void check_attrs(MPI_Win win, void *base, MPI_Aint size, int disp_unit, int flavor)
{
    void *got_base = (void *) &got_base;
    MPI_Aint *got_size = NULL;
    int *got_unit = NULL, *got_flavor = NULL, *got_model = NULL, flag = 0;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &got_base, &flag));
    CHECK(flag && got_base == base, "MPI_WIN_BASE: flag %d, %p, expected %p", flag, got_base, base);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &got_size, &flag));
    CHECK(flag && got_size && *got_size == size, "MPI_WIN_SIZE: flag %d, %ld, expected %ld", flag,
          got_size ? (long) *got_size : -1L, (long) size);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &got_unit, &flag));
    CHECK(flag && got_unit && *got_unit == disp_unit, "MPI_WIN_DISP_UNIT: flag %d, %d, expected %d", flag,
          got_unit ? *got_unit : -1, disp_unit);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &got_flavor, &flag));
    CHECK(flag && got_flavor && *got_flavor == flavor, "MPI_WIN_CREATE_FLAVOR: flag %d, %d, expected %d", flag,
          got_flavor ? *got_flavor : -1, flavor);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &got_model, &flag));
    CHECK(flag && got_model && *got_model == MPI_WIN_UNIFIED, "MPI_WIN_MODEL: flag %d, %d", flag,
          got_model ? *got_model : -1);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* ---- MPI_Win_create: rank r exposes 8(r+1) bytes with displacement unit r+1 ---- */
    char buf[256];
    MPI_Win win = MPI_WIN_NULL;
    CHECK_MPI(MPI_Win_create(buf, 8 * (rank + 1), rank + 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK(win != MPI_WIN_NULL, "MPI_Win_create gave MPI_WIN_NULL");
    check_attrs(win, buf, 8 * (rank + 1), rank + 1, MPI_WIN_FLAVOR_CREATE);

    MPI_Group wgroup, cgroup;
    int result = -1, gsize = -1, grank = -1;
    CHECK_MPI(MPI_Win_get_group(win, &wgroup));
    MPI_Comm_group(MPI_COMM_WORLD, &cgroup);
    MPI_Group_compare(wgroup, cgroup, &result);
    CHECK_EQ(result, MPI_IDENT);
    MPI_Group_size(wgroup, &gsize);
    MPI_Group_rank(wgroup, &grank);
    CHECK(gsize == size && grank == rank, "window group: size %d rank %d", gsize, grank);
    MPI_Group_free(&cgroup);
    MPI_Group_free(&wgroup);

    CHECK_MPI(MPI_Win_free(&win));
    CHECK(win == MPI_WIN_NULL, "MPI_Win_free left %#x", (unsigned) win);

    /* zero bytes at NULL is a window too; hints are accepted and ignored */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_locks", "true");
    CHECK_MPI(MPI_Win_create(NULL, 0, 1, info, MPI_COMM_WORLD, &win));
    MPI_Info_free(&info);       /* the window does not need the info object afterwards */
    check_attrs(win, NULL, 0, 1, MPI_WIN_FLAVOR_CREATE);
    CHECK_MPI(MPI_Win_free(&win));

    /* ---- the window outlives the communicator it was created over ---- */
    MPI_Comm dup, half;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);       /* reversed ranks */
    MPI_Win w1, w2;
    CHECK_MPI(MPI_Win_create(buf, sizeof buf, 4, MPI_INFO_NULL, dup, &w1));
    CHECK_MPI(MPI_Win_create(buf + 8, 8, 8, MPI_INFO_NULL, half, &w2));
    MPI_Group hgroup;
    MPI_Comm_group(half, &hgroup);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&half);
    /* traffic on the user's communicators meanwhile does not disturb the windows */
    int token = rank, sum = 0;
    MPI_Allreduce(&token, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK_EQ(sum, size * (size - 1) / 2);
    CHECK_MPI(MPI_Win_get_group(w2, &wgroup));
    MPI_Group_compare(wgroup, hgroup, &result);
    CHECK_EQ(result, MPI_IDENT);
    MPI_Group_rank(wgroup, &grank);
    MPI_Group_size(wgroup, &gsize);
    int hsize = (size - rank % 2 + 1) / 2;     /* how many ranks share this parity */
    CHECK(gsize == hsize && grank == hsize - 1 - rank / 2, "half group: size %d rank %d", gsize, grank);
    MPI_Group_free(&wgroup);
    MPI_Group_free(&hgroup);
    check_attrs(w1, buf, sizeof buf, 4, MPI_WIN_FLAVOR_CREATE);
    CHECK_MPI(MPI_Win_free(&w2));   /* collective over the half only */
    CHECK_MPI(MPI_Win_free(&w1));

    /* ---- MPI_Win_allocate: the window owns memory of the requested size ---- */
    double *mem = NULL;
    MPI_Aint bytes = 1000 * (rank + 1);
    CHECK_MPI(MPI_Win_allocate(bytes, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    CHECK(mem != NULL && (uintptr_t) mem % sizeof(double) == 0, "allocated %p", (void *) mem);
    for (MPI_Aint i = 0; i < bytes / (MPI_Aint) sizeof(double); i++)
        mem[i] = (double) i;
    check_attrs(win, mem, bytes, sizeof(double), MPI_WIN_FLAVOR_ALLOCATE);
    CHECK_MPI(MPI_Win_free(&win));

    /* many windows at once, over MPI_COMM_SELF, freed in another order than created */
    MPI_Win many[40];
    for (int i = 0; i < 40; i++)
        CHECK_MPI(MPI_Win_create(buf + i, i, 1, MPI_INFO_NULL, MPI_COMM_SELF, &many[i]));
    for (int i = 0; i < 40; i += 2)
        CHECK_MPI(MPI_Win_free(&many[i]));
    check_attrs(many[39], buf + 39, 39, 1, MPI_WIN_FLAVOR_CREATE);
    for (int i = 1; i < 40; i += 2)
        CHECK_MPI(MPI_Win_free(&many[i]));

    return MTest_Finalize();
}
