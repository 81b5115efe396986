/*
 * A rank that crashes in the middle of real communication: mpiexec reports which rank died of
 * which signal, ends the others within seconds and exits non-zero (128 + 11 here). The inner job
 * has 3 ranks: rank 1 has received the first part of a 64 MB pipelined message from rank 0 when
 * it dies of SIGSEGV; rank 0 is stuck in that MPI_Send, rank 2 in an MPI_Recv from rank 1. The
 * job's shared memory is gone afterwards.
 */
#include "midtransfer.h"

static int child(char **argv)
{
    int rank, x;
    (void) argv;
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mt_say_shm(rank);
    if (rank == 0) {
        mt_send_big();
    } else if (rank == 1) {
        mt_recv_first_part();
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

static void driver(void)
{
    struct pm_job job;
    pm_run(&job, (const char *[]) { "-n", "3", pm_self, "child", "crash", NULL }, NULL, NULL, 60);
    int before = mtest_errs, code = pm_exit_code(&job);
    CHECK(code != 0 && code != -1, "mpiexec exited with %d, expected a failure", code);
    mt_check_ended(&job, "crash", 128 + SIGSEGV, "rank 1 crashing\n");
    CHECK(line_with(job.errbuf, "rank 1 ", "signal 11"), "mpiexec does not say that rank 1 died of signal 11");
    pm_done(&job, before);
}

int main(int argc, char **argv)
{
    return pm_main(argc, argv, child, driver);
}
