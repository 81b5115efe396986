/*
 * mpiexec: starts an MPI program.
 *
 * Until the runtime issue brings a real process manager, a job is one process, so launching is
 * just exec: the program replaces mpiexec, inherits its stdio, and its exit status is the job's.
 *
 *     mpiexec [-n N | -np N] [-genv NAME VALUE]... program [args...]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mpiexec [-n N | -np N] [-genv NAME VALUE]... program [args...]\n"
            "  -n N, -np N       number of processes (only 1 until the runtime is implemented)\n"
            "  -genv NAME VALUE  set NAME=VALUE in the environment of every process\n");
}

static int fail_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "mpiexec: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    usage(stderr);
    return 1;
}

/* A process count: a positive decimal number, or -1 if the text is not one. */
static long parse_nprocs(const char *s)
{
    char *end;
    errno = 0;
    long n = strtol(s, &end, 10);
    return errno || end == s || *end || n < 1 ? -1 : n;
}

int main(int argc, char **argv)
{
    long nprocs = 1;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *opt = argv[i];
        if (!strcmp(opt, "--")) {
            i++;
            break;
        } else if (!strcmp(opt, "-h") || !strcmp(opt, "-help") || !strcmp(opt, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(opt, "-n") || !strcmp(opt, "-np")) {
            if (i + 1 >= argc)
                return fail_usage("%s needs a process count", opt);
            nprocs = parse_nprocs(argv[++i]);
            if (nprocs < 0)
                return fail_usage("invalid process count '%s'", argv[i]);
        } else if (!strcmp(opt, "-genv")) {
            if (i + 2 >= argc)
                return fail_usage("%s needs a name and a value", opt);
            if (!argv[i + 1][0] || strchr(argv[i + 1], '='))
                return fail_usage("invalid environment variable name '%s'", argv[i + 1]);
            if (setenv(argv[i + 1], argv[i + 2], 1) != 0) {
                perror("mpiexec: setenv");
                return 1;
            }
            i += 2;
        } else {
            return fail_usage("unknown option '%s'", opt);
        }
    }
    if (i >= argc)
        return fail_usage("%s", "no program to run");
    if (nprocs > 1) {
        fprintf(stderr, "mpiexec: %ld processes requested, but this version of Loom MPI runs jobs of one "
                        "process only (multi-process jobs come with the runtime); use -n 1\n", nprocs);
        return 1;
    }
    fflush(NULL);
    execvp(argv[i], &argv[i]);
    /* 127 for a program that cannot be found, 126 for one that cannot run, as shells do. */
    int status = errno == ENOENT ? 127 : 126;
    fprintf(stderr, "mpiexec: cannot run '%s': %s\n", argv[i], strerror(errno));
    return status;
}
