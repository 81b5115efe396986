/*
 * A 300 MB contiguous message from rank 0 to rank 1 (the device's direct, pipelined path), then
 * 300 MB + 3 bytes back as MPI_BYTE from and to odd addresses, every byte checked. Ranks other
 * than 0 and 1 only take part in the final verdict.
 */
#include <stdint.h>
#include <stdlib.h>
#include "mtest.h"

#define N_INTS (300 * 1000 * 1000 / 4)

/* The int at index i of a message from rank src: a hash, so misplaced pieces show. */
static int32_t value(int src, size_t i)
{
    uint32_t x = (uint32_t) i * 2654435761u ^ (uint32_t) (src + 1) * 0x9e3779b9u;
    return (int32_t) (x ^ x >> 15);
}

static uint8_t byte_value(int src, size_t i)
{
    return (uint8_t) (value(src, i / 4) >> 8 * (i % 4));
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const size_t nbytes = (size_t) N_INTS * 4 + 3;
    /* one buffer per rank: rank 0's data goes out of it, then rank 1's comes back into it */
    char *mem = malloc(nbytes + 16);
    if (!mem) {
        MTEST_FAIL("out of memory");
        return MTest_Finalize();
    }
    int32_t *ints = (int32_t *) (mem + 8);
    uint8_t *odd = (uint8_t *) mem + 5;
    MPI_Status st;
    int count = -1;

    if (rank == 0) {
        for (size_t i = 0; i < N_INTS; i++)
            ints[i] = value(0, i);
        CHECK_MPI(MPI_Send(ints, N_INTS, MPI_INT, 1, 0, MPI_COMM_WORLD));
        memset(mem, 0x5A, nbytes + 16);
        CHECK_MPI(MPI_Recv(odd, (int) nbytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
        CHECK_EQ(count, nbytes);
        size_t bad = 0;
        for (size_t i = 0; i < nbytes; i++)
            if (odd[i] != byte_value(1, i) && bad++ < 5)
                MTEST_FAIL("byte %zu of the message from rank 1 is 0x%02x, expected 0x%02x", i, odd[i], byte_value(1, i));
        CHECK(bad == 0, "%zu bytes differ", bad);
        CHECK(mem[4] == 0x5A && (uint8_t) mem[5 + nbytes] == 0x5A, "bytes around the receive buffer were written");
    } else if (rank == 1) {
        memset(mem, 0x5A, nbytes + 16);
        CHECK_MPI(MPI_Recv(ints, N_INTS, MPI_INT, 0, 0, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
        CHECK_EQ(count, N_INTS);
        size_t bad = 0;
        for (size_t i = 0; i < N_INTS; i++)
            if (ints[i] != value(0, i) && bad++ < 5)
                MTEST_FAIL("int %zu of the message from rank 0 is %d, expected %d", i, ints[i], value(0, i));
        CHECK(bad == 0, "%zu ints differ", bad);
        CHECK(mem[7] == 0x5A && mem[8 + 4 * (size_t) N_INTS] == 0x5A, "bytes around the receive buffer were written");
        for (size_t i = 0; i < nbytes; i++)
            odd[i] = byte_value(1, i);
        CHECK_MPI(MPI_Send(odd, (int) nbytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD));
    }
    free(mem);
    return MTest_Finalize();
}
