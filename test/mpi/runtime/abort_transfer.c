/*
 * MPI_Abort in the middle of real communication ends the whole job with the abort code, within
 * seconds, and leaves no shared memory behind. A driver (../pm/pmtest.h) runs this program as an
 * inner job of 4 ranks twice:
 *   world: rank 1 has received the first part of a 64 MB pipelined message from rank 0 when it
 *          calls MPI_Abort(MPI_COMM_WORLD, 42); rank 0 is stuck in that MPI_Send, rank 2 in an
 *          MPI_Barrier, rank 3 in an MPI_Recv from MPI_ANY_SOURCE;
 *   self:  rank 2 calls MPI_Abort(MPI_COMM_SELF, 5) while the others wait in MPI_Barrier (MPI 4.1,
 *          11.2: aborting a communicator's group may end every process; ours ends the job).
 * What a rank prints before aborting reaches mpiexec's output.
 */
#include "../pm/pmtest.h"

#define BIG (64 << 20)

static int child(const char *mode)
{
    int rank, x = 0;
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0 && getenv("LOOM_SHM"))
        printf("shm %s\n", getenv("LOOM_SHM"));
    fflush(stdout);
    if (!strcmp(mode, "self")) {
        if (rank == 2) {
            printf("rank 2 aborting\n");
            fflush(stdout);
            MPI_Abort(MPI_COMM_SELF, 5);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        return 0;
    }
    if (rank == 0) {
        char *buf = malloc(BIG);
        memset(buf, 1, BIG);
        MPI_Send(buf, BIG, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        /* wait for the first chunks, then abort with the rest of the message in flight */
        char *buf = calloc(BIG, 1);
        MPI_Request req;
        int done = 0;
        MPI_Irecv(buf, BIG, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &req);
        while (!buf[0] && !done)
            MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        printf("rank 1 aborting%s\n", done ? " (the message was complete)" : "");
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 42);
    } else if (rank == 2) {
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    printf("rank %d went on\n", rank);
    return 0;
}

/* The shared-memory object the job used (named on its "shm" line) no longer exists. */
static void check_shm_gone(const struct pm_job *job)
{
    char name[256];
    const char *line = strstr(job->outbuf, "shm /");
    if (line && sscanf(line, "shm %255s", name) == 1) {
        char path[300];
        snprintf(path, sizeof path, "/dev/shm%s", name);
        CHECK(access(path, F_OK) != 0, "%s still exists after the job", path);
    }
}

static void run(const char *mode, int want_code, const char *want_line)
{
    struct pm_job job;
    pm_run(&job, (const char *[]) { "-n", "4", pm_self, "child", mode, NULL }, NULL, NULL, 60);
    int before = mtest_errs;
    CHECK(pm_exit_code(&job) == want_code, "%s: mpiexec exited with %d, expected the abort code %d", mode,
          pm_exit_code(&job), want_code);
    CHECK(job.seconds < 15, "%s: the job took %.1f s to end", mode, job.seconds);
    CHECK(strstr(job.outbuf, want_line), "%s: no line '%s' in the output", mode, want_line);
    CHECK(!strstr(job.outbuf, "went on"), "%s: a rank went on after the abort", mode);
    check_shm_gone(&job);
    if (mtest_errs != before)
        PM_SHOW(&job);
    pm_free(&job);
}

int main(int argc, char **argv)
{
    if (argc > 2 && !strcmp(argv[1], "child"))
        return child(argv[2]);
    MTest_Init(&argc, &argv);
    if (pm_init(argv[0]) == 0) {
        run("world", 42, "rank 1 aborting");
        run("self", 5, "rank 2 aborting\n");
    }
    return MTest_Finalize();
}
