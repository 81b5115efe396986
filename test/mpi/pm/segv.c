/*
 * A rank killed by a signal (here SIGSEGV) ends the job: mpiexec says which rank, which pid and
 * which signal, ends the others (blocked in a receive from the dead rank), and exits with 128+11.
 */
#include "pmtest.h"

static int child(char **argv)
{
    int size, x;
    MPI_Init(NULL, NULL);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (pm_rank() == 1) {
        printf("pid %d\n", (int) getpid());
        fflush(stdout);
        signal(SIGSEGV, SIG_DFL);   /* not a sanitizer's report: the plain crash */
        raise(SIGSEGV);
    }
    if (size > 1)
        MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
        pause();
    return 0;
}

static void driver(void)
{
    struct pm_job job;
    pm_run(&job, (const char *[]) { "-n", "3", pm_self, "child", "x", NULL }, NULL, NULL, 60);
    int before = mtest_errs, pid = -1;
    CHECK_EQ(pm_exit_code(&job), 128 + SIGSEGV);
    CHECK(job.seconds < 15, "the job took %.1f s to end", job.seconds);
    CHECK(sscanf(job.outbuf, "pid %d", &pid) == 1, "rank 1 did not start");
    char want[128];
    snprintf(want, sizeof want, "mpiexec: rank 1 (pid %d) killed by signal 11 (Segmentation fault)", pid);
    CHECK(strstr(job.errbuf, want), "no report '%s'", want);
    CHECK_EQ(pm_count(job.errbuf, "killed by signal"), 1);
    pm_done(&job, before);
}

int main(int argc, char **argv)
{
    return pm_main(argc, argv, child, driver);
}
