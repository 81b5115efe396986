/*
 * The predefined reduction operations on the predefined types (MPI 4.1, section 6.9.2).
 *
 * The standard defines each operation on groups of types; so does this file. Each group is an
 * X-macro list of (handle, C type, name, wide type), each operation a one-line expression, and one
 * macro turns (operation, type) into a loop; the table that MPIR_Op_kernel_for reads is built from
 * the same lists, so a type is added to a group in exactly one place.
 *
 * The wide type is where integer sums and products are computed: an unsigned type of at least int
 * rank, so that overflow wraps instead of being undefined (the standard leaves the result of an
 * overflow undefined; we keep it free of undefined behaviour).
 */
#include <complex.h>
#include "mpiimpl.h"
#include "op_kernels.h"

/* ---- the groups of types ---- */

/* C integer. MPI_CHAR is not in the standard's list; MPICH accepts it and so do its test suites,
 * so we do too. */
#define C_INTEGER(X) \
    X(MPI_CHAR, char, char, unsigned) \
    X(MPI_SIGNED_CHAR, signed char, schar, unsigned) \
    X(MPI_UNSIGNED_CHAR, unsigned char, uchar, unsigned) \
    X(MPI_SHORT, short, short, unsigned) \
    X(MPI_UNSIGNED_SHORT, unsigned short, ushort, unsigned) \
    X(MPI_INT, int, int, unsigned) \
    X(MPI_UNSIGNED, unsigned, uint, unsigned) \
    X(MPI_LONG, long, long, unsigned long) \
    X(MPI_UNSIGNED_LONG, unsigned long, ulong, unsigned long) \
    X(MPI_LONG_LONG_INT, long long, llong, unsigned long long) \
    X(MPI_UNSIGNED_LONG_LONG, unsigned long long, ullong, unsigned long long) \
    X(MPI_INT8_T, int8_t, int8, unsigned) \
    X(MPI_INT16_T, int16_t, int16, unsigned) \
    X(MPI_INT32_T, int32_t, int32, uint32_t) \
    X(MPI_INT64_T, int64_t, int64, uint64_t) \
    X(MPI_UINT8_T, uint8_t, uint8, unsigned) \
    X(MPI_UINT16_T, uint16_t, uint16, unsigned) \
    X(MPI_UINT32_T, uint32_t, uint32, uint32_t) \
    X(MPI_UINT64_T, uint64_t, uint64, uint64_t)

/* Fortran integer (C types of gfortran's layout, as in dt_builtin.c) */
#define FORTRAN_INTEGER(X) \
    X(MPI_INTEGER, int, integer, unsigned) \
    X(MPI_INTEGER1, int8_t, integer1, unsigned) \
    X(MPI_INTEGER2, int16_t, integer2, unsigned) \
    X(MPI_INTEGER4, int32_t, integer4, uint32_t) \
    X(MPI_INTEGER8, int64_t, integer8, uint64_t) \
    X(MPI_INTEGER16, __int128, integer16, unsigned __int128)

/* Multi-language types */
#define MULTI_LANGUAGE(X) \
    X(MPI_AINT, MPI_Aint, aint, unsigned long) \
    X(MPI_OFFSET, MPI_Offset, offset, unsigned long long) \
    X(MPI_COUNT, MPI_Count, count, unsigned long long)

/* Floating point, and complex; the 2-byte kinds need the compiler's _Float16 */
#ifdef __FLT16_MAX__
#define FLOAT16(X) X(MPI_REAL2, _Float16, real2, _Float16)
#define COMPLEX16(X) X(MPI_COMPLEX4, _Complex _Float16, complex4, _Complex _Float16)
#else
#define FLOAT16(X)
#define COMPLEX16(X)
#endif
#define FLOATING_POINT(X) \
    X(MPI_FLOAT, float, float, float) \
    X(MPI_DOUBLE, double, double, double) \
    X(MPI_LONG_DOUBLE, long double, ldouble, long double) \
    X(MPI_REAL, float, real, float) \
    X(MPI_DOUBLE_PRECISION, double, dprec, double) \
    X(MPI_REAL4, float, real4, float) \
    X(MPI_REAL8, double, real8, double) \
    X(MPI_REAL16, long double, real16, long double) \
    FLOAT16(X)

#define COMPLEX(X) \
    X(MPI_C_FLOAT_COMPLEX, float _Complex, c_fcomplex, float _Complex) \
    X(MPI_C_DOUBLE_COMPLEX, double _Complex, c_dcomplex, double _Complex) \
    X(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex, c_ldcomplex, long double _Complex) \
    X(MPI_CXX_FLOAT_COMPLEX, float _Complex, cxx_fcomplex, float _Complex) \
    X(MPI_CXX_DOUBLE_COMPLEX, double _Complex, cxx_dcomplex, double _Complex) \
    X(MPI_CXX_LONG_DOUBLE_COMPLEX, long double _Complex, cxx_ldcomplex, long double _Complex) \
    X(MPI_COMPLEX, float _Complex, complex, float _Complex) \
    X(MPI_DOUBLE_COMPLEX, double _Complex, dcomplex, double _Complex) \
    X(MPI_COMPLEX8, float _Complex, complex8, float _Complex) \
    X(MPI_COMPLEX16, double _Complex, complex16, double _Complex) \
    X(MPI_COMPLEX32, long double _Complex, complex32, long double _Complex) \
    COMPLEX16(X)

/* Logical (Fortran's LOGICAL is an int; any non-zero value is true) */
#define LOGICAL(X) \
    X(MPI_C_BOOL, _Bool, c_bool, _Bool) \
    X(MPI_CXX_BOOL, _Bool, cxx_bool, _Bool) \
    X(MPI_LOGICAL, int, logical, int)

#define BYTE(X) X(MPI_BYTE, unsigned char, byte, unsigned)

/* The pair types of MPI_MINLOC and MPI_MAXLOC: (handle, value type, index type, name) */
#define PAIRS(X) \
    X(MPI_FLOAT_INT, float, int, float_int) \
    X(MPI_DOUBLE_INT, double, int, double_int) \
    X(MPI_LONG_INT, long, int, long_int) \
    X(MPI_2INT, int, int, two_int) \
    X(MPI_SHORT_INT, short, int, short_int) \
    X(MPI_LONG_DOUBLE_INT, long double, int, long_double_int) \
    X(MPI_2REAL, float, float, two_real) \
    X(MPI_2DOUBLE_PRECISION, double, double, two_dprec) \
    X(MPI_2INTEGER, int, int, two_integer)

/* ---- the operations: a is the element of in, b that of inout; T the type, W the wide type ---- */

#define OP_MAX(T, W, a, b) ((a) > (b) ? (a) : (b))
#define OP_MIN(T, W, a, b) ((a) < (b) ? (a) : (b))
#define OP_SUM(T, W, a, b) ((T) ((W) (a) + (W) (b)))
#define OP_PROD(T, W, a, b) ((T) ((W) (a) * (W) (b)))
#define OP_LAND(T, W, a, b) ((T) ((a) && (b)))
#define OP_LOR(T, W, a, b) ((T) ((a) || (b)))
#define OP_LXOR(T, W, a, b) ((T) (!(a) != !(b)))
#define OP_BAND(T, W, a, b) ((T) ((a) & (b)))
#define OP_BOR(T, W, a, b) ((T) ((a) | (b)))
#define OP_BXOR(T, W, a, b) ((T) ((a) ^ (b)))

/* which operations each group has: K(op, handle, type, name, wide) for each */
#define ARITH_OPS(K, H, T, N, W) K(MAX, H, T, N, W) K(MIN, H, T, N, W) K(SUM, H, T, N, W) K(PROD, H, T, N, W)
#define SUM_PROD_OPS(K, H, T, N, W) K(SUM, H, T, N, W) K(PROD, H, T, N, W)
#define LOGICAL_OPS(K, H, T, N, W) K(LAND, H, T, N, W) K(LOR, H, T, N, W) K(LXOR, H, T, N, W)
#define BITWISE_OPS(K, H, T, N, W) K(BAND, H, T, N, W) K(BOR, H, T, N, W) K(BXOR, H, T, N, W)

#define C_INTEGER_OPS(K, H, T, N, W) ARITH_OPS(K, H, T, N, W) LOGICAL_OPS(K, H, T, N, W) BITWISE_OPS(K, H, T, N, W)
#define INTEGER_OPS(K, H, T, N, W) ARITH_OPS(K, H, T, N, W) BITWISE_OPS(K, H, T, N, W)

/* Applies X to every (op, type) pair the standard defines, through the group's op list */
#define ALL_KERNELS(K) \
    C_INTEGER(C_INTEGER_OPS_##K) FORTRAN_INTEGER(INTEGER_OPS_##K) MULTI_LANGUAGE(INTEGER_OPS_##K) \
    FLOATING_POINT(ARITH_OPS_##K) COMPLEX(SUM_PROD_OPS_##K) LOGICAL(LOGICAL_OPS_##K) BYTE(BITWISE_OPS_##K)

/* ---- the loops ---- */

#define KERNEL(OP, H, T, N, W) \
    static void OP##_##N(const void *in_, void *inout_, MPI_Count n) \
    { \
        const T *in = in_; \
        T *inout = inout_; \
        for (MPI_Count i = 0; i < n; i++) \
            inout[i] = OP_##OP(T, W, in[i], inout[i]); \
    }

#define C_INTEGER_OPS_KERNEL(H, T, N, W) C_INTEGER_OPS(KERNEL, H, T, N, W)
#define INTEGER_OPS_KERNEL(H, T, N, W) INTEGER_OPS(KERNEL, H, T, N, W)
#define ARITH_OPS_KERNEL(H, T, N, W) ARITH_OPS(KERNEL, H, T, N, W)
#define SUM_PROD_OPS_KERNEL(H, T, N, W) SUM_PROD_OPS(KERNEL, H, T, N, W)
#define LOGICAL_OPS_KERNEL(H, T, N, W) LOGICAL_OPS(KERNEL, H, T, N, W)
#define BITWISE_OPS_KERNEL(H, T, N, W) BITWISE_OPS(KERNEL, H, T, N, W)

ALL_KERNELS(KERNEL)

/* MAXLOC: the larger value, and on a tie the smaller index (MINLOC: the smaller value) */
#define PAIR_KERNEL(OP, N, CMP) \
    static void OP##_##N(const void *in_, void *inout_, MPI_Count n) \
    { \
        const pair_##N *in = in_; \
        pair_##N *inout = inout_; \
        for (MPI_Count i = 0; i < n; i++) { \
            if (in[i].v CMP inout[i].v) { \
                inout[i].v = in[i].v;   /* field by field: never the padding after i */ \
                inout[i].i = in[i].i; \
            } \
            else if (in[i].v == inout[i].v && in[i].i < inout[i].i) \
                inout[i].i = in[i].i; \
        } \
    }
/* the same layout as the pair types' records (dt_builtin.c) */
#define PAIR_KERNELS(H, V, I, N) \
    typedef struct { V v; I i; } pair_##N; \
    PAIR_KERNEL(MAXLOC, N, >) \
    PAIR_KERNEL(MINLOC, N, <)
PAIRS(PAIR_KERNELS)

/* ---- the table, indexed by the low bytes of the operation and type handles ---- */

#define ENTRY(OP, H, T, N, W) [MPIR_BUILTIN_INDEX(MPI_##OP)][MPIR_BUILTIN_INDEX(H)] = OP##_##N,
#define C_INTEGER_OPS_ENTRY(H, T, N, W) C_INTEGER_OPS(ENTRY, H, T, N, W)
#define INTEGER_OPS_ENTRY(H, T, N, W) INTEGER_OPS(ENTRY, H, T, N, W)
#define ARITH_OPS_ENTRY(H, T, N, W) ARITH_OPS(ENTRY, H, T, N, W)
#define SUM_PROD_OPS_ENTRY(H, T, N, W) SUM_PROD_OPS(ENTRY, H, T, N, W)
#define LOGICAL_OPS_ENTRY(H, T, N, W) LOGICAL_OPS(ENTRY, H, T, N, W)
#define BITWISE_OPS_ENTRY(H, T, N, W) BITWISE_OPS(ENTRY, H, T, N, W)
#define PAIR_ENTRIES(H, V, I, N) \
    [MPIR_BUILTIN_INDEX(MPI_MAXLOC)][MPIR_BUILTIN_INDEX(H)] = MAXLOC_##N, \
    [MPIR_BUILTIN_INDEX(MPI_MINLOC)][MPIR_BUILTIN_INDEX(H)] = MINLOC_##N,

#define N_KERNEL_OPS (MPIR_BUILTIN_INDEX(MPI_MAXLOC) + 1)
static MPIR_Op_kernel *const kernels[N_KERNEL_OPS][MPID_BUILTIN_TYPE_MAX] = {
    ALL_KERNELS(ENTRY)
    PAIRS(PAIR_ENTRIES)
};

MPIR_Op_kernel *MPIR_Op_kernel_for(MPI_Op op, MPI_Datatype type)
{
    if (!MPIR_Op_is_builtin(op) || !MPID_Datatype_is_builtin(type))
        return NULL;
    int o = MPIR_BUILTIN_INDEX(op), t = MPIR_BUILTIN_INDEX(type);
    return o < N_KERNEL_OPS && t < MPID_BUILTIN_TYPE_MAX ? kernels[o][t] : NULL;
}
