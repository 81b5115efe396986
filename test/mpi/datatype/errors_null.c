/*
 * A NULL output pointer, or a NULL input array that should hold count > 0 entries, is answered
 * with MPI_ERR_ARG by every datatype function.
 */
#include "mtest.h"

#define INTS(...) ((int[]) { __VA_ARGS__ })
#define AINTS(...) ((MPI_Aint[]) { __VA_ARGS__ })
#define COUNTS(...) ((MPI_Count[]) { __VA_ARGS__ })
#define TYPES(...) ((MPI_Datatype[]) { __VA_ARGS__ })

static const int B = MPI_DISTRIBUTE_BLOCK, DF = MPI_DISTRIBUTE_DFLT_DARG;

/* newtype == NULL in every constructor */
static void test_null_newtype(void)
{
    CHECK_ERR(MPI_Type_contiguous(2, MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_contiguous_c(2, MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_vector(2, 1, 2, MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_vector_c(2, 1, 2, MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_hvector(2, 1, 8, MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_hvector_c(2, 1, 8, MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_hvector(2, 1, 8, MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_indexed(1, INTS(1), INTS(0), MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_indexed_c(1, COUNTS(1), COUNTS(0), MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_hindexed(1, INTS(1), AINTS(0), MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_hindexed_c(1, COUNTS(1), COUNTS(0), MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_hindexed(1, INTS(1), AINTS(0), MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_indexed_block(1, 1, INTS(0), MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_indexed_block_c(1, 1, COUNTS(0), MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_hindexed_block(1, 1, AINTS(0), MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_hindexed_block_c(1, 1, COUNTS(0), MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_struct(1, INTS(1), AINTS(0), TYPES(MPI_INT), NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_struct_c(1, COUNTS(1), COUNTS(0), TYPES(MPI_INT), NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_struct(1, INTS(1), AINTS(0), TYPES(MPI_INT), NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_subarray(1, INTS(4), INTS(2), INTS(1), MPI_ORDER_C, MPI_INT, NULL),
              MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_subarray_c(1, COUNTS(4), COUNTS(2), COUNTS(1), MPI_ORDER_C, MPI_INT,
                                         NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_darray(1, 0, 1, INTS(4), INTS(B), INTS(DF), INTS(1), MPI_ORDER_C,
                                     MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_darray_c(1, 0, 1, COUNTS(4), INTS(B), INTS(DF), INTS(1), MPI_ORDER_C,
                                       MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_resized(MPI_INT, 0, 8, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_resized_c(MPI_INT, 0, 8, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_dup(MPI_INT, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_f90_real(6, 30, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_f90_complex(6, 30, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_f90_integer(4, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_value_index(MPI_FLOAT, MPI_INT, NULL), MPI_ERR_ARG);
}

/* NULL output pointers of the other functions, on a valid derived type t */
static void test_null_outputs(MPI_Datatype t, int keyval)
{
    MPI_Count c;
    MPI_Aint a;
    int i, flag;
    char name[MPI_MAX_OBJECT_NAME];
    void *val;

    CHECK_ERR(MPI_Type_commit(NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_free(NULL), MPI_ERR_ARG);

    CHECK_ERR(MPI_Type_size(t, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_size_c(t, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_size_x(t, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_extent(t, NULL, &a), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_extent(t, &a, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_extent_c(t, NULL, &c), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_extent_c(t, &c, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_extent_x(t, NULL, &c), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_extent_x(t, &c, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_true_extent(t, NULL, &a), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_true_extent(t, &a, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_true_extent_c(t, NULL, &c), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_true_extent_c(t, &c, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_true_extent_x(t, NULL, &c), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_true_extent_x(t, &c, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_extent(t, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_lb(t, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_ub(t, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Get_address(&i, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Address(&i, NULL), MPI_ERR_ARG);

    CHECK_ERR(MPI_Type_get_envelope(t, NULL, &i, &i, &i), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_envelope(t, &i, NULL, &i, &i), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_envelope(t, &i, &i, NULL, &i), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_envelope(t, &i, &i, &i, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_envelope_c(t, NULL, &c, &c, &c, &i), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_envelope_c(t, &c, NULL, &c, &c, &i), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_envelope_c(t, &c, &c, NULL, &c, &i), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_envelope_c(t, &c, &c, &c, NULL, &i), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_envelope_c(t, &c, &c, &c, &c, NULL), MPI_ERR_ARG);

    CHECK_ERR(MPI_Type_get_name(t, NULL, &i), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_name(t, name, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_set_name(t, NULL), MPI_ERR_ARG);

    CHECK_ERR(MPI_Type_get_attr(t, keyval, NULL, &flag), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_attr(t, keyval, &val, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, NULL, NULL),
              MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_free_keyval(NULL), MPI_ERR_ARG);
}

/* NULL input arrays with count > 0 */
static void test_null_arrays(void)
{
    MPI_Datatype t;

    CHECK_ERR(MPI_Type_indexed(2, NULL, INTS(0, 4), MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_indexed(2, INTS(1, 1), NULL, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_indexed_c(2, NULL, COUNTS(0, 4), MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_indexed_c(2, COUNTS(1, 1), NULL, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_hindexed(2, NULL, AINTS(0, 16), MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_hindexed(2, INTS(1, 1), NULL, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_hindexed_c(2, NULL, COUNTS(0, 16), MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_hindexed_c(2, COUNTS(1, 1), NULL, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_hindexed(2, NULL, AINTS(0, 16), MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_hindexed(2, INTS(1, 1), NULL, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_indexed_block(2, 1, NULL, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_indexed_block_c(2, 1, NULL, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_hindexed_block(2, 1, NULL, MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_hindexed_block_c(2, 1, NULL, MPI_INT, &t), MPI_ERR_ARG);

    CHECK_ERR(MPI_Type_create_struct(2, NULL, AINTS(0, 8), TYPES(MPI_INT, MPI_INT), &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_struct(2, INTS(1, 1), NULL, TYPES(MPI_INT, MPI_INT), &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_struct(2, INTS(1, 1), AINTS(0, 8), NULL, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_struct_c(2, NULL, COUNTS(0, 8), TYPES(MPI_INT, MPI_INT), &t),
              MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_struct_c(2, COUNTS(1, 1), NULL, TYPES(MPI_INT, MPI_INT), &t),
              MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_struct_c(2, COUNTS(1, 1), COUNTS(0, 8), NULL, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_struct(2, NULL, AINTS(0, 8), TYPES(MPI_INT, MPI_INT), &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_struct(2, INTS(1, 1), NULL, TYPES(MPI_INT, MPI_INT), &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_struct(2, INTS(1, 1), AINTS(0, 8), NULL, &t), MPI_ERR_ARG);

    CHECK_ERR(MPI_Type_create_subarray(2, NULL, INTS(2, 2), INTS(0, 0), MPI_ORDER_C, MPI_INT, &t),
              MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_subarray(2, INTS(4, 4), NULL, INTS(0, 0), MPI_ORDER_C, MPI_INT, &t),
              MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_subarray(2, INTS(4, 4), INTS(2, 2), NULL, MPI_ORDER_C, MPI_INT, &t),
              MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_subarray_c(2, NULL, COUNTS(2, 2), COUNTS(0, 0), MPI_ORDER_C, MPI_INT,
                                         &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_subarray_c(2, COUNTS(4, 4), NULL, COUNTS(0, 0), MPI_ORDER_C, MPI_INT,
                                         &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_subarray_c(2, COUNTS(4, 4), COUNTS(2, 2), NULL, MPI_ORDER_C, MPI_INT,
                                         &t), MPI_ERR_ARG);

    CHECK_ERR(MPI_Type_create_darray(1, 0, 1, NULL, INTS(B), INTS(DF), INTS(1), MPI_ORDER_C, MPI_INT,
                                     &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_darray(1, 0, 1, INTS(4), NULL, INTS(DF), INTS(1), MPI_ORDER_C, MPI_INT,
                                     &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_darray(1, 0, 1, INTS(4), INTS(B), NULL, INTS(1), MPI_ORDER_C, MPI_INT,
                                     &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_darray(1, 0, 1, INTS(4), INTS(B), INTS(DF), NULL, MPI_ORDER_C, MPI_INT,
                                     &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_darray_c(1, 0, 1, NULL, INTS(B), INTS(DF), INTS(1), MPI_ORDER_C,
                                       MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_darray_c(1, 0, 1, COUNTS(4), NULL, INTS(DF), INTS(1), MPI_ORDER_C,
                                       MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_darray_c(1, 0, 1, COUNTS(4), INTS(B), NULL, INTS(1), MPI_ORDER_C,
                                       MPI_INT, &t), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_create_darray_c(1, 0, 1, COUNTS(4), INTS(B), INTS(DF), NULL, MPI_ORDER_C,
                                       MPI_INT, &t), MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    MPI_Datatype t;
    int keyval;

    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &keyval, NULL));
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &t));

    test_null_newtype();
    test_null_outputs(t, keyval);
    test_null_outputs(MPI_DOUBLE, keyval);
    test_null_arrays();

    CHECK_MPI(MPI_Type_free(&t));
    CHECK_MPI(MPI_Type_free_keyval(&keyval));
    return MTest_Finalize();
}
