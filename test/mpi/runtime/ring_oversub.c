/*
 * More ranks than cores (the runner starts 8 on a 2-core machine): 300 rounds of a ring exchange,
 * every rank sending to the next and receiving from the previous one, so every round needs every
 * rank to run. Waiting ranks must yield their core to the ones that have work, or this crawls.
 * The sizes cycle through empty, tiny, eager, just over one cell and pipelined (300 kB); every
 * third round sends a vector and receives contiguous data; every fifth receives from
 * MPI_ANY_SOURCE. Every byte and every status is checked.
 */
#include <stdlib.h>
#include "mtest.h"

#define ROUNDS 300

static int value(int src, int round, int i)
{
    return src * 7919 + round * 104729 + i;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int prev = (rank + size - 1) % size, next = (rank + 1) % size;
    const int counts[] = { 0, 1, 250, 17500, 75000 };     /* ints: 0 B, 4 B, 1 kB, 70 kB, 300 kB */
    const int maxn = 75000;
    int *s = malloc(2 * (size_t) maxn * sizeof *s), *r = malloc((size_t) maxn * sizeof *r);
    if (!s || !r) {
        MTEST_FAIL("out of memory");
        return MTest_Finalize();
    }

    for (int round = 0; round < ROUNDS; round++) {
        int n = counts[round % 5], strided = round % 3 == 0, any = round % 5 == 4;
        MPI_Datatype vec = MPI_DATATYPE_NULL;
        /* strided: the n ints sit at even indices of s */
        for (int i = 0; i < n; i++)
            s[strided ? 2 * i : i] = value(rank, round, i);
        for (int i = 0; i < n + 1 && i < maxn; i++)
            r[i] = -1;
        if (strided) {
            MPI_Type_vector(n, 1, 2, MPI_INT, &vec);
            MPI_Type_commit(&vec);
        }
        MPI_Request req[2];
        MPI_Status st[2];
        CHECK_MPI(MPI_Irecv(r, maxn, MPI_INT, any ? MPI_ANY_SOURCE : prev, round, MPI_COMM_WORLD, &req[0]));
        if (strided)
            CHECK_MPI(MPI_Isend(s, 1, vec, next, round, MPI_COMM_WORLD, &req[1]));
        else
            CHECK_MPI(MPI_Isend(s, n, MPI_INT, next, round, MPI_COMM_WORLD, &req[1]));
        CHECK_MPI(MPI_Waitall(2, req, st));
        int count = -1;
        MPI_Get_count(&st[0], MPI_INT, &count);
        if (count != n || st[0].MPI_SOURCE != prev || st[0].MPI_TAG != round)
            MTEST_FAIL("round %d: count %d from %d tag %d, expected %d from %d tag %d", round, count,
                       st[0].MPI_SOURCE, st[0].MPI_TAG, n, prev, round);
        int bad = 0;
        for (int i = 0; i < n + 1 && i < maxn && bad < 3; i++) {
            int want = i < n ? value(prev, round, i) : -1;
            if (r[i] != want) {
                MTEST_FAIL("round %d (%d ints%s): r[%d] = %d, expected %d", round, n, strided ? ", vector" : "",
                           i, r[i], want);
                bad++;
            }
        }
        if (strided)
            MPI_Type_free(&vec);
    }
    free(s);
    free(r);
    return MTest_Finalize();
}
