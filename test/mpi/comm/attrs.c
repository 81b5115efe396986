/*
 * Communicator attributes (MPI 4.1, 7.7): copy callbacks run on MPI_Comm_dup with the old handle,
 * the keyval, its extra_state and the value, and decide with flag whether the dup gets the value
 * they produce; delete callbacks run on MPI_Comm_delete_attr, on replacing a value, and on
 * MPI_Comm_free (with the handle still valid, before it becomes MPI_COMM_NULL); a keyval freed
 * while attributes use it keeps working for them; the MPI-1 forms (MPI_Keyval_create,
 * MPI_Attr_put/get/delete) are the same functions; a delete callback that frees its own
 * communicator again fails with MPI_ERR_COMM. Run with 3 processes.
 */
#include "objtest.h"

static int copies, deletes;
static MPI_Comm last_copy_comm, last_delete_comm;
static void *last_deleted;

/* Copies value + 1 (values are ints held in a static table, passed by address). */
static int table[16];

static int incr_copy(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag)
{
    copies++;
    last_copy_comm = oldcomm;
    if (extra != &copies)
        return MPI_ERR_OTHER;
    int *v = in;
    int *next = &table[(v - table) + 1];
    *next = *v + 1;
    *(void **) out = next;
    *flag = 1;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    deletes++;
    last_delete_comm = comm;
    last_deleted = value;
    /* the handle is still valid inside the callback */
    int size;
    return MPI_Comm_size(comm, &size);
}

static int refuse_deletes = 1;

static int failing_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    return refuse_deletes ? MPI_ERR_OTHER : MPI_SUCCESS;
}

/* An erroneous program's delete callback that frees its own communicator again. */
static int self_free_rc = -1;
static int self_freeing_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    self_free_rc = MPI_Comm_free(&comm);
    return MPI_SUCCESS;
}

#define ATTR_IS(comm, key, want) CHECK_ATTR_OF(MPI_Comm_get_attr, comm, key, want)

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int k_incr, k_dup, k_null, k_fail;
    CHECK_MPI(MPI_Comm_create_keyval(incr_copy, count_delete, &k_incr, &copies));
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &k_dup, NULL));
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &k_null, NULL));
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, failing_delete, &k_fail, NULL));

    MPI_Comm a, b, c;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    static int shared = 77, solo = 5;
    table[0] = 10;
    CHECK_MPI(MPI_Comm_set_attr(a, k_incr, &table[0]));
    CHECK_MPI(MPI_Comm_set_attr(a, k_dup, &shared));
    CHECK_MPI(MPI_Comm_set_attr(a, k_null, &solo));
    ATTR_IS(a, k_incr, &table[0]);

    /* 1. dup: incr_copy makes table[1] = 11, MPI_COMM_DUP_FN shares the pointer, the null copy
     *    function drops the attribute */
    CHECK_MPI(MPI_Comm_dup(a, &b));
    CHECK_EQ(copies, 1);
    CHECK(last_copy_comm == a, "copy callback got %#x, expected %#x", (unsigned) last_copy_comm, (unsigned) a);
    ATTR_IS(b, k_incr, &table[1]);
    CHECK_EQ(table[1], 11);
    ATTR_IS(b, k_dup, &shared);
    ATTR_IS(b, k_null, NULL);
    CHECK_MPI(MPI_Comm_dup(b, &c));
    ATTR_IS(c, k_incr, &table[2]);
    CHECK_EQ(table[2], 12);
    CHECK_EQ(copies, 2);

    /* 2. the copies are independent: deleting on b leaves a and c alone */
    CHECK_MPI(MPI_Comm_delete_attr(b, k_incr));
    CHECK_EQ(deletes, 1);
    CHECK(last_delete_comm == b && last_deleted == &table[1], "delete callback got comm %#x value %p",
          (unsigned) last_delete_comm, last_deleted);
    ATTR_IS(b, k_incr, NULL);
    ATTR_IS(a, k_incr, &table[0]);
    ATTR_IS(c, k_incr, &table[2]);
    CHECK_MPI(MPI_Comm_delete_attr(b, k_incr));     /* not set: nothing happens */
    CHECK_EQ(deletes, 1);

    /* 3. replacing a value deletes the old one */
    CHECK_MPI(MPI_Comm_set_attr(c, k_incr, &table[5]));
    CHECK_EQ(deletes, 2);
    CHECK(last_deleted == &table[2], "replaced value %p", last_deleted);
    ATTR_IS(c, k_incr, &table[5]);

    /* 4. a freed keyval: it can no longer be set, but the attributes using it still work and can
     *    still be read (MPI 4.1, MPI_COMM_FREE_KEYVAL: they are freed by delete_attr or comm free) */
    int k_saved = k_incr;
    CHECK_MPI(MPI_Comm_free_keyval(&k_incr));
    CHECK_EQ(k_incr, MPI_KEYVAL_INVALID);
    void *v = NULL;
    int flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(a, k_saved, &v, &flag));
    CHECK(flag && v == &table[0], "attribute of a freed keyval: flag %d value %p", flag, v);
    CHECK_ERR(MPI_Comm_set_attr(a, k_saved, &solo), MPI_ERR_KEYVAL);

    /* 5. free runs the delete callbacks, with the handle still valid; a dup after the keyval was
     *    freed still copies */
    MPI_Comm d;
    CHECK_MPI(MPI_Comm_dup(a, &d));
    CHECK_EQ(copies, 3);
    MPI_Comm d_handle = d;
    CHECK_MPI(MPI_Comm_free(&d));
    CHECK_EQ(deletes, 3);
    CHECK(last_delete_comm == d_handle && last_deleted == &table[1], "free deleted comm %#x value %p",
          (unsigned) last_delete_comm, last_deleted);
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_EQ(deletes, 4);
    CHECK(last_deleted == &table[5], "free of c deleted %p", last_deleted);
    CHECK_MPI(MPI_Comm_free(&a));       /* k_incr's value and k_null's */
    CHECK_EQ(deletes, 6);

    /* 6. a failing delete callback fails MPI_Comm_free and leaves the communicator usable */
    CHECK_MPI(MPI_Comm_set_attr(b, k_fail, &solo));
    CHECK_ERR(MPI_Comm_free(&b), MPI_ERR_OTHER);
    CHECK(b != MPI_COMM_NULL, "failed free reset the handle");
    int size;
    CHECK_MPI(MPI_Comm_size(b, &size));
    ATTR_IS(b, k_fail, &solo);
    CHECK_ERR(MPI_Comm_delete_attr(b, k_fail), MPI_ERR_OTHER);
    CHECK_MPI(MPI_Comm_free_keyval(&k_fail));

    /* 7. MPI-1 forms on the same cache */
    int k_old;
    CHECK_MPI(MPI_Keyval_create(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &k_old, NULL));
    CHECK_MPI(MPI_Attr_put(b, k_old, &shared));
    CHECK_MPI(MPI_Attr_get(b, k_old, &v, &flag));
    CHECK_EQ(flag, 1);
    CHECK(v == &shared, "MPI_Attr_get gave %p", v);
    ATTR_IS(b, k_old, &shared);
    CHECK_MPI(MPI_Attr_delete(b, k_old));
    CHECK_MPI(MPI_Attr_get(b, k_old, &v, &flag));
    CHECK_EQ(flag, 0);
    CHECK_MPI(MPI_Keyval_free(&k_old));
    CHECK_EQ(k_old, MPI_KEYVAL_INVALID);

    /* 8. keyvals of another kind, invalid keyvals */
    int k_type;
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &k_type, NULL));
    CHECK_ERR(MPI_Comm_set_attr(b, k_type, &solo), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Comm_get_attr(b, MPI_KEYVAL_INVALID, &v, &flag), MPI_ERR_KEYVAL);
    CHECK_MPI(MPI_Type_free_keyval(&k_type));

    /* the failing callback's attribute is still on b, its keyval freed but held by the attribute:
     * once the callback agrees, b goes */
    refuse_deletes = 0;
    CHECK_MPI(MPI_Comm_free(&b));
    CHECK(b == MPI_COMM_NULL, "b is %#x after free", (unsigned) b);

    /* A delete callback that frees its communicator again gets MPI_ERR_COMM (going on would
     * destroy the record under the outer MPI_Comm_free); the outer call frees it. */
    int k_self;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_freeing_delete, &k_self, NULL));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    MPI_Comm kept = c;
    CHECK_MPI(MPI_Comm_set_attr(c, k_self, &solo));
    CHECK_MPI(MPI_Comm_free(&c));
    int cls = -1;
    MPI_Error_class(self_free_rc, &cls);
    CHECK_EQ(cls, MPI_ERR_COMM);
    CHECK(c == MPI_COMM_NULL, "c is %#x after free", (unsigned) c);
    CHECK_ERR(MPI_Comm_size(kept, &size), MPI_ERR_COMM);
    CHECK_MPI(MPI_Comm_free_keyval(&k_self));
    CHECK_MPI(MPI_Comm_free_keyval(&k_dup));
    CHECK_MPI(MPI_Comm_free_keyval(&k_null));
    return MTest_Finalize();
}
