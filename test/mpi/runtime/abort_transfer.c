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
#include "midtransfer.h"

static int child(char **argv)
{
    const char *mode = argv[0];
    int rank, x = 0;
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mt_say_shm(rank);
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
        mt_send_big();
    } else if (rank == 1) {
        /* wait for the first chunks, then abort with the rest of the message in flight */
        int done = mt_recv_first_part();
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

/* The inner job in mode ends with the abort code want_code, after the aborting rank's want_line. */
static void run(const char *mode, int want_code, const char *want_line)
{
    struct pm_job job;
    pm_run(&job, (const char *[]) { "-n", "4", pm_self, "child", mode, NULL }, NULL, NULL, 60);
    int before = mtest_errs;
    mt_check_ended(&job, mode, want_code, want_line);
    pm_done(&job, before);
}

static void driver(void)
{
    run("world", 42, "rank 1 aborting");
    run("self", 5, "rank 2 aborting\n");
}

int main(int argc, char **argv)
{
    return pm_main(argc, argv, child, driver);
}
