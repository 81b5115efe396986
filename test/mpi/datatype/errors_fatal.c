/*
 * With MPI_ERRORS_ARE_FATAL (the default) or MPI_ERRORS_ABORT, an error ends the process: the
 * failing call does not return, the exit status is non-zero and the message names the call.
 *
 * The runner only knows tests that pass, so each failing call runs in a forked child and the
 * parent checks how the child ended and what it printed. (If the runtime ever makes a fatal error
 * abort the whole job through the launcher, this test must move to a runner key that expects
 * failure.)
 */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "mtest.h"

static void fail_count(void)
{
    MPI_Datatype t;
    MPI_Type_vector(-1, 2, 4, MPI_INT, &t);
}

static void fail_free_predefined(void)
{
    MPI_Datatype t = MPI_INT;
    MPI_Type_free(&t);
}

static void fail_freed_handle(void)
{
    MPI_Datatype t, stale;
    int size;
    MPI_Type_contiguous(2, MPI_INT, &t);
    stale = t;
    MPI_Type_free(&t);
    MPI_Type_size(stale, &size);
}

/* MPI_ERRORS_ARE_FATAL set again after MPI_ERRORS_RETURN. */
static void fail_fatal_restored(void)
{
    MPI_Datatype t;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Type_contiguous(-3, MPI_INT, &t);
}

static void fail_abort_handler(void)
{
    int i[4];
    MPI_Aint a[4];
    MPI_Datatype d[4];
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ABORT);
    MPI_Type_get_contents(MPI_INT, 4, 4, 4, i, a, d);
}

/* Runs fail() in a child with stdout and stderr captured; the child must end non-zero, before
 * the call returns, having printed want. */
static void expect_fatal(const char *what, void (*fail)(void), const char *want)
{
    int fds[2];
    if (pipe(fds) != 0) {
        MTEST_FAIL("%s: pipe failed", what);
        return;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        MTEST_FAIL("%s: fork failed", what);
        return;
    }
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        fail();
        printf("RETURNED\n");   /* only if the error handler let the call return */
        fflush(stdout);
        _exit(0);
    }
    close(fds[1]);
    char out[8192], chunk[1024];
    size_t n = 0;
    ssize_t r;
    while ((r = read(fds[0], chunk, sizeof chunk)) > 0) {      /* drain all, keep what fits */
        size_t keep = (size_t) r < sizeof out - 1 - n ? (size_t) r : sizeof out - 1 - n;
        memcpy(out + n, chunk, keep);
        n += keep;
    }
    out[n] = '\0';
    close(fds[0]);
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) {
        MTEST_FAIL("%s: waitpid failed", what);
        return;
    }
    CHECK(!(WIFEXITED(status) && WEXITSTATUS(status) == 0),
          "%s: the process survived the error (exit status 0)", what);
    CHECK(strstr(out, "RETURNED") == NULL, "%s: the failing call returned", what);
    CHECK(strstr(out, want) != NULL, "%s: output \"%s\" lacks \"%s\"", what, out, want);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);

    expect_fatal("negative count", fail_count, "MPI_Type_vector(count=-1");
    expect_fatal("free of a predefined type", fail_free_predefined, "MPI_Type_free(");
    expect_fatal("freed handle", fail_freed_handle, "MPI_Type_size(");
    expect_fatal("MPI_ERRORS_ARE_FATAL set again", fail_fatal_restored,
                 "MPI_Type_contiguous(count=-3");
    expect_fatal("MPI_ERRORS_ABORT", fail_abort_handler, "MPI_Type_get_contents(");

    return MTest_Finalize();
}
