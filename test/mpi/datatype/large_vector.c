/*
 * A 200 MB message described by a vector: rank 0 sends 25 million doubles taken two out of
 * every three (vector(12.5M, 2, 3)), rank 1 receives them contiguously; then rank 1 sends them
 * back contiguously and rank 0 receives them five out of every seven (vector(5M, 5, 7)). The
 * device packs and unpacks such messages through its pipeline, chunk by chunk: every element is
 * checked, and so is every gap, which must keep its value. Ranks other than 0 and 1 only take part
 * in the final verdict.
 */
#include <stdint.h>
#include <stdlib.h>
#include "mtest.h"

#define N (25 * 1000 * 1000)    /* doubles in the message: 200 MB */
#define GAP -7.0                /* what the gaps hold */

/* Element i of the message from rank src: exact in a double, different for every i and src. */
static double value(int src, size_t i)
{
    uint32_t x = (uint32_t) i * 2654435761u ^ (uint32_t) (src + 1) * 0x9e3779b9u;
    return (double) (x ^ x >> 13) + 0.5;
}

/* Checks buf[0, span) against the N elements of a message from src laid out in blocks of bl
 * every stride elements, and GAP everywhere else. */
static void check(const double *buf, size_t span, int bl, int stride, int src, const char *what)
{
    size_t bad = 0, i = 0;
    for (size_t k = 0; k < span; k++) {
        int in_block = (int) (k % (size_t) stride) < bl && i < N;
        double want = in_block ? value(src, i++) : GAP;
        if (buf[k] != want && bad++ < 5)
            MTEST_FAIL("%s: element %zu of the buffer is %.1f, expected %.1f", what, k, buf[k], want);
    }
    CHECK(bad == 0, "%s: %zu elements differ", what, bad);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Status st;
    int count = -1;

    if (rank == 0) {
        const size_t span = (size_t) N / 2 * 3;     /* 300 MB; the return trip needs N / 5 * 7 */
        double *buf = malloc(span * sizeof *buf);
        MPI_Datatype two_of_three, five_of_seven;
        MPI_Type_vector(N / 2, 2, 3, MPI_DOUBLE, &two_of_three);
        MPI_Type_vector(N / 5, 5, 7, MPI_DOUBLE, &five_of_seven);
        MPI_Type_commit(&two_of_three);
        MPI_Type_commit(&five_of_seven);
        if (!buf) {
            MTEST_FAIL("out of memory");
            exit(1);
        }
        for (size_t k = 0, i = 0; k < span; k++)
            buf[k] = k % 3 < 2 ? value(0, i++) : GAP;
        CHECK_MPI(MPI_Send(buf, 1, two_of_three, 1, 0, MPI_COMM_WORLD));
        check(buf, span, 2, 3, 0, "the send buffer after the send");

        for (size_t k = 0; k < span; k++)
            buf[k] = GAP;
        CHECK_MPI(MPI_Recv(buf, 1, five_of_seven, 1, 1, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Get_count(&st, five_of_seven, &count));
        CHECK_EQ(count, 1);
        check(buf, span, 5, 7, 1, "200 MB received as vector(5M, 5, 7)");
        MPI_Type_free(&two_of_three);
        MPI_Type_free(&five_of_seven);
        free(buf);
    } else if (rank == 1) {
        double *buf = malloc((size_t) (N + 1) * sizeof *buf);
        if (!buf) {
            MTEST_FAIL("out of memory");
            exit(1);
        }
        for (size_t k = 0; k <= N; k++)
            buf[k] = GAP;
        CHECK_MPI(MPI_Recv(buf, N, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &count));
        CHECK_EQ(count, N);
        check(buf, N + 1, N, N + 1, 0, "200 MB of vector(12.5M, 2, 3) received contiguously");
        for (size_t i = 0; i < N; i++)
            buf[i] = value(1, i);
        CHECK_MPI(MPI_Send(buf, N, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD));
        free(buf);
    }
    return MTest_Finalize();
}
