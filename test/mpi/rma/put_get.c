/*
 * MPI_Put and MPI_Get (and their _c twins) with predefined datatypes in fence epochs
 * (MPI 4.1, 12.3.1, 12.3.2, 12.5.1). Every rank is origin and target at once: it puts to its
 * next neighbour, gets from its previous one and also targets itself, in windows whose size
 * differs per rank, so that the target's (not the origin's) size and displacement unit place the
 * data:
 *   - an int window of 32 + 4r ints (disp_unit sizeof(int)): puts at the start and at the very
 *     last element of the neighbour's window, gets from a region nobody writes, puts and gets on
 *     the own window, MPI_PROC_NULL targets and count 0 (no-ops that leave every buffer alone);
 *     the next epoch reads back what the previous one wrote, and a third one reads values the
 *     target stored locally before the fence (fences make local stores visible to remote gets);
 *   - a window of 3-int records (disp_unit 12, not the size of the datatype moved), allocated by
 *     MPI_Win_allocate with 5 + r records: target_disp counts records;
 *   - a double window (disp_unit 8) reached with MPI_Put_c / MPI_Get_c;
 *   - a byte window (disp_unit 1) that receives one value of many predefined types (pair types,
 *     complex, bool, wchar, fixed-width integers) at aligned offsets, read back with MPI_Get;
 *   - a window of 0 bytes (base NULL) on the last rank, the target of count-0 puts and gets.
 * Every value encodes its writer and position and is checked exactly; bytes no operation may
 * touch keep their initial values. Fence assertions (NOPRECEDE, NOPUT, NOSUCCEED) are used where
 * they hold. Run with 2 and 4 processes.
 */
#include "mtest.h"
#include <complex.h>
#include <stdbool.h>
#include <stdint.h>
#include <wchar.h>

/* Debian's MPICH 4.0.2 (ch4), used to validate this test, returns from MPI_Win_allocate a base
 * pointer that differs from its MPI_WIN_BASE attribute (where its RMA lands) when the ranks
 * allocate sizes that are not all multiples of 16 bytes: for it, allocations are rounded up to
 * 16 bytes (the records and doubles used stay the same). */
#if defined(MPICH_VERSION)
#define ALLOC_BYTES(n) (((MPI_Aint) (n) + 15) / 16 * 16)
#else
#define ALLOC_BYTES(n) ((MPI_Aint) (n))
#endif

#define NA(r) (32 + 4 * (r))    /* ints in rank r's int window */
#define NREC(r) (5 + (r))       /* records in rank r's record window */
#define ND(r) (10 + 3 * (r))    /* doubles in rank r's double window */

static int rank, size, prev, next;

static int aval(int r, int i)
{
    return r * 1000 + i;        /* initial value of int i of rank r's int window */
}

static int putval(int r, int i)
{
    return -(r * 100 + i + 1);  /* value rank r puts as int i of its put buffer */
}

static void int_window(void)
{
    int n = NA(rank);
    int *a = malloc((size_t) n * sizeof(int));
    for (int i = 0; i < n; i++)
        a[i] = aval(rank, i);
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(a, (MPI_Aint) n * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                             &win));

    /* Layout of every int window: [0,8) written by prev, [8,16) only read, [16,20) written by the
     * owner through its own window, [20,23) written by prev in epoch 2, the last int written by
     * prev; the rest is never accessed. */
    int out[8], last = putval(rank, 99), self_out[4], got[8], self_got[4], nullbuf[8], zerobuf[4];
    for (int i = 0; i < 8; i++)
        out[i] = putval(rank, i);
    for (int i = 0; i < 4; i++)
        self_out[i] = -7000 - 10 * rank - i;
    for (int i = 0; i < 8; i++)
        got[i] = nullbuf[i] = 0x5a5a5a5a;
    for (int i = 0; i < 4; i++)
        self_got[i] = zerobuf[i] = 0x5a5a5a5a;

    /* ---- epoch 1: puts to next, gets from prev, self, PROC_NULL, count 0 ---- */
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    CHECK_MPI(MPI_Put(out, 8, MPI_INT, next, 0, 8, MPI_INT, win));
    CHECK_MPI(MPI_Put(&last, 1, MPI_INT, next, NA(next) - 1, 1, MPI_INT, win));
    CHECK_MPI(MPI_Get(got, 8, MPI_INT, prev, 8, 8, MPI_INT, win));
    CHECK_MPI(MPI_Put(self_out, 4, MPI_INT, rank, 16, 4, MPI_INT, win));
    CHECK_MPI(MPI_Get(self_got, 4, MPI_INT, rank, 10, 4, MPI_INT, win));
    CHECK_MPI(MPI_Put(out, 8, MPI_INT, MPI_PROC_NULL, 0, 8, MPI_INT, win));
    CHECK_MPI(MPI_Get(nullbuf, 8, MPI_INT, MPI_PROC_NULL, 0, 8, MPI_INT, win));
    CHECK_MPI(MPI_Put(out, 0, MPI_INT, next, 24, 0, MPI_INT, win));
    CHECK_MPI(MPI_Get(zerobuf, 0, MPI_INT, next, 24, 0, MPI_INT, win));
    CHECK_MPI(MPI_Put(NULL, 0, MPI_INT, next, 25, 0, MPI_INT, win));
    CHECK_MPI(MPI_Get(NULL, 0, MPI_DOUBLE, prev, 26, 0, MPI_DOUBLE, win));
    CHECK_MPI(MPI_Win_fence(0, win));

    for (int i = 0; i < n; i++) {
        int want = aval(rank, i);
        if (i < 8)
            want = putval(prev, i);
        else if (i >= 16 && i < 20)
            want = -7000 - 10 * rank - (i - 16);
        else if (i == n - 1)
            want = putval(prev, 99);
        if (a[i] != want)
            MTEST_FAIL("epoch 1: int window[%d] = %d, expected %d", i, a[i], want);
    }
    for (int i = 0; i < 8; i++)
        if (got[i] != aval(prev, 8 + i))
            MTEST_FAIL("epoch 1: get from %d: got[%d] = %d, expected %d", prev, i, got[i], aval(prev, 8 + i));
    for (int i = 0; i < 4; i++)
        if (self_got[i] != aval(rank, 10 + i))
            MTEST_FAIL("epoch 1: get from self: [%d] = %d, expected %d", i, self_got[i], aval(rank, 10 + i));
    CHECK(mtest_untouched(nullbuf, sizeof nullbuf, 0x5a), "a get from MPI_PROC_NULL wrote its buffer");
    CHECK(mtest_untouched(zerobuf, sizeof zerobuf, 0x5a), "a get of count 0 wrote its buffer");

    /* The checks above read the window during epoch 2, which the fence opened: without this
     * barrier, prev's epoch-2 put into [20,23) may land while they run (a conflicting access). */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* ---- epoch 2: read back what this rank put into next in epoch 1; MPI_Put_c / MPI_Get_c ---- */
    int back[8], back_last = 0, cout[3] = {putval(rank, 50), putval(rank, 51), putval(rank, 52)}, cgot[2];
    CHECK_MPI(MPI_Get(back, 8, MPI_INT, next, 0, 8, MPI_INT, win));
    CHECK_MPI(MPI_Get(&back_last, 1, MPI_INT, next, NA(next) - 1, 1, MPI_INT, win));
    CHECK_MPI(MPI_Put_c(cout, (MPI_Count) 3, MPI_INT, next, 20, (MPI_Count) 3, MPI_INT, win));
    CHECK_MPI(MPI_Get_c(cgot, (MPI_Count) 2, MPI_INT, prev, 14, (MPI_Count) 2, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < 8; i++)
        if (back[i] != putval(rank, i))
            MTEST_FAIL("epoch 2: read back [%d] = %d, expected %d", i, back[i], putval(rank, i));
    CHECK_EQ(back_last, putval(rank, 99));
    for (int i = 0; i < 3; i++)
        if (a[20 + i] != putval(prev, 50 + i))
            MTEST_FAIL("epoch 2: MPI_Put_c: window[%d] = %d, expected %d", 20 + i, a[20 + i], putval(prev, 50 + i));
    CHECK(cgot[0] == aval(prev, 14) && cgot[1] == aval(prev, 15), "MPI_Get_c: %d %d", cgot[0], cgot[1]);

    /* ---- local stores between epochs, then remote gets of them (no puts: MPI_MODE_NOPUT) ---- */
    for (int i = 8; i < 16; i++)
        a[i] = -aval(rank, i) - 5;
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPUT, win));
    int fresh[8];
    CHECK_MPI(MPI_Get(fresh, 8, MPI_INT, prev, 8, 8, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    for (int i = 0; i < 8; i++)
        if (fresh[i] != -aval(prev, 8 + i) - 5)
            MTEST_FAIL("epoch 3: local store of %d not seen: [%d] = %d, expected %d", prev, i, fresh[i],
                       -aval(prev, 8 + i) - 5);

    CHECK_MPI(MPI_Win_free(&win));
    free(a);
}

typedef struct {
    int a, b, c;
} rec;

/* MPI_Win_allocate's base pointer is the window's base, where target displacements start */
static void check_base(MPI_Win win, void *base)
{
    void *attr = NULL;
    int flag = 0;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &attr, &flag));
    CHECK(flag && attr == base, "MPI_Win_allocate gave %p, MPI_WIN_BASE is %p", base, attr);
}

static void record_window(void)
{
    rec *recs = NULL;
    MPI_Win win;
    int n = NREC(rank);
    CHECK_MPI(MPI_Win_allocate(ALLOC_BYTES(n * sizeof(rec)), sizeof(rec), MPI_INFO_NULL, MPI_COMM_WORLD, &recs,
                               &win));
    check_base(win, recs);
    for (int i = 0; i < n; i++)
        recs[i] = (rec) { aval(rank, 3 * i), aval(rank, 3 * i + 1), aval(rank, 3 * i + 2) };
    /* next's record 1 whole and fields a, b of next's last record; prev's record 2 (which nobody
     * writes) read back */
    int whole[3] = {putval(rank, 0), putval(rank, 1), putval(rank, 2)}, two[2] = {putval(rank, 3), putval(rank, 4)};
    int got2[3];
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(whole, 3, MPI_INT, next, 1, 3, MPI_INT, win));
    CHECK_MPI(MPI_Put(two, 2, MPI_INT, next, NREC(next) - 1, 2, MPI_INT, win));
    CHECK_MPI(MPI_Get(got2, 3, MPI_INT, prev, 2, 3, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < n; i++) {
        rec want = { aval(rank, 3 * i), aval(rank, 3 * i + 1), aval(rank, 3 * i + 2) };
        if (i == 1)
            want = (rec) { putval(prev, 0), putval(prev, 1), putval(prev, 2) };
        if (i == n - 1) {
            want.a = putval(prev, 3);
            want.b = putval(prev, 4);
        }
        if (recs[i].a != want.a || recs[i].b != want.b || recs[i].c != want.c)
            MTEST_FAIL("record %d = {%d %d %d}, expected {%d %d %d}", i, recs[i].a, recs[i].b, recs[i].c,
                       want.a, want.b, want.c);
    }
    for (int k = 0; k < 3; k++)
        if (got2[k] != aval(prev, 6 + k))
            MTEST_FAIL("record 2 of %d: field %d = %d, expected %d", prev, k, got2[k], aval(prev, 6 + k));

    /* next epoch: prev's whole last record, at the end of prev's window (its a and b from the
     * previous epoch, c never written); gets only, hence MPI_MODE_NOPUT */
    int gotlast[3];
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPUT, win));
    CHECK_MPI(MPI_Get(gotlast, 3, MPI_INT, prev, NREC(prev) - 1, 3, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    int pprev = (prev + size - 1) % size, l = NREC(prev) - 1;
    CHECK(gotlast[0] == putval(pprev, 3) && gotlast[1] == putval(pprev, 4) && gotlast[2] == aval(prev, 3 * l + 2),
          "last record of %d: {%d %d %d}, expected {%d %d %d}", prev, gotlast[0], gotlast[1], gotlast[2],
          putval(pprev, 3), putval(pprev, 4), aval(prev, 3 * l + 2));
    CHECK_MPI(MPI_Win_free(&win));
}

static double dval(int r, int i)
{
    return r + i / 8.0;         /* initial value of double i of rank r's double window */
}

static double dput(int r, int k)
{
    return -1.5 - r - 0.25 * k; /* double k that rank r puts */
}

static void double_window(void)
{
    int n = ND(rank);
    double *d = NULL;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(ALLOC_BYTES(n * sizeof(double)), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD,
                               &d, &win));
    check_base(win, d);
    for (int i = 0; i < n; i++)
        d[i] = dval(rank, i);
    double out[3] = {dput(rank, 0), dput(rank, 1), dput(rank, 2)}, got[2] = {0, 0};
    CHECK_MPI(MPI_Win_fence(0, win));
    /* the last three doubles of next's window; the first two of prev's */
    CHECK_MPI(MPI_Put_c(out, 3, MPI_DOUBLE, next, ND(next) - 3, 3, MPI_DOUBLE, win));
    CHECK_MPI(MPI_Get_c(got, 2, MPI_DOUBLE, prev, 0, 2, MPI_DOUBLE, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < n; i++) {
        double want = i >= n - 3 ? dput(prev, i - (n - 3)) : dval(rank, i);
        if (d[i] != want)
            MTEST_FAIL("double window[%d] = %g, expected %g", i, d[i], want);
    }
    CHECK(got[0] == dval(prev, 0) && got[1] == dval(prev, 1), "doubles from %d: %g %g", prev, got[0], got[1]);
    CHECK_MPI(MPI_Win_free(&win));
}

/* One value of each of these types goes to its offset of next's byte window. */
typedef struct {
    MPI_Datatype type;
    const char *name;
    int offset, size;           /* size: the bytes of the type map (no padding) */
} slot;

static const slot slots[] = {
    {MPI_2INT, "MPI_2INT", 0, 8},
    {MPI_DOUBLE_INT, "MPI_DOUBLE_INT", 16, 12},  /* the struct's 4 padding bytes are not data */
    {MPI_SHORT, "MPI_SHORT", 40, sizeof(short)},
    {MPI_LONG_LONG, "MPI_LONG_LONG", 48, sizeof(long long)},
    {MPI_FLOAT, "MPI_FLOAT", 56, sizeof(float)},
    {MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", 61, 1},
    {MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", 64, sizeof(double complex)},
    {MPI_C_BOOL, "MPI_C_BOOL", 81, sizeof(bool)},
    {MPI_WCHAR, "MPI_WCHAR", 84, sizeof(wchar_t)},
    {MPI_INT8_T, "MPI_INT8_T", 89, 1},
    {MPI_UINT64_T, "MPI_UINT64_T", 96, 8},
};
#define NSLOTS ((int) (sizeof slots / sizeof slots[0]))
#define BYTES 128               /* the slots' part of every byte window */

/* The values rank r writes, laid out in a BYTES-byte image at the slots' offsets (guard 0xc3). */
static void byte_image(int r, unsigned char *img)
{
    struct { int v, i; } two_int = { -r, r + 40 };
    struct { double v; int i; } dbl_int = { r + 0.5, -r };
    short s = (short) (-300 - r);
    long long ll = -(1LL << 40) - r;
    float f = 2.5f * (r + 1);
    unsigned char uc = (unsigned char) (200 + r);
    double complex dc = (1.0 + r) + (2.0 - r) * I;
    bool bo = true;
    wchar_t wc = L'a' + r;
    int8_t i8 = (int8_t) (-100 + r);
    uint64_t u64 = 0xfedcba9876543210ULL + (uint64_t) r;
    const void *src[NSLOTS] = {&two_int, &dbl_int, &s, &ll, &f, &uc, &dc, &bo, &wc, &i8, &u64};
    memset(img, 0xc3, BYTES);
    for (int k = 0; k < NSLOTS; k++)
        memcpy(img + slots[k].offset, src[k], (size_t) slots[k].size);
}

static void byte_window(void)
{
    unsigned char mine[BYTES], want[BYTES], got[BYTES];
    byte_image(rank, mine);
    int len = BYTES + 8 + 8 * rank;     /* 5 MPI_BYTEs go to the last 5 bytes of next's window */
    unsigned char *mem = malloc((size_t) len), tail[5] = {1, 2, 3, 4, (unsigned char) rank};
    memset(mem, 0xc3, (size_t) len);
    memset(got, 0xc3, sizeof got);
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(mem, len, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int k = 0; k < NSLOTS; k++)
        CHECK_MPI(MPI_Put(mine + slots[k].offset, 1, slots[k].type, next, slots[k].offset, 1, slots[k].type, win));
    CHECK_MPI(MPI_Put(tail, 5, MPI_BYTE, next, BYTES + 8 + 8 * next - 5, 5, MPI_BYTE, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    /* the next epoch fetches, by the same types, what prev's window received from its prev */
    for (int k = 0; k < NSLOTS; k++)
        CHECK_MPI(MPI_Get(got + slots[k].offset, 1, slots[k].type, prev, slots[k].offset, 1, slots[k].type, win));
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));

    byte_image(prev, want);
    for (int b = 0; b < BYTES; b++)
        if (mem[b] != want[b])
            MTEST_FAIL("put: byte window[%d] = %#x, expected %#x (from %d)", b, mem[b], want[b], prev);
    for (int b = BYTES; b < len; b++) {
        unsigned char w = b < len - 5 ? 0xc3 : b == len - 1 ? (unsigned char) prev : (unsigned char) (b - (len - 5) + 1);
        if (mem[b] != w)
            MTEST_FAIL("put: byte window[%d] = %#x, expected %#x", b, mem[b], w);
    }
    byte_image((prev + size - 1) % size, want);
    for (int b = 0; b < BYTES; b++)
        if (got[b] != want[b])
            MTEST_FAIL("get from %d: byte %d = %#x, expected %#x", prev, b, got[b], want[b]);
    CHECK_MPI(MPI_Win_free(&win));
    free(mem);
}

static void empty_window(void)
{
    /* The last rank exposes nothing (base NULL, size 0): count-0 accesses to it are no-ops. Each
     * other rank r puts its rank into int 3 of rank (r + 1) % last. */
    int last = size - 1, mine[4] = {1, 2, 3, 4}, buf[4] = {9, 9, 9, 9};
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(rank == last ? NULL : mine, rank == last ? 0 : (MPI_Aint) sizeof mine, sizeof(int),
                             MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(buf, 0, MPI_INT, last, 0, 0, MPI_INT, win));
    CHECK_MPI(MPI_Get(buf, 0, MPI_INT, last, 0, 0, MPI_INT, win));
    if (rank != last)
        CHECK_MPI(MPI_Put(&rank, 1, MPI_INT, (rank + 1) % last, 3, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK(buf[0] == 9 && buf[1] == 9 && buf[2] == 9 && buf[3] == 9, "a get of count 0 wrote its buffer");
    if (rank != last) {
        CHECK(mine[0] == 1 && mine[1] == 2 && mine[2] == 3, "untouched ints changed: %d %d %d", mine[0], mine[1],
              mine[2]);
        CHECK_EQ(mine[3], (rank + last - 1) % last);
    }
    CHECK_MPI(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    prev = (rank + size - 1) % size;
    next = (rank + 1) % size;

    int_window();
    record_window();
    double_window();
    byte_window();
    empty_window();

    return MTest_Finalize();
}
