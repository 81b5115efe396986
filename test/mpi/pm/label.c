/*
 * mpiexec -l starts every line of every rank with "[rank] ", on stdout and on stderr; the last
 * line of a rank, unfinished, still gets its label and a newline.
 */
#include "pmtest.h"

#define NRANKS 3
#define NLINES 5

static int child(char **argv)
{
    int rank = pm_rank();
    for (int i = 0; i < NLINES; i++) {
        dprintf(1, "line %d %d\n", rank, i);
        dprintf(2, "eline %d %d\n", rank, i);
    }
    dprintf(1, "tail %d", rank);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 2 && !strcmp(argv[1], "child"))
        return child(argv + 2);
    MTest_Init(&argc, &argv);
    if (pm_init(argv[0]) == 0) {
        struct pm_job job;
        pm_run(&job, (const char *[]) { "-l", "-n", "3", pm_self, "child", "x", NULL }, NULL, NULL, 60);
        int before = mtest_errs;
        CHECK_EQ(pm_exit_code(&job), 0);
        char want[64];
        for (int r = 0; r < NRANKS; r++) {
            for (int i = 0; i < NLINES; i++) {
                snprintf(want, sizeof want, "[%d] line %d %d\n", r, r, i);
                CHECK_EQ(pm_count(job.outbuf, want), 1);
                snprintf(want, sizeof want, "[%d] eline %d %d\n", r, r, i);
                CHECK_EQ(pm_count(job.errbuf, want), 1);
            }
            snprintf(want, sizeof want, "[%d] tail %d\n", r, r);
            CHECK_EQ(pm_count(job.outbuf, want), 1);
        }
        /* Nothing else: (NLINES + 1) lines per rank on stdout, NLINES on stderr. */
        CHECK_EQ(pm_count(job.outbuf, "\n"), NRANKS * (NLINES + 1));
        CHECK_EQ(pm_count(job.errbuf, "\n"), NRANKS * NLINES);
        CHECK_EQ(pm_count(job.outbuf, "] "), NRANKS * (NLINES + 1));
        if (mtest_errs != before)
            PM_SHOW(&job);
        pm_free(&job);
    }
    return MTest_Finalize();
}
