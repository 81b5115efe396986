/*
 * What mpiexec puts in the ranks' environment: LOOM_RANK 0..N-1 once each, LOOM_SIZE, one LOOM_SHM
 * for the job ("/loom-..."), LOOM_MPIEXEC_PID; -genv for every rank, -env for the program that
 * follows it (MPMD sections with ':' number their ranks in order), -env over -genv; mpiexec's own
 * environment passed on; one process without -n.
 */
#include "pmtest.h"

static int child(char **argv)
{
    const char *names[] = { "LOOM_RANK", "LOOM_SIZE", "LOOM_SHM", "LOOM_MPIEXEC_PID", "PMT_G", "PMT_X",
                            "PMT_INHERITED" };
    printf("env");
    for (int i = 0; i < 7; i++) {
        const char *v = getenv(names[i]);
        printf(" %s", v ? v : "-");
    }
    printf("\n");
    return 0;
}

struct rank_env {
    int rank, size, pid;
    char shm[64], g[16], x[16], inherited[16];
};

/* Runs mpiexec with args; checks that ranks 0..size-1 each report once, with one LOOM_SHM and
 * mpiexec's pid; fills envs[rank]. Returns the number of ranks. */
static int run(const char *const args[], struct rank_env *envs, int max)
{
    struct pm_job job;
    pm_run(&job, args, (const char *[]) { "PMT_INHERITED=yes", NULL }, NULL, 60);
    int before = mtest_errs, n = 0;
    CHECK_EQ(pm_exit_code(&job), 0);
    char *save = NULL;
    for (char *line = strtok_r(job.outbuf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        struct rank_env e;
        if (sscanf(line, "env %d %d %63s %d %15s %15s %15s", &e.rank, &e.size, e.shm, &e.pid, e.g, e.x,
                   e.inherited) != 7 || e.rank < 0 || e.rank >= max) {
            MTEST_FAIL("bad line '%s'", line);
            continue;
        }
        envs[e.rank] = e;
        n++;
    }
    for (int r = 0; r < n; r++) {
        CHECK(envs[r].rank == r, "rank %d missing", r);
        CHECK_EQ(envs[r].size, n);
        CHECK_EQ(envs[r].pid, job.pid);
        CHECK(!strncmp(envs[r].shm, "/loom-", 6) && !strcmp(envs[r].shm, envs[0].shm),
              "rank %d has LOOM_SHM %s, rank 0 %s", r, envs[r].shm, envs[0].shm);
        CHECK(!strcmp(envs[r].inherited, "yes"), "mpiexec's environment is not passed on to rank %d", r);
    }
    if (mtest_errs != before)
        PM_SHOW(&job);
    pm_free(&job);
    return n;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "child"))
        return child(argv + 2);
    MTest_Init(&argc, &argv);
    if (pm_init(argv[0]) == 0) {
        struct rank_env e[8];

        CHECK_EQ(run((const char *[]) { pm_self, "child", NULL }, e, 8), 1);

        CHECK_EQ(run((const char *[]) { "-genv", "PMT_G", "gv", "-n", "4", pm_self, "child", NULL }, e, 8), 4);
        for (int r = 0; r < 4; r++)
            CHECK(!strcmp(e[r].g, "gv") && !strcmp(e[r].x, "-"), "-genv: rank %d has %s %s", r, e[r].g, e[r].x);

        CHECK_EQ(run((const char *[]) { "-np", "2", "-env", "PMT_X", "xv", pm_self, "child", NULL }, e, 8), 2);
        for (int r = 0; r < 2; r++)
            CHECK(!strcmp(e[r].x, "xv"), "-env: rank %d has PMT_X=%s", r, e[r].x);

        CHECK_EQ(run((const char *[]) { "-genv", "PMT_G", "g", "-n", "1", "-env", "PMT_X", "a", pm_self, "child",
                                        ":", "-n", "2", "-env", "PMT_X", "b", pm_self, "child",
                                        ":", pm_self, "child", NULL }, e, 8), 4);
        const char *want[] = { "a", "b", "b", "-" };
        for (int r = 0; r < 4; r++)
            CHECK(!strcmp(e[r].g, "g") && !strcmp(e[r].x, want[r]), "MPMD: rank %d has PMT_G=%s PMT_X=%s", r,
                  e[r].g, e[r].x);

        CHECK_EQ(run((const char *[]) { "-genv", "PMT_X", "global", "-env", "PMT_X", "local", pm_self, "child",
                                        NULL }, e, 8), 1);
        CHECK(!strcmp(e[0].x, "local"), "-env over -genv: PMT_X=%s", e[0].x);
    }
    return MTest_Finalize();
}
