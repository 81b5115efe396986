/*
 * Calls too large for the L2: vectors of long blocks (2104 bytes, either side of 2112, and 3-6
 * KiB) with more than 8 MiB in one MPI_Pack or MPI_Unpack call, more than any L2 the kernels take
 * to hold a call's blocks from one call to the next. Where they do not (Zen 5 rules), blocks with a
 * gap of 256 bytes or more are packed by 64-byte moves instead of the string move; a gap of 248
 * bytes keeps the string move, blocks 64 KiB apart (the same L2 sets) took memcpy before. Under
 * Intel's rules (pack_cold_blocks_intel_rules) blocks of 4 KiB or more 64 KiB apart are unpacked
 * by the string move too, where a 64 KiB set span puts them in the same L2 sets. Strides
 * forward and backward, one instance (the copy plan) and two (the segment walk). The packed bytes
 * must be the blocks' in type-map order, nothing written past them; unpacking must write exactly
 * the blocks, leaving the lines either side of each alone.
 */
#include <stdint.h>
#include "mtest.h"

#define CALL_BYTES ((size_t) 8 << 20)
#define GUARD 64

static unsigned char *typed_region, *want, *out;

static void check(int instances, int bs, MPI_Aint stride)
{
    char what[128];
    int n = (int) (CALL_BYTES / (size_t) bs / (size_t) instances) + 1;
    snprintf(what, sizeof what, "%d x %d blocks of %d bytes, %ld apart", instances, n, bs, (long) stride);
    MPI_Datatype v, t;
    CHECK_MPI(MPI_Type_create_hvector(n, bs, stride, MPI_BYTE, &v));
    MPI_Aint lb, extent;
    CHECK_MPI(MPI_Type_get_extent(v, &lb, &extent));
    /* n strides, so that the second instance's blocks keep a gap from the first's too */
    extent = n * (stride < 0 ? -stride : stride);
    CHECK_MPI(MPI_Type_create_resized(v, lb, extent, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    MPI_Type_free(&v);
    /* block i of instance c at buf + c * extent + i * stride; with a negative stride the lowest
     * block is the last, lb below buf */
    unsigned char *buf = typed_region + GUARD - lb;
    size_t size = (size_t) instances * (size_t) n * (size_t) bs, k = 0;
    /* each block with its neighbours, GUARD bytes either side (the gaps are 248 bytes or more) */
    for (int c = 0; c < instances; c++)
        for (int i = 0; i < n; i++) {
            unsigned char *block = buf + c * extent + i * stride;
            memset(block - GUARD, 0x5a, (size_t) (GUARD + bs + GUARD));
            for (int b = 0; b < bs; b++, k++)
                block[b] = want[k] = (unsigned char) (31 * k / 7 + 1);
        }
    memset(out, 0xee, size + GUARD);
    int pos = 0;
    CHECK_MPI(MPI_Pack(buf, instances, t, out, (int) size, &pos, MPI_COMM_SELF));
    CHECK((size_t) pos == size && memcmp(out, want, size) == 0, "%s: packed bytes differ", what);
    for (size_t g = size; g < size + GUARD; g++)
        CHECK(out[g] == 0xee, "%s: packing wrote past the packed bytes", what);

    /* unpack other values (96-255) into blocks of 0x5a */
    for (int c = 0; c < instances; c++)
        for (int i = 0; i < n; i++)
            memset(buf + c * extent + i * stride, 0x5a, (size_t) bs);
    for (k = 0; k < size; k++)
        out[k] = (unsigned char) (255 - k % 160);
    pos = 0;
    CHECK_MPI(MPI_Unpack(out, (int) size, &pos, buf, instances, t, MPI_COMM_SELF));
    k = 0;
    for (int c = 0; c < instances; c++)
        for (int i = 0; i < n; i++, k += (size_t) bs) {
            unsigned char *block = buf + c * extent + i * stride;
            CHECK(memcmp(block, out + k, (size_t) bs) == 0, "%s: block %d of instance %d not unpacked", what, i, c);
            for (int g = 1; g <= GUARD; g++)
                CHECK(block[-g] == 0x5a && block[bs + g - 1] == 0x5a, "%s: unpacking wrote next to block %d of "
                      "instance %d", what, i, c);
        }
    MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    static const int sizes[] = { 2104, 2112, 3000, 4096, 6144 };
    size_t region_len = GUARD + (CALL_BYTES / 2104 + 3) * 65536 + GUARD;   /* the widest layout: only its blocks' pages are touched */
    typed_region = malloc(region_len);
    want = malloc(CALL_BYTES + 8192);
    out = malloc(CALL_BYTES + 8192 + GUARD);
    CHECK(typed_region && want && out, "no memory for the buffers");
    if (typed_region && want && out)
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            int bs = sizes[z];
            const MPI_Aint strides[] = { bs + 248, bs + 256, 4 * (MPI_Aint) bs, 65536 };
            for (size_t s = 0; s < sizeof strides / sizeof strides[0]; s++)
                for (int instances = 1; instances <= 2; instances++) {
                    check(instances, bs, strides[s]);
                    check(instances, bs, -strides[s]);
                }
        }
    free(typed_region);
    free(want);
    free(out);
    return MTest_Finalize();
}
