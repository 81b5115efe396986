/*
 * For the leak-report tests: runs MPI_Finalize with stderr captured in a temporary file, then
 * looks for the report's lines ("Loom MPI: ... 0x<handle> ... was never freed").
 */
#ifndef LEAK_CAPTURE_H_INCLUDED
#define LEAK_CAPTURE_H_INCLUDED

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char leak_report[1 << 16];

/* MPI_Finalize, with what it writes to stderr kept in leak_report (and echoed to stdout). */
static void finalize_capturing_stderr(void)
{
    char path[] = "/tmp/loom-leaks-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        perror("mkstemp");
        exit(2);
    }
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    MPI_Finalize();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ssize_t n = pread(fd, leak_report, sizeof leak_report - 1, 0);
    leak_report[n > 0 ? n : 0] = '\0';
    close(fd);
    unlink(path);
    printf("--- stderr of MPI_Finalize ---\n%s--- end ---\n", leak_report);
}

/* The number of report lines ("Loom MPI: ... never ...") that contain what (NULL: all of them). */
static int leak_lines_with(const char *what)
{
    int count = 0;
    for (const char *line = leak_report; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t) (end - line) : strlen(line);
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", (int) (len < sizeof buf ? len : sizeof buf - 1), line);
        if (strncmp(buf, "Loom MPI: ", 10) == 0 && strstr(buf, "never") && (!what || strstr(buf, what)))
            count++;
        line += len + (end != NULL);
    }
    return count;
}

/* The number of report lines that name handle h. */
static int leak_lines_for(unsigned h)
{
    char hex[16];
    snprintf(hex, sizeof hex, "0x%08x", h);
    return leak_lines_with(hex);
}

#endif
