/*
 * mpiexec killed by SIGTERM or SIGINT passes the signal on to the ranks, waits for them (SIGKILL
 * after 2 s for those that ignore it), and exits with 128+signal; no rank is left running.
 */
#include "pmtest.h"

#define NRANKS 3

static int child(char **argv)
{
    if (!strcmp(argv[0], "stubborn")) {
        signal(SIGTERM, SIG_IGN);
        signal(SIGINT, SIG_IGN);
    }
    printf("ready %d %d\n", pm_rank(), (int) getpid());
    fflush(stdout);
    for (;;)
        pause();
}

static void expect(const char *mode, int sig, double from, double to)
{
    struct pm_job job;
    if (pm_start(&job, (const char *[]) { "-n", "3", pm_self, "child", mode, NULL }, NULL) != 0)
        return;
    int before = mtest_errs, pids[NRANKS] = { 0 };
    char want[32];
    for (int r = 0; r < NRANKS; r++) {
        snprintf(want, sizeof want, "ready %d ", r);
        CHECK(pm_expect(&job, want, 30), "%s: rank %d did not start", mode, r);
        const char *line = strstr(job.outbuf, want);
        if (line)
            sscanf(line + strlen(want), "%d", &pids[r]);
    }
    double sent = pm_now();
    kill(job.pid, sig);
    pm_finish(&job, NULL, 30);
    double took = pm_now() - sent;
    CHECK(pm_exit_code(&job) == 128 + sig, "%s, signal %d: exit status %d", mode, sig, pm_exit_code(&job));
    CHECK(took >= from && took < to, "%s, signal %d: ended %.1f s after it, expected %g to %g", mode, sig, took,
          from, to);
    for (int r = 0; r < NRANKS; r++)
        CHECK(pids[r] > 0 && kill(pids[r], 0) != 0 && errno == ESRCH, "%s: rank %d (pid %d) is still there", mode,
              r, pids[r]);
    CHECK(!strstr(job.errbuf, "killed by signal"), "%s: ranks ended on purpose were reported", mode);
    pm_done(&job, before);
}

static void driver(void)
{
    expect("wait", SIGTERM, 0, 1.9);   /* at once: no SIGKILL needed */
    expect("wait", SIGINT, 0, 1.9);
    expect("stubborn", SIGTERM, 1.9, 10);
}

int main(int argc, char **argv)
{
    return pm_main(argc, argv, child, driver);
}
