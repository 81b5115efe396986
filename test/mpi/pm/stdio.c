/*
 * mpiexec passes on the stdout and stderr of every rank, whole lines at a time: four ranks write
 * NLINES lines each to both, every line in two write() calls, and every line must arrive once,
 * unbroken, on the right stream. A last line without a newline arrives too, and so does a prompt
 * (a line start waiting for input) while its rank still waits.
 */
#include "pmtest.h"

#define NRANKS 4
#define NLINES 300

static int child(char **argv)
{
    int rank = pm_rank();
    if (!strcmp(argv[0], "lines")) {
        for (int i = 0; i < NLINES; i++) {
            dprintf(1, "out %d %d ", rank, i);
            dprintf(2, "err %d %d ", rank, i);
            dprintf(1, "end\n");
            dprintf(2, "end\n");
        }
        dprintf(1, "tail %d", rank);
        return 0;
    }
    if (!strcmp(argv[0], "prompt")) {
        char name[64] = "";
        dprintf(1, "name? ");
        if (scanf("%63s", name) != 1)
            return 1;
        printf("hello %s\n", name);
        return 0;
    }
    return 2;
}

/* Every line of text must be "<what> R I end", each (R, I) once; on stdout, the ranks' tails
 * ("tail R", no newline) may run into the next line. */
static void check_lines(const char *text, const char *what, int tails)
{
    static int seen[NRANKS][NLINES];
    int ntails[NRANKS] = { 0 };
    memset(seen, 0, sizeof seen);
    char *copy = strdup(text), *save = NULL;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        int r, i, n = 0;
        while (tails && sscanf(line, "tail %d%n", &r, &n) == 1 && r >= 0 && r < NRANKS) {
            ntails[r]++;
            line += n;
        }
        if (!*line)
            continue;
        char word[8];
        n = 0;
        if (sscanf(line, "%7s %d %d end%n", word, &r, &i, &n) != 3 || n != (int) strlen(line) ||
            strcmp(word, what) || r < 0 || r >= NRANKS || i < 0 || i >= NLINES) {
            MTEST_FAIL("broken %s line '%s'", what, line);
            continue;
        }
        seen[r][i]++;
    }
    free(copy);
    for (int r = 0; r < NRANKS; r++) {
        for (int i = 0; i < NLINES; i++)
            if (seen[r][i] != 1)
                MTEST_FAIL("%s line %d of rank %d arrived %d times", what, i, r, seen[r][i]);
        if (tails)
            CHECK(ntails[r] == 1, "the last, unfinished line of rank %d arrived %d times", r, ntails[r]);
    }
}

static void driver(void)
{
    struct pm_job job;
    pm_run(&job, (const char *[]) { "-n", "4", pm_self, "child", "lines", NULL }, NULL, NULL, 60);
    int before = mtest_errs;
    CHECK_EQ(pm_exit_code(&job), 0);
    check_lines(job.outbuf, "out", 1);
    check_lines(job.errbuf, "err", 0);
    pm_done(&job, before);

    /* The prompt must show while its rank waits for the answer. */
    if (pm_start(&job, (const char *[]) { "-n", "1", pm_self, "child", "prompt", NULL }, NULL) == 0) {
        before = mtest_errs;
        CHECK(pm_expect(&job, "name? ", 10), "a prompt without a newline did not arrive");
        pm_finish(&job, "bob\n", 30);
        CHECK_EQ(pm_exit_code(&job), 0);
        CHECK(!strcmp(job.outbuf, "name? hello bob\n"), "stdout is '%s'", job.outbuf);
        pm_done(&job, before);
    }
}

int main(int argc, char **argv)
{
    return pm_main(argc, argv, child, driver);
}
