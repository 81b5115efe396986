/*
 * MPI_BOTTOM with absolute addresses (MPI 4.1, 5.1.12): a type whose displacements are addresses
 * from MPI_Get_address describes data anywhere in memory, and MPI_Pack / MPI_Unpack /
 * MPI_Pack_external with buffer MPI_BOTTOM move exactly that data.
 *   - a struct over separately allocated arrays (ints, doubles, a strided vector of chars), its
 *     entries in an order unrelated to their addresses: packed bytes computed by hand (native and
 *     external32), unpacked back into zeroed arrays with their neighbours left alone;
 *   - an hindexed type of absolute addresses of single doubles;
 *   - random types (randtype.h) placed in a buffer and wrapped in a one-entry struct at the
 *     buffer's address: packing the wrapper from MPI_BOTTOM must give what packing the type from
 *     the buffer gives, and unpacking must land in the same places (reference model, reftype.h).
 * REFTYPE_ITERS (default 300) sets the number of random types, REFTYPE_SEED (default 1) the first.
 */
#include <stdint.h>
#include <stdlib.h>
#include "mtest.h"
#include "randtype.h"
#include "reftype.h"

static MPI_Aint addr(const void *p)
{
    MPI_Aint a = 0;
    CHECK_MPI(MPI_Get_address(p, &a));
    return a;
}

/* Appends the n bytes of v, most significant first when big is set (external32). */
static unsigned char *put(unsigned char *out, const void *v, size_t n, int big)
{
    const unsigned char *b = v;
    for (size_t k = 0; k < n; k++)
        *out++ = b[big ? n - 1 - k : k];    /* x86-64 is little-endian */
    return out;
}

static void check_bytes(const char *what, const unsigned char *got, const unsigned char *want,
                        size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (got[k] != want[k]) {
            MTEST_FAIL("%s: byte %zu is 0x%02x, expected 0x%02x", what, k, got[k], want[k]);
            return;
        }
}

/* A struct over three separately allocated arrays. */
static void struct_of_arrays(void)
{
    int *ia = malloc(6 * sizeof *ia);
    double *da = malloc(4 * sizeof *da);
    char *ca = malloc(8);
    for (int k = 0; k < 6; k++)
        ia[k] = 100 + k;
    for (int k = 0; k < 4; k++)
        da[k] = 1.5 * (k + 1) - 4.0;        /* -2.5, -1, 0.5, 2 */
    memcpy(ca, "abcdefgh", 8);

    /* entries: ca[1], ca[3], ca[5] (vector of chars), then ia[2..4], then da[1..2] */
    MPI_Datatype chars, t;
    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_CHAR, &chars));
    int bl[3] = { 1, 3, 2 };
    MPI_Aint disp[3] = { addr(ca + 1), addr(ia + 2), addr(da + 1) };
    MPI_Datatype types[3] = { chars, MPI_INT, MPI_DOUBLE };
    CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &t));
    CHECK_MPI(MPI_Type_free(&chars));
    CHECK_MPI(MPI_Type_commit(&t));

    /* the packed stream by hand: 3 chars, 3 ints, 2 doubles */
    enum { SIZE = 3 + 3 * 4 + 2 * 8 };
    unsigned char want[SIZE], want_ext[SIZE], out[SIZE + 8], *p = want, *q = want_ext;
    for (int k = 1; k <= 5; k += 2)
        p = put(p, &ca[k], 1, 0), q = put(q, &ca[k], 1, 1);
    for (int k = 2; k <= 4; k++)
        p = put(p, &ia[k], 4, 0), q = put(q, &ia[k], 4, 1);
    for (int k = 1; k <= 2; k++)
        p = put(p, &da[k], 8, 0), q = put(q, &da[k], 8, 1);

    int size = -1, pos = 0;
    CHECK_MPI(MPI_Type_size(t, &size));
    CHECK_EQ(size, SIZE);
    memset(out, 0xee, sizeof out);
    CHECK_MPI(MPI_Pack(MPI_BOTTOM, 1, t, out, SIZE, &pos, MPI_COMM_WORLD));
    CHECK_EQ(pos, SIZE);
    check_bytes("MPI_Pack from MPI_BOTTOM", out, want, SIZE);

    MPI_Aint epos = 0, esize = -1;
    CHECK_MPI(MPI_Pack_external_size("external32", 1, t, &esize));
    CHECK_EQ(esize, SIZE);
    memset(out, 0xee, sizeof out);
    CHECK_MPI(MPI_Pack_external("external32", MPI_BOTTOM, 1, t, out, SIZE, &epos));
    CHECK_EQ(epos, SIZE);
    check_bytes("MPI_Pack_external from MPI_BOTTOM", out, want_ext, SIZE);

    /* unpack into zeroed arrays: the described elements come back, the others stay 0 */
    memset(ia, 0, 6 * sizeof *ia);
    memset(da, 0, 4 * sizeof *da);
    memset(ca, 0, 8);
    pos = 0;
    CHECK_MPI(MPI_Unpack(want, SIZE, &pos, MPI_BOTTOM, 1, t, MPI_COMM_WORLD));
    CHECK_EQ(pos, SIZE);
    for (int k = 0; k < 6; k++)
        CHECK_EQ(ia[k], k >= 2 && k <= 4 ? 100 + k : 0);
    for (int k = 0; k < 4; k++)
        CHECK(da[k] == (k == 1 ? -1.0 : k == 2 ? 0.5 : 0.0), "da[%d] = %g", k, da[k]);
    for (int k = 0; k < 8; k++)
        CHECK_EQ(ca[k], k % 2 && k < 7 ? "abcdefgh"[k] : 0);

    /* and from external32 */
    memset(ia, 0, 6 * sizeof *ia);
    memset(da, 0, 4 * sizeof *da);
    memset(ca, 0, 8);
    epos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", want_ext, SIZE, &epos, MPI_BOTTOM, 1, t));
    CHECK_EQ(epos, SIZE);
    CHECK_EQ(ia[3], 103);
    CHECK(da[2] == 0.5, "da[2] = %g after MPI_Unpack_external", da[2]);
    CHECK_EQ(ca[5], 'f');
    CHECK_EQ(ca[4], 0);

    CHECK_MPI(MPI_Type_free(&t));
    free(ia);
    free(da);
    free(ca);
}

/* hindexed over the absolute addresses of single doubles allocated one by one, in an order that
 * has nothing to do with where they are */
static void hindexed_of_pointers(void)
{
    enum { N = 5 };
    double *d[N];
    int bl[N];
    MPI_Aint disp[N];
    unsigned char want[N * 8], out[N * 8];
    for (int k = 0; k < N; k++) {
        d[k] = malloc(sizeof(double));
        *d[k] = 10.0 * k + 0.25;
    }
    for (int k = 0; k < N; k++) {
        int j = (3 * k + 2) % N;            /* a permutation of 0..N-1 */
        bl[k] = 1;
        disp[k] = addr(d[j]);
        memcpy(want + 8 * k, d[j], 8);
    }
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_create_hindexed(N, bl, disp, MPI_DOUBLE, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    int pos = 0;
    CHECK_MPI(MPI_Pack(MPI_BOTTOM, 1, t, out, sizeof out, &pos, MPI_COMM_WORLD));
    CHECK_EQ(pos, (int) sizeof out);
    check_bytes("hindexed MPI_Pack from MPI_BOTTOM", out, want, sizeof want);
    for (int k = 0; k < N; k++)
        *d[k] = -1.0;
    pos = 0;
    CHECK_MPI(MPI_Unpack(want, sizeof want, &pos, MPI_BOTTOM, 1, t, MPI_COMM_WORLD));
    for (int k = 0; k < N; k++)
        CHECK(*d[k] == 10.0 * k + 0.25, "*d[%d] = %g after unpack", k, *d[k]);
    CHECK_MPI(MPI_Type_free(&t));
    for (int k = 0; k < N; k++)
        free(d[k]);
}

/* A random type at buf, and the same data through struct {1 x type at addr(buf)} from MPI_BOTTOM. */
static void random_wrapped(unsigned long long seed)
{
    static const rt_limits limits = { 5, 2048, 16384 };
    char desc[1024];
    rt_rng r;
    rt_seed(&r, seed);
    MPI_Datatype t = rt_random_type(&r, &limits), w;
    if (t == MPI_DATATYPE_NULL) {
        MTEST_FAIL("seed %llu: the generator could not build a type", seed);
        return;
    }
    ref_map m;
    ref_buf buf, want, got;
    if (ref_map_build(t, 1, &m) || ref_buf_alloc(&buf, &m, rt_next(&r)))
        exit(1);
    int one = 1;
    MPI_Aint base = addr(buf.base);
    CHECK_MPI(MPI_Type_create_struct(1, &one, &base, &t, &w));
    CHECK_MPI(MPI_Type_commit(&w));
    unsigned char *stream = malloc((size_t) m.size + 1), *out = malloc((size_t) m.size + 1);
    ref_pack(&m, buf.base, stream);

    int pos = 0;
    CHECK_MPI(MPI_Pack(MPI_BOTTOM, 1, w, out, (int) m.size, &pos, MPI_COMM_WORLD));
    if (pos != m.size || ref_cmp_stream(&m, 0, m.size, stream, out, "MPI_Pack from MPI_BOTTOM"))
        MTEST_FAIL("seed %llu: MPI_Pack(MPI_BOTTOM) of %s at %#lx: position %d of %lld", seed,
                   ref_describe(t, desc, sizeof desc), (long) base, pos, (long long) m.size);

    /* unpack random bytes: the model's unpack at buf, the library's through MPI_BOTTOM */
    unsigned char *writes = ref_buf_writes(&m, &buf);
    if (ref_buf_clone(&want, &buf) || ref_buf_clone(&got, &buf) || !writes)
        exit(1);
    ref_fill(stream, (size_t) m.size, rt_next(&r));
    ref_unpack(&m, stream, want.base);
    MPI_Aint got_base = addr(got.base);
    MPI_Datatype wg;
    CHECK_MPI(MPI_Type_create_struct(1, &one, &got_base, &t, &wg));
    CHECK_MPI(MPI_Type_commit(&wg));
    pos = 0;
    CHECK_MPI(MPI_Unpack(stream, (int) m.size, &pos, MPI_BOTTOM, 1, wg, MPI_COMM_WORLD));
    if (ref_cmp_buf(&m, &want, &got, writes, "MPI_Unpack to MPI_BOTTOM"))
        MTEST_FAIL("seed %llu: MPI_Unpack(MPI_BOTTOM) of %s", seed,
                   ref_describe(t, desc, sizeof desc));

    CHECK_MPI(MPI_Type_free(&wg));
    CHECK_MPI(MPI_Type_free(&w));
    MPI_Type_free(&t);
    free(writes);
    free(stream);
    free(out);
    ref_buf_free(&want);
    ref_buf_free(&got);
    ref_buf_free(&buf);
    ref_map_free(&m);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    struct_of_arrays();
    hindexed_of_pointers();
    long long iters = rt_env("REFTYPE_ITERS", 300);
    unsigned long long seed = (unsigned long long) rt_env("REFTYPE_SEED", 1);
    for (long long i = 0; i < iters && mtest_errs < 20; i++)
        random_wrapped(seed + (unsigned long long) i);
    return MTest_Finalize();
}
