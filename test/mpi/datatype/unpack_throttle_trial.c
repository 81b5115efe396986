/*
 * The unpack store throttle on trial (copy_kernels.c: scratch_stores, MPID_Unpack_rows): small
 * blocks at strides of a multiple of 512 bytes are unpacked with scratch stores, without them and
 * with pauses in turns for the first calls of every epoch of 2048 calls, and then the way that
 * timed fastest.
 * Whichever way each call takes, it must write exactly the blocks. The testlist line sets
 * LOOM_RULES=zen4, since only AMD's rules throttle. Three layouts, unpacked in turns (as a
 * program exchanging several faces would) for more than two epochs each: a column of 8-byte blocks
 * 512 bytes apart (the x face of a 64^3 array of doubles), 16-byte blocks 1 KiB apart and 32-byte
 * blocks a page apart. Each call unpacks new values; the bytes between the blocks are checked at
 * the end. Run again with LOOM_RULES=intel, which does not throttle but writes the first layout
 * with each block's line prefetched ahead (copy_kernels.c: unpack_crowded_8).
 */
#include <stdint.h>
#include "mtest.h"

#define CALLS 4200   /* two epochs and the trials of a third */

struct layout {
    const char *name;
    int bs, blocks, rows;
    MPI_Aint stride, row_step;
    MPI_Datatype type;
    unsigned char *typed, *packed;
    size_t span;
};

static void setup(struct layout *l)
{
    MPI_Datatype row;
    CHECK_MPI(MPI_Type_create_hvector(l->blocks, l->bs, l->stride, MPI_BYTE, &row));
    CHECK_MPI(MPI_Type_create_hvector(l->rows, 1, l->row_step, row, &l->type));
    CHECK_MPI(MPI_Type_commit(&l->type));
    MPI_Type_free(&row);
    l->span = (size_t) (l->rows - 1) * (size_t) l->row_step + (size_t) (l->blocks - 1) * (size_t) l->stride
        + (size_t) l->bs;
    l->typed = aligned_alloc(4096, (l->span + 4095) / 4096 * 4096);
    l->packed = malloc((size_t) l->bs * l->blocks * l->rows);
    CHECK(l->typed && l->packed, "out of memory");
    for (size_t i = 0; i < l->span; i++)
        l->typed[i] = (unsigned char) (i % 251);
}

static unsigned char *block(const struct layout *l, int r, int b)
{
    return l->typed + (size_t) r * (size_t) l->row_step + (size_t) b * (size_t) l->stride;
}

static void unpack_once(struct layout *l, int call)
{
    int size = l->bs * l->blocks * l->rows, pos = 0;
    for (int i = 0; i < size; i++)
        l->packed[i] = (unsigned char) (call * 7 + i * 13 + 1);
    CHECK_MPI(MPI_Unpack(l->packed, size, &pos, l->typed, 1, l->type, MPI_COMM_SELF));
    CHECK(pos == size, "%s, call %d: position %d, want %d", l->name, call, pos, size);
    for (int r = 0; r < l->rows; r++)
        for (int b = 0; b < l->blocks; b++) {
            const unsigned char *want = l->packed + ((size_t) r * l->blocks + b) * l->bs;
            if (memcmp(block(l, r, b), want, (size_t) l->bs) != 0) {
                CHECK(0, "%s, call %d: row %d block %d not unpacked", l->name, call, r, b);
                return;
            }
        }
}

/* Every byte outside the blocks still holds its first value. */
static void check_gaps(struct layout *l)
{
    for (int r = 0; r < l->rows; r++)
        for (int b = 0; b < l->blocks; b++)
            memset(block(l, r, b), 0, (size_t) l->bs);
    unsigned char *seen = calloc(l->span, 1);
    CHECK(seen != NULL, "out of memory");
    for (int r = 0; r < l->rows; r++)
        for (int b = 0; b < l->blocks; b++)
            memset(seen + (block(l, r, b) - l->typed), 1, (size_t) l->bs);
    for (size_t i = 0; i < l->span; i++)
        if (!seen[i] && l->typed[i] != (unsigned char) (i % 251)) {
            CHECK(0, "%s: byte %zu between the blocks was written", l->name, i);
            break;
        }
    free(seen);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    struct layout layouts[] = {
        {"8-byte blocks 512 B apart", 8, 64, 64, 512, 64 * 512},
        {"16-byte blocks 1 KiB apart", 16, 512, 1, 1024, 0},
        {"32-byte blocks 4 KiB apart", 32, 1024, 1, 4096, 0},
    };
    int n = (int) (sizeof layouts / sizeof layouts[0]);
    for (int k = 0; k < n; k++) {
        if (layouts[k].rows == 1)
            layouts[k].row_step = layouts[k].stride * layouts[k].blocks;
        setup(&layouts[k]);
    }
    for (int call = 0; call < CALLS && mtest_errs == 0; call++)
        for (int k = 0; k < n; k++)
            unpack_once(&layouts[k], call);
    for (int k = 0; k < n; k++) {
        check_gaps(&layouts[k]);
        MPI_Type_free(&layouts[k].type);
        free(layouts[k].typed);
        free(layouts[k].packed);
    }
    return MTest_Finalize();
}
