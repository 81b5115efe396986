/*
 * Shared by the runtime tests in which a rank dies in the middle of real communication: in the
 * inner job, rank 0 names the job's shared-memory object and sends a 64 MB pipelined message to
 * rank 1, which has received the first part of it when it dies; the driver (../pm/pmtest.h) then
 * checks that the whole job ended.
 */
#ifndef MIDTRANSFER_H_INCLUDED
#define MIDTRANSFER_H_INCLUDED

#include "../pm/pmtest.h"

#define MT_BIG (64 << 20)

/* Rank 0 prints "shm NAME", the job's shared-memory object, for mt_check_ended. */
static inline void mt_say_shm(int rank)
{
    if (rank == 0 && getenv("LOOM_SHM"))
        printf("shm %s\n", getenv("LOOM_SHM"));
    fflush(stdout);
}

/* Rank 0: sends the MT_BIG bytes to rank 1 (and is stuck in MPI_Send once rank 1 has died). */
static inline void mt_send_big(void)
{
    char *buf = malloc(MT_BIG);
    memset(buf, 1, MT_BIG);
    MPI_Send(buf, MT_BIG, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
}

/* Rank 1: receives rank 0's message until its first part has arrived, with the rest in flight;
 * returns whether the whole message had arrived by then. */
static inline int mt_recv_first_part(void)
{
    char *buf = calloc(MT_BIG, 1);
    MPI_Request req;
    int done = 0;
    MPI_Irecv(buf, MT_BIG, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &req);
    while (!buf[0] && !done)
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    return done;
}

/* The driver's checks of the job that ran (what names it in the messages): mpiexec exited with
 * code within 15 s; want_line is in the output and no "went on" line (which a rank prints if it
 * survives); the shared-memory object named on the "shm" line no longer exists. */
static inline void mt_check_ended(const struct pm_job *job, const char *what, int code, const char *want_line)
{
    CHECK(pm_exit_code(job) == code, "%s: mpiexec exited with %d, expected %d", what, pm_exit_code(job), code);
    CHECK(job->seconds < 15, "%s: the job took %.1f s to end", what, job->seconds);
    CHECK(strstr(job->outbuf, want_line), "%s: no line '%s' in the output", what, want_line);
    CHECK(!strstr(job->outbuf, "went on"), "%s: a rank went on after the others had to end", what);
    char name[256];
    const char *line = strstr(job->outbuf, "shm /");
    if (line && sscanf(line, "shm %255s", name) == 1) {
        char path[300];
        snprintf(path, sizeof path, "/dev/shm%s", name);
        CHECK(access(path, F_OK) != 0, "%s: %s still exists after the job", what, path);
    }
}

#endif
