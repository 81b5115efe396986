/*
 * A rank that crashes in the middle of real communication: mpiexec reports which rank died of
 * which signal, ends the others within seconds and exits non-zero (128 + 11 here). The inner job
 * has 3 ranks: rank 1 has received the first part of a 64 MB pipelined message from rank 0 when
 * it dies of SIGSEGV; rank 0 is stuck in that MPI_Send, rank 2 in an MPI_Recv from rank 1. The
 * job's shared memory is gone afterwards.
 */
#include "../pm/pmtest.h"

#define BIG (64 << 20)

static int child(void)
{
    int rank, x;
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0 && getenv("LOOM_SHM"))
        printf("shm %s\n", getenv("LOOM_SHM"));
    fflush(stdout);
    if (rank == 0) {
        char *buf = malloc(BIG);
        memset(buf, 1, BIG);
        MPI_Send(buf, BIG, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        char *buf = calloc(BIG, 1);
        MPI_Request req;
        int done = 0;
        MPI_Irecv(buf, BIG, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &req);
        while (!buf[0] && !done)
            MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        printf("rank 1 crashing\n");
        fflush(stdout);
        signal(SIGSEGV, SIG_DFL);   /* the plain crash, not a sanitizer's report */
        raise(SIGSEGV);
    } else {
        MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    printf("rank %d went on\n", rank);
    return 0;
}

/* Whether a line of text holds a, followed later on the same line by b. */
static int line_with(const char *text, const char *a, const char *b)
{
    for (const char *p = text; (p = strstr(p, a)) != NULL; p++) {
        const char *q = strstr(p, b), *eol = strchr(p, '\n');
        if (q && (!eol || q < eol))
            return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "child"))
        return child();
    MTest_Init(&argc, &argv);
    if (pm_init(argv[0]) == 0) {
        struct pm_job job;
        pm_run(&job, (const char *[]) { "-n", "3", pm_self, "child", NULL }, NULL, NULL, 60);
        int code = pm_exit_code(&job);
        CHECK(code != 0 && code != -1, "mpiexec exited with %d, expected a failure", code);
        CHECK_EQ(code, 128 + SIGSEGV);
        CHECK(job.seconds < 15, "the job took %.1f s to end", job.seconds);
        CHECK(strstr(job.outbuf, "rank 1 crashing\n"), "rank 1's last line is missing");
        CHECK(!strstr(job.outbuf, "went on"), "a rank went on after the crash");
        CHECK(line_with(job.errbuf, "rank 1 ", "signal 11"), "mpiexec does not say that rank 1 died of signal 11");
        char name[256], path[300];
        const char *line = strstr(job.outbuf, "shm /");
        if (line && sscanf(line, "shm %255s", name) == 1) {
            snprintf(path, sizeof path, "/dev/shm%s", name);
            CHECK(access(path, F_OK) != 0, "%s still exists after the job", path);
        }
        if (mtest_errs)
            PM_SHOW(&job);
        pm_free(&job);
    }
    return MTest_Finalize();
}
