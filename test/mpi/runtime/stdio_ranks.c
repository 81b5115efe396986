/*
 * Standard streams of an MPI job whose ranks communicate while they print. The driver runs an
 * inner job of 4 ranks, once plain and once with -l, and writes a line to its stdin:
 *   - rank 0 reads that line and broadcasts it; every rank prints it back;
 *   - every rank prints 200 numbered lines to stdout and 20 to stderr, with a ring exchange and a
 *     flush every 50 lines, so the ranks' output interleaves while messages move;
 *   - rank 2 prints one 60000-character line;
 *   - every rank prints a line after MPI_Finalize; with -l, rank 3 without a final newline (which
 *     mpiexec then adds; without -l its output would run into the next rank's).
 * Every line must arrive exactly once, whole, on its stream, in its rank's order; with -l each
 * line starts with "[rank] " for the rank that wrote it.
 */
#include "../pm/pmtest.h"

#define NRANKS 4
#define NLINES 200
#define LONG_LINE 60000      /* mpiexec keeps lines whole up to 64 KiB */
#define INPUT "a line for rank 0"

static int child(int tail)
{
    int rank, size;
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char line[128] = "";
    if (rank == 0 && !fgets(line, sizeof line, stdin))
        strcpy(line, "(no input)\n");
    MPI_Bcast(line, (int) sizeof line, MPI_CHAR, 0, MPI_COMM_WORLD);
    printf("rank %d got: %s", rank, line);
    for (int k = 0; k < NLINES; k++) {
        printf("rank %d line %d\n", rank, k);
        if (k % 10 == 0)
            fprintf(stderr, "rank %d err %d\n", rank, k);
        if (k % 50 == 49) {
            int out = rank, in = -1;
            fflush(stdout);
            MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, 0, &in, 1, MPI_INT, (rank + size - 1) % size, 0,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    if (rank == 2) {
        char *x = malloc(LONG_LINE + 2);
        memset(x, 'x', LONG_LINE);
        x[LONG_LINE] = '\n';
        x[LONG_LINE + 1] = 0;
        fputs(x, stdout);
        free(x);
    }
    fflush(stdout);
    MPI_Finalize();
    printf(rank == 3 && tail ? "rank %d after finalize" : "rank %d after finalize\n", rank);
    return 0;
}

/* Checks one stream's lines: next[r] is the number of rank r's numbered lines seen so far. */
static void check_stream(const char *what, const char *text, int labelled, int is_err)
{
    char *copy = strdup(text);
    int next[NRANKS] = { 0 }, got[NRANKS] = { 0 }, after[NRANKS] = { 0 }, longs = 0, bad = 0;
    for (char *save = NULL, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        int label = -1, r = -1, k = -1, n = 0;
        if (labelled) {
            if (sscanf(l, "[%d] %n", &label, &n) != 1 || n == 0) {
                if (bad++ < 5)
                    MTEST_FAIL("%s: a line without a rank label: \"%.80s\"", what, l);
                continue;
            }
            l += n;
        }
        if (strspn(l, "x") == LONG_LINE && l[LONG_LINE] == 0) {
            longs++;
            r = 2;
        } else if (sscanf(l, is_err ? "rank %d err %d%n" : "rank %d line %d%n", &r, &k, &n) == 2 && !l[n]
                   && r >= 0 && r < NRANKS) {
            if (k != next[r] && bad++ < 5)
                MTEST_FAIL("%s: rank %d's line %d came when line %d was due", what, r, k, next[r]);
            next[r] = k + (is_err ? 10 : 1);
        } else if (!is_err && sscanf(l, "rank %d got: %n", &r, &n) == 1 && r >= 0 && r < NRANKS
                   && !strcmp(l + n, INPUT)) {
            got[r]++;
        } else if (!is_err && sscanf(l, "rank %d after finalize%n", &r, &n) == 1 && !l[n] && r >= 0 && r < NRANKS) {
            after[r]++;
        } else {
            if (bad++ < 5)
                MTEST_FAIL("%s: an unexpected line: \"%.80s\"", what, l);
            continue;
        }
        if (labelled && label != r && bad++ < 5)
            MTEST_FAIL("%s: a line of rank %d labelled [%d]: \"%.80s\"", what, r, label, l);
    }
    for (int r = 0; r < NRANKS; r++) {
        CHECK(next[r] == NLINES, "%s: rank %d: %d numbered lines arrived in order, expected %d", what, r,
              is_err ? next[r] / 10 : next[r], is_err ? NLINES / 10 : NLINES);
        if (!is_err)
            CHECK(got[r] == 1 && after[r] == 1, "%s: rank %d: %d lines with the input, %d after finalize; "
                  "expected 1 and 1", what, r, got[r], after[r]);
    }
    if (!is_err)
        CHECK(longs == 1, "%s: the long line arrived whole %d times, expected once", what, longs);
    free(copy);
}

static void run(int labelled)
{
    struct pm_job job;
    const char *plain[] = { "-n", "4", pm_self, "child", NULL };
    const char *label[] = { "-l", "-n", "4", pm_self, "child", "tail", NULL };
    pm_run(&job, labelled ? label : plain, NULL, INPUT "\n", 60);
    int before = mtest_errs;
    CHECK_EQ(pm_exit_code(&job), 0);
    check_stream(labelled ? "stdout with -l" : "stdout", job.outbuf, labelled, 0);
    check_stream(labelled ? "stderr with -l" : "stderr", job.errbuf, labelled, 1);
    if (mtest_errs != before)
        PM_SHOW(&job);
    pm_free(&job);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "child"))
        return child(argc > 2 && !strcmp(argv[2], "tail"));
    MTest_Init(&argc, &argv);
    if (pm_init(argv[0]) == 0) {
        run(0);
        run(1);
    }
    return MTest_Finalize();
}
