/*
 * Long copies, which the engine takes from glibc's string move to a loop of its own where the
 * destination lies at another offset than the source within 64-byte lines ("skewed", on AMD
 * processors) and on Zen 3 always (copy_kernels.h: MPID_Copy_long; there runs of half the L2 or
 * more prefetch ahead, past their end too): contiguous runs of 33 bytes to 1.1 MB packed and
 * unpacked, also as external32, at every skew of 64 (positions 0-63 in the packed buffer, and the
 * data 0-63 bytes into the typed one), in the fast path (one instance, up to the chunk) and the
 * general one (three instances, longer runs); strided blocks of 2200 bytes (the string moves of
 * the Zen 5 and Xeon rules); and messages between the two ranks, eager and rendezvous, from and
 * to skewed buffers (the device's copies). Each byte is checked against the data's index, and
 * guard bytes around every output. The testlist runs it with each processor's rules (LOOM_RULES)
 * and the baseline kernels.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "mtest.h"

#define GUARD 0xa5
#define PAD 128   /* guard bytes before and after each output */

static uint8_t value(size_t i)
{
    uint32_t x = (uint32_t) i * 2654435761u;
    return (uint8_t) (x >> 11);
}

/* bytes of buf [0, n) equal to value(first + i); the PAD bytes on either side still guards */
static size_t wrong_bytes(const char *buf, size_t n, size_t first)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += (uint8_t) buf[i] != value(first + i);
    for (size_t i = 1; i <= PAD; i++)
        bad += (uint8_t) buf[-(ptrdiff_t) i] != GUARD;
    for (size_t i = 0; i < PAD; i++)
        bad += (uint8_t) buf[n + i] != GUARD;
    return bad;
}

/* count instances of a contiguous type of len bytes, packed from typed buffer offset toff to
 * position pos and unpacked back to offset toff of a guarded buffer */
static void run_trip(size_t len, int count, size_t toff, size_t pos)
{
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_contiguous((int) len, MPI_BYTE, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    size_t n = len * (size_t) count, room = 64 + 2 * PAD + n;
    char *typed = aligned_alloc(64, room + 64 - room % 64), *packed = aligned_alloc(64, room + 64 - room % 64);
    if (!typed || !packed) {
        MTEST_FAIL("out of memory");
        goto done;
    }
    char *data = typed + PAD + toff, *out = packed + PAD;
    for (size_t i = 0; i < n; i++)
        data[i] = (char) value(i);
    memset(packed, GUARD, room);
    int position = (int) pos;
    CHECK_MPI(MPI_Pack(data, count, t, out, (int) (pos + n), &position, MPI_COMM_WORLD));
    CHECK_EQ(position, pos + n);
    size_t bad = wrong_bytes(out + pos, n, 0);
    CHECK(bad == 0, "pack of %d x %zu bytes, data %zu into its buffer, at position %zu: %zu bytes wrong",
          count, len, toff, pos, bad);

    /* external32 bytes are the same bytes, copied the same way */
    memset(packed, GUARD, room);
    MPI_Aint xpos = (MPI_Aint) pos;
    CHECK_MPI(MPI_Pack_external("external32", data, count, t, out, (MPI_Aint) (pos + n), &xpos));
    CHECK_EQ(xpos, pos + n);
    bad = wrong_bytes(out + pos, n, 0);
    CHECK(bad == 0, "external32 pack of %d x %zu bytes, data %zu into its buffer, at position %zu: %zu bytes wrong",
          count, len, toff, pos, bad);

    memset(typed, GUARD, room);
    position = (int) pos;
    CHECK_MPI(MPI_Unpack(out, (int) (pos + n), &position, data, count, t, MPI_COMM_WORLD));
    CHECK_EQ(position, pos + n);
    bad = wrong_bytes(data, n, 0);
    CHECK(bad == 0, "unpack of %d x %zu bytes from position %zu, data %zu into its buffer: %zu bytes wrong",
          count, len, pos, toff, bad);

    memset(typed, GUARD, room);
    xpos = (MPI_Aint) pos;
    CHECK_MPI(MPI_Unpack_external("external32", out, (MPI_Aint) (pos + n), &xpos, data, count, t));
    CHECK_EQ(xpos, pos + n);
    bad = wrong_bytes(data, n, 0);
    CHECK(bad == 0, "external32 unpack of %d x %zu bytes from position %zu, data %zu into its buffer: %zu bytes wrong",
          count, len, pos, toff, bad);
done:
    free(typed);
    free(packed);
    CHECK_MPI(MPI_Type_free(&t));
}

/* A vector of nblocks blocks of bs bytes, stride apart, packed at position pos from typed buffer
 * offset toff and unpacked back: every block and every gap checked. */
static void strided_trip(int nblocks, int bs, int stride, size_t toff, size_t pos)
{
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_vector(nblocks, bs, stride, MPI_BYTE, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    size_t span = (size_t) (nblocks - 1) * stride + bs, n = (size_t) nblocks * bs;
    size_t room = 64 + 2 * PAD + span + n;
    char *typed = malloc(room), *packed = malloc(room);
    if (!typed || !packed) {
        MTEST_FAIL("out of memory");
        goto done;
    }
    char *data = (char *) ((uintptr_t) (typed + PAD + 63) & ~(uintptr_t) 63) + toff;
    char *out = (char *) ((uintptr_t) (packed + PAD + 63) & ~(uintptr_t) 63);
    for (size_t i = 0; i < span; i++)
        data[i] = (char) value(i);
    memset(packed, GUARD, room);
    int position = (int) pos;
    CHECK_MPI(MPI_Pack(data, 1, t, out, (int) (pos + n), &position, MPI_COMM_WORLD));
    CHECK_EQ(position, pos + n);
    size_t bad = 0;
    for (int b = 0; b < nblocks; b++)
        for (int i = 0; i < bs; i++)
            bad += (uint8_t) out[pos + (size_t) b * bs + i] != value((size_t) b * stride + i);
    for (size_t i = 1; i <= 64; i++)
        bad += (uint8_t) out[pos - i] != GUARD;
    for (size_t i = 0; i < 64; i++)
        bad += (uint8_t) out[pos + n + i] != GUARD;
    CHECK(bad == 0, "pack of %d blocks of %d bytes %d apart, at position %zu: %zu bytes wrong", nblocks, bs,
          stride, pos, bad);

    memset(typed, GUARD, room);
    position = (int) pos;
    CHECK_MPI(MPI_Unpack(out, (int) (pos + n), &position, data, 1, t, MPI_COMM_WORLD));
    bad = 0;
    for (size_t i = 0; i < span; i++) {
        bool in_block = (long) (i % (size_t) stride) < bs;
        bad += (uint8_t) data[i] != (in_block ? value(i) : GUARD);
    }
    CHECK(bad == 0, "unpack of %d blocks of %d bytes %d apart, from position %zu: %zu bytes wrong", nblocks,
          bs, stride, pos, bad);
done:
    free(typed);
    free(packed);
    CHECK_MPI(MPI_Type_free(&t));
}

/* rank 0 sends n bytes from offset soff of its buffer, rank 1 receives them at offset roff */
static void message(int rank, size_t n, size_t soff, size_t roff, int tag)
{
    size_t room = 64 + 2 * PAD + n;
    char *buf = aligned_alloc(64, room + 64 - room % 64);
    if (!buf) {
        MTEST_FAIL("out of memory");
        return;
    }
    if (rank == 0) {
        char *data = buf + PAD + soff;
        for (size_t i = 0; i < n; i++)
            data[i] = (char) value(i + (size_t) tag);
        CHECK_MPI(MPI_Send(data, (int) n, MPI_BYTE, 1, tag, MPI_COMM_WORLD));
    } else if (rank == 1) {
        memset(buf, GUARD, room);
        char *data = buf + PAD + roff;
        MPI_Status st;
        CHECK_MPI(MPI_Recv(data, (int) n, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &st));
        size_t bad = wrong_bytes(data, n, (size_t) tag);
        CHECK(bad == 0, "message of %zu bytes sent from offset %zu, received at %zu: %zu bytes wrong", n, soff,
              roff, bad);
    }
    free(buf);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* every skew at lengths about the string move's threshold (2112) and past a page */
    const size_t lengths[] = { 33, 2048, 2113, 2200, 4096 + 24, 6480 };
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++)
        for (size_t skew = 0; skew < 64; skew++) {
            run_trip(lengths[l], 1, 0, skew);
            run_trip(lengths[l], 1, skew, 0);
        }
    /* both ends off their lines; longer runs (the general path, pieces of the chunk) */
    const size_t offs[][2] = { { 8, 0 }, { 0, 8 }, { 40, 8 }, { 17, 51 }, { 32, 0 }, { 63, 1 } };
    const size_t long_lengths[] = { 65536 + 7, 300000 + 3, 1100000 };
    for (size_t k = 0; k < sizeof offs / sizeof offs[0]; k++) {
        for (size_t l = 0; l < sizeof long_lengths / sizeof long_lengths[0]; l++)
            run_trip(long_lengths[l], 1, offs[k][0], offs[k][1]);
        run_trip(4096 + 24, 3, offs[k][0], offs[k][1]);
        strided_trip(9, 2200, 2200 + 4096 + 8, offs[k][0], offs[k][1]);
        strided_trip(9, 4096 + 8, 8192 + 56, offs[k][0], offs[k][1]);
        strided_trip(3, 2200, (1 << 20) + 8, offs[k][0], offs[k][1]);   /* in the same L2 sets */
    }
    /* the device's copies: eager (a few KiB) and longer messages, skewed at each end */
    if (size >= 2) {
        const size_t sizes[] = { 2200, 16384 + 8, 300000 + 5 };
        int tag = 0;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (size_t k = 0; k < sizeof offs / sizeof offs[0]; k++)
                message(rank, sizes[s], offs[k][0], offs[k][1], tag++);
    }
    return MTest_Finalize();
}
