/*
 * MPI_Pack / MPI_Unpack round trips through every constructor, on small types whose packed
 * stream was worked out by hand.
 *
 * The typed buffer is an int array src[i] = 100 + i, so a packed stream of ints names the source
 * indices it took, in type-map order. Each case gives the type, the count and that index list;
 * the test checks MPI_Pack_size, the packed ints, the final position, that the bytes after the
 * packed data are untouched, and that MPI_Unpack into a buffer filled with -1 writes exactly the
 * listed indices (and nothing else).
 * A mixed struct is checked byte by byte at the end.
 */
#include <stddef.h>
#include <stdint.h>
#include "mtest.h"

#define NSRC 64
#define MAXIDX 32
#define GUARD 0x5a

typedef struct {
    int line;
    const char *what;
    MPI_Datatype type;
    int count;
    int base;          /* the buffer is src + base (negative strides reach below it) */
    int n;             /* ints in the packed stream */
    int idx[MAXIDX];   /* source index of each packed int */
} pcase;

static void run_case(const pcase *c)
{
    int src[NSRC], dst[NSRC];
    unsigned char packed[MAXIDX * 4 + 16];
    int size = -1, pos = 0;
    for (int i = 0; i < NSRC; i++)
        src[i] = 100 + i;

    CHECK_MPI(MPI_Pack_size(c->count, c->type, MPI_COMM_WORLD, &size));
    if (size != c->n * 4)
        MTEST_FAIL("line %d (%s): MPI_Pack_size = %d, expected %d", c->line, c->what, size, c->n * 4);

    memset(packed, GUARD, sizeof packed);
    CHECK_MPI(MPI_Pack(src + c->base, c->count, c->type, packed, (int) sizeof packed, &pos, MPI_COMM_WORLD));
    if (pos != c->n * 4)
        MTEST_FAIL("line %d (%s): position = %d, expected %d", c->line, c->what, pos, c->n * 4);
    for (int k = 0; k < c->n; k++) {
        int v;
        memcpy(&v, packed + 4 * k, 4);
        if (v != 100 + c->idx[k]) {
            MTEST_FAIL("line %d (%s): packed int %d is src[%d], expected src[%d]", c->line, c->what, k,
                       v - 100, c->idx[k]);
            break;
        }
    }
    for (size_t b = (size_t) c->n * 4; b < sizeof packed; b++)
        if (packed[b] != GUARD) {
            MTEST_FAIL("line %d (%s): byte %zu after the packed data was written", c->line, c->what, b);
            break;
        }

    /* unpack: exactly the listed elements come back, the rest stays -1 */
    int want[NSRC];
    for (int i = 0; i < NSRC; i++)
        dst[i] = want[i] = -1;
    for (int k = 0; k < c->n; k++)
        want[c->idx[k]] = 100 + c->idx[k];
    pos = 0;
    CHECK_MPI(MPI_Unpack(packed, (int) sizeof packed, &pos, dst + c->base, c->count, c->type, MPI_COMM_WORLD));
    if (pos != c->n * 4)
        MTEST_FAIL("line %d (%s): unpack position = %d, expected %d", c->line, c->what, pos, c->n * 4);
    for (int i = 0; i < NSRC; i++)
        if (dst[i] != want[i]) {
            MTEST_FAIL("line %d (%s): after unpack dst[%d] = %d, expected %d", c->line, c->what, i, dst[i],
                       want[i]);
            break;
        }
    if (c->type != MPI_INT) {
        MPI_Datatype t = c->type;
        MPI_Type_free(&t);
    }
}

static MPI_Datatype commit(MPI_Datatype t)
{
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}

static MPI_Datatype contig(int n, MPI_Datatype old)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK_MPI(MPI_Type_contiguous(n, old, &t));
    return t;
}

static MPI_Datatype vec(int n, int bl, int stride, MPI_Datatype old)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK_MPI(MPI_Type_vector(n, bl, stride, old, &t));
    return t;
}

/* a struct whose packed bytes are checked one by one */
static void mixed_struct(void)
{
    struct s { char c; double d; short s; } in[2], out[2];
    int bl[3] = { 1, 1, 1 };
    MPI_Aint disp[3] = { offsetof(struct s, c), offsetof(struct s, d), offsetof(struct s, s) };
    MPI_Datatype types[3] = { MPI_CHAR, MPI_DOUBLE, MPI_SHORT }, t;
    CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    memset(in, 0x77, sizeof in);   /* padding bytes must not travel */
    in[0] = (struct s) { 'a', 1.5, 7 };
    in[1] = (struct s) { 'b', -2.25, -9 };

    unsigned char want[22], got[30];
    for (int i = 0; i < 2; i++) {
        memcpy(want + 11 * i, &in[i].c, 1);
        memcpy(want + 11 * i + 1, &in[i].d, 8);
        memcpy(want + 11 * i + 9, &in[i].s, 2);
    }
    int size = 0, pos = 0;
    CHECK_MPI(MPI_Pack_size(2, t, MPI_COMM_WORLD, &size));
    CHECK_EQ(size, 22);
    memset(got, GUARD, sizeof got);
    CHECK_MPI(MPI_Pack(in, 2, t, got, (int) sizeof got, &pos, MPI_COMM_WORLD));
    CHECK_EQ(pos, 22);
    CHECK(memcmp(got, want, 22) == 0, "packed bytes of the mixed struct differ");
    CHECK(got[22] == GUARD && got[29] == GUARD, "bytes after the packed data were written");

    memset(out, 0x33, sizeof out);
    pos = 0;
    CHECK_MPI(MPI_Unpack(got, 22, &pos, out, 2, t, MPI_COMM_WORLD));
    CHECK_EQ(pos, 22);
    for (int i = 0; i < 2; i++) {
        CHECK(out[i].c == in[i].c && out[i].d == in[i].d && out[i].s == in[i].s,
              "unpacked struct %d differs", i);
        /* the padding between c and d is not part of the type: unpack leaves it alone */
        unsigned char pad;
        memcpy(&pad, (char *) &out[i] + 1, 1);
        CHECK(pad == 0x33, "unpack wrote into the padding of struct %d", i);
    }
    MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    MPI_Datatype t;
    int bl3[3] = { 2, 1, 3 }, d3[3] = { 5, 0, 9 };
    int bl2[2] = { 1, 2 };
    MPI_Aint hd2[2] = { 12, 4 };
    int ib[3] = { 4, 0, 8 };
    MPI_Aint hb[2] = { 8, 0 };
    int sizes[2] = { 4, 5 }, subsizes[2] = { 2, 3 }, starts[2] = { 1, 1 };
    int gs[1] = { 8 }, distrib_block[1] = { MPI_DISTRIBUTE_BLOCK }, distrib_cyclic[1] = { MPI_DISTRIBUTE_CYCLIC };
    int dargs[1] = { MPI_DISTRIBUTE_DFLT_DARG }, dargs1[1] = { 1 }, ps[1] = { 2 };

    /* predefined */
    pcase c0 = { __LINE__, "MPI_INT x5", MPI_INT, 5, 0, 5, { 0, 1, 2, 3, 4 } };
    run_case(&c0);

    pcase cases[] = {
        { __LINE__, "contiguous(3)", commit(contig(3, MPI_INT)), 1, 0, 3, { 0, 1, 2 } },
        { __LINE__, "contiguous(3) x2", commit(contig(3, MPI_INT)), 2, 0, 6, { 0, 1, 2, 3, 4, 5 } },
        { __LINE__, "vector(3,2,4)", commit(vec(3, 2, 4, MPI_INT)), 1, 0, 6, { 0, 1, 4, 5, 8, 9 } },
        /* extent of vector(2,1,2) is 3 ints: the second instance starts at src[3] */
        { __LINE__, "vector(2,1,2) x2", commit(vec(2, 1, 2, MPI_INT)), 2, 0, 4, { 0, 2, 3, 5 } },
        /* negative stride: type-map order runs downwards */
        { __LINE__, "vector(3,1,-2)", commit(vec(3, 1, -2, MPI_INT)), 1, 10, 3, { 10, 8, 6 } },
        /* vector of contiguous: blocks of 2 ints, 3 children (6 ints) apart */
        { __LINE__, "vector(2,1,3) of contiguous(2)", commit(vec(2, 1, 3, contig(2, MPI_INT))), 1, 0, 4,
          { 0, 1, 6, 7 } },
        { __LINE__, "indexed", MPI_DATATYPE_NULL, 1, 0, 6, { 5, 6, 0, 9, 10, 11 } },
        { __LINE__, "hindexed", MPI_DATATYPE_NULL, 1, 0, 3, { 3, 1, 2 } },
        { __LINE__, "indexed_block", MPI_DATATYPE_NULL, 1, 0, 6, { 4, 5, 0, 1, 8, 9 } },
        { __LINE__, "hindexed_block", MPI_DATATYPE_NULL, 1, 0, 2, { 2, 0 } },
        { __LINE__, "hvector(2,3,20 bytes)", MPI_DATATYPE_NULL, 1, 0, 6, { 0, 1, 2, 5, 6, 7 } },
        { __LINE__, "subarray C", MPI_DATATYPE_NULL, 1, 0, 6, { 6, 7, 8, 11, 12, 13 } },
        /* Fortran order: dimension 0 (size 4) varies fastest, element (i0, i1) at i0 + 4 * i1 */
        { __LINE__, "subarray Fortran", MPI_DATATYPE_NULL, 1, 0, 6, { 5, 6, 9, 10, 13, 14 } },
        { __LINE__, "resized(contiguous(2), 0, 12) x3", MPI_DATATYPE_NULL, 3, 0, 6, { 0, 1, 3, 4, 6, 7 } },
        { __LINE__, "dup(vector(3,2,4))", MPI_DATATYPE_NULL, 1, 0, 6, { 0, 1, 4, 5, 8, 9 } },
        { __LINE__, "struct of int blocks", MPI_DATATYPE_NULL, 1, 0, 5, { 7, 8, 1, 2, 3 } },
        { __LINE__, "darray block, rank 1 of 2", MPI_DATATYPE_NULL, 1, 0, 4, { 4, 5, 6, 7 } },
        { __LINE__, "darray cyclic(1), rank 1 of 2", MPI_DATATYPE_NULL, 1, 0, 4, { 1, 3, 5, 7 } },
        /* zero count of a non-empty type */
        { __LINE__, "vector x0", commit(vec(3, 2, 4, MPI_INT)), 0, 0, 0, { 0 } },
    };
    int k = 6;
    CHECK_MPI(MPI_Type_indexed(3, bl3, d3, MPI_INT, &t));
    cases[k++].type = commit(t);
    CHECK_MPI(MPI_Type_create_hindexed(2, bl2, hd2, MPI_INT, &t));
    cases[k++].type = commit(t);
    CHECK_MPI(MPI_Type_create_indexed_block(3, 2, ib, MPI_INT, &t));
    cases[k++].type = commit(t);
    CHECK_MPI(MPI_Type_create_hindexed_block(2, 1, hb, MPI_INT, &t));
    cases[k++].type = commit(t);
    CHECK_MPI(MPI_Type_create_hvector(2, 3, 20, MPI_INT, &t));
    cases[k++].type = commit(t);
    CHECK_MPI(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t));
    cases[k++].type = commit(t);
    CHECK_MPI(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_INT, &t));
    cases[k++].type = commit(t);
    {
        MPI_Datatype c2 = contig(2, MPI_INT);
        CHECK_MPI(MPI_Type_create_resized(c2, 0, 12, &t));
        MPI_Type_free(&c2);   /* the child lives on inside t */
        cases[k++].type = commit(t);
    }
    {
        MPI_Datatype v = vec(3, 2, 4, MPI_INT);
        CHECK_MPI(MPI_Type_dup(v, &t));
        MPI_Type_free(&v);
        cases[k++].type = commit(t);
    }
    {
        /* {2 ints at byte 28, contiguous(3) at byte 4}: type-map order, not address order */
        MPI_Datatype c3 = contig(3, MPI_INT);
        int sbl[2] = { 2, 1 };
        MPI_Aint sd[2] = { 28, 4 };
        MPI_Datatype st[2] = { MPI_INT, c3 };
        CHECK_MPI(MPI_Type_create_struct(2, sbl, sd, st, &t));
        MPI_Type_free(&c3);
        cases[k++].type = commit(t);
    }
    CHECK_MPI(MPI_Type_create_darray(2, 1, 1, gs, distrib_block, dargs, ps, MPI_ORDER_C, MPI_INT, &t));
    cases[k++].type = commit(t);
    CHECK_MPI(MPI_Type_create_darray(2, 1, 1, gs, distrib_cyclic, dargs1, ps, MPI_ORDER_C, MPI_INT, &t));
    cases[k++].type = commit(t);

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(&cases[i]);

    mixed_struct();
    return MTest_Finalize();
}
