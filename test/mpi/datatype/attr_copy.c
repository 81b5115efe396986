/*
 * Attribute copy callbacks on MPI_Type_dup (MPI 4.1, "Caching"):
 *  - the callback gets the old type's handle, the keyval, the keyval's extra_state and the stored
 *    value, and runs once per attribute;
 *  - flag = 1 attaches the value it wrote to the new type; flag = 0 attaches nothing;
 *  - MPI_TYPE_DUP_FN copies the value, MPI_TYPE_NULL_COPY_FN and a NULL callback do not;
 *  - the copy is independent of the original afterwards;
 *  - attributes of a predefined type are copied to its dup.
 */
#include "objtest.h"

typedef struct {
    int calls;
    MPI_Datatype oldtype;
    int keyval;
    void *extra;
    void *in;
    int keep;       /* what the callback answers in *flag */
    void *out;      /* what it stores when keeping */
} Copy_log;

static int logging_copy(MPI_Datatype oldtype, int keyval, void *extra_state, void *in, void *out, int *flag)
{
    Copy_log *log = extra_state;
    log->calls++;
    log->oldtype = oldtype;
    log->keyval = keyval;
    log->extra = extra_state;
    log->in = in;
    *flag = log->keep;
    if (log->keep)
        *(void **) out = log->out;
    return MPI_SUCCESS;
}

/* Checks that type holds value want under key (want NULL: holds nothing). */
#define CHECK_ATTR(type, key, want) CHECK_ATTR_OF(MPI_Type_get_attr, type, key, want)

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int a = 1, b = 2, c = 3, d = 4, e = 5;
    Copy_log keep = { .keep = 1, .out = &e }, drop = { .keep = 0, .out = &e };
    int k_keep, k_drop, k_dup, k_null, k_none;
    CHECK_MPI(MPI_Type_create_keyval(logging_copy, NULL, &k_keep, &keep));
    CHECK_MPI(MPI_Type_create_keyval(logging_copy, NULL, &k_drop, &drop));
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &k_dup, NULL));
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &k_null, NULL));
    CHECK_MPI(MPI_Type_create_keyval(NULL, NULL, &k_none, NULL));

    MPI_Datatype vec, dup, dup2;
    CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_SHORT, &vec));
    CHECK_MPI(MPI_Type_set_attr(vec, k_keep, &a));
    CHECK_MPI(MPI_Type_set_attr(vec, k_drop, &b));
    CHECK_MPI(MPI_Type_set_attr(vec, k_dup, &c));
    CHECK_MPI(MPI_Type_set_attr(vec, k_null, &d));
    CHECK_MPI(MPI_Type_set_attr(vec, k_none, &d));

    CHECK_MPI(MPI_Type_dup(vec, &dup));

    /* each logging callback ran once, with the old type, its keyval, its extra_state, its value */
    CHECK_EQ(keep.calls, 1);
    CHECK_EQ(keep.oldtype, vec);
    CHECK_EQ(keep.keyval, k_keep);
    CHECK(keep.extra == &keep, "extra_state %p, expected %p", keep.extra, (void *) &keep);
    CHECK(keep.in == &a, "attribute_val_in %p, expected %p", keep.in, (void *) &a);
    CHECK_EQ(drop.calls, 1);
    CHECK_EQ(drop.oldtype, vec);
    CHECK_EQ(drop.keyval, k_drop);
    CHECK(drop.extra == &drop, "extra_state %p, expected %p", drop.extra, (void *) &drop);
    CHECK(drop.in == &b, "attribute_val_in %p, expected %p", drop.in, (void *) &b);

    /* the new type holds what the callbacks decided */
    CHECK_ATTR(dup, k_keep, &e);
    CHECK_ATTR(dup, k_drop, NULL);
    CHECK_ATTR(dup, k_dup, &c);
    CHECK_ATTR(dup, k_null, NULL);
    CHECK_ATTR(dup, k_none, NULL);
    /* and the old type is unchanged */
    CHECK_ATTR(vec, k_keep, &a);
    CHECK_ATTR(vec, k_drop, &b);
    CHECK_ATTR(vec, k_dup, &c);
    CHECK_ATTR(vec, k_null, &d);
    CHECK_ATTR(vec, k_none, &d);

    /* independent afterwards */
    CHECK_MPI(MPI_Type_set_attr(dup, k_dup, &a));
    CHECK_ATTR(vec, k_dup, &c);
    CHECK_MPI(MPI_Type_delete_attr(vec, k_keep));
    CHECK_ATTR(dup, k_keep, &e);

    /* dup of the dup: the callbacks see the dup as the old type */
    keep.out = &d;
    CHECK_MPI(MPI_Type_dup(dup, &dup2));
    CHECK_EQ(keep.calls, 2);
    CHECK_EQ(keep.oldtype, dup);
    CHECK(keep.in == &e, "attribute_val_in %p, expected %p", keep.in, (void *) &e);
    CHECK_EQ(drop.calls, 1);     /* dup has no k_drop attribute */
    CHECK_ATTR(dup2, k_keep, &d);
    CHECK_ATTR(dup2, k_dup, &a);

    /* a type without attributes dups without calling anything */
    MPI_Datatype plain, plain_dup;
    CHECK_MPI(MPI_Type_contiguous(4, MPI_CHAR, &plain));
    CHECK_MPI(MPI_Type_dup(plain, &plain_dup));
    CHECK_EQ(keep.calls, 2);
    CHECK_ATTR(plain_dup, k_keep, NULL);

    /* predefined old type */
    MPI_Datatype int_dup;
    keep.out = &b;
    CHECK_MPI(MPI_Type_set_attr(MPI_INT, k_keep, &c));
    CHECK_MPI(MPI_Type_set_attr(MPI_INT, k_dup, &d));
    CHECK_MPI(MPI_Type_dup(MPI_INT, &int_dup));
    CHECK_EQ(keep.calls, 3);
    CHECK_EQ(keep.oldtype, MPI_INT);
    CHECK(keep.in == &c, "attribute_val_in %p, expected %p", keep.in, (void *) &c);
    CHECK_ATTR(int_dup, k_keep, &b);
    CHECK_ATTR(int_dup, k_dup, &d);
    CHECK_ATTR(MPI_INT, k_keep, &c);
    CHECK_MPI(MPI_Type_delete_attr(MPI_INT, k_keep));
    CHECK_MPI(MPI_Type_delete_attr(MPI_INT, k_dup));

    MPI_Type_free(&int_dup);
    MPI_Type_free(&plain_dup);
    MPI_Type_free(&plain);
    MPI_Type_free(&dup2);
    MPI_Type_free(&dup);
    MPI_Type_free(&vec);
    MPI_Type_free_keyval(&k_keep);
    MPI_Type_free_keyval(&k_drop);
    MPI_Type_free_keyval(&k_dup);
    MPI_Type_free_keyval(&k_null);
    MPI_Type_free_keyval(&k_none);
    return MTest_Finalize();
}
