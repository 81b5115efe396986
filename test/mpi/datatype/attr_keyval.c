/*
 * Datatype keyvals (MPI 4.1, "Caching"): MPI_Type_create_keyval / MPI_Type_free_keyval.
 *  - create gives distinct valid keyvals, with any mix of NULL and predefined callbacks;
 *  - free sets the caller's variable to MPI_KEYVAL_INVALID;
 *  - errors (MPI_ERR_KEYVAL): freeing twice, using a freed keyval (its old value kept in a copy),
 *    MPI_KEYVAL_INVALID, a made-up int, a predefined communicator keyval (MPI_TAG_UB);
 *  - NULL keyval pointer (MPI_ERR_ARG).
 * A new keyval never takes the handle of a freed one, so stale handles stay detectable.
 */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int k1 = MPI_KEYVAL_INVALID, k2 = MPI_KEYVAL_INVALID, k3 = MPI_KEYVAL_INVALID;
    int extra = 0;
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &k1, NULL));
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, NULL, &k2, &extra));
    CHECK_MPI(MPI_Type_create_keyval(NULL, NULL, &k3, NULL));
    CHECK(k1 != MPI_KEYVAL_INVALID && k2 != MPI_KEYVAL_INVALID && k3 != MPI_KEYVAL_INVALID,
          "k1=%#x k2=%#x k3=%#x", k1, k2, k3);
    CHECK(k1 != k2 && k2 != k3 && k1 != k3, "k1=%#x k2=%#x k3=%#x", k1, k2, k3);

    /* each new keyval is usable at once */
    int flag = -1;
    void *val = NULL;
    CHECK_MPI(MPI_Type_get_attr(MPI_INT, k3, &val, &flag));
    CHECK_EQ(flag, 0);

    /* free: the variable becomes MPI_KEYVAL_INVALID; the old value is now invalid */
    int old2 = k2;
    CHECK_MPI(MPI_Type_free_keyval(&k2));
    CHECK_EQ(k2, MPI_KEYVAL_INVALID);
    int again = old2;
    CHECK_ERR(MPI_Type_free_keyval(&again), MPI_ERR_KEYVAL);
    CHECK_EQ(again, old2);   /* a failed free leaves the variable alone */
    CHECK_ERR(MPI_Type_set_attr(MPI_INT, old2, &extra), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Type_get_attr(MPI_INT, old2, &val, &flag), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Type_delete_attr(MPI_INT, old2), MPI_ERR_KEYVAL);

    /* a new keyval does not reuse the freed handle */
    int k4 = MPI_KEYVAL_INVALID;
    CHECK_MPI(MPI_Type_create_keyval(NULL, NULL, &k4, NULL));
    CHECK(k4 != old2 && k4 != k1 && k4 != k3, "k4=%#x old2=%#x", k4, old2);
    CHECK_ERR(MPI_Type_get_attr(MPI_INT, old2, &val, &flag), MPI_ERR_KEYVAL);

    /* handles that never were datatype keyvals */
    int bad = MPI_KEYVAL_INVALID;
    CHECK_ERR(MPI_Type_free_keyval(&bad), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Type_set_attr(MPI_INT, MPI_KEYVAL_INVALID, &extra), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Type_get_attr(MPI_INT, MPI_KEYVAL_INVALID, &val, &flag), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Type_delete_attr(MPI_INT, MPI_KEYVAL_INVALID), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Type_get_attr(MPI_INT, 12345, &val, &flag), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Type_get_attr(MPI_INT, MPI_TAG_UB, &val, &flag), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Type_set_attr(MPI_INT, MPI_TAG_UB, &extra), MPI_ERR_KEYVAL);
    bad = MPI_TAG_UB;
    CHECK_ERR(MPI_Type_free_keyval(&bad), MPI_ERR_KEYVAL);

    /* NULL pointers */
    CHECK_ERR(MPI_Type_create_keyval(NULL, NULL, NULL, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_free_keyval(NULL), MPI_ERR_ARG);

    CHECK_MPI(MPI_Type_free_keyval(&k1));
    CHECK_MPI(MPI_Type_free_keyval(&k3));
    CHECK_MPI(MPI_Type_free_keyval(&k4));
    CHECK_EQ(k1, MPI_KEYVAL_INVALID);
    CHECK_EQ(k3, MPI_KEYVAL_INVALID);
    CHECK_EQ(k4, MPI_KEYVAL_INVALID);
    return MTest_Finalize();
}
