/*
 * Small blocks a page or more apart, more of them than the engine takes to be in the cache (the
 * row loops, not the cached kernels, copy these: NAS MG x faces): 8-byte blocks, whose pack loop
 * on AMD processors keeps only a few loads in flight by making each load's address depend on the
 * block packed some blocks before it, and 4- and 24-byte ones next to them. Strides of one page
 * and a little more (4096 + 512 too: an odd multiple of 512, whose blocks Intel's unpack
 * prefetches), of whole pages, and negative; one long row of blocks (a vector), two (an hvector
 * of vectors, as the MG x face), many rows shorter than the paced loop's lead, and one or three
 * rows whose lines fit the L1 (these stay with the row loops: three go two at a time, then the
 * one left over). Run
 * with Intel's rules and with Zen 4's whatever the processor (LOOM_RULES=intel in the testlist;
 * pack_page_apart_amd_rules). The packed bytes must be the blocks' in type-map
 * order, nothing written past them; unpacking must write exactly the blocks and leave their
 * neighbours alone.
 */
#include <stdint.h>
#include "mtest.h"

#define STRIDE_MAX (2 * 4096 + 8)
/* rows x blocks: more blocks than the engine takes to be cached (half the L2: 4096), in long
 * rows and in rows shorter than the paced loop's lead; and few enough for the L1 (48 KiB: two
 * lines a block) */
static const int shapes[][2] = { { 1, 4500 }, { 2, 4500 }, { 600, 10 }, { 1, 300 }, { 3, 100 } };

static unsigned char *region;

/* byte b of block k (of all rows), and the value unpacking writes there */
static unsigned char value(int k, int b, int unpack)
{
    return (unsigned char) ((unpack ? 101 : 7) * k + 13 * b + 1);
}

/* from the first byte of a row to the next row's: rows apart, not a whole number of pages */
static MPI_Aint row_step_of(int blocks, int bs, MPI_Aint stride)
{
    return (blocks - 1) * (stride < 0 ? -stride : stride) + bs + 4096 + 24;
}

static void check(int rows, int blocks, int bs, MPI_Aint stride)
{
    char what[96];
    snprintf(what, sizeof what, "%d rows of %d blocks of %d bytes, %ld apart", rows, blocks, bs, (long) stride);
    MPI_Aint row_step = row_step_of(blocks, bs, stride), row_len = row_step - 4096 - 24;
    MPI_Aint first = stride < 0 ? row_len - bs : 0;   /* block 0 of row 0 from the region's start */
    MPI_Datatype row, t;
    CHECK_MPI(MPI_Type_create_hvector(blocks, bs, stride, MPI_BYTE, &row));
    CHECK_MPI(MPI_Type_create_hvector(rows, 1, row_step, row, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    MPI_Type_free(&row);
    int size = rows * blocks * bs;
    unsigned char *out = malloc((size_t) size + 8), *typed = region + first;
    CHECK(out != NULL, "no memory for the packed buffer");
    if (!out)
        return;
    for (int r = 0; r < rows; r++)
        for (int i = 0; i < blocks; i++)
            for (int b = 0; b < bs; b++)
                typed[r * row_step + i * stride + b] = value(r * blocks + i, b, 0);
    memset(out, 0xee, (size_t) size + 8);
    int pos = 0;
    CHECK_MPI(MPI_Pack(typed, 1, t, out, size, &pos, MPI_COMM_SELF));
    int bad = -1;
    for (int k = 0; k < size && bad < 0; k++)
        if (out[k] != value(k / bs, k % bs, 0))
            bad = k;
    CHECK(pos == size && bad < 0, "%s: packed byte %d differs", what, bad);
    CHECK(out[size] == 0xee, "%s: packing wrote past the packed bytes", what);

    for (int k = 0; k < size; k++)
        out[k] = value(k / bs, k % bs, 1);
    for (int r = 0; r < rows; r++)
        for (int i = 0; i < blocks; i++) {
            typed[r * row_step + i * stride - 1] = 0x5a;
            typed[r * row_step + i * stride + bs] = 0xa5;
        }
    pos = 0;
    CHECK_MPI(MPI_Unpack(out, size, &pos, typed, 1, t, MPI_COMM_SELF));
    for (int r = 0; r < rows; r++)
        for (int i = 0; i < blocks; i++) {
            unsigned char *block = typed + r * row_step + i * stride;
            int same = 1;
            for (int b = 0; b < bs; b++)
                same &= block[b] == value(r * blocks + i, b, 1);
            CHECK(same, "%s: row %d block %d not unpacked", what, r, i);
            CHECK(block[-1] == 0x5a && block[bs] == 0xa5, "%s: unpacking wrote next to row %d block %d", what, r, i);
        }
    free(out);
    MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    static const int sizes[] = { 4, 8, 24 };
    static const MPI_Aint strides[] = { 4096 + 16, 4096 + 512, 4096 + 1000, STRIDE_MAX, 4096, 2 * 4096 };
    size_t len = 0;
    for (size_t h = 0; h < sizeof shapes / sizeof shapes[0]; h++) {
        size_t need = (size_t) shapes[h][0] * (size_t) row_step_of(shapes[h][1], 24, STRIDE_MAX);
        len = need > len ? need : len;
    }
    len += 1 + 64;
    region = malloc(len);
    CHECK(region != NULL, "no memory for the typed buffer");
    if (!region)
        return MTest_Finalize();
    region++;   /* room for the byte before the first block */
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (size_t s = 0; s < sizeof strides / sizeof strides[0]; s++)
            for (size_t h = 0; h < sizeof shapes / sizeof shapes[0]; h++) {
                check(shapes[h][0], shapes[h][1], sizes[z], strides[s]);
                check(shapes[h][0], shapes[h][1], sizes[z], -strides[s]);
            }
    free(region - 1);
    return MTest_Finalize();
}
