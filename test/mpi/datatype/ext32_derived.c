/*
 * external32 of derived datatypes: the elements of the type map in order, each in its external32
 * form, with no padding (a struct of char, long double, long, short, double, int[2] and two pair
 * types takes 1+16+4+2+8+8+8+20 = 67 bytes); round trips restore exactly the typed bytes and leave
 * the gaps alone; MPI_Pack_external_size is right for every constructor, committed or not, for
 * large counts (_c) and at any depth.
 */
#include <stddef.h>
#include <stdint.h>
#include "mtest.h"

/* An expected stream, written field by field. */
typedef struct {
    unsigned char b[512];
    int n;
} Stream;

static void put(Stream *s, uint64_t v, int bytes)
{
    for (int i = bytes - 1; i >= 0; i--)
        s->b[s->n + i] = (unsigned char) v, v >>= 8;
    s->n += bytes;
}

/* IEEE quad of a small integer-valued long double: only the sign, exponent and top fraction bits. */
static void put_quad(Stream *s, unsigned sign_exp, uint64_t frac_top16)
{
    put(s, sign_exp, 2);
    put(s, frac_top16, 2);
    put(s, 0, 8);
    put(s, 0, 4);
}

static void check_stream(const char *what, const unsigned char *got, MPI_Aint got_len, const Stream *want)
{
    CHECK(got_len == want->n, "%s: %ld bytes, expected %d", what, (long) got_len, want->n);
    for (int i = 0; i < want->n && i < got_len; i++)
        CHECK(got[i] == want->b[i], "%s: byte %d is %02x, expected %02x", what, i, got[i], want->b[i]);
}

static MPI_Aint ext_size(MPI_Datatype t, int count)
{
    MPI_Aint size = -1;
    CHECK_MPI(MPI_Pack_external_size("external32", count, t, &size));
    return size;
}

/* vector(3, 2, 3) of int over 0..8: elements 0 1 3 4 6 7; unpacking leaves 2 5 8 alone. */
static void test_vector(void)
{
    int a[9], back[9];
    unsigned char buf[64];
    MPI_Aint pos = 0;
    MPI_Datatype t;
    Stream want = { .n = 0 };
    for (int i = 0; i < 9; i++)
        a[i] = 0x01000000 * i + i;
    CHECK_MPI(MPI_Type_vector(3, 2, 3, MPI_INT, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_EQ(ext_size(t, 1), 24);
    CHECK_MPI(MPI_Pack_external("external32", a, 1, t, buf, sizeof buf, &pos));
    for (int i = 0; i < 9; i++)
        if (i % 3 != 2)
            put(&want, (uint64_t) a[i], 4);
    check_stream("vector", buf, pos, &want);
    for (int i = 0; i < 9; i++)
        back[i] = -1;
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, 24, &pos, back, 1, t));
    CHECK_EQ(pos, 24);
    for (int i = 0; i < 9; i++)
        CHECK_EQ(back[i], i % 3 == 2 ? -1 : a[i]);
    MPI_Type_free(&t);
}

/* hvector with a negative stride over longs: a[2], a[1], a[0], each in 4 bytes. */
static void test_negative_stride(void)
{
    long a[3] = { -1, 0x12345678, -0x80000000L }, back[3] = { 0, 0, 0 };
    unsigned char buf[16];
    MPI_Aint pos = 0;
    MPI_Datatype t;
    Stream want = { .n = 0 };
    CHECK_MPI(MPI_Type_create_hvector(3, 1, -(MPI_Aint) sizeof(long), MPI_LONG, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_MPI(MPI_Pack_external("external32", &a[2], 1, t, buf, sizeof buf, &pos));
    put(&want, 0x80000000, 4);
    put(&want, 0x12345678, 4);
    put(&want, 0xffffffff, 4);
    check_stream("negative stride", buf, pos, &want);
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, 12, &pos, &back[2], 1, t));
    for (int i = 0; i < 3; i++)
        CHECK_EQ(back[i], a[i]);
    MPI_Type_free(&t);
}

typedef struct { float v; int i; } float_int;
typedef struct { long double v; int i; } ldouble_int;
typedef struct {
    char c;
    long double ld;
    long l;
    short s;
    double d;
    int i[2];
    float_int fi;
    ldouble_int ldi;
} Mixed;

static MPI_Datatype mixed_type(void)
{
    int lens[] = { 1, 1, 1, 1, 1, 2, 1, 1 };
    MPI_Aint disps[] = { offsetof(Mixed, c), offsetof(Mixed, ld), offsetof(Mixed, l), offsetof(Mixed, s),
                         offsetof(Mixed, d), offsetof(Mixed, i), offsetof(Mixed, fi), offsetof(Mixed, ldi) };
    MPI_Datatype types[] = { MPI_CHAR, MPI_LONG_DOUBLE, MPI_LONG, MPI_SHORT, MPI_DOUBLE, MPI_INT,
                             MPI_FLOAT_INT, MPI_LONG_DOUBLE_INT };
    MPI_Datatype t, r;
    CHECK_MPI(MPI_Type_create_struct(8, lens, disps, types, &t));
    CHECK_MPI(MPI_Type_create_resized(t, 0, sizeof(Mixed), &r));
    MPI_Type_free(&t);
    return r;
}

static void fill(Mixed *m, int k)
{
    memset(m, 0, sizeof *m);
    m->c = (char) ('a' + k);
    m->ld = k ? -2.0L : 1.0L;
    m->l = -5 - k;
    m->s = (short) (0x0102 + k);
    m->d = k ? -2.5 : 1.0;
    m->i[0] = 1 + k;
    m->i[1] = -2 - k;
    m->fi.v = 2.0f;
    m->fi.i = 9 + k;
    m->ldi.v = k ? 1.0L : -2.0L;
    m->ldi.i = 4 + k;
}

static void put_mixed(Stream *s, int k)
{
    put(s, (uint64_t) ('a' + k), 1);
    put_quad(s, k ? 0xc000 : 0x3fff, 0);           /* -2.0 or 1.0 */
    put(s, (uint64_t) (-5 - k), 4);
    put(s, (uint64_t) (0x0102 + k), 2);
    put(s, k ? 0xc004000000000000 : 0x3ff0000000000000, 8);
    put(s, (uint64_t) (1 + k), 4);
    put(s, (uint64_t) (-2 - k), 4);
    put(s, 0x40000000, 4);                          /* 2.0f */
    put(s, (uint64_t) (9 + k), 4);
    put_quad(s, k ? 0x3fff : 0xc000, 0);
    put(s, (uint64_t) (4 + k), 4);
}

static void test_struct(void)
{
    Mixed m[2], back[2];
    unsigned char buf[160];
    MPI_Aint pos = 0;
    Stream want = { .n = 0 };
    MPI_Datatype t = mixed_type();

    CHECK_EQ(ext_size(t, 1), 67);   /* uncommitted */
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_EQ(ext_size(t, 2), 134);
    fill(&m[0], 0);
    fill(&m[1], 1);
    put_mixed(&want, 0);
    put_mixed(&want, 1);
    memset(buf, 0xee, sizeof buf);
    CHECK_MPI(MPI_Pack_external("external32", m, 2, t, buf, sizeof buf, &pos));
    check_stream("struct", buf, pos, &want);
    CHECK_EQ(buf[134], 0xee);

    memset(back, 0, sizeof back);
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, 134, &pos, back, 2, t));
    CHECK_EQ(pos, 134);
    for (int k = 0; k < 2; k++) {
        CHECK(back[k].c == m[k].c && back[k].ld == m[k].ld && back[k].l == m[k].l && back[k].s == m[k].s
              && back[k].d == m[k].d && back[k].i[0] == m[k].i[0] && back[k].i[1] == m[k].i[1]
              && back[k].fi.v == m[k].fi.v && back[k].fi.i == m[k].fi.i && back[k].ldi.v == m[k].ldi.v
              && back[k].ldi.i == m[k].ldi.i, "struct %d changed by the round trip", k);
    }
    MPI_Type_free(&t);
}

/* A contiguous vector of pair types with padding (SHORT_INT: 2 + 2 padding + 4 natively). */
static void test_pairs_in_vector(void)
{
    struct { short v; int i; } a[4], back[4];
    unsigned char buf[32];
    MPI_Aint pos = 0;
    MPI_Datatype t;
    Stream want = { .n = 0 };
    memset(back, 0, sizeof back);
    for (int k = 0; k < 4; k++) {
        a[k].v = (short) (-1 - k);
        a[k].i = 0x10 * k;
    }
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_SHORT_INT, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_EQ(ext_size(t, 1), 12);
    CHECK_MPI(MPI_Pack_external("external32", a, 1, t, buf, sizeof buf, &pos));
    put(&want, 0xffff, 2);
    put(&want, 0, 4);
    put(&want, 0xfffd, 2);
    put(&want, 0x20, 4);
    check_stream("vector of MPI_SHORT_INT", buf, pos, &want);
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, 12, &pos, back, 1, t));
    CHECK(back[0].v == -1 && back[0].i == 0 && back[2].v == -3 && back[2].i == 0x20 && back[1].v == 0
          && back[1].i == 0, "vector of MPI_SHORT_INT: wrong round trip");
    MPI_Type_free(&t);
}

/* A subarray of longs from MPI_BOTTOM with absolute addresses. */
static void test_subarray_bottom(void)
{
    long a[4][5];
    unsigned char buf[64];
    MPI_Aint pos = 0, addr;
    MPI_Datatype sub, abs_type;
    int sizes[] = { 4, 5 }, subsizes[] = { 2, 3 }, starts[] = { 1, 2 }, one = 1;
    Stream want = { .n = 0 };
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 5; c++)
            a[r][c] = -(10 * r + c);
    CHECK_MPI(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_LONG, &sub));
    CHECK_EQ(ext_size(sub, 1), 24);
    MPI_Get_address(a, &addr);
    CHECK_MPI(MPI_Type_create_struct(1, &one, &addr, &sub, &abs_type));
    CHECK_MPI(MPI_Type_commit(&abs_type));
    CHECK_MPI(MPI_Pack_external("external32", MPI_BOTTOM, 1, abs_type, buf, sizeof buf, &pos));
    for (int r = 1; r < 3; r++)
        for (int c = 2; c < 5; c++)
            put(&want, (uint64_t) a[r][c], 4);
    check_stream("subarray from MPI_BOTTOM", buf, pos, &want);
    memset(a, 0, sizeof a);
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, 24, &pos, MPI_BOTTOM, 1, abs_type));
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 5; c++)
            CHECK_EQ(a[r][c], r >= 1 && r < 3 && c >= 2 ? -(10 * r + c) : 0);
    MPI_Type_free(&sub);
    MPI_Type_free(&abs_type);
}

/* Sizes from every constructor, before commit: MPI_LONG is 4 bytes, MPI_LONG_INT 8, SHORT_INT 6. */
static void test_sizes(void)
{
    MPI_Datatype t, u, v, w;
    int lens[] = { 1, 3 }, idx[] = { 0, 5 };
    MPI_Aint disps[] = { 0, 64 };
    MPI_Count big = -1;

    CHECK_MPI(MPI_Type_contiguous(3, MPI_LONG, &t));
    CHECK_EQ(ext_size(t, 1), 12);
    CHECK_EQ(ext_size(t, 0), 0);
    CHECK_MPI(MPI_Type_dup(t, &u));
    CHECK_EQ(ext_size(u, 2), 24);
    MPI_Type_free(&u);
    CHECK_MPI(MPI_Type_vector(2, 3, 5, MPI_LONG_INT, &u));
    CHECK_EQ(ext_size(u, 1), 48);
    CHECK_MPI(MPI_Type_create_hvector(2, 2, 100, t, &v));
    CHECK_EQ(ext_size(v, 1), 48);
    MPI_Type_free(&v);
    MPI_Type_free(&u);
    CHECK_MPI(MPI_Type_indexed(2, lens, idx, MPI_SHORT_INT, &u));
    CHECK_EQ(ext_size(u, 1), 24);
    MPI_Type_free(&u);
    CHECK_MPI(MPI_Type_create_hindexed(2, lens, disps, MPI_LONG_DOUBLE_INT, &u));
    CHECK_EQ(ext_size(u, 1), 80);
    MPI_Type_free(&u);
    CHECK_MPI(MPI_Type_create_indexed_block(2, 3, idx, MPI_UNSIGNED_LONG, &u));
    CHECK_EQ(ext_size(u, 1), 24);
    MPI_Type_free(&u);
    CHECK_MPI(MPI_Type_create_hindexed_block(2, 2, disps, MPI_LONG, &u));
    CHECK_EQ(ext_size(u, 1), 16);
    MPI_Type_free(&u);
    CHECK_MPI(MPI_Type_create_resized(MPI_LONG, -8, 64, &u));
    CHECK_EQ(ext_size(u, 3), 12);
    /* struct of a struct: char + 3 longs + resized long, and the markers add nothing */
    {
        int l2[] = { 1, 1, 2, 1, 1 };
        MPI_Aint d2[] = { 0, 8, 40, 0, 200 };
        MPI_Datatype t2[] = { MPI_CHAR, t, u, MPI_LB, MPI_UB };
        CHECK_MPI(MPI_Type_create_struct(5, l2, d2, t2, &v));
        CHECK_EQ(ext_size(v, 1), 1 + 12 + 8);
        CHECK_MPI(MPI_Type_create_struct(2, lens, disps, (MPI_Datatype[]) { v, MPI_DOUBLE_INT }, &w));
        CHECK_EQ(ext_size(w, 1), 21 + 3 * 12);
        MPI_Type_free(&w);
        MPI_Type_free(&v);
    }
    MPI_Type_free(&u);
    /* large counts */
    CHECK_MPI(MPI_Pack_external_size_c("external32", (MPI_Count) 1 << 40, t, &big));
    CHECK_EQ(big, ((MPI_Count) 1 << 40) * 12);
    MPI_Type_free(&t);
    /* a parameterized type is its predefined equivalent */
    CHECK_MPI(MPI_Type_create_f90_real(15, 300, &t));
    CHECK_EQ(ext_size(t, 2), 16);
}

/* Sizes that need no walk: a struct nested 100000 deep, each level {previous at 1, char at 0} (its
 * stream: the int at the bottom, then the chars from the innermost out), and one that lists its
 * child twice, 50 levels of {T, char, T} (5 * 2^50 - 1 bytes: a walk of each entry would take 2^50
 * visits). */
static void test_deep_sizes(void)
{
    enum { DEPTH = 100000 };
    MPI_Datatype t = MPI_INT, next;
    for (int d = 0; d < DEPTH; d++) {
        int lens[] = { 1, 1 };
        MPI_Aint disps[] = { 1, 0 };
        CHECK_MPI(MPI_Type_create_struct(2, lens, disps, (MPI_Datatype[]) { t, MPI_CHAR }, &next));
        if (t != MPI_INT)
            MPI_Type_free(&t);
        t = next;
    }
    CHECK_EQ(ext_size(t, 1), DEPTH + 4);
    CHECK_MPI(MPI_Type_commit(&t));
    unsigned char *in = calloc(DEPTH + 16, 1), *out = malloc(DEPTH + 4);
    CHECK(in && out, "out of memory");
    for (int k = 0; k < DEPTH; k++)
        in[k] = (unsigned char) (k * 7 + 1);
    int32_t bottom = 0x01020304;
    memcpy(in + DEPTH, &bottom, 4);
    MPI_Aint pos = 0;
    CHECK_MPI(MPI_Pack_external("external32", in, 1, t, out, DEPTH + 4, &pos));
    CHECK_EQ(pos, DEPTH + 4);
    CHECK(out[0] == 1 && out[1] == 2 && out[2] == 3 && out[3] == 4, "the deep struct's int is not first");
    int wrong = 0;
    for (int k = 0; k < DEPTH; k++)
        wrong += out[4 + k] != (unsigned char) ((DEPTH - 1 - k) * 7 + 1);
    CHECK_EQ(wrong, 0);
    free(in);
    free(out);
    MPI_Type_free(&t);

    t = MPI_INT;
    for (int d = 0; d < 50; d++) {
        MPI_Aint lb, extent;
        MPI_Type_get_extent(t, &lb, &extent);
        int lens[] = { 1, 1, 1 };
        MPI_Aint disps[] = { 0, extent, extent + 1 };
        CHECK_MPI(MPI_Type_create_struct(3, lens, disps, (MPI_Datatype[]) { t, MPI_CHAR, t }, &next));
        if (t != MPI_INT)
            MPI_Type_free(&t);
        t = next;
    }
    CHECK_EQ(ext_size(t, 1), 5 * ((MPI_Count) 1 << 50) - 1);
    MPI_Type_free(&t);
}

/* Packing after what is already in the buffer, with the _c functions. */
static void test_position_c(void)
{
    long v[2] = { 1, -1 }, back[2] = { 0, 0 };
    unsigned char buf[16];
    MPI_Count pos = 3;
    memset(buf, 0xee, sizeof buf);
    CHECK_MPI(MPI_Pack_external_c("external32", v, 2, MPI_LONG, buf, sizeof buf, &pos));
    CHECK_EQ(pos, 11);
    const unsigned char want[] = { 0xee, 0xee, 0xee, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0xee };
    CHECK(memcmp(buf, want, sizeof want) == 0, "MPI_Pack_external_c at position 3: wrong bytes");
    pos = 3;
    CHECK_MPI(MPI_Unpack_external_c("external32", buf, 11, &pos, back, 2, MPI_LONG));
    CHECK_EQ(pos, 11);
    CHECK_EQ(back[0], 1);
    CHECK_EQ(back[1], -1);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    test_vector();
    test_negative_stride();
    test_deep_sizes();
    test_struct();
    test_pairs_in_vector();
    test_subarray_bottom();
    test_sizes();
    test_position_c();
    return MTest_Finalize();
}
