/*
 * A keyval freed while attributes still use it (MPI 4.1, MPI_COMM_FREE_KEYVAL: "it is not erroneous
 * to free an attribute key that is in use ... These references need to be explicitly freed by the
 * program, either via calls to MPI_COMM_DELETE_ATTR that free one attribute instance, or by calls
 * to MPI_COMM_FREE"). With the old handle value:
 *  - MPI_Type_delete_attr / MPI_Comm_delete_attr delete the attribute, running its callback once;
 *  - MPI_Type_get_attr still reads a remaining attribute;
 *  - setting a new attribute or freeing the keyval again is MPI_ERR_KEYVAL;
 * and once the last attribute is gone, the key is gone: every use is MPI_ERR_KEYVAL.
 * (MPICH's attr/fkeyval test deletes attributes of a freed keyval from MPI_COMM_WORLD this way.)
 */
#include "mtest.h"

static int deletes;
static void *deleted_value;

static int type_delete(MPI_Datatype type, int keyval, void *value, void *extra)
{
    deletes++;
    deleted_value = value;
    return MPI_SUCCESS;
}

static int comm_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    deletes++;
    deleted_value = value;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int a = 1, b = 2, c = 3;
    void *val = NULL;
    int flag = -1;

    /* datatypes: the key is used by a derived type and by a predefined one */
    int k;
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_create_keyval(NULL, type_delete, &k, NULL));
    CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_set_attr(vec, k, &a));
    CHECK_MPI(MPI_Type_set_attr(MPI_INT, k, &b));
    int old = k;
    CHECK_MPI(MPI_Type_free_keyval(&k));
    CHECK_EQ(k, MPI_KEYVAL_INVALID);
    CHECK_EQ(deletes, 0);

    CHECK_MPI(MPI_Type_delete_attr(vec, old));
    CHECK_EQ(deletes, 1);
    CHECK(deleted_value == (void *) &a, "deleted %p, expected %p", deleted_value, (void *) &a);
    CHECK_MPI(MPI_Type_delete_attr(vec, old));          /* nothing left on vec: no callback */
    CHECK_EQ(deletes, 1);
    CHECK_MPI(MPI_Type_get_attr(vec, old, &val, &flag));
    CHECK_EQ(flag, 0);
    CHECK_MPI(MPI_Type_get_attr(MPI_INT, old, &val, &flag));
    CHECK_EQ(flag, 1);
    CHECK(val == (void *) &b, "got %p, expected %p", val, (void *) &b);
    CHECK_ERR(MPI_Type_set_attr(vec, old, &c), MPI_ERR_KEYVAL);
    int again = old;
    CHECK_ERR(MPI_Type_free_keyval(&again), MPI_ERR_KEYVAL);
    CHECK_EQ(again, old);

    CHECK_MPI(MPI_Type_delete_attr(MPI_INT, old));      /* the last reference: the key is gone */
    CHECK_EQ(deletes, 2);
    CHECK(deleted_value == (void *) &b, "deleted %p, expected %p", deleted_value, (void *) &b);
    CHECK_ERR(MPI_Type_get_attr(MPI_INT, old, &val, &flag), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Type_delete_attr(MPI_INT, old), MPI_ERR_KEYVAL);
    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_EQ(deletes, 2);

    /* communicators: the case of MPICH's fkeyval test, on MPI_COMM_WORLD */
    int ck;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_delete, &ck, NULL));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, ck, &c));
    int cold = ck;
    CHECK_MPI(MPI_Comm_free_keyval(&ck));
    CHECK_EQ(ck, MPI_KEYVAL_INVALID);
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, cold, &val, &flag));
    CHECK_EQ(flag, 1);
    CHECK(val == (void *) &c, "got %p, expected %p", val, (void *) &c);
    CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, cold));
    CHECK_EQ(deletes, 3);
    CHECK(deleted_value == (void *) &c, "deleted %p, expected %p", deleted_value, (void *) &c);
    CHECK_ERR(MPI_Comm_delete_attr(MPI_COMM_WORLD, cold), MPI_ERR_KEYVAL);

    return MTest_Finalize();
}
