/*
 * Structs of gathers over several arrays: the exchange of particle codes (LAMMPS sends one list of
 * atom indices applied to the coordinates and to each per-atom array). One instance of such a
 * struct is copied by a plan of kernel calls instead of a walk of its loops, and entries that
 * gather at the same displacements share one offset list in it (plan.c); more instances, and
 * structs of too many entries, are walked. Each case is packed at a nonzero position and unpacked,
 * as 1 and as 2 instances, with its displacements relative to the arrays' buffer and absolute
 * from MPI_BOTTOM, and compared with the reference model (reftype.h): the packed bytes, the guard
 * bytes around them, and after unpacking every byte of the arrays.
 *   lammps        one list over 4 arrays: blocks of 3 doubles, then of 1 in three arrays
 *   near_twins    lists equal to the first but for their last or first index, or one shorter
 *   mixed         vector, contiguous run, basic entry, irregular hindexed, repeated gathers
 *   nested        a struct of the lammps and mixed structs on separate arrays, one displaced
 *   rows          vectors of vectors (hvector, contiguous and vector of a vector), which plans
 *                 copy by rows; one with blocks pages apart, taken to be cached
 *   wide_32/40/72 32, 40 and 72 entries of the same gather (beyond a plan's 32 leaves: walked;
 *                 72 children are more than the loop tree's free takes without growing its list)
 * and, checked by hand (packed and unpacked), a chain of structs 100000 levels deep, each adding a
 * vector of two ints (far too many leaves for a plan, which must see that without descending the
 * whole chain).
 */
#include <stdint.h>
#include "mtest.h"
#include "reftype.h"

#define NARR 80
#define ASIZE 512              /* doubles per array */
#define NIDX 60
#define MAXPACK (NARR * ASIZE * 8 * 2)
#define POS 24                 /* packing starts here; the bytes before must stay */
#define GUARD 0xc3

static double arena[NARR * ASIZE + 64];   /* + room for the second instance (extent 8 bytes) */
static double model[NARR * ASIZE + 64];
static unsigned char got[MAXPACK + POS + 64], want[MAXPACK];
static int idx[NIDX], idx3[NIDX];

/* Displacement of array r: from the arena, or its absolute address (for MPI_BOTTOM). */
static MPI_Aint array_at(int r, int absolute)
{
    MPI_Aint a, b;
    CHECK_MPI(MPI_Get_address(arena + (size_t) r * ASIZE, &a));
    CHECK_MPI(MPI_Get_address(arena, &b));
    return absolute ? a : a - b;
}

static MPI_Datatype gather(int n, int blocklen, const int *list)
{
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_create_indexed_block(n, blocklen, list, MPI_DOUBLE, &t));
    return t;
}

/* A struct of one instance of each types[k] on array first + k; frees the types. */
static MPI_Datatype on_arrays(int n, MPI_Datatype *types, int first, int absolute)
{
    int lens[NARR];
    MPI_Aint displs[NARR];
    MPI_Datatype t;
    for (int k = 0; k < n; k++) {
        lens[k] = 1;
        displs[k] = array_at(first + k, absolute);
    }
    CHECK_MPI(MPI_Type_create_struct(n, lens, displs, types, &t));
    for (int k = 0; k < n; k++)
        if (types[k] != MPI_DOUBLE)
            CHECK_MPI(MPI_Type_free(&types[k]));
    return t;
}

static MPI_Datatype lammps(int first, int absolute)
{
    MPI_Datatype t[4] = { gather(NIDX, 3, idx3), gather(NIDX, 1, idx), gather(NIDX, 1, idx), gather(NIDX, 1, idx) };
    return on_arrays(4, t, first, absolute);
}

static MPI_Datatype near_twins(int first, int absolute)
{
    int last[NIDX], head[NIDX];
    memcpy(last, idx, sizeof idx);
    memcpy(head, idx, sizeof idx);
    last[NIDX - 1] += 1;
    head[0] += 1;
    MPI_Datatype t[5] = { gather(NIDX, 1, idx), gather(NIDX, 1, last), gather(NIDX, 1, head),
                          gather(NIDX - 1, 1, idx), gather(NIDX, 1, idx) };
    return on_arrays(5, t, first, absolute);
}

static MPI_Datatype mixed(int first, int absolute)
{
    static const int lens[5] = { 3, 0, 1, 7, 2 }, displs[5] = { 40, 2, 0, 100, 20 };
    MPI_Datatype t[7];
    CHECK_MPI(MPI_Type_vector(20, 2, 5, MPI_DOUBLE, &t[0]));
    CHECK_MPI(MPI_Type_contiguous(7, MPI_DOUBLE, &t[1]));
    t[2] = MPI_DOUBLE;   /* a basic entry: one run */
    CHECK_MPI(MPI_Type_indexed(5, lens, displs, MPI_DOUBLE, &t[3]));
    t[4] = gather(NIDX, 1, idx);
    t[5] = gather(NIDX, 2, idx);
    t[6] = gather(NIDX, 1, idx);
    return on_arrays(7, t, first, absolute);
}

static MPI_Datatype rows(int first, int absolute)
{
    MPI_Datatype v[3], t[4];
    CHECK_MPI(MPI_Type_vector(4, 1, 520, MPI_DOUBLE, &v[0]));   /* 4160 bytes apart: pages apart */
    CHECK_MPI(MPI_Type_vector(5, 2, 9, MPI_DOUBLE, &v[1]));    /* too wide for windows */
    CHECK_MPI(MPI_Type_vector(2, 3, 40, MPI_DOUBLE, &v[2]));   /* too wide for windows */
    CHECK_MPI(MPI_Type_create_hvector(3, 1, 16, v[0], &t[0]));
    CHECK_MPI(MPI_Type_contiguous(2, v[1], &t[1]));
    CHECK_MPI(MPI_Type_vector(3, 1, 1, v[2], &t[2]));
    t[3] = gather(NIDX, 1, idx);
    for (int k = 0; k < 3; k++)
        CHECK_MPI(MPI_Type_free(&v[k]));
    return on_arrays(4, t, first, absolute);   /* the first spans four arrays: entries overlap */
}

static MPI_Datatype nested(int first, int absolute)
{
    /* the second entry moved one array up by the outer struct: mixed lands on arrays first + 4.. */
    MPI_Datatype t[2] = { lammps(first, absolute), mixed(first + 3, absolute) };
    int lens[2] = { 1, 1 };
    MPI_Aint displs[2] = { 0, ASIZE * sizeof(double) };
    MPI_Datatype s;
    CHECK_MPI(MPI_Type_create_struct(2, lens, displs, t, &s));
    CHECK_MPI(MPI_Type_free(&t[0]));
    CHECK_MPI(MPI_Type_free(&t[1]));
    return s;
}

static MPI_Datatype wide(int n, int first, int absolute)
{
    MPI_Datatype t[NARR];
    for (int k = 0; k < n; k++)
        t[k] = gather(NIDX, 1, idx);
    return on_arrays(n, t, first, absolute);
}

static MPI_Datatype wide_32(int first, int absolute) { return wide(32, first, absolute); }
static MPI_Datatype wide_40(int first, int absolute) { return wide(40, first, absolute); }
static MPI_Datatype wide_72(int first, int absolute) { return wide(72, first, absolute); }

static void fill(double *a, int salt)
{
    for (size_t i = 0; i < sizeof arena / sizeof arena[0]; i++)
        a[i] = (double) (i * 7 + (size_t) salt);
}

/* count instances of make's struct on arrays from first, packed from buf (the arena or
 * MPI_BOTTOM), against the model of the relative struct over the arena. */
static void check(const char *what, MPI_Datatype (*make)(int, int), int first, int count, int absolute)
{
    MPI_Datatype rel = make(first, 0), t = make(first, absolute), rel2, t2;
    /* instances 8 bytes apart: the second overlaps the first, shifted by a double */
    CHECK_MPI(MPI_Type_create_resized(rel, 0, 8, &rel2));
    CHECK_MPI(MPI_Type_create_resized(t, 0, 8, &t2));
    CHECK_MPI(MPI_Type_commit(&rel2));
    CHECK_MPI(MPI_Type_commit(&t2));
    MPI_Datatype mine = count == 1 ? t : t2;
    if (count == 1)
        CHECK_MPI(MPI_Type_commit(&t));
    void *buf = absolute ? MPI_BOTTOM : (void *) arena;

    ref_map map;
    if (ref_map_build(rel2, count, &map) != 0) {
        MTEST_FAIL("%s: the model could not decode the type", what);
        goto out;
    }
    int size = -1;
    CHECK_MPI(MPI_Pack_size(count, mine, MPI_COMM_SELF, &size));
    CHECK(size == map.size, "%s x%d: MPI_Pack_size %d, the model %lld", what, count, size, (long long) map.size);
    if (map.size > MAXPACK) {
        MTEST_FAIL("%s: %lld bytes do not fit the test's buffers", what, (long long) map.size);
        goto out_map;
    }

    fill(arena, 1);
    ref_pack(&map, arena, want);
    memset(got, GUARD, sizeof got);
    int pos = POS;
    CHECK_MPI(MPI_Pack(buf, count, mine, got, (int) sizeof got, &pos, MPI_COMM_SELF));
    CHECK(pos == POS + map.size, "%s x%d: position %d after packing, expected %lld", what, count, pos,
          (long long) (POS + map.size));
    CHECK(memcmp(got + POS, want, (size_t) map.size) == 0, "%s x%d (%s): packed bytes differ from the model",
          what, count, absolute ? "MPI_BOTTOM" : "buffer");
    CHECK(mtest_untouched(got, POS, GUARD) && mtest_untouched(got + POS + map.size, 64, GUARD),
          "%s x%d: packing wrote outside its bytes", what, count);

    /* unpack fresh values into a differently filled arena; the model does the same */
    for (MPI_Count b = 0; b < map.size; b++)
        got[POS + b] = (unsigned char) (b * 13 + 5);
    fill(arena, 2);
    fill(model, 2);
    ref_unpack(&map, got + POS, model);
    pos = POS;
    CHECK_MPI(MPI_Unpack(got, POS + (int) map.size, &pos, buf, count, mine, MPI_COMM_SELF));
    CHECK(pos == POS + map.size, "%s x%d: position %d after unpacking", what, count, pos);
    CHECK(memcmp(arena, model, sizeof arena) == 0, "%s x%d (%s): unpacked arrays differ from the model", what,
          count, absolute ? "MPI_BOTTOM" : "buffer");
out_map:
    ref_map_free(&map);
out:
    MPI_Type_free(&rel2);
    MPI_Type_free(&t2);
    MPI_Type_free(&rel);
    MPI_Type_free(&t);
}

/* Level k of the chain: struct {level k - 1 at 0; vector(2, 1, 2, INT) at int 4k}; level 0 is the
 * vector at 0. The stream is every other int, from the innermost level out. */
static void deep_chain(void)
{
    enum { DEPTH = 100000, NINTS = 4 * DEPTH + 4 };
    MPI_Datatype pair, t;
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &pair));
    CHECK_MPI(MPI_Type_dup(pair, &t));
    for (int k = 1; k <= DEPTH; k++) {
        MPI_Datatype next, types[2] = { t, pair };
        int lens[2] = { 1, 1 };
        MPI_Aint displs[2] = { 0, (MPI_Aint) (4 * k * sizeof(int)) };
        CHECK_MPI(MPI_Type_create_struct(2, lens, displs, types, &next));
        CHECK_MPI(MPI_Type_free(&t));
        t = next;
    }
    CHECK_MPI(MPI_Type_commit(&t));
    int *a = malloc(NINTS * sizeof(int)), *packed = malloc(2 * (DEPTH + 1) * sizeof(int)), size = -1, pos = 0;
    CHECK(a && packed, "out of memory");
    if (a && packed) {
        for (int i = 0; i < NINTS; i++)
            a[i] = i;
        CHECK_MPI(MPI_Pack_size(1, t, MPI_COMM_SELF, &size));
        CHECK(size == 2 * (DEPTH + 1) * (int) sizeof(int), "deep chain: MPI_Pack_size %d", size);
        CHECK_MPI(MPI_Pack(a, 1, t, packed, size, &pos, MPI_COMM_SELF));
        int bad = -1;
        for (int k = 0; k <= DEPTH && bad < 0; k++)
            if (packed[2 * k] != 4 * k || packed[2 * k + 1] != 4 * k + 2)
                bad = k;
        CHECK(pos == size && bad < 0, "deep chain: level %d packed %d, %d", bad, bad < 0 ? 0 : packed[2 * bad],
              bad < 0 ? 0 : packed[2 * bad + 1]);
        /* back into a buffer of -1: the same ints return, the others stay */
        for (int i = 0; i < NINTS; i++)
            a[i] = -1;
        pos = 0;
        CHECK_MPI(MPI_Unpack(packed, size, &pos, a, 1, t, MPI_COMM_SELF));
        bad = -1;
        for (int i = 0; i < NINTS && bad < 0; i++)
            if (a[i] != (i % 4 == 0 || i % 4 == 2 ? i : -1))
                bad = i;
        CHECK(pos == size && bad < 0, "deep chain: after unpacking, int %d is %d", bad, bad < 0 ? 0 : a[bad]);
    }
    free(a);
    free(packed);
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_free(&pair));
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    for (int i = 0; i < NIDX; i++) {
        idx[i] = (i * 37 + 5) % (ASIZE / 3 - 1);   /* scattered, distinct; + 1 stays in the array */
        idx3[i] = 3 * idx[i];
    }
    static const struct {
        const char *what;
        MPI_Datatype (*make)(int, int);
        int first;
    } cases[] = {
        { "lammps", lammps, 0 }, { "near_twins", near_twins, 3 }, { "mixed", mixed, 9 },
        { "nested", nested, 20 }, { "rows", rows, 40 }, { "wide_32", wide_32, 1 }, { "wide_40", wide_40, 2 },
        { "wide_72", wide_72, 5 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int count = 1; count <= 2; count++)
            for (int absolute = 0; absolute <= 1; absolute++)
                check(cases[c].what, cases[c].make, cases[c].first, count, absolute);
    deep_chain();
    return MTest_Finalize();
}
