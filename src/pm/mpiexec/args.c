/*
 * The command line of mpiexec (MPICH's syntax, the part that means something on one machine):
 *
 *     mpiexec [options] [-n N] [-env NAME VALUE]... program [args] [: [-n N] [-env ...] program [args]]...
 *
 * -n and -env belong to the program that follows them; -genv, -l and -bind-to are global and may
 * be given in any section. The time limit comes from the environment (MPIEXEC_TIMEOUT), as in MPICH.
 */
#include "mpiexec.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Far more than one machine can run; it keeps the rank arithmetic far from overflow. */
#define MAX_NPROCS 1000000

void mpx_usage(FILE *out)
{
    fprintf(out,
            "usage: mpiexec [options] [-n N] [-env NAME VALUE]... program [args...]\n"
            "               [: [-n N] [-env NAME VALUE]... program [args...]]...\n"
            "Runs N processes of the program on this machine as one MPI job; with ':', several\n"
            "programs share the job, their ranks numbered in order.\n"
            "  -n N, -np N        processes of the program that follows (default 1)\n"
            "  -env NAME VALUE    set NAME=VALUE in the environment of the program that follows\n"
            "  -genv NAME VALUE   set NAME=VALUE in the environment of every process\n"
            "  -l                 prefix each line of output with the rank: \"[rank] \"\n"
            "  -bind-to LEVEL     bind rank i to the (i mod count)-th LEVEL of the machine:\n"
            "                     core, numa, socket, hwthread, or none (the default)\n"
            "  -h, -help          show this help\n"
            "Standard input goes to rank 0; every rank's output is passed on line by line.\n"
            "When a rank fails (a non-zero exit, MPI_Abort, a signal), the others are ended and the\n"
            "exit status is the failing rank's (128+N for signal N); otherwise it is 0.\n"
            "MPIEXEC_TIMEOUT=SECONDS in the environment ends the job after that long (status %d).\n",
            MPX_TIMEOUT_STATUS);
}

static int bad(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("mpiexec: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    mpx_usage(stderr);
    return MPX_BAD_ARGS;
}

static int push_env(struct mpx_env **v, int *n, const char *name, const char *value)
{
    struct mpx_env *bigger = realloc(*v, (size_t) (*n + 1) * sizeof **v);
    if (!bigger)
        return -1;
    *v = bigger;
    bigger[(*n)++] = (struct mpx_env) { name, value };
    return 0;
}

/* A process count: 1..MAX_NPROCS in decimal, or -1. */
static int parse_nprocs(const char *s)
{
    char *end;
    errno = 0;
    long n = strtol(s, &end, 10);
    return errno || end == s || *end || n < 1 || n > MAX_NPROCS ? -1 : (int) n;
}

static int valid_env_name(const char *name)
{
    return name[0] && !strchr(name, '=');
}

/* MPIEXEC_TIMEOUT: a non-negative number of seconds (0 or empty: no limit), or -1. */
static double parse_timeout(const char *s)
{
    if (!s || !*s)
        return 0;
    char *end;
    errno = 0;
    double t = strtod(s, &end);
    return errno || end == s || *end || !isfinite(t) || t < 0 ? -1 : t;
}

int mpx_parse_args(int argc, char **argv, struct mpx_options *opt)
{
    *opt = (struct mpx_options) { .bind_to = "none" };
    struct mpx_section sec = { .nprocs = 1 };
    int rc = MPX_BAD_ARGS, need_program = 1;

    opt->timeout = parse_timeout(getenv("MPIEXEC_TIMEOUT"));
    if (opt->timeout < 0) {
        fprintf(stderr, "mpiexec: MPIEXEC_TIMEOUT must be a number of seconds, not '%s'\n",
                getenv("MPIEXEC_TIMEOUT"));
        return MPX_BAD_ARGS;
    }
    for (int i = 1; i < argc;) {
        const char *a = argv[i];
        if (!strcmp(a, ":")) {
            rc = bad("no program before ':'");
            goto fail;
        }
        if (a[0] != '-' || !strcmp(a, "--")) {
            /* The program and its arguments, up to the next ':' (which becomes argv's end). */
            if (a[0] == '-')
                i++;
            sec.argv = &argv[i];
            while (i < argc && strcmp(argv[i], ":"))
                i++;
            if (sec.argv == &argv[i]) {
                rc = bad("no program after '--'");
                goto fail;
            }
            need_program = i < argc;
            if (i < argc)
                argv[i++] = NULL;
            if (sec.nprocs > MAX_NPROCS - opt->nprocs) {
                rc = bad("more than %d processes", MAX_NPROCS);
                goto fail;
            }
            struct mpx_section *more = realloc(opt->sections, (size_t) (opt->nsections + 1) * sizeof *more);
            if (!more)
                goto no_mem;
            opt->sections = more;
            more[opt->nsections++] = sec;
            opt->nprocs += sec.nprocs;
            sec = (struct mpx_section) { .nprocs = 1 };
        } else if (!strcmp(a, "-h") || !strcmp(a, "-help") || !strcmp(a, "--help")) {
            mpx_usage(stdout);
            rc = MPX_HELP;
            goto fail;
        } else if (!strcmp(a, "-n") || !strcmp(a, "-np")) {
            if (i + 1 >= argc) {
                rc = bad("%s needs a process count", a);
                goto fail;
            }
            sec.nprocs = parse_nprocs(argv[i + 1]);
            if (sec.nprocs < 0) {
                rc = bad("invalid process count '%s' (1 to %d)", argv[i + 1], MAX_NPROCS);
                goto fail;
            }
            i += 2;
        } else if (!strcmp(a, "-env") || !strcmp(a, "-genv")) {
            if (i + 2 >= argc) {
                rc = bad("%s needs a name and a value", a);
                goto fail;
            }
            if (!valid_env_name(argv[i + 1])) {
                rc = bad("invalid environment variable name '%s'", argv[i + 1]);
                goto fail;
            }
            int err = a[1] == 'g' ? push_env(&opt->genv, &opt->ngenv, argv[i + 1], argv[i + 2])
                                  : push_env(&sec.env, &sec.nenv, argv[i + 1], argv[i + 2]);
            if (err)
                goto no_mem;
            i += 3;
        } else if (!strcmp(a, "-l")) {
            opt->label = 1;
            i++;
        } else if (!strcmp(a, "-bind-to")) {
            if (i + 1 >= argc) {
                rc = bad("-bind-to needs a level");
                goto fail;
            }
            if (!mpx_bind_known(argv[i + 1])) {
                rc = bad("unknown -bind-to level '%s'", argv[i + 1]);
                goto fail;
            }
            opt->bind_to = argv[i + 1];
            i += 2;
        } else {
            rc = bad("unknown option '%s'", a);
            goto fail;
        }
    }
    if (need_program) {
        rc = bad(opt->nsections ? "no program after ':'" : "no program to run");
        goto fail;
    }
    return MPX_RUN;

  no_mem:
    fprintf(stderr, "mpiexec: out of memory\n");
  fail:
    free(sec.env);
    mpx_free_options(opt);
    return rc;
}

void mpx_free_options(struct mpx_options *opt)
{
    for (int i = 0; i < opt->nsections; i++) {
        free(opt->sections[i].env);
        free(opt->sections[i].path);
    }
    free(opt->sections);
    free(opt->genv);
    *opt = (struct mpx_options) { .bind_to = "none" };
}
