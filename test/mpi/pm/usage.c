/*
 * mpiexec refuses a command line it does not understand with a message and its usage (exit
 * status 1), prints the usage for -h (status 0), and starts nothing when the program does not
 * exist (status 127) or cannot run (126).
 */
#include "pmtest.h"

static void expect(const char *const args[], int code, const char *out, const char *err)
{
    struct pm_job job;
    pm_run(&job, args, NULL, NULL, 30);
    int before = mtest_errs;
    CHECK(pm_exit_code(&job) == code, "'%s ...': exit status %d, expected %d", args[0], pm_exit_code(&job), code);
    if (out)
        CHECK(strstr(job.outbuf, out), "'%s ...': no '%s' on stdout", args[0], out);
    if (err)
        CHECK(strstr(job.errbuf, err), "'%s ...': no '%s' on stderr", args[0], err);
    if (mtest_errs != before)
        PM_SHOW(&job);
    pm_free(&job);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    if (pm_init(argv[0]) == 0) {
        expect((const char *[]) { "-h", NULL }, 0, "usage: mpiexec", NULL);
        expect((const char *[]) { "-help", NULL }, 0, "-bind-to", NULL);
        expect((const char *[]) { NULL }, 1, NULL, "usage: mpiexec");
        expect((const char *[]) { "-bogus", "true", NULL }, 1, NULL, "unknown option '-bogus'");
        expect((const char *[]) { "-n", "0", "true", NULL }, 1, NULL, "invalid process count '0'");
        expect((const char *[]) { "-n", "two", "true", NULL }, 1, NULL, "invalid process count 'two'");
        expect((const char *[]) { "-np", NULL }, 1, NULL, "-np needs a process count");
        expect((const char *[]) { "-n", "2", NULL }, 1, NULL, "no program to run");
        expect((const char *[]) { "-genv", "A", NULL }, 1, NULL, "-genv needs a name and a value");
        expect((const char *[]) { "-env", "A=B", "c", "true", NULL }, 1, NULL, "invalid environment variable");
        expect((const char *[]) { "-bind-to", "galaxy", "true", NULL }, 1, NULL, "unknown -bind-to level");
        expect((const char *[]) { "true", ":", NULL }, 1, NULL, "no program after ':'");
        expect((const char *[]) { ":", "true", NULL }, 1, NULL, "no program before ':'");
        expect((const char *[]) { "-n", "2", "pm-no-such-program", NULL }, 127, NULL, "cannot run 'pm-no-such-program'");
        expect((const char *[]) { "-n", "2", "/dev/null", NULL }, 126, NULL, "cannot run '/dev/null'");
        expect((const char *[]) { "-n", "2", "/", NULL }, 126, NULL, "cannot run '/'");
        /* Options after the program are the program's. */
        expect((const char *[]) { "-n", "2", "sh", "-c", "exit 0", "-bogus", NULL }, 0, NULL, NULL);
    }
    return MTest_Finalize();
}
