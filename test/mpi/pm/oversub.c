/*
 * 72 ranks on a machine of a few cores: all start, and while they wait (blocked in a read from a
 * pipe the driver holds) mpiexec takes no CPU time: it sleeps in poll() instead of spinning.
 */
#include "pmtest.h"

#define NRANKS 72
#define IDLE_SECONDS 2.0

static int child(char **argv)
{
    char c;
    printf("ready %d\n", pm_rank());
    fflush(stdout);
    while (read(atoi(argv[0]), &c, 1) > 0) {
    }
    return 0;
}

/* The CPU time process pid has used, in clock ticks (utime + stime of /proc/PID/stat), or -1. */
static long cpu_ticks(pid_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int) pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *p = strrchr(buf, ')');
    unsigned long utime, stime;
    if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2)
        return -1;
    return (long) (utime + stime);
}

int main(int argc, char **argv)
{
    if (argc > 2 && !strcmp(argv[1], "child"))
        return child(argv + 2);
    MTest_Init(&argc, &argv);
    int gate[2];
    if (pm_init(argv[0]) == 0 && pipe(gate) == 0) {
        /* The ranks inherit the read end; the driver alone holds the write end. */
        fcntl(gate[1], F_SETFD, FD_CLOEXEC);
        char fd[16], n[16];
        snprintf(fd, sizeof fd, "%d", gate[0]);
        snprintf(n, sizeof n, "%d", NRANKS);
        struct pm_job job;
        if (pm_start(&job, (const char *[]) { "-n", n, pm_self, "child", fd, NULL }, NULL) == 0) {
            close(gate[0]);
            int before = mtest_errs;
            double until = pm_now() + 100;
            while (pm_count(job.outbuf, "ready ") < NRANKS && pm_now() < until && pm_pump(&job, 0.1)) {
            }
            CHECK_EQ(pm_count(job.outbuf, "ready "), NRANKS);
            long t0 = cpu_ticks(job.pid);
            pm_sleep(IDLE_SECONDS);
            long t1 = cpu_ticks(job.pid);
            double used = (double) (t1 - t0) / (double) sysconf(_SC_CLK_TCK);
            CHECK(t0 >= 0 && t1 >= 0 && used < 0.05 * IDLE_SECONDS,
                  "mpiexec used %.2f s of CPU in %.1f s while its ranks waited", used, IDLE_SECONDS);
            close(gate[1]);
            pm_finish(&job, NULL, 60);
            CHECK_EQ(pm_exit_code(&job), 0);
            for (int r = 0; r < NRANKS; r++) {
                char want[32];
                snprintf(want, sizeof want, "ready %d\n", r);
                CHECK(pm_count(job.outbuf, want) == 1, "rank %d did not start", r);
            }
            if (mtest_errs != before)
                PM_SHOW(&job);
            pm_free(&job);
        }
    }
    return MTest_Finalize();
}
