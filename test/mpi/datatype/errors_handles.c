/*
 * Invalid datatype handles are answered with MPI_ERR_TYPE by every datatype function, never by a
 * crash: MPI_DATATYPE_NULL, garbage ints, handles of another class, a freed handle, a live
 * handle with a wrong generation. Predefined types cannot be freed (MPI_ERR_TYPE) and named ones
 * cannot be decoded (MPI_ERR_TYPE); MPI_Type_get_name on MPI_DATATYPE_NULL works.
 */
#include "mtest.h"

static int keyval;

#define INTS(...) ((int[]) { __VA_ARGS__ })
#define AINTS(...) ((MPI_Aint[]) { __VA_ARGS__ })
#define COUNTS(...) ((MPI_Count[]) { __VA_ARGS__ })
#define TYPES(...) ((MPI_Datatype[]) { __VA_ARGS__ })

/* Every function taking a datatype rejects bad with MPI_ERR_TYPE. */
static void check_all_reject(const char *what, MPI_Datatype bad)
{
    MPI_Datatype t = MPI_DATATYPE_NULL, copy;
    MPI_Count cnt;
    MPI_Aint lb, ext;
    int size, len, ni, na, nd, comb, flag, ints[4];
    MPI_Count cni, cna, cnc, cnd, counts[4];
    MPI_Aint addrs[4];
    MPI_Datatype types[4];
    char name[MPI_MAX_OBJECT_NAME];
    void *val;
    const int B = MPI_DISTRIBUTE_BLOCK, DF = MPI_DISTRIBUTE_DFLT_DARG;
    int errs_before = mtest_errs;

    /* constructors, bad as oldtype */
    CHECK_ERR(MPI_Type_contiguous(2, bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_contiguous_c(2, bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_vector(2, 1, 3, bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_vector_c(2, 1, 3, bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_hvector(2, 1, 16, bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_hvector_c(2, 1, 16, bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_hvector(2, 1, 16, bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_indexed(2, INTS(1, 1), INTS(0, 4), bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_indexed_c(2, COUNTS(1, 1), COUNTS(0, 4), bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_hindexed(2, INTS(1, 1), AINTS(0, 16), bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_hindexed_c(2, COUNTS(1, 1), COUNTS(0, 16), bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_hindexed(2, INTS(1, 1), AINTS(0, 16), bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_indexed_block(2, 1, INTS(0, 4), bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_indexed_block_c(2, 1, COUNTS(0, 4), bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_hindexed_block(2, 1, AINTS(0, 16), bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_hindexed_block_c(2, 1, COUNTS(0, 16), bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_struct(3, INTS(1, 1, 1), AINTS(0, 8, 16), TYPES(MPI_INT, bad, MPI_INT),
                                     &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_struct_c(3, COUNTS(1, 1, 1), COUNTS(0, 8, 16),
                                       TYPES(MPI_INT, MPI_INT, bad), &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_struct(2, INTS(1, 1), AINTS(0, 8), TYPES(bad, MPI_INT), &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_subarray(2, INTS(4, 4), INTS(2, 2), INTS(0, 1), MPI_ORDER_C, bad, &t),
              MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_subarray_c(2, COUNTS(4, 4), COUNTS(2, 2), COUNTS(0, 1), MPI_ORDER_C,
                                         bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_darray(2, 0, 1, INTS(8), INTS(B), INTS(DF), INTS(2), MPI_ORDER_C, bad,
                                     &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_darray_c(2, 0, 1, COUNTS(8), INTS(B), INTS(DF), INTS(2), MPI_ORDER_C,
                                       bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_resized(bad, 0, 8, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_resized_c(bad, 0, 8, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_dup(bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_value_index(bad, MPI_INT, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_value_index(MPI_FLOAT, bad, &t), MPI_ERR_TYPE);

    /* commit and free */
    copy = bad;
    CHECK_ERR(MPI_Type_commit(&copy), MPI_ERR_TYPE);
    copy = bad;
    CHECK_ERR(MPI_Type_free(&copy), MPI_ERR_TYPE);

    /* queries */
    CHECK_ERR(MPI_Type_size(bad, &size), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_size_c(bad, &cnt), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_size_x(bad, &cnt), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_extent(bad, &lb, &ext), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_extent_c(bad, &cnt, &cnt), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_extent_x(bad, &cnt, &cnt), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_true_extent(bad, &lb, &ext), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_true_extent_c(bad, &cnt, &cnt), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_true_extent_x(bad, &cnt, &cnt), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_extent(bad, &ext), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_lb(bad, &lb), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_ub(bad, &lb), MPI_ERR_TYPE);

    /* packing (MPI_Pack and MPI_Unpack hand the record they checked to the engine) */
    char packed[64], data[64];
    int pos = 0;
    MPI_Count cpos = 0;
    MPI_Aint apos = 0;
    CHECK_ERR(MPI_Pack(data, 1, bad, packed, 64, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Pack_c(data, 1, bad, packed, 64, &cpos, MPI_COMM_WORLD), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Unpack(packed, 64, &pos, data, 1, bad, MPI_COMM_WORLD), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Unpack_c(packed, 64, &cpos, data, 1, bad, MPI_COMM_WORLD), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Pack_size(1, bad, MPI_COMM_WORLD, &size), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Pack_external("external32", data, 1, bad, packed, 64, &apos), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Unpack_external("external32", packed, 64, &apos, data, 1, bad), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Pack_external_size("external32", 1, bad, &apos), MPI_ERR_TYPE);
    CHECK(pos == 0 && cpos == 0 && apos == 0, "a rejected pack or unpack moved the position");

    /* decoding */
    CHECK_ERR(MPI_Type_get_envelope(bad, &ni, &na, &nd, &comb), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_envelope_c(bad, &cni, &cna, &cnc, &cnd, &comb), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_contents(bad, 4, 4, 4, ints, addrs, types), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_contents_c(bad, 4, 4, 4, 4, ints, addrs, counts, types), MPI_ERR_TYPE);

    /* names and attributes (MPI_Type_get_name accepts MPI_DATATYPE_NULL) */
    if (bad != MPI_DATATYPE_NULL)
        CHECK_ERR(MPI_Type_get_name(bad, name, &len), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_set_name(bad, "bad"), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_set_attr(bad, keyval, NULL), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_attr(bad, keyval, &val, &flag), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_delete_attr(bad, keyval), MPI_ERR_TYPE);

    if (mtest_errs > errs_before)
        fprintf(stderr, "  (the failures above were for %s, handle %#x)\n", what, (unsigned) bad);
}

static void test_bad_handles(void)
{
    MPI_Datatype t, live;

    check_all_reject("MPI_DATATYPE_NULL", MPI_DATATYPE_NULL);
    check_all_reject("12345", (MPI_Datatype) 12345);
    check_all_reject("-1", (MPI_Datatype) -1);
    check_all_reject("0", (MPI_Datatype) 0);
    check_all_reject("0x8c0fffff (allocated kind, last index)", (MPI_Datatype) 0x8c0fffff);
    check_all_reject("0x8c000000 (allocated kind, index 0)", (MPI_Datatype) 0x8c000000);
    check_all_reject("0x7fffffff", (MPI_Datatype) 0x7fffffff);
    check_all_reject("(int) 0x80000000", (MPI_Datatype) INT32_MIN);
    check_all_reject("a communicator", (MPI_Datatype) MPI_COMM_WORLD);
    check_all_reject("an error handler", (MPI_Datatype) MPI_ERRORS_RETURN);
    /* Handles that look like predefined types but are not one. */
    check_all_reject("MPI_INT with a wrong size field", (MPI_Datatype) (MPI_INT ^ 0x0c00));
    check_all_reject("builtin kind, index 0xff", (MPI_Datatype) ((MPI_INT & ~0xff) | 0xff));

    /* A freed handle. */
    CHECK_MPI(MPI_Type_vector(2, 2, 3, MPI_DOUBLE, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    MPI_Datatype freed = t;
    CHECK_MPI(MPI_Type_free(&t));
    check_all_reject("a freed handle", freed);

    /* A live handle with another generation: the same slot, not the same object. */
    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &live));
    check_all_reject("live handle + 1 generation", (MPI_Datatype) ((unsigned) live ^ (1u << 20)));
    int size = -1;
    CHECK_MPI(MPI_Type_size(live, &size));      /* the real one is unharmed */
    CHECK_EQ(size, 12);
    CHECK_MPI(MPI_Type_free(&live));
}

/* Predefined types, named or not, cannot be freed, and still work afterwards. */
static void test_free_predefined(void)
{
    const MPI_Datatype named[] = {
        MPI_INT, MPI_CHAR, MPI_DOUBLE, MPI_BYTE, MPI_PACKED, MPI_LB, MPI_UB, MPI_FLOAT_INT,
        MPI_2INT, MPI_AINT, MPI_COUNT, MPI_C_DOUBLE_COMPLEX, MPI_INT64_T, MPI_REAL8,
    };
    for (size_t k = 0; k < sizeof named / sizeof named[0]; k++) {
        MPI_Datatype t = named[k];
        CHECK_ERR(MPI_Type_free(&t), MPI_ERR_TYPE);
    }
    int size = -1;
    CHECK_MPI(MPI_Type_size(MPI_INT, &size));
    CHECK_EQ(size, 4);
    CHECK_MPI(MPI_Type_size(MPI_FLOAT_INT, &size));
    CHECK_EQ(size, 8);

    MPI_Datatype f, g;
    CHECK_MPI(MPI_Type_create_f90_real(6, 30, &f));
    g = f;
    CHECK_ERR(MPI_Type_free(&g), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_size(f, &size));
    CHECK_EQ(size, 4);

    /* A predefined type handed out by get_contents is the predefined type itself. */
    MPI_Datatype v, d[1];
    int ints[3];
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_SHORT, &v));
    CHECK_MPI(MPI_Type_get_contents(v, 3, 0, 1, ints, NULL, d));
    CHECK(d[0] == MPI_SHORT, "decoded child %#x is not MPI_SHORT", (unsigned) d[0]);
    CHECK_ERR(MPI_Type_free(&d[0]), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_free(&v));
}

/* Named types have no contents. */
static void test_contents_of_named(void)
{
    const MPI_Datatype named[] = { MPI_INT, MPI_LB, MPI_FLOAT_INT, MPI_PACKED };
    int ints[4];
    MPI_Aint addrs[4];
    MPI_Count counts[4];
    MPI_Datatype types[4];
    for (size_t k = 0; k < sizeof named / sizeof named[0]; k++) {
        CHECK_ERR(MPI_Type_get_contents(named[k], 4, 4, 4, ints, addrs, types), MPI_ERR_TYPE);
        CHECK_ERR(MPI_Type_get_contents_c(named[k], 4, 4, 4, 4, ints, addrs, counts, types),
                  MPI_ERR_TYPE);
    }
}

static void test_name_of_null(void)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_MPI(MPI_Type_get_name(MPI_DATATYPE_NULL, name, &len));
    CHECK(len >= 0 && len < MPI_MAX_OBJECT_NAME && (int) strlen(name) == len,
          "name of MPI_DATATYPE_NULL: len %d", len);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &keyval, NULL));

    test_bad_handles();
    test_free_predefined();
    test_contents_of_named();
    test_name_of_null();

    CHECK_MPI(MPI_Type_free_keyval(&keyval));
    return MTest_Finalize();
}
