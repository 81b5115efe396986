/*
 * The accumulate family (MPI 4.1, 12.3.4, 12.7.1): MPI_Accumulate, MPI_Accumulate_c,
 * MPI_Get_accumulate, MPI_Get_accumulate_c, MPI_Fetch_and_op and MPI_Compare_and_swap.
 *
 * Accumulates to the same location with the same predefined datatype may be concurrent: the result
 * is as if they were applied one at a time, in some order, element by element. So every rank
 * accumulates into the SAME elements of every rank at once, and for commutative operations the
 * result is exact: the initial value combined with every rank's contribution.
 *   1. In one fence epoch, every predefined operation on a datatype it allows: MPI_SUM, MPI_PROD,
 *      MPI_MAX, MPI_MIN, MPI_LAND, MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR on int (the
 *      logical ones with nonzero values other than 1), bitwise operations on unsigned and on
 *      MPI_BYTE, SUM on int64_t near 2^40, SUM/PROD/MAX/MIN on double, SUM on double complex,
 *      MPI_MAXLOC and MPI_MINLOC on MPI_2INT (ties go to the lower index), MPI_REPLACE with one
 *      writer per element, and MPI_REPLACE from every rank to one element (the result is one of
 *      the values written, never a mixture).
 *   2. Derived datatypes built from one basic type: a contiguous origin into a strided target
 *      (vector) and a vector origin into a contiguous target, through MPI_Accumulate and
 *      MPI_Accumulate_c; the target's gaps keep their values.
 *   3. MPI_Get_accumulate under MPI_Win_lock_all: a fetch-and-add of a distinct bit per rank into
 *      strided elements (a vector target, a contiguous result): the fetched values must form one
 *      chain (each rank saw exactly the bits added before it); a swap (MPI_REPLACE): the fetched
 *      values plus the final one are the initial value and each rank's value, each once;
 *      MPI_NO_OP reads (origin arguments ignored).
 *   4. MPI_Fetch_and_op: a shared counter that every rank increments many times: all fetched
 *      values distinct, 0 .. total - 1, the final value the total; MPI_NO_OP and MPI_REPLACE.
 *   5. MPI_Compare_and_swap on int and int64_t: ranks race to claim a slot (exactly one sees the
 *      initial value, all others see the winner); a compare that does not match leaves the
 *      target alone and returns its value.
 * MPI_NO_OP is tested only where the standard allows it (MPI_Get_accumulate, MPI_Fetch_and_op:
 * it "cannot be used in MPI_ACCUMULATE"). Run with 2 and 4 processes.
 */
#include "mtest.h"
#include "rma_window.h"
#include <complex.h>
#include <stddef.h>
#include <stdint.h>

static int rank, size;

/* ---------------------------------------------------------------------------------------------
 * 1. every operation, every rank into every rank
 */
#define E 5                     /* elements per operation */

enum { I_SUM, I_PROD, I_MAX, I_MIN, I_LAND, I_LOR, I_LXOR, I_BAND, I_BOR, I_BXOR, I_REPL, NI };
static const struct {
    const char *name;
    MPI_Op op;
} iops[NI] = {
    {"MPI_SUM", MPI_SUM}, {"MPI_PROD", MPI_PROD}, {"MPI_MAX", MPI_MAX}, {"MPI_MIN", MPI_MIN},
    {"MPI_LAND", MPI_LAND}, {"MPI_LOR", MPI_LOR}, {"MPI_LXOR", MPI_LXOR}, {"MPI_BAND", MPI_BAND},
    {"MPI_BOR", MPI_BOR}, {"MPI_BXOR", MPI_BXOR}, {"MPI_REPLACE", MPI_REPLACE},
};

typedef struct {
    int v, i;
} int2;

/* One rank's window; origins send a whole struct of contributions per target. */
typedef struct {
    int ints[NI][E];
    unsigned uns[3][E];         /* BAND, BOR, BXOR */
    unsigned char bytes[E];     /* MPI_BXOR on MPI_BYTE */
    int64_t big[E];             /* MPI_SUM */
    double dbl[4][E];           /* SUM, PROD, MAX, MIN */
    double complex cplx[E];     /* MPI_SUM */
    int2 loc[2][E];             /* MAXLOC, MINLOC */
    long long everyone;         /* MPI_REPLACE from every rank */
} accmem;

static unsigned mix(int a, int b, int c, int d)
{
    unsigned h = 2166136261u;
    int in[4] = {a, b, c, d};
    for (int k = 0; k < 4; k++)
        h = (h ^ (unsigned) in[k]) * 16777619u;
    return h ^ (h >> 13);
}

/* Contribution of rank r to element i of operation k at target t (init: r = -1). */
static int icontrib(int k, int r, int t, int i)
{
    unsigned h = mix(k, r, t, i);
    switch (k) {
    case I_SUM:
        return r < 0 ? 1000 * t + i : r * 100 - i * 7 + t;
    case I_PROD:
        return (h % 4 == 0 ? -1 : 1) * (int) (h % 3 + 1);
    case I_MAX:
    case I_MIN:
        return (int) (h % 41) - 20;
    case I_LAND:
    case I_LOR:
    case I_LXOR:
        /* mostly true for LAND (so that the result is not always 0), mostly false for LOR */
        if (k == I_LAND ? h % 7 == 0 : h % 3 != 0)
            return 0;
        return h % 2 ? 5 : -3;
    case I_BAND:
        return (int) (h | 0x01010101u | (r < 0 ? 0xf0f0f0f0u : 0));
    default:
        return (int) h;
    }
}

static int icombine(int k, int a, int b)
{
    switch (k) {
    case I_SUM: return a + b;
    case I_PROD: return a * b;
    case I_MAX: return a > b ? a : b;
    case I_MIN: return a < b ? a : b;
    case I_LAND: return a && b;
    case I_LOR: return a || b;
    case I_LXOR: return !a != !b;
    case I_BAND: return a & b;
    case I_BOR: return a | b;
    case I_BXOR: return a ^ b;
    default: return b;
    }
}

static int replace_writer(int t, int i)
{
    return (t + i) % size;      /* the only rank that replaces element i at target t */
}

static double dcontrib(int k, int r, int t, int i)
{
    unsigned h = mix(100 + k, r, t, i);
    if (k == 1)                 /* PROD: powers of two and small integers stay exact */
        return (h % 2 ? 0.5 : 2.0) * (h % 5 == 0 ? -1 : 1);
    return ((int) (h % 801) - 400) / 16.0;      /* dyadic: every sum is exact */
}

static int2 loccontrib(int k, int r, int t, int i)
{
    if (r < 0)
        return (int2) { k == 0 ? 1 : 2, 1000 + i };
    return (int2) { (int) (mix(200 + k, r, t, i) % 4), r };   /* many ties */
}

static void fill(accmem *m, int r, int t)
{
    for (int k = 0; k < NI; k++)
        for (int i = 0; i < E; i++)
            m->ints[k][i] = icontrib(k, r, t, i);
    for (int i = 0; i < E; i++) {
        for (int k = 0; k < 3; k++)
            m->uns[k][i] = mix(300 + k, r, t, i) | (r < 0 && k == 0 ? 0xffff0000u : 0);
        m->bytes[i] = (unsigned char) mix(400, r, t, i);
        m->big[i] = r < 0 ? ((int64_t) 1 << 40) + t : ((int64_t) (r + 1) << 33) - i;
        for (int k = 0; k < 4; k++)
            m->dbl[k][i] = r < 0 && k == 1 ? 3.0 : dcontrib(k, r, t, i);
        m->cplx[i] = dcontrib(5, r, t, i) + dcontrib(6, r, t, i) * I;
        for (int k = 0; k < 2; k++)
            m->loc[k][i] = loccontrib(k, r, t, i);
    }
    m->everyone = r < 0 ? -1 : (long long) (r + 1) * 1111111111LL;
}

static void all_operations(void)
{
    accmem *mem = malloc(sizeof *mem), *orig = malloc((size_t) size * sizeof *orig), *want = malloc(sizeof *want);
    fill(mem, -1, rank);
    MPI_Win win;
    rma_window((void **) &mem, sizeof *mem, 1, &win);
    static const MPI_Op uops[3] = {MPI_BAND, MPI_BOR, MPI_BXOR}, dops[4] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN};
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    for (int t = 0; t < size; t++) {
        accmem *o = &orig[t];
        fill(o, rank, t);
#define DISP(field) ((MPI_Aint) offsetof(accmem, field))
        for (int k = 0; k < NI; k++) {
            if (k == I_REPL) {
                for (int i = 0; i < E; i++)
                    if (replace_writer(t, i) == rank)
                        CHECK_MPI(MPI_Accumulate(&o->ints[k][i], 1, MPI_INT, t, DISP(ints[k][i]), 1, MPI_INT,
                                                 MPI_REPLACE, win));
                continue;
            }
            CHECK_MPI(MPI_Accumulate(o->ints[k], E, MPI_INT, t, DISP(ints[k]), E, MPI_INT, iops[k].op, win));
        }
        for (int k = 0; k < 3; k++)
            CHECK_MPI(MPI_Accumulate(o->uns[k], E, MPI_UNSIGNED, t, DISP(uns[k]), E, MPI_UNSIGNED, uops[k], win));
        CHECK_MPI(MPI_Accumulate(o->bytes, E, MPI_BYTE, t, DISP(bytes), E, MPI_BYTE, MPI_BXOR, win));
        CHECK_MPI(MPI_Accumulate(o->big, E, MPI_INT64_T, t, DISP(big), E, MPI_INT64_T, MPI_SUM, win));
        for (int k = 0; k < 4; k++)
            CHECK_MPI(MPI_Accumulate(o->dbl[k], E, MPI_DOUBLE, t, DISP(dbl[k]), E, MPI_DOUBLE, dops[k], win));
        CHECK_MPI(MPI_Accumulate(o->cplx, E, MPI_C_DOUBLE_COMPLEX, t, DISP(cplx), E, MPI_C_DOUBLE_COMPLEX, MPI_SUM,
                                 win));
        CHECK_MPI(MPI_Accumulate(o->loc[0], E, MPI_2INT, t, DISP(loc[0]), E, MPI_2INT, MPI_MAXLOC, win));
        CHECK_MPI(MPI_Accumulate(o->loc[1], E, MPI_2INT, t, DISP(loc[1]), E, MPI_2INT, MPI_MINLOC, win));
        CHECK_MPI(MPI_Accumulate(&o->everyone, 1, MPI_LONG_LONG, t, DISP(everyone), 1, MPI_LONG_LONG, MPI_REPLACE,
                                 win));
    }
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));

    /* the model: the initial values combined with every rank's contributions, rank by rank */
    fill(want, -1, rank);
    accmem c;
    for (int r = 0; r < size; r++) {
        fill(&c, r, rank);
        for (int i = 0; i < E; i++) {
            for (int k = 0; k < NI; k++)
                if (k != I_REPL || replace_writer(rank, i) == r)
                    want->ints[k][i] = icombine(k, want->ints[k][i], c.ints[k][i]);
            want->uns[0][i] &= c.uns[0][i];
            want->uns[1][i] |= c.uns[1][i];
            want->uns[2][i] ^= c.uns[2][i];
            want->bytes[i] ^= c.bytes[i];
            want->big[i] += c.big[i];
            want->dbl[0][i] += c.dbl[0][i];
            want->dbl[1][i] *= c.dbl[1][i];
            want->dbl[2][i] = c.dbl[2][i] > want->dbl[2][i] ? c.dbl[2][i] : want->dbl[2][i];
            want->dbl[3][i] = c.dbl[3][i] < want->dbl[3][i] ? c.dbl[3][i] : want->dbl[3][i];
            want->cplx[i] += c.cplx[i];
            int2 *mx = &want->loc[0][i], *mn = &want->loc[1][i], a = c.loc[0][i], b = c.loc[1][i];
            if (a.v > mx->v || (a.v == mx->v && a.i < mx->i))
                *mx = a;
            if (b.v < mn->v || (b.v == mn->v && b.i < mn->i))
                *mn = b;
        }
    }
    for (int k = 0; k < NI; k++)
        for (int i = 0; i < E; i++)
            if (mem->ints[k][i] != want->ints[k][i])
                MTEST_FAIL("%s on MPI_INT, element %d: %d, expected %d", iops[k].name, i, mem->ints[k][i],
                           want->ints[k][i]);
    for (int i = 0; i < E; i++) {
        static const char *un[3] = {"MPI_BAND", "MPI_BOR", "MPI_BXOR"}, *dn[4] = {"SUM", "PROD", "MAX", "MIN"};
        for (int k = 0; k < 3; k++)
            if (mem->uns[k][i] != want->uns[k][i])
                MTEST_FAIL("%s on MPI_UNSIGNED, element %d: %#x, expected %#x", un[k], i, mem->uns[k][i],
                           want->uns[k][i]);
        if (mem->bytes[i] != want->bytes[i])
            MTEST_FAIL("MPI_BXOR on MPI_BYTE, element %d: %#x, expected %#x", i, mem->bytes[i], want->bytes[i]);
        if (mem->big[i] != want->big[i])
            MTEST_FAIL("MPI_SUM on MPI_INT64_T, element %d: %lld, expected %lld", i, (long long) mem->big[i],
                       (long long) want->big[i]);
        for (int k = 0; k < 4; k++)
            if (mem->dbl[k][i] != want->dbl[k][i])
                MTEST_FAIL("MPI_%s on MPI_DOUBLE, element %d: %g, expected %g", dn[k], i, mem->dbl[k][i],
                           want->dbl[k][i]);
        if (mem->cplx[i] != want->cplx[i])
            MTEST_FAIL("MPI_SUM on MPI_C_DOUBLE_COMPLEX, element %d: %g%+gi, expected %g%+gi", i, creal(mem->cplx[i]),
                       cimag(mem->cplx[i]), creal(want->cplx[i]), cimag(want->cplx[i]));
        for (int k = 0; k < 2; k++)
            if (mem->loc[k][i].v != want->loc[k][i].v || mem->loc[k][i].i != want->loc[k][i].i)
                MTEST_FAIL("%s on MPI_2INT, element %d: (%d, %d), expected (%d, %d)", k ? "MPI_MINLOC" : "MPI_MAXLOC",
                           i, mem->loc[k][i].v, mem->loc[k][i].i, want->loc[k][i].v, want->loc[k][i].i);
    }
    int ok = 0;
    for (int r = 0; r < size; r++)
        ok |= mem->everyone == (long long) (r + 1) * 1111111111LL;
    CHECK(ok, "MPI_REPLACE from every rank left %lld, not one of the values written", mem->everyone);

    CHECK_MPI(MPI_Win_free(&win));
    rma_free_mem(mem);
    free(orig);
    free(want);
}

/* ---------------------------------------------------------------------------------------------
 * 2. derived datatypes of one basic type
 */
#define K 12                    /* blocks of the strided layouts */

static void derived_types(void)
{
    /* the window: [0, 6K) ints: SUM into ints 6j and 6j+3 (a vector of stride 3), MAX into 6j+1,
     * 6j+2 (blocks of 2, stride 6), 6j+4 and 6j+5 never touched; [6K, 7K): SUM of every second
     * int of the origin (a vector origin) into a contiguous target */
    int *mem = malloc(7 * K * sizeof(int));
    for (int i = 0; i < 7 * K; i++)
        mem[i] = 10000 * rank + i;
    MPI_Win win;
    rma_window((void **) &mem, 7 * K * sizeof(int), sizeof(int), &win);

    MPI_Datatype stride3, pairs6, pair, every2;
    MPI_Type_vector(2 * K, 1, 3, MPI_INT, &stride3);
    MPI_Type_vector(K, 2, 6, MPI_INT, &pairs6);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_vector(K, 1, 2, MPI_INT, &every2);
    MPI_Type_commit(&stride3);
    MPI_Type_commit(&pairs6);
    MPI_Type_commit(&pair);
    MPI_Type_commit(&every2);

    int sums[2 * K], maxes[2 * K], sparse[2 * K];
    for (int j = 0; j < 2 * K; j++) {
        sums[j] = rank * 7 + j;
        maxes[j] = (int) (mix(500, rank, j, 0) % 50000);
        sparse[j] = j % 2 ? -999999 : rank + 3 * j;        /* odd ints are not part of the origin */
    }
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int t = 0; t < size; t++) {
        CHECK_MPI(MPI_Accumulate(sums, 2 * K, MPI_INT, t, 0, 1, stride3, MPI_SUM, win));
        CHECK_MPI(MPI_Accumulate_c(maxes, K, pair, t, 1, 1, pairs6, MPI_MAX, win));
        CHECK_MPI(MPI_Accumulate(sparse, 1, every2, t, 6 * K, K, MPI_INT, MPI_SUM, win));
    }
    CHECK_MPI(MPI_Win_fence(0, win));

    for (int j = 0; j < K; j++) {
        for (int b = 0; b < 6; b++) {
            int i = 6 * j + b, want = 10000 * rank + i;
            for (int r = 0; r < size; r++) {
                if (b == 0 || b == 3)
                    want += r * 7 + (2 * j + b / 3);
                else if (b == 1 || b == 2) {
                    int m = (int) (mix(500, r, 2 * j + b - 1, 0) % 50000);
                    want = m > want ? m : want;
                }
            }
            if (mem[i] != want)
                MTEST_FAIL("strided target, int %d: %d, expected %d", i, mem[i], want);
        }
        int want = 10000 * rank + 6 * K + j;
        for (int r = 0; r < size; r++)
            want += r + 6 * j;
        if (mem[6 * K + j] != want)
            MTEST_FAIL("vector origin, int %d: %d, expected %d", 6 * K + j, mem[6 * K + j], want);
    }
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Type_free(&stride3);
    MPI_Type_free(&pairs6);
    MPI_Type_free(&pair);
    MPI_Type_free(&every2);
    rma_free_mem(mem);
}

/* ---------------------------------------------------------------------------------------------
 * 3-5. fetching atomics under MPI_Win_lock_all
 */
#define NF 50                   /* fetch-and-ops per rank */
#define NSLOT 8                 /* compare-and-swap races */

typedef struct {
    int counter;
    int gacc[2 * E];            /* Get_accumulate fetch-and-add into the even ints */
    long long swap;
    int slots[NSLOT];
    int64_t slots64[NSLOT];
    double dsum;
} atomem;
#define ADISP(field) ((MPI_Aint) offsetof(atomem, field))

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *) a, y = *(const int *) b;
    return (x > y) - (x < y);
}

static void fetching(void)
{
    atomem *mem = malloc(sizeof *mem);
    memset(mem, 0, sizeof *mem);
    for (int i = 0; i < 2 * E; i++)
        mem->gacc[i] = i % 2 ? -77 : 0;
    mem->swap = -5;
    for (int s = 0; s < NSLOT; s++) {
        mem->slots[s] = -1;
        mem->slots64[s] = -((int64_t) 1 << 40);
    }
    MPI_Win win;
    rma_window((void **) &mem, sizeof *mem, 1, &win);
    MPI_Datatype even;
    MPI_Type_vector(E, 1, 2, MPI_INT, &even);
    MPI_Type_commit(&even);
    int last = size - 1;

    /* ---- 3. MPI_Get_accumulate: fetch-and-add of a bit per rank at rank 0; a swap at the last
     * rank; then MPI_Fetch_and_op on rank 0's counter, NF times per rank ---- */
    int bits[E], fetched[E], one = 1, mine[NF];
    for (int i = 0; i < E; i++) {
        bits[i] = 1 << rank;
        fetched[i] = -1;
    }
    long long myswap = 100 + rank, oldswap = 0;
    double dadd = 0.25 * (rank + 1), dold = -1;
    CHECK_MPI(MPI_Win_lock_all(0, win));
    CHECK_MPI(MPI_Get_accumulate(bits, E, MPI_INT, fetched, E, MPI_INT, 0, ADISP(gacc), 1, even, MPI_SUM, win));
    CHECK_MPI(MPI_Get_accumulate_c(&myswap, 1, MPI_LONG_LONG, &oldswap, 1, MPI_LONG_LONG, last, ADISP(swap), 1,
                                   MPI_LONG_LONG, MPI_REPLACE, win));
    CHECK_MPI(MPI_Fetch_and_op(&dadd, &dold, MPI_DOUBLE, last, ADISP(dsum), MPI_SUM, win));
    CHECK_MPI(MPI_Win_flush_all(win));
    for (int k = 0; k < NF; k++) {
        mine[k] = -1;
        CHECK_MPI(MPI_Fetch_and_op(&one, &mine[k], MPI_INT, 0, ADISP(counter), MPI_SUM, win));
        CHECK_MPI(MPI_Win_flush(0, win));
    }
    CHECK_MPI(MPI_Win_unlock_all(win));

    /* every rank's view, at every rank */
    int *allf = malloc((size_t) size * E * sizeof(int)), *allc = malloc((size_t) size * NF * sizeof(int));
    long long *alls = malloc((size_t) size * sizeof(long long));
    double *alld = malloc((size_t) size * sizeof(double));
    MPI_Allgather(fetched, E, MPI_INT, allf, E, MPI_INT, MPI_COMM_WORLD);
    MPI_Allgather(mine, NF, MPI_INT, allc, NF, MPI_INT, MPI_COMM_WORLD);
    MPI_Allgather(&oldswap, 1, MPI_LONG_LONG, alls, 1, MPI_LONG_LONG, MPI_COMM_WORLD);
    MPI_Allgather(&dold, 1, MPI_DOUBLE, alld, 1, MPI_DOUBLE, MPI_COMM_WORLD);

    /* the final values, read by MPI_NO_OP (every rank; the origin arguments are ignored) */
    int fin_g[E], fin_odd[E], fin_counter = -1;
    long long fin_swap = 0;
    double fin_d = -1;
    CHECK_MPI(MPI_Win_lock_all(0, win));
    CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_INT, fin_g, E, MPI_INT, 0, ADISP(gacc), 1, even, MPI_NO_OP, win));
    CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_INT, fin_odd, E, MPI_INT, 0, ADISP(gacc) + sizeof(int), 1, even,
                                 MPI_NO_OP, win));
    CHECK_MPI(MPI_Fetch_and_op(NULL, &fin_counter, MPI_INT, 0, ADISP(counter), MPI_NO_OP, win));
    CHECK_MPI(MPI_Fetch_and_op(NULL, &fin_swap, MPI_LONG_LONG, last, ADISP(swap), MPI_NO_OP, win));
    CHECK_MPI(MPI_Fetch_and_op(NULL, &fin_d, MPI_DOUBLE, last, ADISP(dsum), MPI_NO_OP, win));
    CHECK_MPI(MPI_Win_unlock_all(win));

    /* fetch-and-add of bits: per element, sorted by fetched value, each rank saw exactly the bits
     * of the ranks before it */
    for (int i = 0; i < E; i++) {
        int acc = 0, used = 0;
        for (int step = 0; step < size; step++) {
            int who = -1;
            for (int r = 0; r < size; r++)
                if (!(used >> r & 1) && allf[r * E + i] == acc)
                    who = r;
            if (who < 0) {
                MTEST_FAIL("Get_accumulate element %d: no rank fetched %#x (the values are no serial order)", i, acc);
                break;
            }
            used |= 1 << who;
            acc += 1 << who;
        }
        CHECK(fin_g[i] == (1 << size) - 1, "Get_accumulate element %d: final %#x, expected %#x", i, fin_g[i],
              (1 << size) - 1);
        CHECK(fin_odd[i] == -77, "Get_accumulate: gap int %d changed to %d", 2 * i + 1, fin_odd[i]);
    }
    /* the swap: {fetched values, final} = {initial, every rank's value}, each once */
    int seen[64] = {0};
    for (int r = 0; r <= size; r++) {
        long long v = r < size ? alls[r] : fin_swap;
        int idx = v == -5 ? size : (v >= 100 && v < 100 + size ? (int) (v - 100) : -1);
        if (idx < 0 || seen[idx]++)
            MTEST_FAIL("swap: value %lld fetched twice or never written", v);
    }
    /* the double fetch-and-add: the fetched values are the partial sums of some order */
    double total = 0;
    for (int r = 0; r < size; r++)
        total += 0.25 * (r + 1);
    CHECK(fin_d == total, "MPI_Fetch_and_op on MPI_DOUBLE: final %g, expected %g", fin_d, total);
    for (int r = 0; r < size; r++)
        CHECK(alld[r] >= 0 && alld[r] <= total - 0.25 * (r + 1), "rank %d fetched %g", r, alld[r]);
    /* the counter */
    qsort(allc, (size_t) size * NF, sizeof(int), cmp_int);
    for (int k = 0; k < size * NF; k++)
        if (allc[k] != k) {
            MTEST_FAIL("counter: sorted fetched value %d is %d (values lost or fetched twice)", k, allc[k]);
            break;
        }
    CHECK_EQ(fin_counter, size * NF);

    /* ---- 5. compare-and-swap races: slot s at rank s % size, every rank tries to claim it ---- */
    int cas[NSLOT], cas_bad[NSLOT];
    int64_t cas64[NSLOT];
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int s = 0; s < NSLOT; s++) {
        int cmp = -1;
        int64_t me64 = ((int64_t) 1 << 40) + rank, cmp64 = -((int64_t) 1 << 40);
        CHECK_MPI(MPI_Compare_and_swap(&rank, &cmp, &cas[s], MPI_INT, s % size, ADISP(slots[s]), win));
        CHECK_MPI(MPI_Compare_and_swap(&me64, &cmp64, &cas64[s], MPI_INT64_T, (s + 1) % size, ADISP(slots64[s]),
                                       win));
        CHECK_MPI(MPI_Win_flush_all(win));
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    int *allcas = malloc((size_t) size * NSLOT * sizeof(int));
    int64_t *allcas64 = malloc((size_t) size * NSLOT * sizeof(int64_t));
    MPI_Allgather(cas, NSLOT, MPI_INT, allcas, NSLOT, MPI_INT, MPI_COMM_WORLD);
    MPI_Allgather(cas64, NSLOT, MPI_INT64_T, allcas64, NSLOT, MPI_INT64_T, MPI_COMM_WORLD);
    int winner[NSLOT];
    int64_t winner64[NSLOT];
    for (int s = 0; s < NSLOT; s++) {
        int wins = 0, wins64 = 0;
        winner[s] = winner64[s] = -1;
        for (int r = 0; r < size; r++) {
            if (allcas[r * NSLOT + s] == -1) {
                wins++;
                winner[s] = r;
            }
            if (allcas64[r * NSLOT + s] == -((int64_t) 1 << 40)) {
                wins64++;
                winner64[s] = r;
            }
        }
        CHECK(wins == 1, "slot %d: %d ranks saw the initial value", s, wins);
        CHECK(wins64 == 1, "64-bit slot %d: %d ranks saw the initial value", s, wins64);
        for (int r = 0; r < size; r++) {
            CHECK(allcas[r * NSLOT + s] == -1 || allcas[r * NSLOT + s] == winner[s],
                  "slot %d: rank %d saw %d, the winner is %d", s, r, allcas[r * NSLOT + s], winner[s]);
            CHECK(allcas64[r * NSLOT + s] == -((int64_t) 1 << 40)
                  || allcas64[r * NSLOT + s] == ((int64_t) 1 << 40) + winner64[s],
                  "64-bit slot %d: rank %d saw %lld", s, r, (long long) allcas64[r * NSLOT + s]);
        }
    }
    /* a compare that does not match: the slot keeps the winner, who is returned */
    int fin_slot[NSLOT];
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int s = 0; s < NSLOT; s++) {
        int cmp = 12345, val = -rank - 100;
        CHECK_MPI(MPI_Compare_and_swap(&val, &cmp, &cas_bad[s], MPI_INT, s % size, ADISP(slots[s]), win));
    }
    CHECK_MPI(MPI_Win_flush_all(win));
    MPI_Barrier(MPI_COMM_WORLD);    /* every failed compare done before the reads */
    for (int s = 0; s < NSLOT; s++)
        CHECK_MPI(MPI_Fetch_and_op(NULL, &fin_slot[s], MPI_INT, s % size, ADISP(slots[s]), MPI_NO_OP, win));
    CHECK_MPI(MPI_Win_unlock_all(win));
    for (int s = 0; s < NSLOT; s++) {
        CHECK(cas_bad[s] == winner[s], "slot %d: a failed compare returned %d, not %d", s, cas_bad[s], winner[s]);
        CHECK(fin_slot[s] == winner[s], "slot %d: %d at the end, expected the winner %d", s, fin_slot[s], winner[s]);
    }

    CHECK_MPI(MPI_Win_free(&win));
    MPI_Type_free(&even);
    free(allf);
    free(allc);
    free(alls);
    free(alld);
    free(allcas);
    free(allcas64);
    rma_free_mem(mem);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 30) {
        if (rank == 0)
            fprintf(stderr, "run with at most 30 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    all_operations();
    derived_types();
    fetching();
    return MTest_Finalize();
}
