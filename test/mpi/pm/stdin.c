/*
 * mpiexec's stdin goes to rank 0 and only to it: rank 0 reads all of a 300 kB input (more than a
 * pipe holds) with the right checksum, the other ranks read end-of-file at once. Input that no rank
 * reads does not keep the job alive.
 */
#include "pmtest.h"

#define INPUT_BYTES 300000

static int child(char **argv)
{
    if (!strcmp(argv[0], "ignore"))
        return 0;
    unsigned long count = 0, sum = 0;
    unsigned char buf[4096];
    ssize_t n;
    while ((n = read(0, buf, sizeof buf)) > 0)
        for (ssize_t i = 0; i < n; i++) {
            sum = (sum * 31 + buf[i]) % 1000000007;
            count++;
        }
    printf("rank %d read %lu sum %lu%s\n", pm_rank(), count, sum, n < 0 ? " error" : "");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 2 && !strcmp(argv[1], "child"))
        return child(argv + 2);
    MTest_Init(&argc, &argv);
    if (pm_init(argv[0]) == 0) {
        char *input = malloc(INPUT_BYTES + 1);
        unsigned long sum = 0;
        for (int i = 0; i < INPUT_BYTES; i++) {
            input[i] = (char) ('a' + (i * 7 + i / 1000) % 26);
            sum = (sum * 31 + (unsigned char) input[i]) % 1000000007;
        }
        input[INPUT_BYTES] = 0;

        struct pm_job job;
        pm_run(&job, (const char *[]) { "-n", "3", pm_self, "child", "read", NULL }, NULL, input, 60);
        int before = mtest_errs;
        CHECK_EQ(pm_exit_code(&job), 0);
        char want[128];
        snprintf(want, sizeof want, "rank 0 read %d sum %lu\n", INPUT_BYTES, sum);
        CHECK(strstr(job.outbuf, want), "rank 0 did not report '%s'", want);
        CHECK(strstr(job.outbuf, "rank 1 read 0 sum 0\n"), "rank 1 read something");
        CHECK(strstr(job.outbuf, "rank 2 read 0 sum 0\n"), "rank 2 read something");
        if (mtest_errs != before)
            PM_SHOW(&job);
        pm_free(&job);

        pm_run(&job, (const char *[]) { "-n", "2", pm_self, "child", "ignore", NULL }, NULL, input, 30);
        CHECK_EQ(pm_exit_code(&job), 0);
        CHECK(job.seconds < 20, "an unread input kept the job %.1f s", job.seconds);
        pm_free(&job);
        free(input);
    }
    return MTest_Finalize();
}
