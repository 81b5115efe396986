/*
 * MPI_INFO_ENV and MPI_Info_create_env: how this process was started (MPI 4.1, "The Info
 * Object MPI_INFO_ENV").
 *
 * Only what is actually known is stored:
 *   command       the program (argv[0])
 *   argv          its arguments, separated by spaces
 *   maxprocs      the number of processes started (MPI_COMM_WORLD's size)
 *   wdir          the working directory
 *   host, arch    this machine's host name and architecture (uname)
 *   thread_level  the thread level MPI was initialized with (before MPI_Init: MPI_THREAD_SINGLE,
 *                 what MPI_Init gives)
 * The keys are the same before MPI_Init, while MPI is initialized and after MPI_Finalize (MPI 4.1:
 * MPI_Info_create_env has "the same construction as MPI_INFO_ENV"); before MPI_Init the job's size
 * comes from mpiexec's description of the job (LOOM_SIZE, read by the device at MPI_Init).
 * "soft" and "file" are left out: mpiexec takes no such options.
 *
 * The command line comes from the argc/argv given to MPI_Info_create_env, else from
 * /proc/self/cmdline, so it is right even when MPI_Init got NULL pointers.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"
#include "info_internal.h"
#include <stdio.h>
#include <sys/utsname.h>
#include <unistd.h>

static MPIR_Info env_info = { .obj = { .handle = MPI_INFO_ENV, .ref_count = 1 } };
static int env_filled_in = -1;      /* -1: never filled; 0: before MPI_Init; 1: after */

/* The process's arguments as a NUL-separated list in a malloc'd buffer: argv if given, else
 * /proc/self/cmdline. *n is the number of arguments (0 if none can be had). */
static char *command_line(int argc, char **argv, int *n)
{
    char *buf = NULL;
    size_t len = 0;
    *n = 0;
    if (argv && argc > 0) {
        for (int i = 0; i < argc; i++)
            len += argv[i] ? strlen(argv[i]) + 1 : 1;
        buf = malloc(len);
        if (buf == NULL)
            return NULL;
        char *p = buf;
        for (int i = 0; i < argc; i++) {
            const char *a = argv[i] ? argv[i] : "";
            size_t l = strlen(a) + 1;
            memcpy(p, a, l);
            p += l;
        }
        *n = argc;
        return buf;
    }
    FILE *f = fopen("/proc/self/cmdline", "r");
    if (f == NULL)
        return NULL;
    size_t cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? 2 * cap : 4096;
            char *b = realloc(buf, cap + 1);
            if (b == NULL) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = b;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        if (got == 0)
            break;
        len += got;
    }
    fclose(f);
    if (buf == NULL)
        return NULL;
    if (len == 0 || buf[len - 1] != '\0')
        buf[len++] = '\0';      /* the +1 above left room */
    for (size_t i = 0; i < len; i++)
        *n += buf[i] == '\0';
    return buf;
}

static const char *thread_level_name(int level)
{
    static const char *const names[] = { "MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
                                         "MPI_THREAD_MULTIPLE" };
    return level >= 0 && level < 4 ? names[level] : "MPI_THREAD_SINGLE";
}

/* MPI_COMM_WORLD's size, also before MPI_Init: mpiexec's LOOM_SIZE, or 1 (a singleton). */
static int job_size(void)
{
    if (atomic_load(&MPIR_Process.state) != MPIR_STATE_PRE_INIT)
        return MPIR_Process.world_size;
    const char *s = getenv("LOOM_SIZE");
    long n = s ? strtol(s, NULL, 10) : 1;
    return n >= 1 && n <= INT_MAX ? (int) n : 1;
}

/* Stores key = value, cut to the longest value an info object may hold. */
static int set_cut(MPIR_Info *info, const char *key, const char *value)
{
    if (strnlen(value, MPI_MAX_INFO_VAL) < MPI_MAX_INFO_VAL)
        return MPIR_Info_set_locked(info, key, value);
    char cut[MPI_MAX_INFO_VAL];
    memcpy(cut, value, MPI_MAX_INFO_VAL - 1);
    cut[MPI_MAX_INFO_VAL - 1] = '\0';
    return MPIR_Info_set_locked(info, key, cut);
}

/* Fills info (empty) with what is known; on failure some keys may be missing. */
static int fill(MPIR_Info *info, int argc, char **argv)
{
    int err = MPI_SUCCESS, n;
    char *args = command_line(argc, argv, &n);
    if (args && n > 0 && args[0] != '\0') {
        err = set_cut(info, "command", args);
        /* the other arguments: turn the separators between them into spaces */
        char *rest = args + strlen(args) + 1, *end = rest;
        for (int i = 1; i < n; i++) {
            end += strlen(end);
            if (i < n - 1)
                *end++ = ' ';
        }
        if (err == MPI_SUCCESS && n > 1)
            err = set_cut(info, "argv", rest);
    }
    free(args);

    char buf[4096];
    if (err == MPI_SUCCESS) {
        snprintf(buf, sizeof buf, "%d", job_size());
        err = MPIR_Info_set_locked(info, "maxprocs", buf);
    }
    if (err == MPI_SUCCESS && getcwd(buf, sizeof buf))
        err = set_cut(info, "wdir", buf);
    if (err == MPI_SUCCESS && gethostname(buf, sizeof buf) == 0) {
        buf[sizeof buf - 1] = '\0';     /* gethostname need not terminate a truncated name */
        err = set_cut(info, "host", buf);
    }
    struct utsname u;
    if (err == MPI_SUCCESS && uname(&u) == 0)
        err = set_cut(info, "arch", u.machine);
    if (err == MPI_SUCCESS)
        err = MPIR_Info_set_locked(info, "thread_level", thread_level_name(MPIR_Process.thread_level));
    return err;
}

MPIR_Info *MPIR_Info_env_locked(void)
{
    /* Filled once, and once more when first used after MPI_Init if it was used before. A failed
     * fill leaves some keys out, which the standard allows; it is not retried. */
    int initialized = atomic_load(&MPIR_Process.state) != MPIR_STATE_PRE_INIT;
    if (env_filled_in < initialized) {
        MPIR_Info_clear_locked(&env_info);
        (void) fill(&env_info, 0, NULL);
        env_filled_in = initialized;
    }
    return &env_info;
}

int MPIR_Info_create_env_impl(int argc, char **argv, MPI_Info *info)
{
    if (argc < 0)
        return MPIR_Err(MPI_ERR_ARG, "argc is %d, must be non-negative", argc);
    MPIR_Info_lock();
    MPIR_Info scratch = { .nkeys = 0 };
    int err = fill(&scratch, argc, argv);
    if (err == MPI_SUCCESS)
        err = MPIR_Info_copy_new(&scratch, info);
    MPIR_Info_clear_locked(&scratch);
    MPIR_Info_unlock();
    return err;
}
