/*
 * Attribute callbacks that fail (MPI 4.1, "Caching": a callback's error makes the call that ran
 * it fail). The call returns the callback's error class; a value that is no MPI error code becomes
 * MPI_ERR_OTHER; an error code returned by an MPI call inside the callback keeps its class.
 *  - copy callback failing: MPI_Type_dup fails, the old type keeps its attributes, and newtype is
 *    MPI_DATATYPE_NULL (the standard leaves it unspecified; MPICH's attr/attrerrtype test wants this);
 *  - delete callback failing: MPI_Type_delete_attr fails and the attribute stays;
 *    MPI_Type_set_attr over it fails and the old value stays; MPI_Type_free fails and the type
 *    stays valid, and can be freed once the callback agrees;
 *  - a delete callback that frees its own type again (an erroneous program): that inner
 *    MPI_Type_free fails with MPI_ERR_TYPE, the outer one frees the type, and nothing is touched
 *    after it is gone (AddressSanitizer's run).
 */
#include "mtest.h"

static int copy_rc, delete_rc, copies, deletes;

static int failing_copy(MPI_Datatype oldtype, int keyval, void *extra, void *in, void *out, int *flag)
{
    copies++;
    *flag = 1;
    *(void **) out = in;
    return copy_rc;
}

static int failing_delete(MPI_Datatype type, int keyval, void *value, void *extra)
{
    deletes++;
    return delete_rc;
}

/* Returns the error code of a failed MPI call (of class MPI_ERR_TYPE). */
static int nested_error_delete(MPI_Datatype type, int keyval, void *value, void *extra)
{
    deletes++;
    int size;
    return MPI_Type_size(MPI_DATATYPE_NULL, &size);
}

static int self_free_rc = -1;
static int self_freeing_delete(MPI_Datatype type, int keyval, void *value, void *extra)
{
    deletes++;
    self_free_rc = MPI_Type_free(&type);
    return MPI_SUCCESS;
}

/* Checks that type holds value want under key. */
#define CHECK_ATTR(type, key, want) do { \
        void *got_ = NULL; int flag_ = -1; \
        CHECK_MPI(MPI_Type_get_attr((type), (key), &got_, &flag_)); \
        CHECK_EQ(flag_, 1); \
        CHECK(got_ == (void *) (want), "got %p, expected %p", got_, (void *) (want)); \
    } while (0)

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int a = 1, b = 2;
    int kc, kd, kn;
    CHECK_MPI(MPI_Type_create_keyval(failing_copy, NULL, &kc, NULL));
    CHECK_MPI(MPI_Type_create_keyval(NULL, failing_delete, &kd, NULL));
    CHECK_MPI(MPI_Type_create_keyval(NULL, nested_error_delete, &kn, NULL));

    MPI_Datatype vec, dup = MPI_DATATYPE_NULL;
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &vec));

    /* copy callback failures */
    CHECK_MPI(MPI_Type_set_attr(vec, kc, &a));
    copy_rc = MPI_ERR_NO_SPACE;
    dup = vec;
    CHECK_ERR(MPI_Type_dup(vec, &dup), MPI_ERR_NO_SPACE);
    CHECK_EQ(copies, 1);
    CHECK_EQ(dup, MPI_DATATYPE_NULL);
    copy_rc = 12345;                  /* not an error code */
    CHECK_ERR(MPI_Type_dup(vec, &dup), MPI_ERR_OTHER);
    CHECK_EQ(copies, 2);
    copy_rc = -1;
    CHECK_ERR(MPI_Type_dup(vec, &dup), MPI_ERR_OTHER);
    CHECK_ATTR(vec, kc, &a);
    copy_rc = MPI_SUCCESS;
    CHECK_MPI(MPI_Type_dup(vec, &dup));
    CHECK_EQ(copies, 4);
    CHECK_ATTR(dup, kc, &a);
    CHECK_MPI(MPI_Type_free(&dup));

    /* delete callback failures */
    CHECK_MPI(MPI_Type_set_attr(vec, kd, &a));
    delete_rc = MPI_ERR_ACCESS;
    CHECK_ERR(MPI_Type_delete_attr(vec, kd), MPI_ERR_ACCESS);
    CHECK_EQ(deletes, 1);
    CHECK_ATTR(vec, kd, &a);
    CHECK_ERR(MPI_Type_set_attr(vec, kd, &b), MPI_ERR_ACCESS);
    CHECK_EQ(deletes, 2);
    CHECK_ATTR(vec, kd, &a);
    delete_rc = 1000;
    CHECK_ERR(MPI_Type_delete_attr(vec, kd), MPI_ERR_OTHER);
    CHECK_ATTR(vec, kd, &a);

    /* MPI_Type_free fails and leaves the type usable */
    delete_rc = MPI_ERR_ACCESS;
    MPI_Datatype keep = vec;
    CHECK_ERR(MPI_Type_free(&vec), MPI_ERR_ACCESS);
    CHECK_EQ(vec, keep);
    int size = 0;
    CHECK_MPI(MPI_Type_size(vec, &size));
    CHECK_EQ(size, 2 * (int) sizeof(int));
    CHECK_ATTR(vec, kd, &a);

    /* an MPI error code passed on from inside the callback keeps its class */
    CHECK_MPI(MPI_Type_set_attr(MPI_INT, kn, &b));
    int before = deletes;
    CHECK_ERR(MPI_Type_delete_attr(MPI_INT, kn), MPI_ERR_TYPE);
    CHECK_EQ(deletes, before + 1);
    CHECK_ATTR(MPI_INT, kn, &b);

    /* once the callback succeeds, everything goes */
    delete_rc = MPI_SUCCESS;
    before = deletes;
    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_EQ(vec, MPI_DATATYPE_NULL);
    CHECK_EQ(deletes, before + 1);
    CHECK_ERR(MPI_Type_size(keep, &size), MPI_ERR_TYPE);

    /* a delete callback that frees its own type */
    int ks;
    CHECK_MPI(MPI_Type_create_keyval(NULL, self_freeing_delete, &ks, NULL));
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &vec));
    keep = vec;
    CHECK_MPI(MPI_Type_set_attr(vec, ks, &a));
    before = deletes;
    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_EQ(deletes, before + 1);
    int cls = -1;
    MPI_Error_class(self_free_rc, &cls);
    CHECK_EQ(cls, MPI_ERR_TYPE);
    CHECK_EQ(vec, MPI_DATATYPE_NULL);
    CHECK_ERR(MPI_Type_size(keep, &size), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_free_keyval(&ks));

    CHECK_MPI(MPI_Type_free_keyval(&kc));
    CHECK_MPI(MPI_Type_free_keyval(&kd));
    CHECK_MPI(MPI_Type_free_keyval(&kn));
    return MTest_Finalize();   /* MPI_INT's kn attribute is dropped at finalize without a call */
}
