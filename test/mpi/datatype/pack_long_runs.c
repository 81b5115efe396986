/*
 * Runs longer than the engine's copy chunk (half the L2 cache; long runs are copied in pieces):
 * MPI_BYTE messages of a few chunk sizes and a vector of blocks longer than a chunk, packed and
 * unpacked from and to odd addresses, every byte and the guard bytes after the output checked.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "mtest.h"

#define GUARD 64

static uint8_t value(size_t i)
{
    uint32_t x = (uint32_t) i * 2654435761u;
    return (uint8_t) (x >> 13);
}

/* Packs count of type from typed (whose bytes are value(offset)) and unpacks it again into a
 * cleared copy; the packed stream must be the bytes at the offsets in want[], in order. */
static void round_trip(MPI_Datatype type, int count, size_t span, const size_t *want, size_t nbytes)
{
    char *typed = malloc(span + 1), *packed = malloc(nbytes + GUARD + 1), *back = malloc(span + 1);
    if (!typed || !packed || !back) {
        MTEST_FAIL("out of memory");
        goto done;
    }
    char *t = typed + 1, *p = packed + 1, *b = back + 1;   /* odd addresses */
    for (size_t i = 0; i < span; i++)
        t[i] = (char) value(i);
    memset(p, 0x5A, nbytes + GUARD);
    int pos = 0;
    CHECK_MPI(MPI_Pack(t, count, type, p, (int) nbytes, &pos, MPI_COMM_WORLD));
    CHECK_EQ(pos, nbytes);
    size_t bad = 0;
    for (size_t k = 0; k < nbytes; k++)
        bad += (uint8_t) p[k] != value(want[k]);
    for (size_t k = nbytes; k < nbytes + GUARD; k++)
        bad += p[k] != 0x5A;
    CHECK(bad == 0, "%zu packed bytes wrong of %zu", bad, nbytes);

    memset(b, 0, span);
    pos = 0;
    CHECK_MPI(MPI_Unpack(p, (int) nbytes, &pos, b, count, type, MPI_COMM_WORLD));
    CHECK_EQ(pos, nbytes);
    bad = 0;
    for (size_t k = 0; k < nbytes; k++) {
        bad += (uint8_t) b[want[k]] != value(want[k]);
        b[want[k]] = 0;
    }
    for (size_t i = 0; i < span; i++)   /* only the type map's bytes were written */
        bad += b[i] != 0;
    CHECK(bad == 0, "%zu unpacked bytes wrong of %zu", bad, span);
done:
    free(typed);
    free(packed);
    free(back);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    const size_t max = 5u << 20;
    size_t *want = malloc(max * sizeof *want);
    if (!want) {
        MTEST_FAIL("out of memory");
        return MTest_Finalize();
    }
    for (size_t i = 0; i < max; i++)
        want[i] = i;

    /* contiguous: just under, at and past a few chunk sizes */
    const size_t sizes[] = { (512u << 10) - 1, 512u << 10, (1536u << 10) + 7, (3u << 20) + 3, 5u << 20 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        round_trip(MPI_BYTE, (int) sizes[s], sizes[s], want, sizes[s]);

    /* three blocks of 1.4 MB + 1, 1.6 MB apart */
    const int blen = 1400001, stride = 1600000, nblocks = 3;
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(nblocks, blen, stride, MPI_BYTE, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    size_t k = 0;
    for (int j = 0; j < nblocks; j++)
        for (int i = 0; i < blen; i++)
            want[k++] = (size_t) j * stride + (size_t) i;
    round_trip(vec, 1, (size_t) (nblocks - 1) * stride + blen, want, k);
    CHECK_MPI(MPI_Type_free(&vec));

    free(want);
    return MTest_Finalize();
}
