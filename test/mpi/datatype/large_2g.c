/*
 * Messages of 2^31 + 2^26 bytes (2.06 GiB, more than an int counts) from rank 0 to rank 1:
 *   a. contiguous MPI_BYTE, MPI_Send_c / MPI_Recv_c: MPI_Get_count_c gives the byte count and
 *      MPI_Get_count MPI_UNDEFINED (MPI 4.1, 3.2.5: the count does not fit in an int);
 *   b. ints sent eleven out of every twelve (a vector) and received contiguously;
 *   c. ints sent contiguously and received eleven out of every twelve, the gaps left alone.
 * Memory stays near 2.4 GB: the sender's data lives in a 64 MiB memfd mapped again and again
 * side by side into one long virtual view, window k starting k pages further into the file, so
 * the view is contiguous for the library while every 64 MiB piece of a message holds different
 * data (a piece delivered to the wrong place shows). The receiver holds one real 2.25 GiB buffer.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "mtest.h"

#define WINDOW ((size_t) 64 << 20)          /* bytes per mapping of the file */
#define SHIFT ((size_t) 4096)               /* window k maps the file from k * SHIFT */
#define NWIN 36                             /* windows in the view: 2.25 GiB */
#define MSG_BYTES (33 * WINDOW)             /* 2^31 + 2^26 */
#define MSG_INTS ((int) (MSG_BYTES / 4))    /* 553648128: fits an int */
#define BL 11                               /* the vectors: 11 ints out of every 12 */
#define STRIDE 12
#define GAP 0x7e7e7e7e

/* The file's int at index j. */
static int32_t file_int(size_t j)
{
    uint32_t x = (uint32_t) j * 2654435761u;
    return (int32_t) (x ^ x >> 16);
}

/* The int at byte offset b of the view (b a multiple of 4). */
static int32_t view_int(size_t b)
{
    return file_int(((b / WINDOW) * SHIFT + b % WINDOW) / 4);
}

/* The view: NWIN windows of the file side by side; NULL on failure. */
static char *make_view(void)
{
    size_t file_bytes = WINDOW + NWIN * SHIFT;
    int fd = memfd_create("large_2g", 0);
    if (fd < 0 || ftruncate(fd, (off_t) file_bytes) != 0)
        return NULL;
    int32_t *file = mmap(NULL, file_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (file == MAP_FAILED)
        return NULL;
    for (size_t j = 0; j < file_bytes / 4; j++)
        file[j] = file_int(j);
    munmap(file, file_bytes);
    char *view = mmap(NULL, NWIN * WINDOW, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (view == MAP_FAILED)
        return NULL;
    for (size_t k = 0; k < NWIN; k++)
        if (mmap(view + k * WINDOW, WINDOW, PROT_READ, MAP_SHARED | MAP_FIXED, fd, (off_t) (k * SHIFT)) == MAP_FAILED)
            return NULL;
    close(fd);
    return view;
}

/* Counts the ints of buf (n of them) that differ from the message's, which was laid out in
 * blocks of bl every stride ints of the view (bl == stride: contiguous); the ints after
 * the message and in gaps must be GAP. */
static size_t check_ints(const int32_t *buf, size_t n, int bl, int stride, int view_stride, const char *what)
{
    size_t bad = 0, i = 0;
    for (size_t k = 0; k < n; k++) {
        int32_t want = GAP;
        if ((int) (k % (size_t) stride) < bl && i < (size_t) MSG_INTS) {
            /* message int i came from view int (i / BL) * view_stride + i % BL when the sender
             * used the vector, from view int i when it sent contiguously */
            size_t v = view_stride == STRIDE ? i / BL * STRIDE + i % BL : i;
            want = view_int(4 * v);
            i++;
        }
        if (buf[k] != want && bad++ < 5)
            MTEST_FAIL("%s: int %zu is 0x%08x, expected 0x%08x", what, k, (unsigned) buf[k], (unsigned) want);
    }
    return bad;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Datatype eleven_of_twelve;
    MPI_Type_vector(MSG_INTS / BL, BL, STRIDE, MPI_INT, &eleven_of_twelve);
    MPI_Type_commit(&eleven_of_twelve);
    const size_t span_ints = (size_t) MSG_INTS / BL * STRIDE;  /* 2.25 GiB */

    if (rank == 0) {
        char *view = make_view();
        if (!view) {
            MTEST_FAIL("cannot map the sender's view");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        CHECK_MPI(MPI_Send_c(view, (MPI_Count) MSG_BYTES, MPI_BYTE, 1, 0, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(view, 1, eleven_of_twelve, 1, 1, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(view, MSG_INTS, MPI_INT, 1, 2, MPI_COMM_WORLD));
        munmap(view, NWIN * WINDOW);
    } else if (rank == 1) {
        int32_t *buf = malloc(span_ints * 4);
        if (!buf) {
            MTEST_FAIL("out of memory");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        MPI_Status st;
        int count;
        MPI_Count count_c;

        /* a. bytes */
        for (size_t k = 0; k < span_ints; k++)
            buf[k] = GAP;
        CHECK_MPI(MPI_Recv_c(buf, (MPI_Count) MSG_BYTES + 100, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Get_count_c(&st, MPI_BYTE, &count_c));
        CHECK_EQ(count_c, MSG_BYTES);
        CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
        CHECK_EQ(count, MPI_UNDEFINED);
        CHECK(check_ints(buf, span_ints, 1, 1, 1, "a. contiguous bytes") == 0, "a. wrong data");

        /* b. vector -> contiguous ints */
        for (size_t k = 0; k < span_ints; k++)
            buf[k] = GAP;
        CHECK_MPI(MPI_Recv(buf, MSG_INTS, MPI_INT, 0, 1, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
        CHECK_EQ(count, MSG_INTS);
        CHECK_MPI(MPI_Get_count_c(&st, MPI_INT, &count_c));
        CHECK_EQ(count_c, MSG_INTS);
        CHECK(check_ints(buf, span_ints, 1, 1, STRIDE, "b. vector received contiguously") == 0, "b. wrong data");

        /* c. contiguous ints -> vector */
        for (size_t k = 0; k < span_ints; k++)
            buf[k] = GAP;
        CHECK_MPI(MPI_Recv(buf, 1, eleven_of_twelve, 0, 2, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Get_count(&st, eleven_of_twelve, &count));
        CHECK_EQ(count, 1);
        MPI_Count elements = 0;
        CHECK_MPI(MPI_Get_elements_c(&st, eleven_of_twelve, &elements));
        CHECK_EQ(elements, MSG_INTS);
        CHECK(check_ints(buf, span_ints, BL, STRIDE, 1, "c. contiguous received as a vector") == 0, "c. wrong data");
        free(buf);
    }
    MPI_Type_free(&eleven_of_twelve);
    return MTest_Finalize();
}
