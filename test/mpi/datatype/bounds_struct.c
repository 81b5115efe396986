/*
 * Size and bounds of MPI_Type_create_struct (and MPI_Type_struct): alignment padding, nesting,
 * resized children, MPI_LB/MPI_UB markers (also nested inside vectors), empty entries.
 *
 * Struct rules (MPI 4.1, 5.1 and 5.1.7, with the project's decisions):
 *   - lb = min over the lower-bound markers if any entry has one (MPI_LB, a resized type, or a
 *     child containing either), else min over the data; ub likewise with upper-bound markers.
 *     Markers win: data below the lb marker or above the ub marker does not move the bounds.
 *   - Padding (epsilon): only when no entry carries an upper-bound marker, the extent ub - lb is
 *     rounded up to a multiple of the largest natural alignment of the basic types inside
 *     (x86-64: char 1, short 2, int/float 4, long/double/pointers 8, long double 16, complex
 *     types that of their component, pair types that of their larger member). An lb marker alone
 *     does not stop the padding.
 *   - An entry with an empty type map (blocklength 0, or an empty type) contributes nothing: no
 *     bounds, no alignment.
 * The true bounds ignore markers and padding. Sizes: char 1, short 2, int 4, double 8, long
 * double 16.
 */
#include <complex.h>
#include <stddef.h>
#include <wchar.h>
#include "bounds.h"

#define MAXN 6

/* A struct case with predefined types only: entries, then the expected bounds. */
typedef struct {
    int line;
    int n;
    int bl[MAXN];
    MPI_Aint disp[MAXN];
    MPI_Datatype types[MAXN];
    MPI_Count size, lb, extent, true_lb, true_extent;
} scase;

/* Builds and checks a case through both constructors: the MPI-1 MPI_Type_struct must agree. */
static void run_case(const scase *c)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    scase v = *c;   /* MPI-1 prototypes (MPICH's) take non-const arrays */
    CHECK_MPI(MPI_Type_create_struct(c->n, c->bl, c->disp, c->types, &t));
    bounds_check(c->line, "MPI_Type_create_struct", t, c->size, c->lb, c->extent, c->true_lb,
                 c->true_extent);
    MPI_Type_free(&t);
    CHECK_MPI(MPI_Type_struct(v.n, v.bl, v.disp, v.types, &t));
    bounds_check(c->line, "MPI_Type_struct", t, c->size, c->lb, c->extent, c->true_lb,
                 c->true_extent);
    MPI_Type_free(&t);
}

/* struct over the given entries (create_struct) */
static MPI_Datatype mkstruct(int n, const int *bl, const MPI_Aint *disp, const MPI_Datatype *types)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK_MPI(MPI_Type_create_struct(n, bl, disp, types, &t));
    return t;
}

/* {a@0, b@db}, one each */
static MPI_Datatype pair2(MPI_Datatype a, MPI_Datatype b, MPI_Aint db)
{
    int bl[2] = { 1, 1 };
    MPI_Aint disp[2] = { 0, db };
    MPI_Datatype types[2] = { a, b };
    return mkstruct(2, bl, disp, types);
}

/* CHECK_PAIR2(a, b, db, size, lb, extent, true_lb, true_extent): checks pair2(a, b, db) as
 * CHECK_BOUNDS does, and frees it. */
#define CHECK_PAIR2(a, b, db, ...) do { \
        MPI_Datatype p_ = pair2(a, b, db); \
        bounds_check(__LINE__, "pair2(" #a ", " #b ", " #db ")", p_, __VA_ARGS__); \
        MPI_Type_free(&p_); \
    } while (0)

#define ROUND_UP(n, a) (((n) + (a) - 1) / (a) * (a))

static const scase padding[] = {
    /* {double@0, char@8}: data [0, 9), 9 rounded to 8 -> 16 (= sizeof(struct {double; char;})) */
    { __LINE__, 2, { 1, 1 }, { 0, 8 }, { MPI_DOUBLE, MPI_CHAR }, 9, 0, 16, 0, 9 },
    /* {char@0, double@1}, packed displacements: data [0, 9) -> extent 16 */
    { __LINE__, 2, { 1, 1 }, { 0, 1 }, { MPI_CHAR, MPI_DOUBLE }, 9, 0, 16, 0, 9 },
    /* {char@0, double@8}, the C layout: data [0, 16), already a multiple of 8 */
    { __LINE__, 2, { 1, 1 }, { 0, 8 }, { MPI_CHAR, MPI_DOUBLE }, 9, 0, 16, 0, 16 },
    /* {long double@0, int@16, char@20}: data [0, 21), align 16 -> 32 */
    { __LINE__, 3, { 1, 1, 1 }, { 0, 16, 20 }, { MPI_LONG_DOUBLE, MPI_INT, MPI_CHAR },
      21, 0, 32, 0, 21 },
    /* {int@0, char@4, long double@16}, the C layout: data [0, 32) */
    { __LINE__, 3, { 1, 1, 1 }, { 0, 4, 16 }, { MPI_INT, MPI_CHAR, MPI_LONG_DOUBLE },
      21, 0, 32, 0, 32 },
    /* {short@0, char@2}: 3 -> 4 */
    { __LINE__, 2, { 1, 1 }, { 0, 2 }, { MPI_SHORT, MPI_CHAR }, 3, 0, 4, 0, 3 },
    /* chars only: alignment 1, no padding */
    { __LINE__, 3, { 1, 1, 1 }, { 0, 1, 2 }, { MPI_CHAR, MPI_CHAR, MPI_CHAR }, 3, 0, 3, 0, 3 },
    /* blocklengths: 3 ints then a char: data [0, 13) -> 16 */
    { __LINE__, 2, { 3, 1 }, { 0, 12 }, { MPI_INT, MPI_CHAR }, 13, 0, 16, 0, 13 },
    /* negative lb: {double@-8, char@0}: [-8, 1), extent 9 -> 16, so ub = 8 */
    { __LINE__, 2, { 1, 1 }, { -8, 0 }, { MPI_DOUBLE, MPI_CHAR }, 9, -8, 16, -8, 9 },
    /* the extent is rounded, not the ub: {char@-1, int@0}: [-1, 4), 5 -> 8, ub = 7 */
    { __LINE__, 2, { 1, 1 }, { -1, 0 }, { MPI_CHAR, MPI_INT }, 5, -1, 8, -1, 5 },
    /* pair types align as their larger member: {MPI_SHORT_INT@0, char@8}: [0, 9), align 4 -> 12;
     * {MPI_DOUBLE_INT@0, char@16}: [0, 17), align 8 -> 24 */
    { __LINE__, 2, { 1, 1 }, { 0, 8 }, { MPI_SHORT_INT, MPI_CHAR }, 7, 0, 12, 0, 9 },
    { __LINE__, 2, { 1, 1 }, { 0, 16 }, { MPI_DOUBLE_INT, MPI_CHAR }, 13, 0, 24, 0, 17 },
};

static const scase markers[] = {
    /* {LB@-8, int@0, int@4, UB@16}: the markers are the bounds, data [0, 8) */
    { __LINE__, 4, { 1, 1, 1, 1 }, { -8, 0, 4, 16 }, { MPI_LB, MPI_INT, MPI_INT, MPI_UB },
      8, -8, 24, 0, 8 },
    /* {LB@-3, int@0}: lb -3; no ub marker, so ub = 4 plus padding: extent 7 -> 8, ub 5.
     * (MPICH 4.0.2 does not pad once a marker is present: extent 7.) */
    { __LINE__, 2, { 1, 1 }, { -3, 0 }, { MPI_LB, MPI_INT }, 4, -3, 8, 0, 4 },
    /* {int@0, int@4, UB@4}: ub marker below the data end: extent 4, true extent 8 */
    { __LINE__, 3, { 1, 1, 1 }, { 0, 4, 4 }, { MPI_INT, MPI_INT, MPI_UB }, 8, 0, 4, 0, 8 },
    /* {int@0, LB@4, int@8}: lb marker above some data: [4, 12), 8 is a multiple of 4 */
    { __LINE__, 3, { 1, 1, 1 }, { 0, 4, 8 }, { MPI_INT, MPI_LB, MPI_INT }, 8, 4, 8, 0, 12 },
    /* several markers: lb = min(2, -6), ub = max(10, 3). (MPICH 4.0.2 takes the last marker of
     * each kind instead of the min/max: ub 3 here.) */
    { __LINE__, 5, { 1, 1, 1, 1, 1 }, { 2, -6, 0, 10, 3 },
      { MPI_LB, MPI_LB, MPI_CHAR, MPI_UB, MPI_UB }, 1, -6, 16, 0, 1 },
    /* markers only: bounds [-4, 12), no data: true bounds 0, 0 (decision) */
    { __LINE__, 2, { 1, 1 }, { -4, 12 }, { MPI_LB, MPI_UB }, 0, -4, 16, 0, 0 },
    /* 3 copies of MPI_UB (extent 0) all at 8 */
    { __LINE__, 2, { 3, 1 }, { 8, 0 }, { MPI_UB, MPI_INT }, 4, 0, 8, 0, 4 },
    /* {UB@0, double@0, char@8}: ub marker 0, lb 0: extent 0 and no padding (explicit ub) */
    { __LINE__, 3, { 1, 1, 1 }, { 0, 0, 8 }, { MPI_UB, MPI_DOUBLE, MPI_CHAR }, 9, 0, 0, 0, 9 },
    /* {UB@0, double@8}: no lb marker, so lb is the least displacement of ALL entries, the ub
     * marker's included (MPI 4.1 5.1.7: "min_j disp_j if no entry has basic type lb"): lb 0,
     * ub 0, extent 0. (MPICH 4.0.2 ignores the ub marker here and answers lb 8, extent -8.) */
    { __LINE__, 2, { 1, 1 }, { 0, 8 }, { MPI_UB, MPI_DOUBLE }, 8, 0, 0, 8, 8 },
    /* lb marker only, padding still applies: {LB@-2, char@0, double@8}: [-2, 16),
     * 18 -> 24, ub 22 (MPICH 4.0.2: extent 18) */
    { __LINE__, 3, { 1, 1, 1 }, { -2, 0, 8 }, { MPI_LB, MPI_CHAR, MPI_DOUBLE }, 9, -2, 24, 0, 16 },
    /* zero copies of MPI_LB are no marker at all: [0, 4) (MPICH 4.0.2: lb -100) */
    { __LINE__, 2, { 0, 1 }, { -100, 0 }, { MPI_LB, MPI_INT }, 4, 0, 4, 0, 4 },
};

static const scase empties[] = {
    /* a zero-length double at 8 places nothing, not even its alignment: [0, 1) */
    { __LINE__, 2, { 1, 0 }, { 0, 8 }, { MPI_CHAR, MPI_DOUBLE }, 1, 0, 1, 0, 1 },
    /* count 0 */
    { __LINE__, 0, { 0 }, { 0 }, { MPI_INT }, 0, 0, 0, 0, 0 },
    /* only zero-length entries */
    { __LINE__, 2, { 0, 0 }, { 8, -8 }, { MPI_INT, MPI_DOUBLE }, 0, 0, 0, 0, 0 },
};

/* The alignment of every basic type: {T@0, char@sizeof(T)} has data [0, n + 1), rounded to
 * align(T). For C types that is the C layout of struct {T t; char c;}. */
typedef struct {
    MPI_Datatype type;
    const char *name;
    int size, align;
} aligncase;

#define C_ALIGN(mpitype, ctype) { mpitype, #mpitype, sizeof(ctype), _Alignof(ctype) }

struct float_int { float v; int i; };
struct double_int { double v; int i; };
struct long_int { long v; int i; };
struct short_int { short v; int i; };
struct long_double_int { long double v; int i; };

static void alignment_cases(void)
{
    const aligncase cases[] = {
        C_ALIGN(MPI_CHAR, char), C_ALIGN(MPI_SIGNED_CHAR, signed char),
        C_ALIGN(MPI_UNSIGNED_CHAR, unsigned char), C_ALIGN(MPI_BYTE, unsigned char),
        C_ALIGN(MPI_PACKED, unsigned char), C_ALIGN(MPI_WCHAR, wchar_t),
        C_ALIGN(MPI_SHORT, short), C_ALIGN(MPI_UNSIGNED_SHORT, unsigned short),
        C_ALIGN(MPI_INT, int), C_ALIGN(MPI_UNSIGNED, unsigned), C_ALIGN(MPI_LONG, long),
        C_ALIGN(MPI_UNSIGNED_LONG, unsigned long), C_ALIGN(MPI_LONG_LONG, long long),
        C_ALIGN(MPI_UNSIGNED_LONG_LONG, unsigned long long), C_ALIGN(MPI_FLOAT, float),
        C_ALIGN(MPI_DOUBLE, double), C_ALIGN(MPI_LONG_DOUBLE, long double),
        C_ALIGN(MPI_C_BOOL, _Bool), C_ALIGN(MPI_INT8_T, int8_t), C_ALIGN(MPI_INT16_T, int16_t),
        C_ALIGN(MPI_INT32_T, int32_t), C_ALIGN(MPI_INT64_T, int64_t),
        C_ALIGN(MPI_UINT8_T, uint8_t), C_ALIGN(MPI_UINT16_T, uint16_t),
        C_ALIGN(MPI_UINT32_T, uint32_t), C_ALIGN(MPI_UINT64_T, uint64_t),
        C_ALIGN(MPI_AINT, MPI_Aint), C_ALIGN(MPI_COUNT, MPI_Count), C_ALIGN(MPI_OFFSET, MPI_Offset),
        C_ALIGN(MPI_C_FLOAT_COMPLEX, float _Complex), C_ALIGN(MPI_C_DOUBLE_COMPLEX, double _Complex),
        C_ALIGN(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex),
        /* C++ types: bool 1; std::complex<T> aligns as T */
        { MPI_CXX_BOOL, "MPI_CXX_BOOL", 1, 1 },
        { MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX", 8, 4 },
        { MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX", 16, 8 },
        { MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX", 32, 16 },
        /* Fortran: natural alignment of the kind; COMPLEX aligns as its REAL component */
        { MPI_CHARACTER, "MPI_CHARACTER", 1, 1 }, { MPI_LOGICAL, "MPI_LOGICAL", 4, 4 },
        { MPI_INTEGER, "MPI_INTEGER", 4, 4 }, { MPI_REAL, "MPI_REAL", 4, 4 },
        { MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8, 8 },
        { MPI_COMPLEX, "MPI_COMPLEX", 8, 4 }, { MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", 16, 8 },
        { MPI_INTEGER1, "MPI_INTEGER1", 1, 1 }, { MPI_INTEGER2, "MPI_INTEGER2", 2, 2 },
        { MPI_INTEGER4, "MPI_INTEGER4", 4, 4 }, { MPI_INTEGER8, "MPI_INTEGER8", 8, 8 },
        { MPI_REAL4, "MPI_REAL4", 4, 4 }, { MPI_REAL8, "MPI_REAL8", 8, 8 },
        { MPI_COMPLEX8, "MPI_COMPLEX8", 8, 4 }, { MPI_COMPLEX16, "MPI_COMPLEX16", 16, 8 },
        /* optional 16-byte kinds (__int128, __float128 align to 16); MPICH 4.0.2 leaves
         * INTEGER16 MPI_DATATYPE_NULL and does not pad after REAL16/COMPLEX32 (extents 17, 33) */
        { MPI_INTEGER16, "MPI_INTEGER16", 16, 16 }, { MPI_REAL16, "MPI_REAL16", 16, 16 },
        { MPI_COMPLEX32, "MPI_COMPLEX32", 32, 16 },
#if defined(MPI_REAL2) || defined(LOOM_MPI)
        { MPI_REAL2, "MPI_REAL2", 2, 2 }, { MPI_COMPLEX4, "MPI_COMPLEX4", 4, 2 },
#endif
        /* pair types: extent as the C struct, alignment of the larger member */
        { MPI_FLOAT_INT, "MPI_FLOAT_INT", 8, 4 }, { MPI_DOUBLE_INT, "MPI_DOUBLE_INT", 16, 8 },
        { MPI_LONG_INT, "MPI_LONG_INT", 16, 8 }, { MPI_SHORT_INT, "MPI_SHORT_INT", 8, 4 },
        { MPI_2INT, "MPI_2INT", 8, 4 }, { MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", 32, 16 },
        { MPI_2REAL, "MPI_2REAL", 8, 4 }, { MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", 16, 8 },
        { MPI_2INTEGER, "MPI_2INTEGER", 8, 4 },
    };
    /* the pair rows agree with the C layout of {pair; char} */
    CHECK_EQ(ROUND_UP(sizeof(struct double_int) + 1, _Alignof(struct double_int)), 24);
    CHECK_EQ(ROUND_UP(sizeof(struct short_int) + 1, _Alignof(struct short_int)), 12);
    CHECK_EQ(ROUND_UP(sizeof(struct long_double_int) + 1, _Alignof(struct long_double_int)), 48);
    CHECK_EQ(ROUND_UP(sizeof(struct float_int) + 1, _Alignof(struct float_int)), 12);
    CHECK_EQ(ROUND_UP(sizeof(struct long_int) + 1, _Alignof(struct long_int)), 24);

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const aligncase *c = &cases[i];
        MPI_Aint lb, extent;
        MPI_Datatype t;
        if (c->type == MPI_DATATYPE_NULL) {
#ifdef LOOM_MPI
            CHECK(0, "%s is MPI_DATATYPE_NULL", c->name);
#endif
            continue;
        }
        t = pair2(c->type, MPI_CHAR, c->size);
        CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
        if (lb != 0 || extent != ROUND_UP(c->size + 1, c->align))
            MTEST_FAIL("{%s@0, char@%d}: lb %ld extent %ld, expected 0 and %d", c->name, c->size,
                       (long) lb, (long) extent, ROUND_UP(c->size + 1, c->align));
        MPI_Type_free(&t);
    }
}

/* Padding through nesting: a child's padding is part of its extent; its alignment propagates.
 * (MPICH 4.0.2 does not pad the struct around the unpadded hvector below: extent 9.) */
static void nested_cases(void)
{
    MPI_Datatype s1, t, v;

    /* S1 = {double@0, char@8}: extent 16, data [0, 9) */
    s1 = pair2(MPI_DOUBLE, MPI_CHAR, 8);
    {
        /* {S1 x2 @0, char@32}: copies [0,16) [16,32), char [32,33): 33 -> 40; data up to 33 */
        int bl[2] = { 2, 1 };
        MPI_Aint disp[2] = { 0, 32 };
        MPI_Datatype types[2] = { s1, MPI_CHAR };
        t = mkstruct(2, bl, disp, types);
        CHECK_BOUNDS(t, 19, 0, 40, 0, 33);
        MPI_Type_free(&t);
    }
    /* {char@0, S1@8}: S1 spans [8, 24): extent 24; data up to 8 + 9 = 17 */
    CHECK_PAIR2(MPI_CHAR, s1, 8, 10, 0, 24, 0, 17);
    /* {char@0, S1@1}: S1 spans [1, 17): 17 -> 24 (S1's double alignment); data up to 10 */
    CHECK_PAIR2(MPI_CHAR, s1, 1, 10, 0, 24, 0, 10);
    MPI_Type_free(&s1);

    /* {long double@0} alone: [0, 16). {char@0, that@1}: [0, 17), alignment 16 from inside -> 32 */
    {
        int bl[1] = { 1 };
        MPI_Aint disp[1] = { 0 };
        MPI_Datatype types[1] = { MPI_LONG_DOUBLE };
        s1 = mkstruct(1, bl, disp, types);
        CHECK_BOUNDS(s1, 16, 0, 16, 0, 16);
        CHECK_PAIR2(MPI_CHAR, s1, 1, 17, 0, 32, 0, 17);
        MPI_Type_free(&s1);
    }

    /* a vector child: shorts at 0 and 4 ([0, 6)); {V@0, char@6}: 7 -> 8 (alignment 2) */
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_SHORT, &v));
    CHECK_PAIR2(v, MPI_CHAR, 6, 5, 0, 8, 0, 7);
    MPI_Type_free(&v);

    /* a struct around an unpadded vector pads it: hvector(2, 1, 1, DOUBLE) = [0, 9) unpadded;
     * struct {H@0} = [0, 9) rounded to 8 -> 16 */
    {
        int bl[1] = { 1 };
        MPI_Aint disp[1] = { 0 };
        MPI_Datatype types[1];
        CHECK_MPI(MPI_Type_create_hvector(2, 1, 1, MPI_DOUBLE, &v));
        types[0] = v;
        t = mkstruct(1, bl, disp, types);
        CHECK_BOUNDS(t, 16, 0, 16, 0, 9);
        MPI_Type_free(&t);
        MPI_Type_free(&v);
    }
}

/* Resized children carry explicit lb and ub markers (decision, the standard's definition of
 * MPI_Type_create_resized): they win over data and stop the padding. MPICH 4.0.2 treats a resized
 * child like any other (its lb/ub are min'ed/max'ed with the data and the struct is padded), so
 * every case here differs there. */
static void resized_child_cases(void)
{
    MPI_Datatype r, t;

    /* R = resized(INT, 0, 5): markers at 0 and 5.
     * {R@0, char@8}: lb 0, ub 5 (the char beyond the marker does not count); data [0, 9) */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 5, &r));
    CHECK_PAIR2(r, MPI_CHAR, 8, 5, 0, 5, 0, 9);
    /* {R@0, char@-4}: still [0, 5); data [-4, 4) */
    CHECK_PAIR2(r, MPI_CHAR, -4, 5, 0, 5, -4, 8);
    MPI_Type_free(&r);

    /* R2 = resized(DOUBLE, 0, 8): {char@0, R2@1}: the only lb marker is R2's, at 1: [1, 9),
     * extent 8, no padding; data [0, 9) */
    CHECK_MPI(MPI_Type_create_resized(MPI_DOUBLE, 0, 8, &r));
    CHECK_PAIR2(MPI_CHAR, r, 1, 9, 1, 8, 0, 9);
    {
        /* {R2 x2 @0, char@16}: copies at 0 and 8, ub marker 16; char [16, 17) beyond it */
        int bl[2] = { 2, 1 };
        MPI_Aint disp[2] = { 0, 16 };
        MPI_Datatype types[2] = { r, MPI_CHAR };
        t = mkstruct(2, bl, disp, types);
        CHECK_BOUNDS(t, 17, 0, 16, 0, 17);
        MPI_Type_free(&t);
    }
    MPI_Type_free(&r);

    /* R3 = resized(CHAR, 0, 3): {double@0, R3@8}: the markers are R3's, [8, 11), extent 3,
     * although a double lies at [0, 8) */
    CHECK_MPI(MPI_Type_create_resized(MPI_CHAR, 0, 3, &r));
    CHECK_PAIR2(MPI_DOUBLE, r, 8, 9, 8, 3, 0, 9);
    MPI_Type_free(&r);

    /* Z = resized(contiguous(0, INT), -2, 10): no data but markers at -2 and 8, so not empty.
     * {char@0, Z@100}: Z's markers win: [98, 108); data [0, 1) */
    {
        MPI_Datatype e;
        CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &e));
        CHECK_MPI(MPI_Type_create_resized(e, -2, 10, &r));
        CHECK_BOUNDS(r, 0, -2, 10, 0, 0);
        CHECK_PAIR2(MPI_CHAR, r, 100, 1, 98, 10, 0, 1);
        MPI_Type_free(&r);
        MPI_Type_free(&e);
    }
}

/* Markers stay markers inside vectors, contiguous and hindexed types, and win again in an
 * enclosing struct. M = {LB@-4, int@0, UB@12}: [-4, 12), extent 16, data [0, 4).
 * MPICH 4.0.2 honours MPI_LB/MPI_UB only as direct entries of a struct: a child's markers are
 * min'ed/max'ed with the data of the enclosing struct, so the struct cases here differ there. */
static void nested_marker_cases(void)
{
    MPI_Datatype m, v, t;
    {
        int bl[3] = { 1, 1, 1 };
        MPI_Aint disp[3] = { -4, 0, 12 };
        MPI_Datatype types[3] = { MPI_LB, MPI_INT, MPI_UB };
        m = mkstruct(3, bl, disp, types);
        CHECK_BOUNDS(m, 4, -4, 16, 0, 4);
    }

    /* vector(3, 1, 2, M): copies at 0, 32, 64: markers -4 .. 64 + 12 = 76; data [0, 68) */
    CHECK_MPI(MPI_Type_vector(3, 1, 2, m, &v));
    CHECK_BOUNDS(v, 12, -4, 80, 0, 68);
    /* {V@0, double@100}: V's markers win, the double at [100, 108) is outside: [-4, 76);
     * data [0, 108) */
    CHECK_PAIR2(v, MPI_DOUBLE, 100, 20, -4, 80, 0, 108);
    MPI_Type_free(&v);

    /* negative stride: vector(2, 1, -1, M): copies at 0 and -16: lb markers -4, -20;
     * ub markers 12, -4: [-20, 12); data [-16, 4) */
    CHECK_NEW_BOUNDS(v, MPI_Type_vector(2, 1, -1, m, &v), 8, -20, 32, -16, 20);

    /* {contiguous(2, M)@0, char@-10}: copies at 0 and 16 give markers [-4, 28); the char has
     * none; data [-10, -9) [0, 4) [16, 20) */
    CHECK_MPI(MPI_Type_contiguous(2, m, &v));
    CHECK_PAIR2(v, MPI_CHAR, -10, 9, -4, 32, -10, 30);
    MPI_Type_free(&v);

    /* hindexed({1, 1}, {0, 100}, M): copies at 0 and 100: [-4, 112); data [0, 104) */
    {
        int bl[2] = { 1, 1 };
        MPI_Aint disp[2] = { 0, 100 };
        CHECK_NEW_BOUNDS(v, MPI_Type_create_hindexed(2, bl, disp, m, &v), 8, -4, 116, 0, 104);
    }

    /* {M x2 @0, UB@100}: lb -4 from M, ub = max(16 + 12, 100) = 100; data [0, 20) */
    {
        int bl[2] = { 2, 1 };
        MPI_Aint disp[2] = { 0, 100 };
        MPI_Datatype types[2] = { m, MPI_UB };
        t = mkstruct(2, bl, disp, types);
        CHECK_BOUNDS(t, 8, -4, 104, 0, 20);
        MPI_Type_free(&t);
    }

    /* {M@0, int@-20}: [-4, 12) from M's markers; data [-20, 4) */
    CHECK_PAIR2(m, MPI_INT, -20, 8, -4, 16, -20, 24);
    MPI_Type_free(&m);

    /* L = {LB@-2, char@0}: [-2, 1) (alignment 1). {L@0, double@8}: lb marker -2, no ub marker:
     * [-2, 16), 18 -> 24 (padding), ub 22; data [0, 16). MPICH 4.0.2 gives extent 18. */
    {
        int bl[2] = { 1, 1 };
        MPI_Aint disp[2] = { -2, 0 };
        MPI_Datatype types[2] = { MPI_LB, MPI_CHAR };
        m = mkstruct(2, bl, disp, types);
        CHECK_BOUNDS(m, 1, -2, 3, 0, 1);
        CHECK_PAIR2(m, MPI_DOUBLE, 8, 9, -2, 24, 0, 16);
        /* markers from two sources: {L@0, UB@5, double@8}: lb -2 from L, ub 5 from MPI_UB,
         * no padding (explicit ub): [-2, 5), data [0, 16) */
        {
            int bl3[3] = { 1, 1, 1 };
            MPI_Aint disp3[3] = { 0, 5, 8 };
            MPI_Datatype types3[3] = { m, MPI_UB, MPI_DOUBLE };
            t = mkstruct(3, bl3, disp3, types3);
            CHECK_BOUNDS(t, 9, -2, 7, 0, 16);
            MPI_Type_free(&t);
        }
        MPI_Type_free(&m);
    }
}

/* Entries with an empty type map contribute nothing (decision). MPICH 4.0.2 differs: it counts
 * an empty type's position (e.g. {char@0, contiguous(0, INT)@100} has extent 100 there). */
static void empty_child_cases(void)
{
    MPI_Datatype e, t;
    CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &e));

    /* {char@0, E@100}: [0, 1) */
    CHECK_PAIR2(MPI_CHAR, e, 100, 1, 0, 1, 0, 1);
    /* {E@-50, char@10} (E first, so it is not at displacement 0): [10, 11) */
    {
        int bl[2] = { 1, 1 };
        MPI_Aint disp[2] = { -50, 10 };
        MPI_Datatype types[2] = { e, MPI_CHAR };
        t = mkstruct(2, bl, disp, types);
        CHECK_BOUNDS(t, 1, 10, 1, 10, 1);
        MPI_Type_free(&t);
    }
    /* {E@100} alone: empty */
    {
        int bl[1] = { 3 };
        MPI_Aint disp[1] = { 100 };
        MPI_Datatype types[1] = { e };
        t = mkstruct(1, bl, disp, types);
        CHECK_EMPTY(t);
        MPI_Type_free(&t);
    }
    MPI_Type_free(&e);
}

int main(int argc, char **argv)
{
    bounds_init(&argc, &argv);

    for (size_t i = 0; i < sizeof(padding) / sizeof(padding[0]); i++)
        run_case(&padding[i]);
    for (size_t i = 0; i < sizeof(markers) / sizeof(markers[0]); i++)
        run_case(&markers[i]);
    for (size_t i = 0; i < sizeof(empties) / sizeof(empties[0]); i++)
        run_case(&empties[i]);
    alignment_cases();
    nested_cases();
    resized_child_cases();
    nested_marker_cases();
    empty_child_cases();

    return MTest_Finalize();
}
