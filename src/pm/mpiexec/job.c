/*
 * The life of a job: start the ranks, then sleep in poll() until something happens.
 *
 *  - Output on a rank's pipe: its lines are passed on (stdio.c).
 *  - A rank ended (SIGCHLD): it is reaped. A rank that fails -- a non-zero exit status, which is
 *    how MPI_Abort ends a process, or death by a signal, which mpiexec reports -- ends the job: the
 *    others get SIGTERM, and SIGKILL MPX_KILL_GRACE seconds later. mpiexec's status is the highest
 *    among the ranks that ended by themselves, before mpiexec ended the job: the abort code, the
 *    failing rank's status, 128+N for a rank killed by signal N; 0 when all ranks succeed.
 *  - MPIEXEC_TIMEOUT expired: mpiexec says so and ends the job; status MPX_TIMEOUT_STATUS.
 *  - mpiexec got SIGINT, SIGTERM or SIGHUP: the ranks get the same signal (after a second one,
 *    SIGKILL); status 128+N.
 *
 * The job is over when every rank is reaped and its pipes are closed (or MPX_DRAIN_WAIT seconds
 * after the last rank ended, if something the ranks started keeps them open).
 */
#include "mpiexec.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void kill_running(struct mpx_job *job, int sig)
{
    for (int r = 0; r < job->size; r++)
        if (job->ranks[r].state == MPX_RUNNING)
            kill(job->ranks[r].pid, sig);
}

/* Tells the ranks still running to stop with sig; SIGKILL follows MPX_KILL_GRACE seconds later. */
static void end_job(struct mpx_job *job, int sig)
{
    if (!job->ending) {
        job->ending = 1;
        job->term_sig = sig;
        job->kill_at = mpx_now() + MPX_KILL_GRACE;
    }
    kill_running(job, sig);
}

static void on_signal(struct mpx_job *job, int sig)
{
    if (job->signalled) {
        /* Asked twice: no more patience. */
        kill_running(job, SIGKILL);
        return;
    }
    job->signalled = sig;
    job->code = 128 + sig;
    end_job(job, sig);
}

static int find_rank(const struct mpx_job *job, pid_t pid)
{
    for (int r = 0; r < job->size; r++)
        if (job->ranks[r].pid == pid && job->ranks[r].state == MPX_RUNNING)
            return r;
    return -1;
}

/* Whether a rank died of a signal mpiexec sent it. */
static int killed_by_us(const struct mpx_job *job, int sig)
{
    return job->ending && (sig == job->term_sig || sig == job->signalled || sig == SIGKILL);
}

/* Reaps the ranks that ended; the first failure among them ends the job. */
static void reap(struct mpx_job *job)
{
    int failed = -1, status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        int r = find_rank(job, pid);
        if (r < 0)
            continue;
        struct mpx_rank *rank = &job->ranks[r];
        rank->state = MPX_DONE;
        rank->status = status;
        job->running--;
        /* The rank's last words come before what mpiexec has to say about it. */
        mpx_stream_drain(&rank->out, job->opt->label);
        mpx_stream_drain(&rank->err, job->opt->label);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
            continue;
        if (WIFSIGNALED(status) && !killed_by_us(job, WTERMSIG(status)))
            fprintf(stderr, "mpiexec: rank %d (pid %d) killed by signal %d (%s)%s\n", r, (int) pid,
                    WTERMSIG(status), strsignal(WTERMSIG(status)), WCOREDUMP(status) ? ", core dumped" : "");
        if (job->ending)
            continue;
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        if (code > job->code)
            job->code = code;
        if (failed < 0)
            failed = r;
    }
    if (failed >= 0 && job->running > 0) {
        const struct mpx_rank *rank = &job->ranks[failed];
        if (WIFEXITED(rank->status))
            fprintf(stderr, "mpiexec: rank %d (pid %d) exited with status %d; ending the other ranks\n", failed,
                    (int) rank->pid, WEXITSTATUS(rank->status));
        end_job(job, SIGTERM);
    }
}

static void wake_at(double *wake, double t)
{
    if (*wake == 0 || t < *wake)
        *wake = t;
}

/* Milliseconds from now until t, rounded up so that poll does not return just before it. */
static int ms_until(double t, double now)
{
    double ms = ceil((t - now) * 1e3);
    return ms < 0 ? 0 : ms > 1e6 ? 1000000 : (int) ms;
}

static void check_clocks(struct mpx_job *job, double deadline)
{
    double now = mpx_now();
    if (!job->ending && deadline && now >= deadline && job->running > 0) {
        fprintf(stderr, "mpiexec: the job exceeded its time limit (MPIEXEC_TIMEOUT=%g s); ending it\n",
                job->opt->timeout);
        job->code = MPX_TIMEOUT_STATUS;
        end_job(job, SIGTERM);
    }
    if (job->ending && job->kill_at && now >= job->kill_at) {
        kill_running(job, SIGKILL);
        job->kill_at = 0;
    }
}

int mpx_job_run(struct mpx_job *job)
{
    const int label = job->opt->label;
    size_t nfds = 1 + 2 * (size_t) job->size;
    struct pollfd *fds = malloc(nfds * sizeof *fds);
    struct mpx_stream **streams = malloc(nfds * sizeof *streams);
    if (!fds || !streams) {
        fprintf(stderr, "mpiexec: out of memory\n");
        free(fds);
        free(streams);
        return 1;
    }

    fflush(NULL);
    double deadline = job->opt->timeout > 0 ? mpx_now() + job->opt->timeout : 0;
    for (int r = 0; r < job->size && !mpx_signals_stopping(); r++)
        if (mpx_launch(job, r) != 0) {
            job->code = 1;
            end_job(job, SIGTERM);
            break;
        }

    double drain_until = 0;
    for (;;) {
        double now = mpx_now(), wake = 0;
        nfds_t n = 1;
        fds[0] = (struct pollfd) { .fd = mpx_signals_fd(), .events = POLLIN };
        for (int r = 0; r < job->size; r++) {
            struct mpx_stream *pair[2] = { &job->ranks[r].out, &job->ranks[r].err };
            for (int k = 0; k < 2; k++) {
                if (pair[k]->fd < 0)
                    continue;
                fds[n] = (struct pollfd) { .fd = pair[k]->fd, .events = POLLIN };
                streams[n++] = pair[k];
                if (pair[k]->len)
                    wake_at(&wake, pair[k]->since + MPX_PARTIAL_WAIT);
            }
        }
        if (job->running == 0) {
            if (n == 1)
                break;
            if (drain_until == 0)
                drain_until = now + MPX_DRAIN_WAIT;
            else if (now >= drain_until)
                break;
            wake_at(&wake, drain_until);
        }
        if (job->ending && job->kill_at)
            wake_at(&wake, job->kill_at);
        if (!job->ending && deadline)
            wake_at(&wake, deadline);

        if (poll(fds, n, wake ? ms_until(wake, now) : -1) < 0 && errno != EINTR) {
            perror("mpiexec: poll");
            end_job(job, SIGKILL);
            nanosleep(&(struct timespec) { .tv_nsec = 10000000 }, NULL);
        }

        /* Signals first: a rank that dies of the SIGINT mpiexec got too was not killed by surprise. */
        for (int sig; (sig = mpx_signals_take()) != 0;)
            if (sig != SIGCHLD)
                on_signal(job, sig);
        for (nfds_t i = 1; i < n; i++)
            if (fds[i].revents)
                mpx_stream_read(streams[i], label);
        reap(job);
        now = mpx_now();
        for (nfds_t i = 1; i < n; i++)
            if (streams[i]->fd >= 0 && streams[i]->len && now >= streams[i]->since + MPX_PARTIAL_WAIT)
                mpx_stream_flush(streams[i], label);
        check_clocks(job, deadline);
    }

    for (int r = 0; r < job->size; r++) {
        mpx_stream_close(&job->ranks[r].out, label);
        mpx_stream_close(&job->ranks[r].err, label);
    }
    free(fds);
    free(streams);
    return job->code;
}
