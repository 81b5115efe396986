/*
 * Attribute delete callbacks (MPI 4.1, "Caching"): the callback gets the type's handle, the
 * keyval, the stored value and the keyval's extra_state, and runs exactly once per value
 *  - on MPI_Type_delete_attr,
 *  - on MPI_Type_set_attr over an existing value (with the old value),
 *  - on MPI_Type_free, for every attribute still attached (derived and dup'ed types),
 * and never for a key that holds nothing. A keyval freed while attached stays alive for its
 * values: they are still copied by MPI_Type_dup and deleted by MPI_Type_free, with the keyval's
 * old handle; the user can still read them, but not set new ones (attr_freed_keyval.c tests
 * MPI_Type_delete_attr with such a handle).
 */
#include "objtest.h"

static int logging_delete(MPI_Datatype type, int keyval, void *value, void *extra_state)
{
    return attr_log_call((long long) type, keyval, value, extra_state);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int a = 1, b = 2, c = 3, x1 = 0, x2 = 0;
    int k1, k2, k_nodel;
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, logging_delete, &k1, &x1));
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, logging_delete, &k2, &x2));
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, NULL, &k_nodel, NULL));

    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(2, 2, 4, MPI_FLOAT, &vec));

    /* delete_attr */
    CHECK_MPI(MPI_Type_set_attr(vec, k1, &a));
    CHECK_EQ(attr_ncalls, 0);
    CHECK_MPI(MPI_Type_delete_attr(vec, k1));
    CHECK_EQ(attr_ncalls, 1);
    CHECK_CALL(0, vec, k1, &a, &x1);
    CHECK_MPI(MPI_Type_delete_attr(vec, k1));     /* nothing attached: no call */
    CHECK_EQ(attr_ncalls, 1);

    /* set over an existing value deletes the old one; a first set deletes nothing */
    CHECK_MPI(MPI_Type_set_attr(vec, k1, &a));
    CHECK_EQ(attr_ncalls, 1);
    CHECK_MPI(MPI_Type_set_attr(vec, k1, &b));
    CHECK_EQ(attr_ncalls, 2);
    CHECK_CALL(1, vec, k1, &a, &x1);
    CHECK_MPI(MPI_Type_set_attr(vec, k1, &b));    /* the same value again still counts as a new set */
    CHECK_EQ(attr_ncalls, 3);
    CHECK_CALL(2, vec, k1, &b, &x1);

    /* predefined type */
    CHECK_MPI(MPI_Type_set_attr(MPI_CHAR, k2, &c));
    CHECK_MPI(MPI_Type_delete_attr(MPI_CHAR, k2));
    CHECK_EQ(attr_ncalls, 4);
    CHECK_CALL(3, MPI_CHAR, k2, &c, &x2);

    /* a NULL delete callback: set, overwrite, delete work and call nothing */
    CHECK_MPI(MPI_Type_set_attr(vec, k_nodel, &a));
    CHECK_MPI(MPI_Type_set_attr(vec, k_nodel, &c));
    CHECK_MPI(MPI_Type_delete_attr(vec, k_nodel));
    CHECK_MPI(MPI_Type_set_attr(vec, k_nodel, &a));
    CHECK_EQ(attr_ncalls, 4);

    /* type free: every attribute still attached is deleted, in any order */
    MPI_Datatype dup, vec_handle = vec;
    CHECK_MPI(MPI_Type_set_attr(vec, k2, &c));
    CHECK_MPI(MPI_Type_dup(vec, &dup));            /* dup gets k1=&b, k2=&c, k_nodel=&a */
    CHECK_EQ(attr_ncalls, 4);
    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_EQ(attr_ncalls, 6);
    int i1 = attr_find_call(4, vec_handle, k1, &b), i2 = attr_find_call(4, vec_handle, k2, &c);
    CHECK(i1 >= 0 && i2 >= 0, "free(vec) calls: k1 at %d, k2 at %d", i1, i2);
    if (i1 >= 0)
        CHECK_CALL(i1, vec_handle, k1, &b, &x1);
    if (i2 >= 0)
        CHECK_CALL(i2, vec_handle, k2, &c, &x2);

    /* a keyval freed while attached: its values live on and can be read, not set */
    int old_k1 = k1;
    CHECK_MPI(MPI_Type_free_keyval(&k1));
    CHECK_EQ(k1, MPI_KEYVAL_INVALID);
    void *val = NULL;
    int flag = -1;
    CHECK_MPI(MPI_Type_get_attr(dup, old_k1, &val, &flag));
    CHECK_EQ(flag, 1);
    CHECK(val == (void *) &b, "val %p, expected %p", val, (void *) &b);
    CHECK_ERR(MPI_Type_set_attr(dup, old_k1, &a), MPI_ERR_KEYVAL);
    CHECK_EQ(attr_ncalls, 6);
    MPI_Datatype dup2, dup_handle = dup;
    CHECK_MPI(MPI_Type_dup(dup, &dup2));           /* k1's value is still copied (MPI_TYPE_DUP_FN) */
    MPI_Datatype dup2_handle = dup2;
    CHECK_MPI(MPI_Type_free(&dup));
    CHECK_EQ(attr_ncalls, 8);
    i1 = attr_find_call(6, dup_handle, old_k1, &b);
    i2 = attr_find_call(6, dup_handle, k2, &c);
    CHECK(i1 >= 0 && i2 >= 0, "free(dup) calls: k1 at %d, k2 at %d", i1, i2);
    if (i1 >= 0)
        CHECK_CALL(i1, dup_handle, old_k1, &b, &x1);
    CHECK_MPI(MPI_Type_free(&dup2));
    CHECK_EQ(attr_ncalls, 10);
    i1 = attr_find_call(8, dup2_handle, old_k1, &b);
    CHECK(i1 >= 0, "free(dup2) did not delete the freed keyval's value");

    /* the freed keyval's handle is not given to a new keyval */
    int k3;
    CHECK_MPI(MPI_Type_create_keyval(NULL, NULL, &k3, NULL));
    CHECK(k3 != old_k1, "k3 = %#x reuses the freed keyval", k3);

    CHECK_MPI(MPI_Type_free_keyval(&k2));
    CHECK_MPI(MPI_Type_free_keyval(&k3));
    CHECK_MPI(MPI_Type_free_keyval(&k_nodel));
    CHECK_EQ(attr_ncalls, 10);
    return MTest_Finalize();
}
