/*
 * Every predefined operation on every predefined type (MPI 4.1, section 6.9.2), through
 * MPI_Allreduce, MPI_Reduce and MPI_Reduce_local: where the standard defines the operation the
 * result must be exact (small integer values, so floating and complex results are exact too); where
 * it does not, the call must fail with MPI_ERR_OP on every rank. MPI_REPLACE and MPI_NO_OP are for
 * one-sided accumulate only: MPI_ERR_OP in reductions.
 *
 * Extension: MPI_CHAR is reduced like the C integer types (as MPICH does).
 */
#include <complex.h>
#include <stdbool.h>
#include <stdint.h>
#include <wchar.h>
#include "colltest.h"

enum { MAX, MIN, SUM, PROD, LAND, LOR, LXOR, BAND, BOR, BXOR, NOPS };
static const struct {
    MPI_Op op;
    const char *name;
} ops[NOPS] = {
    { MPI_MAX, "MPI_MAX" }, { MPI_MIN, "MPI_MIN" }, { MPI_SUM, "MPI_SUM" }, { MPI_PROD, "MPI_PROD" },
    { MPI_LAND, "MPI_LAND" }, { MPI_LOR, "MPI_LOR" }, { MPI_LXOR, "MPI_LXOR" }, { MPI_BAND, "MPI_BAND" },
    { MPI_BOR, "MPI_BOR" }, { MPI_BXOR, "MPI_BXOR" },
};

/* the groups of the standard, as sets of operations */
#define B(op) (1u << (op))
#define ARITH (B(MAX) | B(MIN) | B(SUM) | B(PROD))
#define LOGIC (B(LAND) | B(LOR) | B(LXOR))
#define BITS (B(BAND) | B(BOR) | B(BXOR))
#define C_INT (ARITH | LOGIC | BITS)
#define F_INT (ARITH | BITS)       /* Fortran integer and the multi-language types */
#define FLOATING ARITH
#define CPLX (B(SUM) | B(PROD))
#define LOGICAL LOGIC
#define BYTE BITS
#define NONE 0u

/* element access through long long (all test values are small integers) */
#define ACCESS(N, T) \
    static void set_##N(void *b, int i, long long re, long long im) { (void) im; ((T *) b)[i] = (T) re; } \
    static void get_##N(const void *b, int i, long long *re, long long *im) \
    { *re = (long long) ((const T *) b)[i]; *im = 0; }
#define CACCESS(N, T, R) \
    static void set_##N(void *b, int i, long long re, long long im) \
    { T z; __real__ z = (R) re; __imag__ z = (R) im; ((T *) b)[i] = z; } \
    static void get_##N(const void *b, int i, long long *re, long long *im) \
    { T z = ((const T *) b)[i]; *re = (long long) __real__ z; *im = (long long) __imag__ z; }

ACCESS(char, char) ACCESS(schar, signed char) ACCESS(uchar, unsigned char) ACCESS(short, short)
ACCESS(ushort, unsigned short) ACCESS(int, int) ACCESS(uint, unsigned) ACCESS(long, long)
ACCESS(ulong, unsigned long) ACCESS(llong, long long) ACCESS(ullong, unsigned long long)
ACCESS(i8, int8_t) ACCESS(i16, int16_t) ACCESS(i32, int32_t) ACCESS(i64, int64_t)
ACCESS(u8, uint8_t) ACCESS(u16, uint16_t) ACCESS(u32, uint32_t) ACCESS(u64, uint64_t)
ACCESS(i128, __int128) ACCESS(aint, MPI_Aint) ACCESS(offset, MPI_Offset) ACCESS(count, MPI_Count)
ACCESS(float, float) ACCESS(double, double) ACCESS(ldouble, long double) ACCESS(bool, _Bool)
ACCESS(wchar, wchar_t)
CACCESS(fc, float _Complex, float) CACCESS(dc, double _Complex, double)
CACCESS(ldc, long double _Complex, long double)
#ifdef __FLT16_MAX__
ACCESS(half, _Float16) CACCESS(hc, _Complex _Float16, _Float16)
#endif

typedef struct {
    const char *name;
    MPI_Datatype type;
    unsigned ops;
    bool is_signed;
    void (*set)(void *, int, long long, long long);
    void (*get)(const void *, int, long long *, long long *);
} Type;

#define T(h, n, cls, sgn) { #h, h, cls, sgn, set_##n, get_##n }
static const Type types[] = {
    T(MPI_CHAR, char, C_INT, true), T(MPI_SIGNED_CHAR, schar, C_INT, true),
    T(MPI_UNSIGNED_CHAR, uchar, C_INT, false), T(MPI_SHORT, short, C_INT, true),
    T(MPI_UNSIGNED_SHORT, ushort, C_INT, false), T(MPI_INT, int, C_INT, true), T(MPI_UNSIGNED, uint, C_INT, false),
    T(MPI_LONG, long, C_INT, true), T(MPI_UNSIGNED_LONG, ulong, C_INT, false), T(MPI_LONG_LONG, llong, C_INT, true),
    T(MPI_UNSIGNED_LONG_LONG, ullong, C_INT, false), T(MPI_INT8_T, i8, C_INT, true),
    T(MPI_INT16_T, i16, C_INT, true), T(MPI_INT32_T, i32, C_INT, true), T(MPI_INT64_T, i64, C_INT, true),
    T(MPI_UINT8_T, u8, C_INT, false), T(MPI_UINT16_T, u16, C_INT, false), T(MPI_UINT32_T, u32, C_INT, false),
    T(MPI_UINT64_T, u64, C_INT, false),
    T(MPI_INTEGER, int, F_INT, true), T(MPI_INTEGER1, i8, F_INT, true), T(MPI_INTEGER2, i16, F_INT, true),
    T(MPI_INTEGER4, i32, F_INT, true), T(MPI_INTEGER8, i64, F_INT, true), T(MPI_INTEGER16, i128, F_INT, true),
    T(MPI_AINT, aint, F_INT, true), T(MPI_OFFSET, offset, F_INT, true), T(MPI_COUNT, count, F_INT, true),
    T(MPI_FLOAT, float, FLOATING, true), T(MPI_DOUBLE, double, FLOATING, true),
    T(MPI_LONG_DOUBLE, ldouble, FLOATING, true), T(MPI_REAL, float, FLOATING, true),
    T(MPI_DOUBLE_PRECISION, double, FLOATING, true), T(MPI_REAL4, float, FLOATING, true),
    T(MPI_REAL8, double, FLOATING, true), T(MPI_REAL16, ldouble, FLOATING, true),
    T(MPI_C_FLOAT_COMPLEX, fc, CPLX, true), T(MPI_C_DOUBLE_COMPLEX, dc, CPLX, true),
    T(MPI_C_LONG_DOUBLE_COMPLEX, ldc, CPLX, true), T(MPI_CXX_FLOAT_COMPLEX, fc, CPLX, true),
    T(MPI_CXX_DOUBLE_COMPLEX, dc, CPLX, true), T(MPI_CXX_LONG_DOUBLE_COMPLEX, ldc, CPLX, true),
    T(MPI_COMPLEX, fc, CPLX, true), T(MPI_DOUBLE_COMPLEX, dc, CPLX, true), T(MPI_COMPLEX8, fc, CPLX, true),
    T(MPI_COMPLEX16, dc, CPLX, true), T(MPI_COMPLEX32, ldc, CPLX, true),
#ifdef __FLT16_MAX__
    T(MPI_REAL2, half, FLOATING, true), T(MPI_COMPLEX4, hc, CPLX, true),
#endif
    T(MPI_C_BOOL, bool, LOGICAL, false), T(MPI_CXX_BOOL, bool, LOGICAL, false), T(MPI_LOGICAL, int, LOGICAL, false),
    T(MPI_BYTE, uchar, BYTE, false),
    T(MPI_WCHAR, wchar, NONE, false), T(MPI_CHARACTER, char, NONE, false), T(MPI_PACKED, uchar, NONE, false),
};
#define NTYPES ((int) (sizeof types / sizeof types[0]))

#define COUNT 5

/* The value rank r contributes to element j for operation op: small, and such that every result
 * fits the narrowest type (int8_t, and _Float16's 11-bit mantissa). */
static void value(int op, int r, int j, const Type *t, long long *re, long long *im)
{
    bool sgn = t->is_signed;
    *im = 0;
    switch (op) {
    case MAX: case MIN: *re = (r * 5 + j * 3) % 11 - (sgn ? 5 : 0); break;
    case SUM: *re = r + j + 1; *im = sgn ? r % 3 - 1 : 0; break;
    case PROD:
        if (t->ops == CPLX) {
            *re = 1;
            *im = (r + j) % 2;      /* (1+i)^k stays small */
        } else {
            int k = (r + j) % 3;
            *re = k == 0 ? 2 : k == 1 || !sgn ? 1 : -1;
        }
        break;
    case LAND: *re = (r + j) % 4 != 0 ? r + 2 : 0; break;     /* any non-zero value is true */
    case LOR: *re = (r + 2 * j) % 5 == 1 ? j + 1 : 0; break;
    case LXOR: *re = (r * j + r) % 3 == 0 ? 1 + r % 2 : 0; break;
    case BAND: *re = 0x7f & ~(1 << ((r + j) % 7)); break;
    case BOR: *re = 1 << ((r + 2 * j) % 7); break;
    case BXOR: *re = (r * 7 + j * 13) % 128; break;
    }
}

/* acc = v op acc, on the long long model */
static void combine(int op, long long vre, long long vim, long long *re, long long *im)
{
    long long r = *re, i = *im;
    switch (op) {
    case MAX: *re = vre > r ? vre : r; break;
    case MIN: *re = vre < r ? vre : r; break;
    case SUM: *re = vre + r; *im = vim + i; break;
    case PROD: *re = vre * r - vim * i; *im = vre * i + vim * r; break;
    case LAND: *re = vre && r; break;
    case LOR: *re = vre || r; break;
    case LXOR: *re = !vre != !r; break;
    case BAND: *re = vre & r; break;
    case BOR: *re = vre | r; break;
    case BXOR: *re = vre ^ r; break;
    }
}

/* The expected result of reducing the values of ranks[0..n) (in that order), element j, as the
 * type stores it. */
static void expected(int op, const int *ranks, int n, int j, const Type *t, long long *re, long long *im)
{
    value(op, ranks[n - 1], j, t, re, im);
    for (int k = n - 2; k >= 0; k--) {
        long long vre, vim;
        value(op, ranks[k], j, t, &vre, &vim);
        combine(op, vre, vim, re, im);
    }
    long double scratch[4];
    t->set(scratch, 0, *re, *im);
    t->get(scratch, 0, re, im);
}

static void fill(void *buf, int op, int r, const Type *t)
{
    for (int j = 0; j < COUNT; j++) {
        long long re, im;
        value(op, r, j, t, &re, &im);
        t->set(buf, j, re, im);
    }
}

static void verify(const char *what, const void *buf, int op, const int *ranks, int n, const Type *t, MPI_Comm comm)
{
    for (int j = 0; j < COUNT; j++) {
        long long re, im, wre, wim;
        t->get(buf, j, &re, &im);
        expected(op, ranks, n, j, t, &wre, &wim);
        CHECK(re == wre && im == wim, "%s %s on %s, element %d: got (%lld, %lld), expected (%lld, %lld) in %s",
              what, ops[op].name, t->name, j, re, im, wre, wim, colltest_name(comm));
    }
}

static void check_op_error(const char *what, int rc, int op_index, MPI_Op op, const Type *t)
{
    int cls = -1;
    if (rc == MPI_SUCCESS) {
        MTEST_FAIL("%s of %s with %s succeeded, expected MPI_ERR_OP", what, t->name,
                   op_index >= 0 ? ops[op_index].name : op == MPI_REPLACE ? "MPI_REPLACE" : "MPI_NO_OP");
        return;
    }
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_OP, "%s of %s gave error class %d, expected MPI_ERR_OP", what, t->name, cls);
}

static void test_comm(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int ranks[64];
    for (int i = 0; i < size; i++)
        ranks[i] = i;
    long double in[COUNT * 2], out[COUNT * 2];
    int root = size - 1;

    for (int ti = 0; ti < NTYPES; ti++) {
        const Type *t = &types[ti];
        for (int op = 0; op < NOPS; op++) {
            fill(in, op, rank, t);
            memset(out, 0, sizeof out);
            int rc = MPI_Allreduce(in, out, COUNT, t->type, ops[op].op, comm);
            if (!(t->ops & B(op))) {
                check_op_error("MPI_Allreduce", rc, op, ops[op].op, t);
                continue;
            }
            CHECK(rc == MPI_SUCCESS, "MPI_Allreduce %s on %s failed", ops[op].name, t->name);
            verify("MPI_Allreduce", out, op, ranks, size, t, comm);

            memset(out, 0, sizeof out);
            rc = MPI_Reduce(in, out, COUNT, t->type, ops[op].op, root, comm);
            CHECK(rc == MPI_SUCCESS, "MPI_Reduce %s on %s failed", ops[op].name, t->name);
            if (rank == root)
                verify("MPI_Reduce", out, op, ranks, size, t, comm);
        }
        for (int k = 0; k < 2; k++) {
            MPI_Op op = k ? MPI_NO_OP : MPI_REPLACE;
            fill(in, SUM, rank, t);
            check_op_error("MPI_Allreduce", MPI_Allreduce(in, out, COUNT, t->type, op, comm), -1, op, t);
        }
    }
}

/* MPI_Reduce_local: inout = in op inout, here in = values of rank 1, inout = values of rank 0. */
static void test_local(void)
{
    long double in[COUNT * 2], inout[COUNT * 2];
    const int order[2] = { 1, 0 };
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    for (int ti = 0; ti < NTYPES; ti++) {
        const Type *t = &types[ti];
        for (int op = 0; op < NOPS; op++) {
            fill(in, op, 1, t);
            fill(inout, op, 0, t);
            int rc = MPI_Reduce_local(in, inout, COUNT, t->type, ops[op].op);
            if (!(t->ops & B(op))) {
                check_op_error("MPI_Reduce_local", rc, op, ops[op].op, t);
                continue;
            }
            CHECK(rc == MPI_SUCCESS, "MPI_Reduce_local %s on %s failed", ops[op].name, t->name);
            verify("MPI_Reduce_local", inout, op, order, 2, t, MPI_COMM_SELF);
        }
        check_op_error("MPI_Reduce_local", MPI_Reduce_local(in, inout, COUNT, t->type, MPI_REPLACE), -1,
                       MPI_REPLACE, t);
    }
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    test_local();

    /* the whole table on world and on a smaller group of the other parity */
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    test_comm(MPI_COMM_WORLD);
    if (size > 2) {
        MPI_Comm c;
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank < size - 1 ? 0 : MPI_UNDEFINED, rank, &c));
        if (c != MPI_COMM_NULL) {
            MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
            test_comm(c);
            CHECK_MPI(MPI_Comm_free(&c));
        }
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    return MTest_Finalize();
}
