/*
 * Size and bounds of every predefined datatype.
 *
 * A basic type's type map is one entry at displacement 0, so lb = true_lb = 0 and
 * extent = true_extent = size = sizeof of the C type (Fortran types: gfortran's default kinds on
 * x86-64). The pair types (for MPI_MINLOC/MAXLOC) are the C structs {value; int}: their extent is
 * sizeof the struct (trailing padding included), their true extent ends after the int, their size
 * counts the two members only. MPI_LB and MPI_UB are markers: size 0, every bound 0.
 */
#include <complex.h>
#include <stddef.h>
#include <wchar.h>
#include "bounds.h"

struct float_int { float v; int i; };
struct double_int { double v; int i; };
struct long_int { long v; int i; };
struct short_int { short v; int i; };
struct two_int { int v; int i; };
struct long_double_int { long double v; int i; };

/* A basic type: everything is its size. */
#define CHECK_BASIC(type, n) CHECK_BOUNDS(type, n, 0, n, 0, n)

/* A pair type of the C struct S: size = the two members, extent = sizeof(S),
 * true extent = where the int ends. The hand values come from the project's decision table;
 * the C layout must agree with them. */
#define CHECK_PAIR(type, S, size, extent, true_extent) do { \
        CHECK_EQ(sizeof(((S *) 0)->v) + sizeof(int), size); \
        CHECK_EQ(sizeof(S), extent); \
        CHECK_EQ(offsetof(S, i) + sizeof(int), true_extent); \
        CHECK_BOUNDS(type, size, 0, extent, 0, true_extent); \
    } while (0)

/* Optional Fortran types an implementation may leave MPI_DATATYPE_NULL (Debian's MPICH does);
 * ours provides them all, so for us a null handle is a failure. */
static int optional_present(MPI_Datatype type, const char *name)
{
    if (type != MPI_DATATYPE_NULL)
        return 1;
#ifdef LOOM_MPI
    CHECK(0, "%s is MPI_DATATYPE_NULL", name);
#else
    (void) name;
#endif
    return 0;
}
#define CHECK_OPTIONAL(type, n) do { \
        if (optional_present(type, #type)) CHECK_BASIC(type, n); \
    } while (0)

int main(int argc, char **argv)
{
    bounds_init(&argc, &argv);

    /* C integer and character types */
    CHECK_BASIC(MPI_CHAR, sizeof(char));
    CHECK_BASIC(MPI_SIGNED_CHAR, sizeof(signed char));
    CHECK_BASIC(MPI_UNSIGNED_CHAR, sizeof(unsigned char));
    CHECK_BASIC(MPI_BYTE, 1);
    CHECK_BASIC(MPI_PACKED, 1);
    CHECK_BASIC(MPI_WCHAR, sizeof(wchar_t));
    CHECK_BASIC(MPI_SHORT, sizeof(short));
    CHECK_BASIC(MPI_UNSIGNED_SHORT, sizeof(unsigned short));
    CHECK_BASIC(MPI_INT, sizeof(int));
    CHECK_BASIC(MPI_UNSIGNED, sizeof(unsigned));
    CHECK_BASIC(MPI_LONG, sizeof(long));
    CHECK_BASIC(MPI_UNSIGNED_LONG, sizeof(unsigned long));
    CHECK_BASIC(MPI_LONG_LONG_INT, sizeof(long long));
    CHECK_BASIC(MPI_LONG_LONG, sizeof(long long));
    CHECK_BASIC(MPI_UNSIGNED_LONG_LONG, sizeof(unsigned long long));
    CHECK_BASIC(MPI_C_BOOL, sizeof(_Bool));
    CHECK_BASIC(MPI_INT8_T, sizeof(int8_t));
    CHECK_BASIC(MPI_INT16_T, sizeof(int16_t));
    CHECK_BASIC(MPI_INT32_T, sizeof(int32_t));
    CHECK_BASIC(MPI_INT64_T, sizeof(int64_t));
    CHECK_BASIC(MPI_UINT8_T, sizeof(uint8_t));
    CHECK_BASIC(MPI_UINT16_T, sizeof(uint16_t));
    CHECK_BASIC(MPI_UINT32_T, sizeof(uint32_t));
    CHECK_BASIC(MPI_UINT64_T, sizeof(uint64_t));
    CHECK_BASIC(MPI_AINT, sizeof(MPI_Aint));
    CHECK_BASIC(MPI_COUNT, sizeof(MPI_Count));
    CHECK_BASIC(MPI_OFFSET, sizeof(MPI_Offset));

    /* C floating and complex types; long double is 16 bytes of storage on x86-64 (80 bits used) */
    CHECK_BASIC(MPI_FLOAT, sizeof(float));
    CHECK_BASIC(MPI_DOUBLE, sizeof(double));
    CHECK_BASIC(MPI_LONG_DOUBLE, sizeof(long double));
    CHECK_BASIC(MPI_C_FLOAT_COMPLEX, sizeof(float _Complex));
    CHECK_BASIC(MPI_C_COMPLEX, sizeof(float _Complex));
    CHECK_BASIC(MPI_C_DOUBLE_COMPLEX, sizeof(double _Complex));
    CHECK_BASIC(MPI_C_LONG_DOUBLE_COMPLEX, sizeof(long double _Complex));

    /* C++ types, as the C++ ABI lays them out (bool is one byte, complex<T> is two T) */
    CHECK_BASIC(MPI_CXX_BOOL, 1);
    CHECK_BASIC(MPI_CXX_FLOAT_COMPLEX, 2 * sizeof(float));
    CHECK_BASIC(MPI_CXX_DOUBLE_COMPLEX, 2 * sizeof(double));
    CHECK_BASIC(MPI_CXX_LONG_DOUBLE_COMPLEX, 2 * sizeof(long double));

    /* Fortran types with gfortran's default kinds: INTEGER, REAL, LOGICAL 4 bytes */
    CHECK_BASIC(MPI_CHARACTER, 1);
    CHECK_BASIC(MPI_LOGICAL, 4);
    CHECK_BASIC(MPI_INTEGER, 4);
    CHECK_BASIC(MPI_REAL, 4);
    CHECK_BASIC(MPI_DOUBLE_PRECISION, 8);
    CHECK_BASIC(MPI_COMPLEX, 8);
    CHECK_BASIC(MPI_DOUBLE_COMPLEX, 16);
    /* Sized Fortran types: INTEGERn and REALn are n bytes, COMPLEXn is two REAL(n/2) */
    CHECK_BASIC(MPI_INTEGER1, 1);
    CHECK_BASIC(MPI_INTEGER2, 2);
    CHECK_BASIC(MPI_INTEGER4, 4);
    CHECK_BASIC(MPI_INTEGER8, 8);
    CHECK_BASIC(MPI_REAL4, 4);
    CHECK_BASIC(MPI_REAL8, 8);
    CHECK_BASIC(MPI_COMPLEX8, 8);
    CHECK_BASIC(MPI_COMPLEX16, 16);
    CHECK_OPTIONAL(MPI_INTEGER16, 16);
    CHECK_OPTIONAL(MPI_REAL16, 16);
    CHECK_OPTIONAL(MPI_COMPLEX32, 32);
    /* REAL2 and COMPLEX4 (two REAL2) are newer; MPICH 4.0 does not declare them at all. */
#if defined(MPI_REAL2) || defined(LOOM_MPI)
    CHECK_OPTIONAL(MPI_REAL2, 2);
    CHECK_OPTIONAL(MPI_COMPLEX4, 4);
#endif

    /* Pair types (decision table; on x86-64 it is the C layout):
     *   float_int  {float@0, int@4}        size 8,  extent 8,  true extent 8
     *   double_int {double@0, int@8}       size 12, extent 16 (padded to 8), true extent 12
     *   long_int   {long@0, int@8}         size 12, extent 16, true extent 12
     *   short_int  {short@0, int@4}        size 6,  extent 8,  true extent 8: the int is aligned
     *                                      to 4, so the hole is inside the data, not after it
     *   2int       {int@0, int@4}          size 8,  extent 8,  true extent 8
     *   long_double_int {long double@0, int@16}  size 20, extent 32 (padded to 16), true 20 */
    CHECK_PAIR(MPI_FLOAT_INT, struct float_int, 8, 8, 8);
    CHECK_PAIR(MPI_DOUBLE_INT, struct double_int, 12, 16, 12);
    CHECK_PAIR(MPI_LONG_INT, struct long_int, 12, 16, 12);
    CHECK_PAIR(MPI_SHORT_INT, struct short_int, 6, 8, 8);
    CHECK_PAIR(MPI_2INT, struct two_int, 8, 8, 8);
    CHECK_PAIR(MPI_LONG_DOUBLE_INT, struct long_double_int, 20, 32, 20);
    /* Fortran pairs are two equal members with no padding: REAL 4+4, DOUBLE PRECISION 8+8,
     * INTEGER 4+4. */
    CHECK_BOUNDS(MPI_2REAL, 8, 0, 8, 0, 8);
    CHECK_BOUNDS(MPI_2DOUBLE_PRECISION, 16, 0, 16, 0, 16);
    CHECK_BOUNDS(MPI_2INTEGER, 8, 0, 8, 0, 8);

    /* The markers: no data, no extent (and their own position is 0). */
    CHECK_EMPTY(MPI_LB);
    CHECK_EMPTY(MPI_UB);

    return MTest_Finalize();
}
