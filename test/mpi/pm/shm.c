/*
 * The job's shared-memory object (LOOM_SHM, which rank 0 creates as the device would) is gone
 * after every way a job can end: success, a failing rank, a crash, the time limit, SIGTERM to
 * mpiexec. Its name starts with "/loom-<mpiexec's pid>-", so nothing of the job may remain in
 * /dev/shm under that prefix.
 */
#include "pmtest.h"

#include <dirent.h>
#include <sys/mman.h>

static int child(char **argv)
{
    const char *name = getenv("LOOM_SHM");
    int rank = pm_rank();
    if (!name)
        return 99;
    if (rank == 0) {
        int fd = shm_open(name, O_CREAT | O_RDWR, 0600);
        if (fd < 0 || ftruncate(fd, 4096) != 0)
            return 98;
        printf("made %s\n", name);
        fflush(stdout);
        const char ready = 1;   /* after the line: a rank that ends the job at once cannot cut it off */
        if (pwrite(fd, &ready, 1, 0) != 1)
            return 97;
        close(fd);
    }
    /* Every ending comes after the object exists and rank 0 has said so. */
    for (int i = 0; i < 1000; i++) {
        int fd = shm_open(name, O_RDONLY, 0);
        if (fd >= 0) {
            char c = 0;
            ssize_t got = pread(fd, &c, 1, 0);
            close(fd);
            if (got == 1 && c == 1)
                break;
        }
        pm_sleep(0.01);
    }
    if (rank == 1) {
        printf("seen\n");
        fflush(stdout);
        if (!strcmp(argv[0], "fail"))
            return 3;
        if (!strcmp(argv[0], "segv")) {
            signal(SIGSEGV, SIG_DFL);
            raise(SIGSEGV);
        }
    }
    if (!strcmp(argv[0], "ok"))
        return 0;
    for (;;)
        pause();
}

/* How many objects in /dev/shm belong to the job of mpiexec pid. */
static int leftovers(pid_t pid)
{
    char prefix[32];
    snprintf(prefix, sizeof prefix, "loom-%d-", (int) pid);
    DIR *dir = opendir("/dev/shm");
    if (!dir)
        return 0;
    int n = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;)
        if (!strncmp(e->d_name, prefix, strlen(prefix))) {
            n++;
            fprintf(stderr, "left behind: /dev/shm/%s\n", e->d_name);
        }
    closedir(dir);
    return n;
}

static void expect(const char *ending, int code)
{
    const char *env[] = { "MPIEXEC_TIMEOUT=1", NULL };
    const char *mode = !strcmp(ending, "timeout") || !strcmp(ending, "sigterm") ? "wait" : ending;
    struct pm_job job;
    if (pm_start(&job, (const char *[]) { "-n", "3", pm_self, "child", mode, NULL },
                 !strcmp(ending, "timeout") ? env : NULL) != 0)
        return;
    int before = mtest_errs;
    if (!strcmp(ending, "sigterm")) {
        CHECK(pm_expect(&job, "seen", 30), "the job did not start");
        kill(job.pid, SIGTERM);
    }
    pm_finish(&job, NULL, 30);
    CHECK(pm_exit_code(&job) == code, "%s: exit status %d, expected %d", ending, pm_exit_code(&job), code);
    CHECK(strstr(job.outbuf, "made /loom-"), "%s: rank 0 did not create the object", ending);
    CHECK(leftovers(job.pid) == 0, "%s: the job's shared memory was left behind", ending);
    pm_done(&job, before);
}

static void driver(void)
{
    expect("ok", 0);
    expect("fail", 3);
    expect("segv", 128 + SIGSEGV);
    expect("timeout", 124);
    expect("sigterm", 128 + SIGTERM);
}

int main(int argc, char **argv)
{
    return pm_main(argc, argv, child, driver);
}
