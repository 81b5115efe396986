/*
 * Signals become bytes on a pipe (the self-pipe trick): the handlers only write the signal number,
 * and the event loop, asleep in poll() on the pipe and the ranks' output, wakes up and acts on
 * them in order. So mpiexec takes no CPU while the ranks run, however many there are.
 *
 * SIGCHLD says a rank ended; SIGINT, SIGTERM and SIGHUP ask mpiexec to end the job (unless
 * mpiexec was started with them ignored, as by nohup: then they stay ignored, for the ranks too).
 * SIGPIPE is ignored: a closed stdout must not kill mpiexec before it has cleaned up. The ranks get
 * the dispositions mpiexec was started with.
 */
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static const int caught[] = { SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGPIPE };
#define NCAUGHT (int) (sizeof caught / sizeof caught[0])
static struct sigaction original[NCAUGHT];

static int self_pipe[2] = { -1, -1 };
static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
    int saved = errno;
    unsigned char byte = (unsigned char) sig;
    if (sig != SIGCHLD)
        stopping = 1;
    /* A full pipe already holds enough to wake the loop up. */
    if (write(self_pipe[1], &byte, 1) < 0) {
    }
    errno = saved;
}

int mpx_signals_init(void)
{
    if (pipe2(self_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        perror("mpiexec: pipe");
        return -1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    sigfillset(&sa.sa_mask);
    for (int i = 0; i < NCAUGHT; i++) {
        if (sigaction(caught[i], NULL, &original[i]) != 0)
            return -1;
        if (caught[i] != SIGCHLD && original[i].sa_handler == SIG_IGN)
            continue;
        sa.sa_handler = caught[i] == SIGPIPE ? SIG_IGN : on_signal;
        if (sigaction(caught[i], &sa, NULL) != 0) {
            perror("mpiexec: sigaction");
            return -1;
        }
    }
    return 0;
}

/* The descriptor to poll for POLLIN. */
int mpx_signals_fd(void)
{
    return self_pipe[0];
}

/* The next signal caught and not yet taken, or 0. */
int mpx_signals_take(void)
{
    unsigned char byte;
    return read(self_pipe[0], &byte, 1) == 1 ? byte : 0;
}

/* Whether mpiexec was asked to end the job (launching stops early). */
int mpx_signals_stopping(void)
{
    return stopping;
}

/* Around fork: all signals are blocked, so none runs our handlers in a child before it has put
 * the default ones back. */
void mpx_signals_block(sigset_t *old)
{
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, old);
}

void mpx_signals_restore(const sigset_t *old)
{
    sigprocmask(SIG_SETMASK, old, NULL);
}

/* In a new rank, before exec: the dispositions and mask mpiexec was started with (exec would
 * reset the handlers, but not SIGPIPE's SIG_IGN nor the mask). */
void mpx_signals_child(const sigset_t *old)
{
    for (int i = 0; i < NCAUGHT; i++)
        sigaction(caught[i], &original[i], NULL);
    sigprocmask(SIG_SETMASK, old, NULL);
}
