/*
 * mpiexec: starts an MPI job on this machine (see mpiexec.h for the parts, args.c for the usage).
 *
 * The job's shared-memory object is named here and passed to the ranks as LOOM_SHM; rank 0's
 * device creates it. Whatever way the job ends -- success, failure, abort, crash, time limit, a
 * signal to mpiexec -- mpiexec's last act is to unlink it, so no job leaves it behind in /dev/shm.
 * (Only an mpiexec killed by SIGKILL cannot; its ranks are killed with it.)
 */
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

/* With descriptor 0, 1 or 2 closed, the pipes mpiexec opens would take their place. */
static void open_std_fds(void)
{
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF && open("/dev/null", fd ? O_WRONLY : O_RDONLY) < 0)
            _exit(1);
}

/* "/loom-<mpiexec pid>-<random>": unique among the jobs of the machine, and its owner is known. */
static void name_shm(struct mpx_job *job)
{
    unsigned int nonce;
    if (getrandom(&nonce, sizeof nonce, GRND_NONBLOCK) != (ssize_t) sizeof nonce)
        nonce = (unsigned int) (mpx_now() * 1e9);
    snprintf(job->shm, sizeof job->shm, "/loom-%d-%08x", (int) job->pid, nonce);
}

int main(int argc, char **argv)
{
    open_std_fds();
    struct mpx_options opt;
    int rc = mpx_parse_args(argc, argv, &opt);
    if (rc != MPX_RUN)
        return rc == MPX_HELP ? 0 : 1;
    rc = mpx_find_programs(&opt);
    if (rc == 0 && mpx_signals_init() != 0)
        rc = 1;
    struct mpx_job job = { .opt = &opt, .size = opt.nprocs, .pid = getpid() };
    job.ranks = rc ? NULL : calloc((size_t) job.size, sizeof *job.ranks);
    if (rc == 0 && !job.ranks) {
        fprintf(stderr, "mpiexec: out of memory\n");
        rc = 1;
    }
    if (rc) {
        mpx_free_options(&opt);
        return rc;
    }

    for (int s = 0, r = 0; s < opt.nsections; s++)
        for (int k = 0; k < opt.sections[s].nprocs; k++, r++) {
            job.ranks[r].section = s;
            mpx_stream_open(&job.ranks[r].out, -1, 1, r);
            mpx_stream_open(&job.ranks[r].err, -1, 2, r);
        }
    name_shm(&job);
    mpx_raise_fd_limit(job.size);
    mpx_bind_init(opt.bind_to);

    rc = mpx_job_run(&job);

    if (shm_unlink(job.shm) != 0 && errno != ENOENT)
        fprintf(stderr, "mpiexec: warning: cannot remove the job's shared memory %s: %s\n", job.shm,
                strerror(errno));
    mpx_bind_finalize();
    free(job.ranks);
    mpx_free_options(&opt);
    return rc;
}
