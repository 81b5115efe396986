/*
 * Forwarding the ranks' output. Each rank writes its stdout and stderr into pipes of its own;
 * mpiexec passes on whole lines, so lines of different ranks do not mix, and with -l starts each
 * line with "[rank] ". A line's start waits in the stream until its newline arrives, but not for
 * ever: after MPX_PARTIAL_WAIT seconds (a prompt waiting for input), at LINE_KEEP_MAX bytes, and
 * when the pipe closes it is passed on as it is (under -l, the pipe's last line gets a newline so
 * that the next label starts a line).
 *
 * mpiexec is the only writer of its stdout and stderr while the job runs, so a line written in
 * several write() calls still arrives whole. When a destination fails (a closed pipe), its output
 * is dropped and the job goes on.
 */
#include "mpiexec.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LINE_KEEP_MAX (64 * 1024)
#define READ_CHUNK (64 * 1024)

static int dead[3];     /* dead[fd]: writing to mpiexec's fd 1 or 2 failed for good */

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0 && !dead[fd]) {
        ssize_t k = write(fd, p, n);
        if (k > 0) {
            p += k;
            n -= (size_t) k;
        } else if (k < 0 && errno == EAGAIN) {
            /* Someone made our stdout non-blocking: wait until it takes more. */
            struct pollfd pfd = { .fd = fd, .events = POLLOUT };
            poll(&pfd, 1, 100);
        } else if (!(k < 0 && errno == EINTR)) {
            dead[fd] = 1;
        }
    }
}

/* Labelled output is assembled here and written in large pieces. */
static char obuf[READ_CHUNK];
static size_t olen;

static void put(int fd, const char *p, size_t n)
{
    if (olen + n > sizeof obuf) {
        write_all(fd, obuf, olen);
        olen = 0;
    }
    if (n > sizeof obuf) {
        write_all(fd, p, n);
        return;
    }
    memcpy(obuf + olen, p, n);
    olen += n;
}

/* Passes p[0, n) on: as it is, or with each line that starts in it labelled. */
static void forward(struct mpx_stream *s, const char *p, size_t n, int label)
{
    if (!label) {
        write_all(s->to, p, n);
        return;
    }
    char prefix[24];
    size_t plen = (size_t) snprintf(prefix, sizeof prefix, "[%d] ", s->rank);
    const char *end = p + n;
    while (p < end) {
        if (!s->midline)
            put(s->to, prefix, plen);
        const char *nl = memchr(p, '\n', (size_t) (end - p));
        const char *stop = nl ? nl + 1 : end;
        put(s->to, p, (size_t) (stop - p));
        s->midline = !nl;
        p = stop;
    }
    write_all(s->to, obuf, olen);
    olen = 0;
}

/* Keeps p[0, n), the start of a line, until its end arrives; a line start that grows too long
 * (or finds no memory) is passed on at once. */
static void keep(struct mpx_stream *s, const char *p, size_t n, int label)
{
    if (n == 0)
        return;
    if (s->len + n > s->cap && s->len + n <= LINE_KEEP_MAX) {
        size_t cap = s->cap ? s->cap : 256;
        while (cap < s->len + n)
            cap *= 2;
        char *bigger = realloc(s->buf, cap);
        if (bigger) {
            s->buf = bigger;
            s->cap = cap;
        }
    }
    if (s->len + n > s->cap) {
        forward(s, s->buf, s->len, label);
        s->len = 0;
        forward(s, p, n, label);
        return;
    }
    if (s->len == 0)
        s->since = mpx_now();
    memcpy(s->buf + s->len, p, n);
    s->len += n;
}

/* Passes on the start of a line that has waited long enough for its end. */
void mpx_stream_flush(struct mpx_stream *s, int label)
{
    forward(s, s->buf, s->len, label);
    s->len = 0;
}

void mpx_stream_open(struct mpx_stream *s, int fd, int to, int rank)
{
    *s = (struct mpx_stream) { .fd = fd, .to = to, .rank = rank };
}

/* Reads what the pipe holds and passes on its whole lines. Returns 1 if it read something, 0 if
 * nothing was there, -1 if the pipe closed (then the stream is closed). */
int mpx_stream_read(struct mpx_stream *s, int label)
{
    static char chunk[READ_CHUNK];
    if (s->fd < 0)
        return -1;
    ssize_t n = read(s->fd, chunk, sizeof chunk);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return 0;
    if (n <= 0) {
        mpx_stream_close(s, label);
        return -1;
    }
    const char *nl = memrchr(chunk, '\n', (size_t) n);
    if (nl) {
        size_t whole = (size_t) (nl + 1 - chunk);
        if (s->len) {
            forward(s, s->buf, s->len, label);
            s->len = 0;
        }
        forward(s, chunk, whole, label);
        keep(s, chunk + whole, (size_t) n - whole, label);
    } else {
        keep(s, chunk, (size_t) n, label);
    }
    return 1;
}

/* Reads what a rank that just ended left in the pipe (bounded: the pipe may be shared with a
 * process the rank started, which still writes). */
void mpx_stream_drain(struct mpx_stream *s, int label)
{
    for (int i = 0; i < 64 && mpx_stream_read(s, label) > 0; i++) {
    }
}

void mpx_stream_close(struct mpx_stream *s, int label)
{
    if (s->fd < 0)
        return;
    if (s->len)
        forward(s, s->buf, s->len, label);
    if (label && s->midline)
        write_all(s->to, "\n", 1);
    close(s->fd);
    free(s->buf);
    *s = (struct mpx_stream) { .fd = -1, .to = s->to, .rank = s->rank };
}
