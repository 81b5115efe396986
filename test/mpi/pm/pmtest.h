/*
 * Helpers for the tests of mpiexec itself. Such a test is a driver: the runner starts it as one
 * process, and it runs the launcher under test (the runner puts its path in MPIEXEC) on this same
 * program in a child mode, with options of its own, then checks the exit status and the output:
 *
 *     static int child(char **argv) { ... }          // one rank of the inner job: argv after "child"
 *     static void driver(void)
 *     {
 *         struct pm_job job;
 *         pm_run(&job, (const char *[]) { "-n", "2", pm_self, "child", "x", NULL }, NULL, NULL, 30);
 *         int before = mtest_errs;
 *         CHECK_EQ(pm_exit_code(&job), 0);
 *         ...
 *         pm_done(&job, before);
 *     }
 *     int main(int argc, char **argv) { return pm_main(argc, argv, child, driver); }
 *
 * A rank of the inner job knows its rank from LOOM_RANK (what mpiexec gives the device), so these
 * tests do not depend on the device unless they mean to.
 */
#ifndef PMTEST_H_INCLUDED
#define PMTEST_H_INCLUDED

#ifndef _GNU_SOURCE
#define _GNU_SOURCE     /* pipe2; this header comes first in a test */
#endif
#include "mtest.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char pm_self[PATH_MAX];      /* this program, for the inner job to run */
static const char *pm_mpiexec;      /* the launcher under test */

/* Returns 0, or -1 (a failure is recorded) when the runner did not say where mpiexec is. */
static inline int pm_init(const char *argv0)
{
    if (!realpath(argv0, pm_self))
        MTEST_FAIL("cannot find this program (%s): %s", argv0, strerror(errno));
    pm_mpiexec = getenv("MPIEXEC");
    if (!pm_mpiexec || !*pm_mpiexec) {
        MTEST_FAIL("MPIEXEC is not set: run this test through test/runtests");
        return -1;
    }
    /* Writing to an inner job that has stopped reading must not kill the driver. */
    signal(SIGPIPE, SIG_IGN);
    return 0;
}

static inline double pm_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

static inline void pm_sleep(double seconds)
{
    struct timespec ts = { (time_t) seconds, (long) ((seconds - (double) (time_t) seconds) * 1e9) };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* The rank mpiexec gave this process (a child mode), or -1. */
static inline int pm_rank(void)
{
    const char *r = getenv("LOOM_RANK");
    return r ? atoi(r) : -1;
}

struct pm_job {
    pid_t pid;                  /* mpiexec's */
    int in, out, err;           /* our ends of its stdin, stdout, stderr; -1 once closed */
    const char *input;          /* what is still to be written to its stdin */
    size_t inlen;
    char *outbuf, *errbuf;      /* everything it wrote so far, NUL-terminated */
    size_t outlen, errlen;
    double start, seconds;      /* when it started, how long it ran */
    int status;                 /* its wait status, once it ended */
    int killed;                 /* it outlived the driver's patience and was killed */
};

/* Starts `MPIEXEC args...` with the extra environment env ("NAME=VALUE"..., NULL; or NULL).
 * MPIEXEC_TIMEOUT is not passed on unless env sets it. Its stdin stays open until pm_close_input
 * or the input given to pm_finish has been written. Returns 0 or -1. */
static inline int pm_start(struct pm_job *job, const char *const args[], const char *const env[])
{
    memset(job, 0, sizeof *job);
    job->in = job->out = job->err = -1;
    job->outbuf = calloc(1, 1);
    job->errbuf = calloc(1, 1);
    int in[2], out[2], err[2];
    if (!job->outbuf || !job->errbuf || pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC)) {
        MTEST_FAIL("cannot start mpiexec: %s", strerror(errno));
        return -1;
    }
    int nargs = 0;
    while (args[nargs])
        nargs++;
    const char **argv = calloc((size_t) nargs + 2, sizeof *argv);
    if (!argv) {
        MTEST_FAIL("out of memory");
        return -1;
    }
    argv[0] = pm_mpiexec;
    memcpy(argv + 1, args, (size_t) nargs * sizeof *argv);
    fflush(NULL);
    job->start = pm_now();
    job->pid = fork();
    if (job->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(err[1], 2);
        /* The launcher sees the dispositions a shell in the foreground would give it. */
        signal(SIGPIPE, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        unsetenv("MPIEXEC_TIMEOUT");
        for (int i = 0; env && env[i]; i++)
            putenv((char *) env[i]);
        execv(pm_mpiexec, (char **) argv);
        fprintf(stderr, "cannot run %s: %s\n", pm_mpiexec, strerror(errno));
        _exit(127);
    }
    free(argv);
    close(in[0]);
    close(out[1]);
    close(err[1]);
    if (job->pid < 0) {
        MTEST_FAIL("fork: %s", strerror(errno));
        close(in[1]);
        close(out[0]);
        close(err[0]);
        return -1;
    }
    job->in = in[1];
    job->out = out[0];
    job->err = err[0];
    fcntl(job->in, F_SETFL, O_NONBLOCK);
    return 0;
}

static inline void pm_close_input(struct pm_job *job)
{
    if (job->in >= 0)
        close(job->in);
    job->in = -1;
    job->inlen = 0;
}

static inline void pm_append(int *fd, char **buf, size_t *len)
{
    char chunk[65536];
    ssize_t n = read(*fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
        return;
    if (n <= 0) {
        close(*fd);
        *fd = -1;
        return;
    }
    char *bigger = realloc(*buf, *len + (size_t) n + 1);
    if (!bigger) {
        MTEST_FAIL("out of memory");
        return;
    }
    memcpy(bigger + *len, chunk, (size_t) n);
    *len += (size_t) n;
    bigger[*len] = 0;
    *buf = bigger;
}

/* Moves input and output for up to `wait` seconds. Returns 0 once mpiexec's stdout and stderr are
 * both closed, else 1. */
static inline int pm_pump(struct pm_job *job, double wait)
{
    struct pollfd p[3];
    int n = 0;
    if (job->out >= 0)
        p[n++] = (struct pollfd) { .fd = job->out, .events = POLLIN };
    if (job->err >= 0)
        p[n++] = (struct pollfd) { .fd = job->err, .events = POLLIN };
    if (n == 0)
        return 0;
    if (job->in >= 0 && job->inlen)
        p[n++] = (struct pollfd) { .fd = job->in, .events = POLLOUT };
    if (poll(p, (nfds_t) n, (int) (wait * 1e3)) <= 0)
        return 1;
    for (int i = 0; i < n; i++) {
        if (!p[i].revents)
            continue;
        if (p[i].fd == job->out)
            pm_append(&job->out, &job->outbuf, &job->outlen);
        else if (p[i].fd == job->err)
            pm_append(&job->err, &job->errbuf, &job->errlen);
        else {
            ssize_t k = write(job->in, job->input, job->inlen);
            if (k > 0) {
                job->input += k;
                job->inlen -= (size_t) k;
                if (job->inlen == 0)
                    pm_close_input(job);
            } else if (k < 0 && errno != EAGAIN && errno != EINTR) {
                pm_close_input(job);    /* nobody reads any more */
            }
        }
    }
    return 1;
}

/* Waits up to `limit` seconds for text to appear in mpiexec's stdout; returns whether it did. */
static inline int pm_expect(struct pm_job *job, const char *text, double limit)
{
    double until = pm_now() + limit;
    while (!strstr(job->outbuf, text) && pm_now() < until && pm_pump(job, 0.05)) {
    }
    return strstr(job->outbuf, text) != NULL;
}

/* Writes input (may be NULL) to mpiexec's stdin, then closes it; collects the output until
 * mpiexec ends; kills it (a failure) if it runs longer than limit seconds from now. */
static inline void pm_finish(struct pm_job *job, const char *input, double limit)
{
    if (input) {
        job->input = input;
        job->inlen = strlen(input);
    }
    if (job->inlen == 0)
        pm_close_input(job);
    double until = pm_now() + limit;
    while (pm_pump(job, 0.1)) {
        if (!job->killed && pm_now() > until) {
            MTEST_FAIL("mpiexec still runs after %g s: killed", limit);
            kill(job->pid, SIGKILL);
            job->killed = 1;
        }
    }
    pm_close_input(job);
    while (waitpid(job->pid, &job->status, 0) < 0 && errno == EINTR) {
    }
    job->seconds = pm_now() - job->start;
}

/* pm_start + pm_finish. */
static inline void pm_run(struct pm_job *job, const char *const args[], const char *const env[],
                          const char *input, double limit)
{
    if (pm_start(job, args, env) == 0)
        pm_finish(job, input, limit);
    else
        job->status = -1;
}

/* mpiexec's exit status, or -1 if it did not exit (it was killed). */
static inline int pm_exit_code(const struct pm_job *job)
{
    return WIFEXITED(job->status) ? WEXITSTATUS(job->status) : -1;
}

static inline void pm_free(struct pm_job *job)
{
    free(job->outbuf);
    free(job->errbuf);
    job->outbuf = job->errbuf = NULL;
}

/* How many times needle occurs in text. */
static inline int pm_count(const char *text, const char *needle)
{
    int n = 0;
    size_t len = strlen(needle);
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p += len)
        n++;
    return n;
}

/* On failure, what mpiexec said helps. */
#define PM_SHOW(job) \
    fprintf(stderr, "  [mpiexec exit %d after %.1fs]\n  stdout: %.2000s\n  stderr: %.2000s\n", \
            pm_exit_code(job), (job)->seconds, (job)->outbuf, (job)->errbuf)

/* After the checks of a job (before: mtest_errs when they began): shows what mpiexec said if one
 * of them failed, and frees the job. */
static inline void pm_done(struct pm_job *job, int before)
{
    if (mtest_errs != before)
        PM_SHOW(job);
    pm_free(job);
}

/* The main of a launcher test: with "child" and an argument, this process is a rank of an inner
 * job and returns child(the arguments after "child"); else it is the driver, run once mpiexec is
 * known. */
static inline int pm_main(int argc, char **argv, int (*child)(char **), void (*driver)(void))
{
    if (argc > 2 && !strcmp(argv[1], "child"))
        return child(argv + 2);
    MTest_Init(&argc, &argv);
    if (pm_init(argv[0]) == 0)
        driver();
    return MTest_Finalize();
}

#endif
