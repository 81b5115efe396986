/*
 * MPIEXEC_TIMEOUT=SECONDS: a job still running then is ended, with a message and exit status 124,
 * ranks that ignore SIGTERM included (SIGKILL follows 2 s later); a job done in time is not
 * disturbed; a limit that is not a number is refused.
 */
#include "pmtest.h"

static int child(char **argv)
{
    if (!strcmp(argv[0], "quick"))
        return 0;
    if (!strcmp(argv[0], "stubborn"))
        signal(SIGTERM, SIG_IGN);
    for (;;)
        pause();
}

static void expect(const char *mode, const char *limit, int code, double from, double to)
{
    char env[64];
    snprintf(env, sizeof env, "MPIEXEC_TIMEOUT=%s", limit);
    struct pm_job job;
    pm_run(&job, (const char *[]) { "-n", "3", pm_self, "child", mode, NULL }, (const char *[]) { env, NULL },
           NULL, 60);
    int before = mtest_errs;
    CHECK(pm_exit_code(&job) == code, "%s, %s: exit status %d, expected %d", mode, env, pm_exit_code(&job), code);
    CHECK(job.seconds >= from && job.seconds < to, "%s, %s: ended after %.1f s, expected %g to %g", mode, env,
          job.seconds, from, to);
    if (code == 124)
        CHECK(strstr(job.errbuf, "MPIEXEC_TIMEOUT"), "%s: no message about the time limit", mode);
    pm_done(&job, before);
}

static void driver(void)
{
    expect("wait", "2", 124, 1.9, 12);
    expect("stubborn", "1", 124, 2.9, 15);
    expect("quick", "30", 0, 0, 20);
    expect("quick", "soon", 1, 0, 20);
}

int main(int argc, char **argv)
{
    return pm_main(argc, argv, child, driver);
}
