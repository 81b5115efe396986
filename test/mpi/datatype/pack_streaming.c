/*
 * Packs and unpacks of streams beyond the last-level cache, which the engine copies with streaming
 * stores (copy_kernels.h). The testlist line lowers that threshold to 64 KiB (LOOM_STREAM_MIN), so
 * each shape below is checked at a size above it and at one below (the ordinary kernels and the
 * copy plans), as 1 and 3 instances, packed at positions that keep the stream 16-, 8- and only
 * 4-byte aligned (the streaming stores need whole 8-byte words, else the kernels copy), against the
 * reference model (reftype.h): the packed bytes, guard bytes around them, and every byte of the
 * typed buffer after unpacking.
 *   8B, 40B, 1KiB    vectors of doubles, blocks at twice their length (1 KiB blocks are also
 *                    unpacked with streaming stores)
 *   far, negative    8-byte blocks 520 bytes apart (prefetched ahead) and at a negative stride
 *   12B              blocks of three ints (not whole words)
 *   1KiB_odd         the 1 KiB blocks 4 bytes off 8-byte alignment in the typed buffer
 *   indexed          blocks of 1-7 ints, some whole words and some not
 *   gather           indexed_block of pairs of doubles at increasing random displacements
 *   rows             a vector of vectors (rows of blocks)
 *   struct           a struct of the 8B vector and the gather (a type with a copy plan)
 *   contig, bytes    contiguous doubles, and an odd number of bytes (one run, one copy)
 * Five of the shapes are also packed and unpacked call after call, through the streaming trial
 * (check_repeated), and unpacked as the device receives them, through segments in chunks, where
 * one turn of the trial spans a message's chunks (check_received). And by hand, from MPI_BOTTOM: hindexed_blocks of absolute addresses. (Offsets
 * that need 64 bits, blocks over 2 GiB apart, are pack_far_blocks_streaming's.)
 */
#include <stdint.h>
#include <stdlib.h>
#include "mtest.h"
#include "reftype.h"
#include "../../../src/mpid/datatype/mpid_dataloop.h"

#define BIG 16384      /* elements of a shape above the threshold */
#define SMALL 512      /* and below it */
#define GUARD 0xa5

static uint64_t rng = 88172645463325252ull;
static unsigned next_rand(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (unsigned) rng;
}

static MPI_Datatype vector(int n, int blocklen, int stride, MPI_Datatype old)
{
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_vector(n, blocklen, stride, old, &t));
    return t;
}

/* one entry of t at byte displacement disp (frees t) */
static MPI_Datatype displaced(MPI_Datatype t, MPI_Aint disp)
{
    int one = 1;
    MPI_Datatype s;
    CHECK_MPI(MPI_Type_create_struct(1, &one, &disp, &t, &s));
    CHECK_MPI(MPI_Type_free(&t));
    return s;
}

static MPI_Datatype shape(const char *name, int n)
{
    if (!strcmp(name, "8B"))
        return vector(n, 1, 2, MPI_DOUBLE);
    if (!strcmp(name, "contig") || !strcmp(name, "bytes")) {
        MPI_Datatype t;
        if (!strcmp(name, "contig"))
            CHECK_MPI(MPI_Type_contiguous(n, MPI_DOUBLE, &t));
        else
            CHECK_MPI(MPI_Type_contiguous(8 * n + 3, MPI_BYTE, &t));
        return t;
    }
    if (!strcmp(name, "40B"))
        return vector(n / 4, 5, 10, MPI_DOUBLE);
    if (!strcmp(name, "1KiB"))
        return vector(n / 64, 128, 256, MPI_DOUBLE);
    if (!strcmp(name, "far")) {
        MPI_Datatype t;
        CHECK_MPI(MPI_Type_create_hvector(n, 1, 520, MPI_DOUBLE, &t));
        return t;
    }
    if (!strcmp(name, "negative"))
        return vector(n, 1, -2, MPI_DOUBLE);
    if (!strcmp(name, "12B"))
        return vector(n / 2, 3, 5, MPI_INT);
    if (!strcmp(name, "1KiB_odd"))
        return displaced(vector(n / 64, 128, 256, MPI_DOUBLE), 4);
    if (!strcmp(name, "indexed") || !strcmp(name, "gather")) {
        int k = n / 2;
        int *lens = malloc(sizeof(int) * (size_t) k), *displs = malloc(sizeof(int) * (size_t) k);
        for (int i = 0, at = 0; i < k; i++) {
            lens[i] = 1 + (int) (next_rand() % 7);
            displs[i] = at;
            at += 2 * lens[i] + 2 * (int) (next_rand() % 5);
        }
        MPI_Datatype t;
        if (!strcmp(name, "indexed"))
            CHECK_MPI(MPI_Type_indexed(k, lens, displs, MPI_INT, &t));
        else
            CHECK_MPI(MPI_Type_create_indexed_block(k, 2, displs, MPI_DOUBLE, &t));
        free(lens);
        free(displs);
        return t;
    }
    if (!strcmp(name, "rows")) {
        MPI_Datatype row = vector(64, 1, 2, MPI_DOUBLE), t;
        CHECK_MPI(MPI_Type_create_hvector(n / 64, 1, 64 * 16 + 40, row, &t));
        CHECK_MPI(MPI_Type_free(&row));
        return t;
    }
    /* struct */
    MPI_Datatype parts[2] = { shape("8B", n / 2), shape("gather", n / 2) }, t;
    MPI_Aint extent, lb, displs[2];
    int lens[2] = { 1, 1 };
    CHECK_MPI(MPI_Type_get_extent(parts[0], &lb, &extent));
    displs[0] = 0;
    displs[1] = extent + 24;
    CHECK_MPI(MPI_Type_create_struct(2, lens, displs, parts, &t));
    CHECK_MPI(MPI_Type_free(&parts[0]));
    CHECK_MPI(MPI_Type_free(&parts[1]));
    return t;
}

static void check(const char *name, int n, int count, int pos)
{
    char what[96];
    snprintf(what, sizeof what, "%s, %d elements, count %d, position %d", name, n, count, pos);
    MPI_Datatype t = shape(name, n);
    CHECK_MPI(MPI_Type_commit(&t));
    ref_map m;
    ref_buf typed, model;
    if (ref_map_build(t, count, &m) || ref_buf_alloc(&typed, &m, 7) || ref_buf_clone(&model, &typed)) {
        MTEST_FAIL("%s: the model failed", what);
        return;
    }
    size_t size = (size_t) m.size;
    unsigned char *out = malloc(size + pos + 64), *want = malloc(size);
    memset(out, GUARD, size + pos + 64);
    ref_pack(&m, model.base, want);

    int position = pos;
    CHECK_MPI(MPI_Pack(typed.base, count, t, out, (int) size + pos + 64, &position, MPI_COMM_WORLD));
    CHECK(position == pos + (int) size, "%s: pack position %d", what, position);
    CHECK(memcmp(out + pos, want, size) == 0, "%s: packed bytes differ from the model", what);
    CHECK(mtest_untouched(out, (size_t) pos, GUARD) && mtest_untouched(out + pos + size, 64, GUARD),
          "%s: pack wrote outside the stream", what);

    for (size_t i = 0; i < size; i++)   /* new bytes to unpack */
        out[pos + i] = (unsigned char) next_rand();
    ref_unpack(&m, out + pos, model.base);
    position = pos;
    CHECK_MPI(MPI_Unpack(out, (int) size + pos, &position, typed.base, count, t, MPI_COMM_WORLD));
    CHECK(memcmp(typed.mem, model.mem, typed.len) == 0, "%s: typed buffer after unpack differs from the model",
                what);
    free(out);
    free(want);
    ref_buf_free(&typed);
    ref_buf_free(&model);
    ref_map_free(&m);
    CHECK_MPI(MPI_Type_free(&t));
}

/* A shape as the two checks below repeat it: two streams and the typed buffer each unpacks to
 * (want[0] packed from the typed buffer as allocated, want[1] random bytes). */
typedef struct {
    MPI_Datatype t;
    ref_map m;
    ref_buf typed, model[2];
    unsigned char *want[2];
    size_t size;
} Trial_case;

static bool trial_case(Trial_case *c, const char *name, const char *what)
{
    c->t = shape(name, BIG);
    CHECK_MPI(MPI_Type_commit(&c->t));
    if (ref_map_build(c->t, 1, &c->m) || ref_buf_alloc(&c->typed, &c->m, 11)
        || ref_buf_clone(&c->model[0], &c->typed) || ref_buf_clone(&c->model[1], &c->typed)) {
        MTEST_FAIL("%s, %s: the model failed", name, what);
        return false;
    }
    c->size = (size_t) c->m.size;
    c->want[0] = malloc(c->size);
    c->want[1] = malloc(c->size);
    ref_pack(&c->m, c->model[0].base, c->want[0]);
    for (size_t i = 0; i < c->size; i++)
        c->want[1][i] = (unsigned char) next_rand();
    ref_unpack(&c->m, c->want[1], c->model[1].base);
    return true;
}

static void trial_case_free(Trial_case *c)
{
    free(c->want[0]);
    free(c->want[1]);
    ref_buf_free(&c->typed);
    ref_buf_free(&c->model[0]);
    ref_buf_free(&c->model[1]);
    ref_map_free(&c->m);
    CHECK_MPI(MPI_Type_free(&c->t));
}

/* One type packed and unpacked call after call, through its streaming trial (copy_kernels.h: the
 * first calls of each epoch of 256 take turns with and without streaming stores, the rest follow
 * the faster; 40-byte blocks packed without them go by 16-byte moves, pack_far_words), the verdict
 * and the next epoch's trial: every call's bytes checked. The unpacks alternate between two
 * streams, so an unpack that wrote nothing would show. */
#define TRIAL_CALLS (2 * 256 + 8)
static void check_repeated(const char *name)
{
    Trial_case c;
    if (!trial_case(&c, name, "repeated"))
        return;
    unsigned char *out = malloc(c.size);
    int bad_pack = -1, bad_unpack = -1;
    for (int call = 0; call < TRIAL_CALLS; call++) {
        int position = 0;
        memset(out, GUARD, c.size);
        CHECK_MPI(MPI_Pack(c.typed.base, 1, c.t, out, (int) c.size, &position, MPI_COMM_WORLD));
        if (bad_pack < 0 && memcmp(out, c.want[call % 2], c.size) != 0)
            bad_pack = call;
        position = 0;
        CHECK_MPI(MPI_Unpack(c.want[(call + 1) % 2], (int) c.size, &position, c.typed.base, 1, c.t, MPI_COMM_WORLD));
        if (bad_unpack < 0 && memcmp(c.typed.mem, c.model[(call + 1) % 2].mem, c.typed.len) != 0)
            bad_unpack = call;
    }
    CHECK(bad_pack < 0, "%s, repeated: call %d packed other bytes than the model", name, bad_pack);
    CHECK(bad_unpack < 0, "%s, repeated: call %d left the typed buffer unlike the model", name, bad_unpack);
    free(out);
    trial_case_free(&c);
}

/* One type received message after message as the device unpacks it: a segment per message, its
 * stream unpacked in chunks of random sizes, each message's chunks one turn of the type's trial
 * (MPID_Segment_unpack), through two epochs. Every eleventh message stops halfway (a message
 * shorter than the buffer: its turn ends with the segment); the next one must still unpack whole.
 * The messages alternate between the two streams, so a chunk that wrote nothing would show. */
static void check_received(const char *name)
{
    Trial_case c;
    if (!trial_case(&c, name, "received"))
        return;
    int bad = -1;
    for (int msg = 0; msg < TRIAL_CALLS && bad < 0; msg++) {
        MPID_Segment seg;
        if (MPID_Segment_init(&seg, c.typed.base, 1, c.t) != MPI_SUCCESS) {
            MTEST_FAIL("%s, received: MPID_Segment_init failed", name);
            break;
        }
        bool whole = msg % 11 != 10;
        MPI_Count end = whole ? (MPI_Count) c.size : (MPI_Count) c.size / 2, first = 0;
        while (first < end) {   /* chunks of 16 bytes or more hold a whole element of every shape */
            MPI_Count last = first + 16 + next_rand() % 16384;
            last = last < end ? last : end;
            if (MPID_Segment_unpack(&seg, first, &last, c.want[msg % 2] + first) != MPI_SUCCESS) {
                bad = msg;
                break;
            }
            if (last == first)   /* half a message can end inside an element */
                break;
            first = last;
        }
        MPID_Segment_free(&seg);
        if (whole && (first != end || memcmp(c.typed.mem, c.model[msg % 2].mem, c.typed.len) != 0))
            bad = msg;
    }
    CHECK(bad < 0, "%s, received: message %d left the typed buffer unlike the model", name, bad);
    trial_case_free(&c);
}

/* Blocks of 8 and 24 bytes at absolute addresses, packed from and unpacked to MPI_BOTTOM. */
static void check_bottom(int bs, int n)
{
    char *arr = malloc((size_t) n * 64);
    unsigned char *out = malloc((size_t) n * bs + 16), *want = malloc((size_t) n * bs);
    MPI_Aint *displs = malloc(sizeof(MPI_Aint) * (size_t) n);
    for (int i = 0; i < n * 64; i++)
        arr[i] = (char) next_rand();
    for (int i = 0; i < n; i++) {
        CHECK_MPI(MPI_Get_address(arr + (size_t) i * 64 + (i % 3) * 8, &displs[i]));
        memcpy(want + (size_t) i * bs, arr + (size_t) i * 64 + (i % 3) * 8, (size_t) bs);
    }
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_create_hindexed_block(n, bs, displs, MPI_BYTE, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    int position = 8, size = n * bs;
    CHECK_MPI(MPI_Pack(MPI_BOTTOM, 1, t, out, size + 16, &position, MPI_COMM_WORLD));
    CHECK(position == size + 8 && memcmp(out + 8, want, (size_t) size) == 0,
                "MPI_BOTTOM, %d blocks of %d bytes: packed bytes differ", n, bs);
    for (int i = 0; i < size; i++)
        out[8 + i] = want[i] = (unsigned char) next_rand();
    position = 8;
    CHECK_MPI(MPI_Unpack(out, size + 16, &position, MPI_BOTTOM, 1, t, MPI_COMM_WORLD));
    int same = 1;
    for (int i = 0; i < n; i++)
        same &= memcmp(arr + (size_t) i * 64 + (i % 3) * 8, want + (size_t) i * bs, (size_t) bs) == 0;
    CHECK(same, "MPI_BOTTOM, %d blocks of %d bytes: unpacked bytes differ", n, bs);
    CHECK_MPI(MPI_Type_free(&t));
    free(arr);
    free(out);
    free(want);
    free(displs);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    static const char *names[] = { "8B", "40B", "1KiB", "far", "negative", "12B", "1KiB_odd", "indexed",
                                   "gather", "rows", "struct", "contig", "bytes" };
    static const int positions[] = { 0, 8, 4, 16 };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        for (int p = 0; p < 4; p++) {
            check(names[k], BIG, 1, positions[p]);
            check(names[k], SMALL, 1, positions[p]);
        }
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        check(names[k], BIG, 3, 8);
        check(names[k], SMALL, 3, 4);
    }
    static const char *repeated[] = { "8B", "40B", "1KiB", "indexed", "struct" };
    for (size_t k = 0; k < sizeof repeated / sizeof repeated[0]; k++)
        check_repeated(repeated[k]);
    for (size_t k = 0; k < sizeof repeated / sizeof repeated[0]; k++)
        check_received(repeated[k]);
    check_bottom(8, BIG);
    check_bottom(24, BIG);
    check_bottom(8, 64);
    return MTest_Finalize();
}
