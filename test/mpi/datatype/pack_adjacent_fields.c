/*
 * Structs whose fields of different basic types lie side by side in memory, in type-map order
 * (the padded struct {double; int; char[3]} of extent 16): a leaf of blocks of their own, for the
 * types' sake, which the engine copies as one run of bytes per element where it has no AVX-512
 * windows (segment.c, flat_elements). The testlist runs this file as it is and, as
 * pack_adjacent_fields_nowindows, without the windows, which is what processors without AVX-512
 * take. Each type, as count instances (1 to 1000) and repeated by hvectors of other steps
 * (negative, odd, shorter than an element), is packed and unpacked whole with MPI_Pack and
 * MPI_Unpack, and in chunks of 1-40 bytes through the segment API (chunks end inside elements,
 * at every field boundary), and compared with the reference model (reftype.h): the packed bytes,
 * guard bytes after them, and every byte of the typed buffer after unpacking.
 */
#include <stdint.h>
#include <stdlib.h>
#include "mtest.h"
#include "reftype.h"
#include "../../../src/mpid/datatype/mpid_dataloop.h"

#define GUARD_BYTE 0xd7
#define TAIL 32   /* guard bytes after each packed buffer */

/* A struct of n basic fields laid side by side from offset 0 (each field count[k] of types[k]),
 * resized to extent; a gap before the last field if gap. */
static MPI_Datatype fields(int n, const MPI_Datatype *types, const int *count, MPI_Aint extent, int gap)
{
    MPI_Aint displs[8], at = 0;
    for (int k = 0; k < n; k++) {
        int size;
        CHECK_MPI(MPI_Type_size(types[k], &size));
        if (gap && k == n - 1)
            at += 4;
        displs[k] = at;
        at += (MPI_Aint) count[k] * size;
    }
    MPI_Datatype s, t;
    CHECK_MPI(MPI_Type_create_struct(n, count, displs, types, &s));
    CHECK_MPI(MPI_Type_create_resized(s, 0, extent, &t));
    CHECK_MPI(MPI_Type_free(&s));
    return t;
}

/* A zeroed buffer of n + TAIL bytes whose last TAIL bytes are guards. */
static unsigned char *guarded(MPI_Count n)
{
    unsigned char *p = malloc((size_t) n + TAIL);
    CHECK(p != NULL, "out of memory");
    memset(p, 0, (size_t) n);
    memset(p + n, GUARD_BYTE, TAIL);
    return p;
}

static int guards_intact(const unsigned char *p, MPI_Count n)
{
    for (int k = 0; k < TAIL; k++)
        if (p[n + k] != GUARD_BYTE)
            return 0;
    return 1;
}

/* chunk lengths: 1-40 bytes from a fixed sequence */
static MPI_Count chunk(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return 1 + (MPI_Count) ((*state >> 16) % 40);
}

/* Packs and unpacks count instances of t, whole and in chunks; t is committed. */
static void check(MPI_Datatype t, int count, const char *name)
{
    char what[160];
    snprintf(what, sizeof what, "%s x %d", name, count);
    ref_map map;
    CHECK(ref_map_build(t, count, &map) == 0, "%s: no reference map", what);
    ref_buf in, model, got;
    CHECK(ref_buf_alloc(&in, &map, 11) == 0 && ref_buf_alloc(&model, &map, 29) == 0, "%s: out of memory", what);
    CHECK(ref_buf_clone(&got, &model) == 0, "%s: out of memory", what);
    unsigned char *writes = ref_buf_writes(&map, &model);
    CHECK(writes != NULL, "%s: out of memory", what);
    MPI_Count size = map.size;
    unsigned char *want = guarded(size), *packed = guarded(size);
    ref_pack(&map, in.base, want);

    /* whole, through the API */
    int pos = 0;
    CHECK_MPI(MPI_Pack(in.base, count, t, packed, (int) size, &pos, MPI_COMM_SELF));
    CHECK(pos == size, "%s: MPI_Pack advanced %d bytes, expected %lld", what, pos, (long long) size);
    CHECK(ref_cmp_stream(&map, 0, size, want, packed, what) == 0 && guards_intact(packed, size),
          "%s: MPI_Pack differs from the model", what);
    ref_unpack(&map, want, model.base);
    pos = 0;
    CHECK_MPI(MPI_Unpack(want, (int) size, &pos, got.base, count, t, MPI_COMM_SELF));
    CHECK(ref_cmp_buf(&map, &model, &got, writes, what) == 0, "%s: MPI_Unpack differs from the model", what);

    /* in chunks that end anywhere: the segment rounds each end down to a field boundary */
    MPID_Segment seg;
    CHECK_MPI(MPID_Segment_init(&seg, in.base, count, t));
    memset(packed, 0, (size_t) size);
    uint32_t seed = 7;
    for (MPI_Count first = 0; first < size;) {
        MPI_Count last = first + chunk(&seed);
        CHECK_MPI(MPID_Segment_pack(&seg, first, &last, packed + first));
        first = last;
    }
    MPID_Segment_free(&seg);
    CHECK(ref_cmp_stream(&map, 0, size, want, packed, what) == 0 && guards_intact(packed, size),
          "%s: packing in chunks differs from the model", what);
    ref_buf_free(&got);
    CHECK(ref_buf_clone(&got, &model) == 0, "%s: out of memory", what);
    memset(got.mem, 0x3c, got.len);   /* unpacked over other bytes: what stays must be the model's */
    memcpy(model.mem, got.mem, model.len);
    ref_unpack(&map, want, model.base);
    CHECK_MPI(MPID_Segment_init(&seg, got.base, count, t));
    for (MPI_Count first = 0; first < size;) {
        MPI_Count last = first + chunk(&seed);
        CHECK_MPI(MPID_Segment_unpack(&seg, first, &last, want + first));
        first = last;
    }
    MPID_Segment_free(&seg);
    CHECK(ref_cmp_buf(&map, &model, &got, writes, what) == 0, "%s: unpacking in chunks differs from the model",
          what);

    free(want);
    free(packed);
    free(writes);
    ref_buf_free(&in);
    ref_buf_free(&model);
    ref_buf_free(&got);
    ref_map_free(&map);
}

/* count instances of t, then hvectors of count t at other steps; frees t. */
static void check_all(MPI_Datatype t, const char *name)
{
    static const int counts[] = { 1, 3, 4, 5, 1000 };
    /* per 16 bytes of t's extent; 0: t itself. Shorter than an element (overlapping copies: the
     * model then skips the bytes written twice), odd, negative, longer than two elements. */
    static const MPI_Aint steps[] = { 0, 8, 19, -40, 2 * 16 + 3 };
    MPI_Aint lb, extent;
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
    for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++)
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            MPI_Datatype v;
            char what[96];
            if (steps[s] == 0) {
                CHECK_MPI(MPI_Type_dup(t, &v));
                snprintf(what, sizeof what, "%s", name);
            } else {
                CHECK_MPI(MPI_Type_create_hvector(counts[c], 1, steps[s] * extent / 16, t, &v));
                snprintf(what, sizeof what, "hvector(step %ld) of %s", (long) (steps[s] * extent / 16), name);
            }
            CHECK_MPI(MPI_Type_commit(&v));
            check(v, steps[s] == 0 ? counts[c] : 1, what);
            CHECK_MPI(MPI_Type_free(&v));
        }
    CHECK_MPI(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    {   /* the padded struct of the benchmark: 15 bytes, extent 16 */
        MPI_Datatype types[] = { MPI_DOUBLE, MPI_INT, MPI_CHAR };
        int count[] = { 1, 1, 3 };
        check_all(fields(3, types, count, 16, 0), "{double; int; char[3]}");
    }
    {   /* 7 bytes, extent 8 */
        MPI_Datatype types[] = { MPI_FLOAT, MPI_SHORT, MPI_CHAR };
        int count[] = { 1, 1, 1 };
        check_all(fields(3, types, count, 8, 0), "{float; short; char}");
    }
    {   /* 12 bytes with a double at offset 4, extent 16 */
        MPI_Datatype types[] = { MPI_INT, MPI_DOUBLE };
        int count[] = { 1, 1 };
        check_all(fields(2, types, count, 16, 0), "{int; double (at 4)}");
    }
    {   /* 43 bytes over five types, extent 48 */
        MPI_Datatype types[] = { MPI_DOUBLE, MPI_INT, MPI_FLOAT, MPI_SHORT, MPI_CHAR };
        int count[] = { 3, 2, 1, 1, 5 };
        check_all(fields(5, types, count, 48, 0), "{double[3]; int[2]; float; short; char[5]}");
    }
    {   /* not one run: a gap of 4 bytes before the last field (copied field by field) */
        MPI_Datatype types[] = { MPI_DOUBLE, MPI_INT, MPI_CHAR };
        int count[] = { 1, 1, 3 };
        check_all(fields(3, types, count, 24, 1), "{double; int; gap; char[3]}");
    }
    return MTest_Finalize();
}
