/*
 * mpiexec's exit status: 0 when every rank succeeds (also when some finish long before others);
 * a rank's non-zero status when it fails, the other ranks then ended within seconds though they
 * would wait for ever; 127 and one message for a program that does not exist.
 */
#include "pmtest.h"

static int child(int argc, char **argv)
{
    int rank = pm_rank();
    if (!strcmp(argv[0], "codes"))      /* codes C0 C1 ...: rank r exits with Cr */
        return rank + 1 < argc ? atoi(argv[rank + 1]) : 99;
    if (!strcmp(argv[0], "fail")) {     /* fail R C: rank R exits with C, the others wait */
        if (rank == atoi(argv[1]))
            return atoi(argv[2]);
        pause();
        return 0;
    }
    if (!strcmp(argv[0], "late")) {     /* rank 1 finishes a second after the others */
        if (rank == 1) {
            pm_sleep(1);
            printf("late\n");
        }
        return 0;
    }
    return 99;
}

static void expect(const char *const args[], int code, double within, const char *why)
{
    struct pm_job job;
    pm_run(&job, args, NULL, NULL, 60);
    int before = mtest_errs;
    CHECK(pm_exit_code(&job) == code, "%s: exit status %d, expected %d", why, pm_exit_code(&job), code);
    CHECK(job.seconds < within, "%s: took %.1f s", why, job.seconds);
    if (code == 0)
        CHECK(!job.errbuf[0], "%s: mpiexec said '%s'", why, job.errbuf);
    if (!strcmp(why, "late rank"))
        CHECK(!strcmp(job.outbuf, "late\n"), "%s: the late rank's output is lost: '%s'", why, job.outbuf);
    if (!strcmp(why, "no program"))
        CHECK_EQ(pm_count(job.errbuf, "cannot run"), 1);
    if (mtest_errs != before)
        PM_SHOW(&job);
    pm_free(&job);
}

int main(int argc, char **argv)
{
    if (argc > 2 && !strcmp(argv[1], "child"))
        return child(argc - 2, argv + 2);
    MTest_Init(&argc, &argv);
    if (pm_init(argv[0]) == 0) {
        expect((const char *[]) { "-n", "3", pm_self, "child", "codes", "0", "0", "0", NULL }, 0, 30, "success");
        expect((const char *[]) { "-n", "3", pm_self, "child", "codes", "5", "5", "5", NULL }, 5, 30, "all fail");
        expect((const char *[]) { "-n", "4", pm_self, "child", "fail", "2", "3", NULL }, 3, 15, "one fails");
        expect((const char *[]) { "-n", "4", pm_self, "child", "fail", "0", "200", NULL }, 200, 15, "rank 0 fails");
        expect((const char *[]) { "-n", "2", pm_self, "child", "late", NULL }, 0, 30, "late rank");
        expect((const char *[]) { "-n", "3", "/nonexistent/program", NULL }, 127, 30, "no program");
    }
    return MTest_Finalize();
}
