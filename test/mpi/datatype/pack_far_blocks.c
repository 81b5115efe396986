/*
 * Blocks at explicit displacements that span more than 2 GiB: the engine keeps the offsets of a
 * block-indexed leaf (hindexed_block) in 32 bits when they span less, and those of an indexed one
 * (hindexed, blocks of different lengths) with its prefix sums, so these take the other path.
 * Each type is packed and unpacked over an address range reserved with mmap (only the pages the
 * blocks touch are ever written), for block sizes the kernels copy apart (4, 8, 24 bytes; the
 * indexed ones alternate between that and twice that), counts around their groups of four, spans
 * just under and just over 2 GiB and up to 3 GiB, with the blocks in and out of address order, and
 * with the first two touching (one run once joined).
 * The packed bytes must be the blocks' in type-map order; unpacking must write exactly the blocks
 * and leave their neighbours alone.
 */
#include <stdint.h>
#include <sys/mman.h>
#include "mtest.h"

#define GIB ((MPI_Aint) 1 << 30)
#define MAXBLOCKS 9

static unsigned char *region;
static size_t region_len = 3 * (size_t) GIB + 4096;

/* Whether byte at lies in one of the n blocks. */
static int inside(const MPI_Aint *displs, const int *lens, int n, MPI_Aint at)
{
    for (int i = 0; i < n; i++)
        if (at >= displs[i] && at < displs[i] + lens[i])
            return 1;
    return 0;
}

/* unequal: hindexed blocks of bs and 2 * bs bytes in turn, else hindexed_block ones of bs */
static void check(const MPI_Aint *displs, int n, int bs, int unequal)
{
    char what[96];
    snprintf(what, sizeof what, "%d %s blocks of %d bytes, last at %ld", n, unequal ? "hindexed" : "hindexed_block",
             bs, (long) displs[n - 1]);
    MPI_Datatype t;
    int lens[MAXBLOCKS], starts[MAXBLOCKS + 1] = { 0 };   /* each block's bytes and packed position */
    for (int i = 0; i < n; i++) {
        lens[i] = unequal && i % 2 ? 2 * bs : bs;
        starts[i + 1] = starts[i] + lens[i];
    }
    if (unequal)
        CHECK_MPI(MPI_Type_create_hindexed(n, lens, displs, MPI_BYTE, &t));
    else
        CHECK_MPI(MPI_Type_create_hindexed_block(n, bs, displs, MPI_BYTE, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    unsigned char want[MAXBLOCKS * 48], out[MAXBLOCKS * 48 + 8];
    for (int i = 0; i < n; i++)
        for (int b = 0; b < lens[i]; b++) {
            unsigned char v = (unsigned char) (17 * i + b + 1);
            region[displs[i] + b] = v;
            want[starts[i] + b] = v;
        }
    int pos = 0, size = starts[n];
    memset(out, 0xee, sizeof out);
    CHECK_MPI(MPI_Pack(region, 1, t, out, size, &pos, MPI_COMM_SELF));
    CHECK(pos == size && memcmp(out, want, (size_t) size) == 0 && out[size] == 0xee, "%s: packed bytes differ", what);

    /* unpack other values; the byte before and after each block keeps its own, where it is not
     * another block's */
    for (int i = 0; i < n; i++) {
        if (!inside(displs, lens, n, displs[i] - 1))
            region[displs[i] - 1] = 0x5a;
        if (!inside(displs, lens, n, displs[i] + lens[i]))
            region[displs[i] + lens[i]] = 0xa5;
    }
    for (int k = 0; k < size; k++)
        out[k] = (unsigned char) (255 - k);
    pos = 0;
    CHECK_MPI(MPI_Unpack(out, size, &pos, region, 1, t, MPI_COMM_SELF));
    for (int i = 0; i < n; i++) {
        CHECK(memcmp(region + displs[i], out + starts[i], (size_t) lens[i]) == 0, "%s: block %d not unpacked", what,
              i);
        CHECK((inside(displs, lens, n, displs[i] - 1) || region[displs[i] - 1] == 0x5a)
              && (inside(displs, lens, n, displs[i] + lens[i]) || region[displs[i] + lens[i]] == 0xa5),
              "%s: unpacking wrote next to block %d", what, i);
    }
    MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    region = mmap(NULL, region_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (region == MAP_FAILED) {
        /* no address space for it (a 32-bit or tightly limited process): nothing to test */
        printf("skipped: no 3 GiB of address space\n");
        return MTest_Finalize();
    }
    static const int sizes[] = { 4, 8, 24 };
    static const int counts[] = { 2, 4, 5, 9 };
    static const MPI_Aint spans[] = { 2 * GIB - 64, 2 * GIB + 64, 3 * GIB };
    for (size_t s = 0; s < sizeof spans / sizeof spans[0]; s++)
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
            for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
                for (int k = 0; k < 4; k++) {
                    int reversed = k & 1, unequal = k >> 1, n = counts[c];   /* 2 blocks: the span is the only distance, so an hvector */
                    MPI_Aint displs[MAXBLOCKS];
                    for (int i = 0; i < n; i++) {   /* the span spread over n blocks, unevenly (a vector otherwise) */
                        MPI_Aint d = 64 + (spans[s] - 64) / (n - 1) * i;
                        if (i > 0 && i < n - 1)
                            d -= 4096 * (i % 3 + 1);
                        displs[reversed ? n - 1 - i : i] = d;
                    }
                    check(displs, n, sizes[z], unequal);
                    if (!reversed && n > 2) {
                        /* the second block right after the first: in type-map order they join
                         * into one run, a merge done in 64 bits beyond 2 GiB */
                        displs[1] = displs[0] + sizes[z];
                        check(displs, n, sizes[z], unequal);
                    }
                }
    munmap(region, region_len);
    return MTest_Finalize();
}
