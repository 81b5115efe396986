/*
 * MPI_INFO_ENV and MPI_Info_create_env (MPI 4.1, "Initialization", the table of MPI_INFO_ENV
 * keys): the keys this library knows (command, argv, maxprocs, wdir, host, arch, thread_level)
 * hold what the process can see for itself; "soft" and "file" are not set, since mpiexec has no
 * such options.
 */
#include "mtest.h"
#include <stdlib.h>
#include <sys/utsname.h>
#include <unistd.h>

/* The value of key in info, or NULL if it is not set (a static buffer). */
static const char *get(MPI_Info info, const char *key)
{
    static char value[MPI_MAX_INFO_VAL];
    int flag = 0;
    CHECK_MPI(MPI_Info_get(info, key, MPI_MAX_INFO_VAL - 1, value, &flag));
    return flag ? value : NULL;
}

#define CHECK_KEY(info, key, want) do { \
        const char *v_ = get(info, key); \
        CHECK(v_ && strcmp(v_, want) == 0, "%s = \"%s\", expected \"%s\"", key, v_ ? v_ : "(unset)", want); \
    } while (0)

static const char *basename_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The keys that describe this process, whatever the command line. */
static void check_machine(MPI_Info info, int size)
{
    char buf[4096], n[16];
    snprintf(n, sizeof n, "%d", size);
    CHECK_KEY(info, "maxprocs", n);
    CHECK(getcwd(buf, sizeof buf) != NULL, "getcwd failed");
    CHECK_KEY(info, "wdir", buf);
    CHECK(gethostname(buf, sizeof buf) == 0, "gethostname failed");
    CHECK_KEY(info, "host", buf);
    struct utsname u;
    uname(&u);
    CHECK_KEY(info, "arch", u.machine);
    CHECK_KEY(info, "thread_level", "MPI_THREAD_SINGLE");
    CHECK(get(info, "soft") == NULL, "soft is set");
    CHECK(get(info, "file") == NULL, "file is set");
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* ---- MPI_INFO_ENV: the runner starts us as ./info_env without arguments ---- */
    const char *command = get(MPI_INFO_ENV, "command");
    CHECK(command && strcmp(basename_of(command), "info_env") == 0, "command = \"%s\"",
          command ? command : "(unset)");
    CHECK(get(MPI_INFO_ENV, "argv") == NULL, "argv is set without arguments");
    check_machine(MPI_INFO_ENV, size);
    int nkeys;
    CHECK_MPI(MPI_Info_get_nkeys(MPI_INFO_ENV, &nkeys));
    CHECK_EQ(nkeys, 6);     /* command maxprocs wdir host arch thread_level */

    /* ---- MPI_Info_create_env with a command line of our own ---- */
    char *fake[] = { "/opt/bin/prog", "a b", "", "c", NULL };
    MPI_Info info;
    CHECK_MPI(MPI_Info_create_env(4, fake, &info));
    CHECK_KEY(info, "command", "/opt/bin/prog");
    CHECK_KEY(info, "argv", "a b  c");     /* arguments joined by single spaces, the empty one too */
    check_machine(info, size);
    /* the result is an ordinary info object: it can be changed and freed */
    CHECK_MPI(MPI_Info_set(info, "command", "changed"));
    CHECK_KEY(info, "command", "changed");
    CHECK_KEY(MPI_INFO_ENV, "command", command);
    CHECK_MPI(MPI_Info_free(&info));

    /* without argv, the process's own command line */
    CHECK_MPI(MPI_Info_create_env(0, NULL, &info));
    CHECK_KEY(info, "command", command);
    CHECK(get(info, "argv") == NULL, "argv is set without arguments");
    CHECK_MPI(MPI_Info_free(&info));

    /* a copy of MPI_INFO_ENV is an ordinary object too */
    MPI_Info copy;
    CHECK_MPI(MPI_Info_dup(MPI_INFO_ENV, &copy));
    CHECK_KEY(copy, "command", command);
    CHECK_MPI(MPI_Info_delete(copy, "command"));
    CHECK_MPI(MPI_Info_free(&copy));

    return MTest_Finalize();
}
