/*
 * mpiexec: the process manager of Loom MPI. It starts the ranks of a job on this machine and
 * stays with them until they are all gone:
 *
 *   args.c     the command line (and MPIEXEC_TIMEOUT) into struct mpx_options
 *   launch.c   finding the programs; fork + exec of one rank with its stdio, environment, binding
 *   bind.c     -bind-to: the hwloc object a rank runs on
 *   stdio.c    forwarding the ranks' stdout/stderr line by line, optionally labelled "[rank] "
 *   signals.c  signals as bytes on a pipe, so the event loop sleeps in poll() and never spins
 *   job.c      the event loop: output, exits, aborts, crashes, the time limit, signals to mpiexec
 *   main.c     the order of it all, and the removal of the job's shared-memory object
 *
 * What a rank gets (the contract with the device, src/mpid/shm): the environment variables
 * LOOM_RANK, LOOM_SIZE, LOOM_SHM (the name of the job's POSIX shared-memory object, which rank 0
 * creates and mpiexec unlinks when the job ends, however it ends) and LOOM_MPIEXEC_PID. A rank
 * that calls MPI_Abort exits with the abort code; mpiexec then ends the others.
 */
#ifndef MPIEXEC_H_INCLUDED
#define MPIEXEC_H_INCLUDED

#include "loom_config.h"

#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

/* mpiexec's own exit status when MPIEXEC_TIMEOUT expires (the one timeout(1) uses). */
#define MPX_TIMEOUT_STATUS 124
/* Seconds between the polite signal to the ranks and SIGKILL. */
#define MPX_KILL_GRACE 2.0
/* Seconds the start of an output line waits for its end before it is passed on without it. */
#define MPX_PARTIAL_WAIT 0.2
/* Seconds the output pipes of ended ranks may stay open (held by processes the ranks started). */
#define MPX_DRAIN_WAIT 1.0

/* A NAME=VALUE for the ranks' environment; both point into argv. */
struct mpx_env {
    const char *name, *value;
};

/* One executable of the command line, `[-n N] [-env NAME VALUE]... program args`; an MPMD job has
 * several, separated by ':'. Its ranks follow those of the sections before it. */
struct mpx_section {
    int nprocs;
    struct mpx_env *env;
    int nenv;
    char **argv;        /* NULL-terminated, inside main's argv */
    char *path;         /* argv[0] as execvp would find it (launch.c) */
};

struct mpx_options {
    struct mpx_section *sections;
    int nsections;
    int nprocs;             /* over all sections */
    struct mpx_env *genv;   /* -genv: for every rank, before the section's -env */
    int ngenv;
    int label;              /* -l: prefix each output line with "[rank] " */
    const char *bind_to;    /* -bind-to: "none", "core", "numa", ... */
    double timeout;         /* MPIEXEC_TIMEOUT in seconds; 0 for none */
};

/* One output pipe of a rank and the start of a line read from it but not forwarded yet. */
struct mpx_stream {
    int fd;             /* our (non-blocking) read end; -1 once closed */
    int to;             /* 1 or 2: mpiexec's stdout or stderr */
    int rank;
    int midline;        /* -l: the last piece forwarded did not end its line */
    char *buf;
    size_t len, cap;
    double since;       /* when buf's first byte arrived (mpx_now) */
};

enum mpx_rank_state { MPX_UNBORN, MPX_RUNNING, MPX_DONE };

struct mpx_rank {
    pid_t pid;
    int section;
    enum mpx_rank_state state;
    int status;                 /* wait status, once MPX_DONE */
    struct mpx_stream out, err;
};

struct mpx_job {
    const struct mpx_options *opt;
    int size;
    struct mpx_rank *ranks;
    pid_t pid;                  /* mpiexec's */
    char shm[64];               /* LOOM_SHM */
    int running;                /* ranks started and not reaped yet */
    int ending;                 /* the survivors were told to stop: exits no longer set the code */
    int term_sig;               /* the signal they were told with */
    double kill_at;             /* when survivors get SIGKILL (ending only) */
    int signalled;              /* the signal that made mpiexec end the job, or 0 */
    int code;                   /* mpiexec's exit status so far */
};

/* args.c */
enum { MPX_RUN, MPX_HELP, MPX_BAD_ARGS };
int mpx_parse_args(int argc, char **argv, struct mpx_options *opt);
void mpx_free_options(struct mpx_options *opt);
void mpx_usage(FILE *out);

/* launch.c */
int mpx_find_programs(struct mpx_options *opt);
void mpx_raise_fd_limit(int nprocs);
int mpx_launch(struct mpx_job *job, int rank);

/* bind.c */
int mpx_bind_known(const char *level);
void mpx_bind_init(const char *level);
void mpx_bind_rank(int rank);
void mpx_bind_finalize(void);

/* stdio.c */
void mpx_stream_open(struct mpx_stream *s, int fd, int to, int rank);
int mpx_stream_read(struct mpx_stream *s, int label);
void mpx_stream_drain(struct mpx_stream *s, int label);
void mpx_stream_flush(struct mpx_stream *s, int label);
void mpx_stream_close(struct mpx_stream *s, int label);

/* signals.c */
int mpx_signals_init(void);
int mpx_signals_fd(void);
int mpx_signals_take(void);
int mpx_signals_stopping(void);
void mpx_signals_block(sigset_t *old);
void mpx_signals_restore(const sigset_t *old);
void mpx_signals_child(const sigset_t *old);

/* job.c */
int mpx_job_run(struct mpx_job *job);

/* Seconds on the monotonic clock. */
static inline double mpx_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

#endif
