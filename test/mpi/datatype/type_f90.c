/*
 * MPI_Type_create_f90_real/complex/integer (MPI 4.1, Fortran support: "Parameterized Datatypes with Specified Precision and Exponent Range"): the smallest kind that
 * SELECTED_REAL_KIND(p, r) / SELECTED_INT_KIND(r) would pick. Expected sizes, by hand:
 *   real:    float  p <= 6,  r <= 37   -> 4 bytes
 *            double p <= 15, r <= 307  -> 8 bytes
 *            long double (x87: p <= 18, IEEE quad: p <= 33; both r <= 4931) -> 16 bytes
 *   complex: twice the real
 *   integer: r <= 2 -> 1, r <= 4 -> 2, r <= 9 -> 4, r <= 18 -> 8, r <= 38 -> 16 bytes
 * Either p or r may be MPI_UNDEFINED, not both. The result is predefined: the same (p, r) gives
 * the same handle, it cannot be freed (MPI_ERR_TYPE), and it decodes as MPI_COMBINER_F90_xxx
 * with integers {p, r} (or {r}), no addresses and no datatypes.
 */
#include <float.h>
#include "mtest.h"

#define U MPI_UNDEFINED

typedef int (*create2_fn)(int, int, MPI_Datatype *);

/* Checks the size, extent, decoding and repeat identity of one f90 type. */
static void check_f90(const char *what, int combiner, int p, int r, int nints, MPI_Datatype t,
                      int want_size)
{
    int size = -1;
    MPI_Aint lb = -1, extent = -1;
    CHECK_MPI(MPI_Type_size(t, &size));
    if (size != want_size)
        MTEST_FAIL("%s(p=%d, r=%d): size %d, expected %d", what, p, r, size, want_size);
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
    CHECK_EQ(lb, 0);
    CHECK_EQ(extent, want_size);

    int ni = -1, na = -1, nd = -1, comb = -1;
    CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
    if (comb != combiner)
        MTEST_FAIL("%s(p=%d, r=%d): combiner %d, expected %d", what, p, r, comb, combiner);
    CHECK_EQ(ni, nints);
    CHECK_EQ(na, 0);
    CHECK_EQ(nd, 0);

    int ints[2] = { -1, -1 };
    MPI_Aint addr[1];
    MPI_Datatype types[1];
    CHECK_MPI(MPI_Type_get_contents(t, 2, 0, 0, ints, addr, types));
    if (nints == 2) {
        CHECK_EQ(ints[0], p);
        CHECK_EQ(ints[1], r);
    } else {
        CHECK_EQ(ints[0], r);
        CHECK_EQ(ints[1], -1);          /* only one integer written */
    }

    /* predefined: committed already, and it cannot be freed */
    MPI_Datatype copy = t;
    CHECK_MPI(MPI_Type_commit(&copy));
    CHECK_ERR(MPI_Type_free(&copy), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_size(t, &size));
    CHECK_EQ(size, want_size);
}

static void real_or_complex(const char *what, create2_fn create, int combiner, int scale)
{
    static const struct { int p, r, size; } cases[] = {
        { 6, U, 4 }, { U, 37, 4 }, { 6, 37, 4 }, { 0, 0, 4 }, { 1, U, 4 }, { -5, U, 4 },
        { 7, U, 8 }, { U, 38, 8 }, { 6, 38, 8 }, { 15, 307, 8 }, { U, 307, 8 }, { 15, U, 8 },
        { 16, U, 16 }, { U, 308, 16 }, { 18, U, 16 }, { U, 4931, 16 }, { 18, 4931, 16 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        MPI_Datatype t = MPI_DATATYPE_NULL, again = MPI_DATATYPE_NULL;
        int p = cases[i].p, r = cases[i].r;
        CHECK_MPI(create(p, r, &t));
        if (t == MPI_DATATYPE_NULL)
            continue;
        check_f90(what, combiner, p, r, 2, t, scale * cases[i].size);
        CHECK_MPI(create(p, r, &again));
        if (again != t)
            MTEST_FAIL("%s(p=%d, r=%d): a second call gave another handle", what, p, r);
    }

    /* no kind has this much precision or range */
    MPI_Datatype t;
    CHECK_ERR(create(U, U, &t), MPI_ERR_ARG);
    CHECK_ERR(create(34, U, &t), MPI_ERR_ARG);
    CHECK_ERR(create(U, 4932, &t), MPI_ERR_ARG);
    CHECK_ERR(create(6, 5000, &t), MPI_ERR_ARG);
#if LDBL_MANT_DIG == 64
    CHECK_ERR(create(19, U, &t), MPI_ERR_ARG);          /* x87 long double: 18 digits at most */
#elif LDBL_MANT_DIG == 113
    CHECK_MPI(create(33, U, &t));                       /* IEEE quad long double */
#endif
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    real_or_complex("real", MPI_Type_create_f90_real, MPI_COMBINER_F90_REAL, 1);
    real_or_complex("complex", MPI_Type_create_f90_complex, MPI_COMBINER_F90_COMPLEX, 2);

    static const struct { int r, size; } ints[] = {
        { 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 2 }, { 4, 2 }, { 5, 4 }, { 9, 4 }, { 10, 8 },
        { 18, 8 }, { 19, 16 }, { 38, 16 }, { -3, 1 },
    };
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        MPI_Datatype t = MPI_DATATYPE_NULL, again = MPI_DATATYPE_NULL;
        CHECK_MPI(MPI_Type_create_f90_integer(ints[i].r, &t));
        if (t == MPI_DATATYPE_NULL)
            continue;
        check_f90("integer", MPI_COMBINER_F90_INTEGER, 0, ints[i].r, 1, t, ints[i].size);
        CHECK_MPI(MPI_Type_create_f90_integer(ints[i].r, &again));
        if (again != t)
            MTEST_FAIL("integer(r=%d): a second call gave another handle", ints[i].r);
    }
    MPI_Datatype t;
    CHECK_ERR(MPI_Type_create_f90_integer(39, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_f90_integer(U, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_f90_integer(5, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_f90_real(6, U, NULL), MPI_ERR_ARG);

    /* Types match only when made with the same (p, r): different arguments give different
     * handles even for the same kind, and none of them is the named type of that kind. */
    MPI_Datatype a, b, c, d;
    CHECK_MPI(MPI_Type_create_f90_real(6, U, &a));
    CHECK_MPI(MPI_Type_create_f90_real(5, U, &b));
    CHECK_MPI(MPI_Type_create_f90_real(6, 37, &c));
    CHECK_MPI(MPI_Type_create_f90_complex(6, U, &d));
    CHECK(a != b && a != c && b != c, "distinct (p, r) must give distinct handles");
    CHECK(a != MPI_REAL4 && a != MPI_FLOAT && a != MPI_REAL, "the f90 type is not a named type");
    CHECK(d != a, "complex and real with the same (p, r) are different types");
    CHECK_MPI(MPI_Type_create_f90_integer(4, &a));
    CHECK_MPI(MPI_Type_create_f90_integer(3, &b));
    CHECK(a != b && a != MPI_INTEGER2 && a != MPI_SHORT, "integer(4) vs integer(3)");

    /* An f90 type works as a building block, and a constructor does not consume it. */
    MPI_Datatype vec;
    int size;
    CHECK_MPI(MPI_Type_create_f90_real(15, U, &a));
    CHECK_MPI(MPI_Type_vector(2, 1, 3, a, &vec));
    CHECK_MPI(MPI_Type_size(vec, &size));
    CHECK_EQ(size, 16);
    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_MPI(MPI_Type_size(a, &size));
    CHECK_EQ(size, 8);

    return MTest_Finalize();
}
