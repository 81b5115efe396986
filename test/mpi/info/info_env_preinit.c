/* MPI_Info_create_env gives the same keys and values before MPI_Init, while MPI is initialized and
 * after MPI_Finalize (MPI 4.1, MPI_INFO_CREATE_ENV: "the same construction as MPI_INFO_ENV"), and
 * so does MPI_INFO_ENV: "maxprocs" is the number of processes mpiexec started (MPI_COMM_WORLD's
 * size once it exists) and "thread_level" the level MPI_Init gives (MPI_THREAD_SINGLE), before
 * MPI_Init too. Run with several processes: each checks its own. */
#include "mtest.h"
#include <stdlib.h>

static void get(MPI_Info info, const char *key, char *value, const char *when)
{
    int len = MPI_MAX_INFO_VAL, flag = 0;
    value[0] = '\0';
    CHECK_MPI(MPI_Info_get_string(info, key, &len, value, &flag));
    CHECK(flag, "%s: no \"%s\"", when, key);
}

int main(int argc, char **argv)
{
    const char *when[3] = { "before MPI_Init", "while initialized", "after MPI_Finalize" };
    char procs[3][2][MPI_MAX_INFO_VAL], level[3][2][MPI_MAX_INFO_VAL];
    int nkeys[3] = { 0 }, size = 0, rank = 0;
    for (int phase = 0; phase < 3; phase++) {
        if (phase == 1) {
            MPI_Init(&argc, &argv);
            MPI_Comm_size(MPI_COMM_WORLD, &size);
            MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        }
        if (phase == 2)
            MPI_Finalize();
        MPI_Info info;
        CHECK_MPI(MPI_Info_create_env(argc, argv, &info));
        get(info, "maxprocs", procs[phase][0], when[phase]);
        get(info, "thread_level", level[phase][0], when[phase]);
        CHECK_MPI(MPI_Info_get_nkeys(info, &nkeys[phase]));
        CHECK_MPI(MPI_Info_free(&info));
        get(MPI_INFO_ENV, "maxprocs", procs[phase][1], when[phase]);
        get(MPI_INFO_ENV, "thread_level", level[phase][1], when[phase]);
    }
    for (int phase = 0; phase < 3; phase++)
        for (int i = 0; i < 2; i++) {
            CHECK(atoi(procs[phase][i]) == size, "%s: maxprocs \"%s\", MPI_COMM_WORLD has %d processes",
                  when[phase], procs[phase][i], size);
            CHECK(strcmp(level[phase][i], "MPI_THREAD_SINGLE") == 0, "%s: thread_level \"%s\"", when[phase],
                  level[phase][i]);
        }
    CHECK_EQ(nkeys[0], nkeys[1]);
    CHECK_EQ(nkeys[2], nkeys[1]);
    /* no reduction after MPI_Finalize: each process speaks for itself, rank 0 alone prints */
    if (mtest_errs)
        printf(" Found %d errors\n", mtest_errs);
    else if (rank == 0)
        printf(" No Errors\n");
    return mtest_errs != 0;
}
