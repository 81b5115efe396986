/*
 * Vectors of equal blocks for every block size the strided kernels copy with moves of their own
 * (1-64 bytes, and sizes on either side of them), for 65-128-byte blocks (on Zen 5 moved without a
 * loop: 65, 92 and 128), for blocks of the vector-loop kernels (129 and 1000 bytes: 32- or, on
 * Zen 5, 64-byte moves), for 4 KiB blocks (packed by string moves where they are far apart) and
 * blocks on either side of 2112 bytes (from where Zen 5 moves blocks by string moves), at strides
 * near and far (lines and pages apart, negative too), from typed buffers on every 8-byte offset of
 * a 32-byte boundary and on an odd one (where UndefinedBehaviorSanitizer sees any load that
 * assumes an alignment), one instance (the binding's copy plan, which copies up to 16 blocks and
 * 256 bytes by a loop of its own: 16 and 17 blocks are either side) and two (the segment walk).
 * Unpacking stores whole 32-byte moves only where the blocks all start on a 32-byte boundary, so
 * both of its forms run. The same blocks in a shuffled order, as an hindexed_block type, go to the
 * block-indexed kernels (which pack 32-byte blocks with moves of their own too). The packed bytes
 * must be the blocks' in type-map order, nothing written past them; unpacking must write exactly
 * the blocks. The packed buffer starts on a 16-byte boundary or 8 bytes past one (blocks of an odd
 * number of words, 24-120 bytes, all here, are packed two to whole 16-byte stores beyond the
 * last-level cache, and those of an odd number of 16-byte pairs, 16-112 bytes, streamed in 16-byte
 * stores where the stream is on that boundary), and each type is packed twice;
 * pack_block_sizes_streaming runs it all as if every pack were beyond that cache, where a trial's
 * first call streams and its second does not. Vectors of 8-byte blocks 16 bytes apart end their
 * allocations too, where AddressSanitizer sees any access past them.
 */
#include <stdbool.h>
#include <stdint.h>
#include "mtest.h"

#define MAXBLOCKS 40
#define MAXSIZE 4104
#define MAXGAP 6520
#define MAXBYTES (MAXBLOCKS * MAXSIZE)

static unsigned char *region;   /* 64-byte aligned, room for every layout below */
static size_t region_len;

/* Where block i of the type map lies: in address order (the vector) or shuffled (the indexed form) */
static int order[MAXBLOCKS];

static MPI_Aint block_at(MPI_Aint origin, MPI_Aint stride, int i)
{
    return origin + stride * order[i];
}

static void check(bool shuffled, int instances, int n, int bs, MPI_Aint stride, MPI_Aint offset)
{
    char what[160];
    snprintf(what, sizeof what, "%d x %d blocks of %d bytes, %ld apart%s, typed buffer at 64k+%ld", instances, n,
             bs, (long) stride, shuffled ? " in a shuffled order" : "", (long) offset);
    /* the shuffle: i * 7 mod 41 runs through 0..40, of which the values below n are kept */
    for (int i = 0, k = 0; k < n; i++)
        if (!shuffled)
            order[k++] = i;
        else if (i * 7 % 41 < n)
            order[k++] = i * 7 % 41;
    MPI_Datatype t;
    if (shuffled) {
        MPI_Aint displs[MAXBLOCKS];
        for (int i = 0; i < n; i++)
            displs[i] = stride * order[i];
        CHECK_MPI(MPI_Type_create_hindexed_block(n, bs, displs, MPI_BYTE, &t));
    } else
        CHECK_MPI(MPI_Type_create_hvector(n, bs, stride, MPI_BYTE, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    MPI_Aint lb, extent;
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
    (void) lb;
    /* the buffer: origin so that the lowest block (a negative stride runs downwards) lands on
     * offset past a 64-byte boundary, with a line of room below */
    MPI_Aint span = stride < 0 ? -stride * (n - 1) : 0;
    unsigned char *buf = region + 64 + span + offset;
    size_t used = (size_t) (64 + offset + 2 * extent + 64);   /* both instances, a line above */
    memset(region, 0x5a, used);
    static unsigned char want[2 * MAXBYTES], out[2 * MAXBYTES + 64] __attribute__((aligned(64)));
    int size = instances * n * bs;
    for (int c = 0, k = 0; c < instances; c++)
        for (int i = 0; i < n; i++)
            for (int b = 0; b < bs; b++, k++) {
                unsigned char v = (unsigned char) (31 * k / 7 + 1);
                buf[block_at(c * extent, stride, i) + b] = v;
                want[k] = v;
            }
    /* packed 8 bytes past a 16-byte boundary for typed buffers at 8 and 24, and twice: a trial of
     * streaming stores (pack_block_sizes_streaming) packs its first call streamed, its second not */
    unsigned char *packed = out + offset / 8 % 2 * 8;
    for (int again = 0; again < 2; again++) {
        int pos = 0;
        memset(out, 0xee, sizeof out);
        CHECK_MPI(MPI_Pack(buf, instances, t, packed, size, &pos, MPI_COMM_SELF));
        CHECK(pos == size && memcmp(packed, want, (size_t) size) == 0, "%s: packed bytes differ", what);
        for (int k = size; k < size + 48; k++)
            CHECK(packed[k] == 0xee, "%s: packing wrote past the packed bytes", what);
    }

    /* unpack other values into a buffer of 0x5a: the blocks get them, nothing else changes */
    memset(region, 0x5a, used);
    for (int k = 0; k < size; k++)
        out[k] = (unsigned char) (255 - k % 160);
    int pos = 0;
    CHECK_MPI(MPI_Unpack(out, size, &pos, buf, instances, t, MPI_COMM_SELF));
    size_t written = 0;
    for (int c = 0, k = 0; c < instances; c++)
        for (int i = 0; i < n; i++, k += bs) {
            CHECK(memcmp(buf + block_at(c * extent, stride, i), out + k, (size_t) bs) == 0,
                  "%s: block %d of instance %d not unpacked", what, i, c);
            written += (size_t) bs;
        }
    /* the unpacked values are 96-255, so every byte outside the blocks must still be 0x5a */
    size_t untouched = 0;
    for (size_t k = 0; k < used; k++)
        untouched += region[k] == 0x5a;
    CHECK(untouched + written == used, "%s: unpacking wrote outside the blocks", what);
    MPI_Type_free(&t);
}

/* Vectors of 8-byte blocks 16 bytes apart (moved by whole vectors on Zen 5) whose last block ends
 * its allocation: under AddressSanitizer, a read or write past that block is caught. */
static void check_buffer_end(int n)
{
    size_t len = (size_t) (n - 1) * 16 + 8;
    unsigned char *buf = malloc(len), *out = malloc((size_t) n * 8);
    CHECK(buf && out, "no memory for %d blocks", n);
    if (buf && out) {
        MPI_Datatype t;
        CHECK_MPI(MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &t));
        CHECK_MPI(MPI_Type_commit(&t));
        for (size_t k = 0; k < len; k++)
            buf[k] = (unsigned char) (k * 13 + 5);
        int pos = 0;
        CHECK_MPI(MPI_Pack(buf, 1, t, out, n * 8, &pos, MPI_COMM_SELF));
        for (int i = 0; i < n; i++)
            CHECK(memcmp(out + 8 * i, buf + 16 * i, 8) == 0, "%d blocks 16 bytes apart: block %d not packed", n, i);
        pos = 0;
        memset(buf, 0, len);
        CHECK_MPI(MPI_Unpack(out, n * 8, &pos, buf, 1, t, MPI_COMM_SELF));
        for (size_t k = 0; k < len; k++)
            CHECK(buf[k] == (k % 16 < 8 ? (unsigned char) (k * 13 + 5) : 0),
                  "%d blocks 16 bytes apart: byte %zu unpacked wrong", n, k);
        MPI_Type_free(&t);
    }
    free(buf);
    free(out);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    static const int sizes[] = { 1, 2, 4, 8, 12, 16, 24, 31, 32, 33, 40, 48, 56, 64, 65, 72, 80, 88, 92, 104, 112, 120, 128, 129, 1000, 2104, 2112, 4096, MAXSIZE };
    static const int counts[] = { 1, 3, 16, 17, MAXBLOCKS };
    static const MPI_Aint gaps[] = { 0, 8, 24, 40, 64, 248, 4096 - 64, MAXGAP };
    static const MPI_Aint offsets[] = { 0, 8, 16, 24, 3 };   /* typed buffers past a 32-byte boundary */
    region_len = (64 + 32 + 2 * (size_t) (MAXBLOCKS * (MAXSIZE + MAXGAP)) + 64 + 63) / 64 * 64;   /* aligned_alloc: a multiple of 64 */
    region = aligned_alloc(64, region_len);
    CHECK(region != NULL, "no memory for the buffer");
    if (!region)
        return MTest_Finalize();
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
            for (size_t g = 0; g < sizeof gaps / sizeof gaps[0]; g++)
                for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++)
                    for (int instances = 1; instances <= 2; instances++) {
                        int bs = sizes[z], n = counts[c];
                        MPI_Aint offset = offsets[o];
                        MPI_Aint stride = bs + gaps[g];
                        /* whole 4 KiB pages apart, and 32-byte multiples: the aligned unpack */
                        if (gaps[g] == 4096 - 64)
                            stride = (bs + 4095) / 4096 * 4096;
                        for (int shuffled = 0; shuffled <= (n > 2); shuffled++) {
                            check(shuffled, instances, n, bs, stride, offset);
                            if (n > 1)
                                check(shuffled, instances, n, bs, -stride, offset);
                        }
                    }
    for (int n = 1; n <= 40; n++)
        check_buffer_end(n);
    free(region);
    return MTest_Finalize();
}
