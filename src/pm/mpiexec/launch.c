/*
 * Starting a rank: fork, then in the child put its stdio in place, set its environment, bind it,
 * and exec the program (found once for all ranks, as execvp would find it).
 *
 * Stdio: stdout and stderr are pipes that mpiexec reads (stdio.c). Rank 0 inherits mpiexec's own
 * stdin, which forwards it without a copy and without mpiexec reading ahead of what rank 0 reads
 * (input meant for whatever runs after mpiexec stays where it is); the other ranks read /dev/null.
 * All of mpiexec's own descriptors are close-on-exec, so a rank holds only its own pipes.
 */
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_executable(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return 0;
    if (!S_ISREG(st.st_mode)) {
        errno = EACCES;
        return 0;
    }
    return access(path, X_OK) == 0;
}

/* The file execvp(name) would run: name itself if it holds a '/', else the first executable file
 * of that name in a PATH directory (an empty entry is the current one). Returns a malloc'ed path,
 * or NULL with errno: ENOENT, or EACCES if only files that cannot run were found. */
static char *find_program(const char *name)
{
    if (strchr(name, '/'))
        return is_executable(name) ? strdup(name) : NULL;
    const char *dirs = getenv("PATH");
    if (!dirs)
        dirs = "/bin:/usr/bin";
    int err = ENOENT;
    for (const char *dir = dirs;; ) {
        const char *colon = strchrnul(dir, ':');
        int dlen = (int) (colon - dir);
        char *full = malloc((size_t) dlen + strlen(name) + 3);
        if (!full)
            return NULL;
        sprintf(full, "%.*s/%s", dlen ? dlen : 1, dlen ? dir : ".", name);
        if (is_executable(full))
            return full;
        if (errno == EACCES)
            err = EACCES;
        free(full);
        if (!*colon)
            break;
        dir = colon + 1;
    }
    errno = err;
    return NULL;
}

/* Finds every section's program before any rank starts, so that a typo is one message, not one
 * per rank. Returns 0, or the status of a shell that cannot run a program (127 or 126). */
int mpx_find_programs(struct mpx_options *opt)
{
    for (int i = 0; i < opt->nsections; i++) {
        struct mpx_section *sec = &opt->sections[i];
        sec->path = find_program(sec->argv[0]);
        if (!sec->path) {
            int err = errno;
            fprintf(stderr, "mpiexec: cannot run '%s': %s\n", sec->argv[0], strerror(err));
            return err == ENOENT ? 127 : 126;
        }
    }
    return 0;
}

static struct rlimit fd_limit;  /* as mpiexec was started: the ranks get it back */
static int fd_limit_raised;

/* Each rank costs mpiexec two descriptors; many ranks may need more than the soft limit. */
void mpx_raise_fd_limit(int nprocs)
{
    rlim_t need = 2 * (rlim_t) nprocs + 64;
    if (getrlimit(RLIMIT_NOFILE, &fd_limit) != 0 || fd_limit.rlim_cur >= need)
        return;
    struct rlimit more = fd_limit;
    more.rlim_cur = fd_limit.rlim_max < need ? fd_limit.rlim_max : need;
    fd_limit_raised = setrlimit(RLIMIT_NOFILE, &more) == 0;
}

static void set_env(int rank, const char *name, const char *value)
{
    if (setenv(name, value, 1) != 0) {
        fprintf(stderr, "mpiexec: rank %d: cannot set %s: %s\n", rank, name, strerror(errno));
        _exit(126);
    }
}

static void set_env_int(int rank, const char *name, long value)
{
    char text[24];
    snprintf(text, sizeof text, "%ld", value);
    set_env(rank, name, text);
}

/* The child side of mpx_launch: becomes rank r. */
static void __attribute__((noreturn)) start_rank(const struct mpx_job *job, int r, int out, int err,
                                                 const sigset_t *mask)
{
    const struct mpx_options *opt = job->opt;
    const struct mpx_section *sec = &opt->sections[job->ranks[r].section];

    mpx_signals_child(mask);
    /* A rank must not outlive an mpiexec killed outright (which then cannot end it). */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != job->pid)
        _exit(126);
    if (dup2(out, 1) < 0 || dup2(err, 2) < 0)
        _exit(126);
    if (r != 0) {
        int fd = open("/dev/null", O_RDONLY);
        if (fd < 0 || dup2(fd, 0) < 0)
            close(0);
        if (fd > 0)
            close(fd);
    }
    for (int i = 0; i < opt->ngenv; i++)
        set_env(r, opt->genv[i].name, opt->genv[i].value);
    for (int i = 0; i < sec->nenv; i++)
        set_env(r, sec->env[i].name, sec->env[i].value);
    set_env_int(r, "LOOM_RANK", r);
    set_env_int(r, "LOOM_SIZE", job->size);
    set_env(r, "LOOM_SHM", job->shm);
    set_env_int(r, "LOOM_MPIEXEC_PID", job->pid);
    mpx_bind_rank(r);
    if (fd_limit_raised)
        setrlimit(RLIMIT_NOFILE, &fd_limit);
    execv(sec->path, sec->argv);
    int e = errno;
    fprintf(stderr, "mpiexec: rank %d: cannot run '%s': %s\n", r, sec->path, strerror(e));
    _exit(e == ENOENT ? 127 : 126);
}

static void close_pipe(int p[2])
{
    for (int i = 0; i < 2; i++)
        if (p[i] >= 0)
            close(p[i]);
}

/* Starts rank r. Returns 0, or -1 after saying why it could not. */
int mpx_launch(struct mpx_job *job, int r)
{
    struct mpx_rank *rank = &job->ranks[r];
    int out[2] = { -1, -1 }, err[2] = { -1, -1 };
    if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
        fprintf(stderr, "mpiexec: cannot start rank %d: %s\n", r, strerror(errno));
        close_pipe(out);
        close_pipe(err);
        return -1;
    }
    sigset_t mask;
    mpx_signals_block(&mask);
    pid_t pid = fork();
    if (pid == 0)
        start_rank(job, r, out[1], err[1], &mask);
    int fork_errno = errno;
    mpx_signals_restore(&mask);
    close(out[1]);
    close(err[1]);
    if (pid < 0) {
        fprintf(stderr, "mpiexec: cannot start rank %d: %s\n", r, strerror(fork_errno));
        close(out[0]);
        close(err[0]);
        return -1;
    }
    fcntl(out[0], F_SETFL, O_NONBLOCK);
    fcntl(err[0], F_SETFL, O_NONBLOCK);
    rank->pid = pid;
    rank->state = MPX_RUNNING;
    job->running++;
    mpx_stream_open(&rank->out, out[0], 1, r);
    mpx_stream_open(&rank->err, err[0], 2, r);
    return 0;
}
