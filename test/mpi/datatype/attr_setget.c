/*
 * MPI_Type_set_attr / MPI_Type_get_attr / MPI_Type_delete_attr on derived and predefined types:
 *  - a key never set gives flag = 0;
 *  - the value is a pointer stored as-is (get returns the very pointer, even one that is not an
 *    address), and get's attribute_val argument is the address of a void *;
 *  - set again replaces the value; delete removes it; deleting a key not set is harmless;
 *  - keys are independent, and so are objects (MPI_INT's attribute is not MPI_FLOAT's);
 *  - NULL flag pointer (MPI_ERR_ARG), null or freed datatype (MPI_ERR_TYPE).
 */
#include "mtest.h"
#include <stdint.h>

/* Checks that type holds value want under key (want NULL: holds nothing). */
#define CHECK_ATTR(type, key, want) do { \
        void *got_ = (void *) &mtest_errs; int flag_ = -1; \
        CHECK_MPI(MPI_Type_get_attr((type), (key), &got_, &flag_)); \
        if ((want) == NULL) CHECK_EQ(flag_, 0); \
        else { CHECK_EQ(flag_, 1); CHECK(got_ == (void *) (want), "got %p, expected %p", got_, (void *) (want)); } \
    } while (0)

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int ka, kb;
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &ka, NULL));
    CHECK_MPI(MPI_Type_create_keyval(NULL, NULL, &kb, NULL));

    MPI_Datatype vec, vec2;
    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_contiguous(2, MPI_DOUBLE, &vec2));

    int x = 1, y = 2;
    void *odd = (void *) (intptr_t) 12345;      /* not an address: stored as-is */

    /* derived type */
    CHECK_ATTR(vec, ka, NULL);
    CHECK_MPI(MPI_Type_set_attr(vec, ka, &x));
    CHECK_ATTR(vec, ka, &x);
    CHECK_ATTR(vec, kb, NULL);
    CHECK_ATTR(vec2, ka, NULL);
    CHECK_MPI(MPI_Type_set_attr(vec, kb, odd));
    CHECK_ATTR(vec, kb, odd);
    CHECK_ATTR(vec, ka, &x);
    CHECK_MPI(MPI_Type_set_attr(vec, ka, &y));
    CHECK_ATTR(vec, ka, &y);
    CHECK_ATTR(vec, kb, odd);
    CHECK_MPI(MPI_Type_delete_attr(vec, ka));
    CHECK_ATTR(vec, ka, NULL);
    CHECK_ATTR(vec, kb, odd);
    CHECK_MPI(MPI_Type_delete_attr(vec, ka));     /* not set: nothing happens */
    CHECK_ATTR(vec, ka, NULL);
    CHECK_MPI(MPI_Type_set_attr(vec, ka, NULL));  /* NULL is a value like any other */
    {
        void *got = &x;
        int flag = 0;
        CHECK_MPI(MPI_Type_get_attr(vec, ka, &got, &flag));
        CHECK_EQ(flag, 1);
        CHECK(got == NULL, "got %p, expected NULL", got);
    }

    /* a committed type behaves the same */
    CHECK_MPI(MPI_Type_commit(&vec2));
    CHECK_MPI(MPI_Type_set_attr(vec2, kb, &y));
    CHECK_ATTR(vec2, kb, &y);
    CHECK_ATTR(vec, kb, odd);

    /* predefined types carry attributes of their own */
    CHECK_ATTR(MPI_INT, ka, NULL);
    CHECK_MPI(MPI_Type_set_attr(MPI_INT, ka, &x));
    CHECK_MPI(MPI_Type_set_attr(MPI_FLOAT, ka, &y));
    CHECK_ATTR(MPI_INT, ka, &x);
    CHECK_ATTR(MPI_FLOAT, ka, &y);
    CHECK_ATTR(MPI_DOUBLE, ka, NULL);
    CHECK_ATTR(MPI_INT, kb, NULL);
    CHECK_MPI(MPI_Type_delete_attr(MPI_INT, ka));
    CHECK_ATTR(MPI_INT, ka, NULL);
    CHECK_ATTR(MPI_FLOAT, ka, &y);
    CHECK_MPI(MPI_Type_set_attr(MPI_2INT, kb, odd));   /* a pair type too */
    CHECK_ATTR(MPI_2INT, kb, odd);
    CHECK_MPI(MPI_Type_set_attr(MPI_UB, kb, &x));      /* and a marker */
    CHECK_ATTR(MPI_UB, kb, &x);

    /* errors */
    void *val = NULL;
    int flag = 0;
    CHECK_ERR(MPI_Type_get_attr(vec, ka, &val, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_attr(MPI_DATATYPE_NULL, ka, &val, &flag), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_set_attr(MPI_DATATYPE_NULL, ka, &x), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_delete_attr(MPI_DATATYPE_NULL, ka), MPI_ERR_TYPE);
    MPI_Datatype gone = vec2;
    CHECK_MPI(MPI_Type_free(&vec2));
    CHECK_ERR(MPI_Type_set_attr(gone, ka, &x), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_attr(gone, kb, &val, &flag), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_delete_attr(gone, kb), MPI_ERR_TYPE);

    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_MPI(MPI_Type_free_keyval(&ka));
    CHECK_MPI(MPI_Type_free_keyval(&kb));
    return MTest_Finalize();
}
