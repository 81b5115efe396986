/*
 * Datatype lifetimes. A type used by another lives until the last reference goes, but the user's
 * handle dies at MPI_Type_free: every later use of that handle value is MPI_ERR_TYPE, even while
 * a parent keeps the object alive and even after its slot holds a new type.
 */
#include <stdlib.h>
#include "mtest.h"

static MPI_Count size_of(MPI_Datatype t)
{
    MPI_Count s = -1;
    CHECK_MPI(MPI_Type_size_c(t, &s));
    return s;
}

static MPI_Count extent_of(MPI_Datatype t)
{
    MPI_Count lb = -1, ext = -1;
    CHECK_MPI(MPI_Type_get_extent_c(t, &lb, &ext));
    return ext;
}

/* The one child of parent, as decoded (a new handle the caller frees). */
static MPI_Datatype child_of(MPI_Datatype parent)
{
    int ni, na, nd, comb, ints[8];
    MPI_Aint addrs[8];
    MPI_Datatype d[8] = { MPI_DATATYPE_NULL };
    CHECK_MPI(MPI_Type_get_envelope(parent, &ni, &na, &nd, &comb));
    CHECK(nd == 1 && ni <= 8 && na <= 8, "parent has %d children (%d ints, %d addresses)", nd, ni, na);
    CHECK_MPI(MPI_Type_get_contents(parent, 8, 8, 8, ints, addrs, d));
    return d[0];
}

/* Every kind of call on a freed (or otherwise invalid) handle answers MPI_ERR_TYPE. */
static void check_rejected(const char *what, MPI_Datatype bad, int keyval)
{
    MPI_Count count;
    MPI_Aint lb, ext;
    MPI_Datatype t, copy;
    int size, len, ni, na, nd, comb, flag, ints[4];
    MPI_Aint addrs[4];
    MPI_Datatype types[4];
    char name[MPI_MAX_OBJECT_NAME];
    void *val;
    int errs_before = mtest_errs;

    CHECK_ERR(MPI_Type_size(bad, &size), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_size_c(bad, &count), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_extent(bad, &lb, &ext), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_true_extent(bad, &lb, &ext), MPI_ERR_TYPE);
    copy = bad;
    CHECK_ERR(MPI_Type_commit(&copy), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_vector(2, 1, 2, bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_contiguous_c(2, bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_create_struct(2, (int[]) { 1, 1 }, (MPI_Aint[]) { 0, 8 },
                                     (MPI_Datatype[]) { MPI_INT, bad }, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_dup(bad, &t), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_name(bad, name, &len), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_set_name(bad, "zombie"), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_set_attr(bad, keyval, NULL), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_attr(bad, keyval, &val, &flag), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_envelope(bad, &ni, &na, &nd, &comb), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_contents(bad, 4, 4, 4, ints, addrs, types), MPI_ERR_TYPE);
    copy = bad;
    CHECK_ERR(MPI_Type_free(&copy), MPI_ERR_TYPE);
    if (mtest_errs > errs_before)
        fprintf(stderr, "  (the failures above were for the %s handle %#x)\n", what, (unsigned) bad);
}

/* A child freed right after building its parent lives on inside it. */
static void test_child_freed_first(void)
{
    MPI_Datatype child, parent, got, got2, stale;

    CHECK_MPI(MPI_Type_vector(3, 2, 5, MPI_INT, &child));   /* size 24, extent 48 */
    CHECK_MPI(MPI_Type_contiguous(2, child, &parent));
    stale = child;
    CHECK_MPI(MPI_Type_free(&child));
    CHECK(child == MPI_DATATYPE_NULL, "MPI_Type_free did not set the handle to MPI_DATATYPE_NULL");

    /* The parent still knows its whole layout. */
    CHECK_EQ(size_of(parent), 48);
    CHECK_EQ(extent_of(parent), 96);
    CHECK_MPI(MPI_Type_commit(&parent));

    /* Decoding hands out working handles to the child, one per call. */
    got = child_of(parent);
    got2 = child_of(parent);
    CHECK_EQ(size_of(got), 24);
    CHECK_EQ(extent_of(got), 48);
    CHECK_MPI(MPI_Type_free(&got));
    CHECK_EQ(size_of(got2), 24);
    CHECK_MPI(MPI_Type_commit(&got2));
    MPI_Datatype stale2 = got2;
    CHECK_MPI(MPI_Type_free(&got2));
    /* All handles to the child are gone again; the parent is untouched. */
    CHECK_ERR(MPI_Type_size_c(stale, &(MPI_Count) { 0 }), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_size_c(stale2, &(MPI_Count) { 0 }), MPI_ERR_TYPE);
    CHECK_EQ(size_of(parent), 48);

    /* A third decode still works after the first two handles were freed. */
    got = child_of(parent);
    CHECK_EQ(size_of(got), 24);
    CHECK_MPI(MPI_Type_free(&got));
    CHECK_MPI(MPI_Type_free(&parent));
}

/* The user's own child handle is independent of the copies decoding hands out. */
static void test_child_kept(void)
{
    MPI_Datatype child, parent, got, stale;

    CHECK_MPI(MPI_Type_create_resized(MPI_SHORT, -2, 8, &child));
    CHECK_MPI(MPI_Type_create_hvector(2, 1, 100, child, &parent));
    got = child_of(parent);
    stale = child;
    CHECK_MPI(MPI_Type_free(&child));        /* the user's handle goes first */
    CHECK_EQ(extent_of(got), 8);
    CHECK_MPI(MPI_Type_free(&got));
    CHECK_ERR(MPI_Type_size_c(stale, &(MPI_Count) { 0 }), MPI_ERR_TYPE);

    got = child_of(parent);
    CHECK_MPI(MPI_Type_free(&got));
    CHECK_EQ(size_of(parent), 4);
    CHECK_EQ(extent_of(parent), 108);
    CHECK_MPI(MPI_Type_free(&parent));
}

/* The parent may go before the child. */
static void test_parent_freed_first(void)
{
    MPI_Datatype child, parent, got;

    CHECK_MPI(MPI_Type_contiguous(4, MPI_DOUBLE, &child));
    CHECK_MPI(MPI_Type_create_resized(child, 0, 64, &parent));
    got = child_of(parent);
    CHECK_MPI(MPI_Type_free(&parent));
    CHECK_EQ(size_of(child), 32);
    CHECK_EQ(size_of(got), 32);          /* a decoded handle outlives the parent too */
    CHECK_MPI(MPI_Type_free(&got));
    CHECK_MPI(MPI_Type_commit(&child));
    CHECK_EQ(extent_of(child), 32);
    CHECK_MPI(MPI_Type_free(&child));
}

/* A chain of dups, every link but the last freed at once, decoded back down to the root. */
static void test_dup_chain(void)
{
    enum { N = 50 };
    MPI_Datatype root, t, n;

    CHECK_MPI(MPI_Type_indexed(2, (int[]) { 1, 3 }, (int[]) { 4, 0 }, MPI_INT, &root));
    t = root;
    for (int k = 0; k < N; k++) {
        CHECK_MPI(MPI_Type_dup(t, &n));
        CHECK_MPI(MPI_Type_free(&t));
        t = n;
    }
    CHECK_EQ(size_of(t), 16);
    CHECK_EQ(extent_of(t), 20);
    for (int k = 0; k < N; k++) {
        int ni, na, nd, comb = -1;
        CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
        CHECK(comb == MPI_COMBINER_DUP, "link %d: combiner %d", k, comb);
        n = child_of(t);
        CHECK_EQ(size_of(n), 16);
        CHECK_MPI(MPI_Type_free(&t));
        t = n;
    }
    int ni, na, nd, comb = -1;
    CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
    CHECK_EQ(comb, MPI_COMBINER_INDEXED);
    CHECK_MPI(MPI_Type_free(&t));
}

/* A pending attribute or a name does not keep a freed handle usable. */
static void test_freed_handle_everywhere(int keyval)
{
    MPI_Datatype t, parent, stale;

    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
    CHECK_MPI(MPI_Type_set_name(t, "soon gone"));
    CHECK_MPI(MPI_Type_set_attr(t, keyval, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    stale = t;
    CHECK_MPI(MPI_Type_free(&t));
    check_rejected("freed", stale, keyval);

    /* Freed while a parent keeps the object alive: the handle is still dead to the user. */
    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_CHAR, &t));
    CHECK_MPI(MPI_Type_contiguous(3, t, &parent));
    stale = t;
    CHECK_MPI(MPI_Type_free(&t));
    check_rejected("freed, child of a live parent", stale, keyval);
    CHECK_MPI(MPI_Type_free(&parent));
    check_rejected("freed, parent freed too", stale, keyval);
}

/* Freeing twice: through a copy of the handle, and through the nulled handle itself. */
static void test_double_free(void)
{
    MPI_Datatype t, copy;
    CHECK_MPI(MPI_Type_contiguous(3, MPI_BYTE, &t));
    copy = t;
    CHECK_MPI(MPI_Type_free(&t));
    CHECK_ERR(MPI_Type_free(&copy), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_free(&t), MPI_ERR_TYPE);         /* t is MPI_DATATYPE_NULL now */
}

/*
 * A stale handle stays invalid after its slot was reused. Handles of allocated objects keep the
 * pool index in their low 20 bits (src/include/mpir_object.h); a new type in the same slot carries
 * a new generation, so the stale value must not come back while we churn through the pool.
 */
#define SLOT_OF(h) ((unsigned) (h) & 0xfffffu)

static void test_stale_after_reuse(int keyval)
{
    enum { STALE = 8, ROUNDS = 3000, LIVE = 40 };
    MPI_Datatype stale[STALE], live[LIVE], t;
    int reused = 0;

    for (int k = 0; k < STALE; k++) {
        CHECK_MPI(MPI_Type_contiguous(k + 1, MPI_INT, &t));
        stale[k] = t;
        CHECK_MPI(MPI_Type_free(&t));
    }
    for (int k = 0; k < LIVE; k++)
        live[k] = MPI_DATATYPE_NULL;
    for (int r = 0; r < ROUNDS; r++) {
        /* Keep some types alive in a rotating window so slots are taken in varied orders. */
        int w = r % LIVE;
        if (live[w] != MPI_DATATYPE_NULL)
            CHECK_MPI(MPI_Type_free(&live[w]));
        CHECK_MPI(MPI_Type_vector(1 + r % 5, 1, 2, MPI_SHORT, &live[w]));
        for (int k = 0; k < STALE; k++) {
            CHECK(live[w] != stale[k], "round %d: new type got the stale handle %#x", r,
                  (unsigned) stale[k]);
            if (SLOT_OF(live[w]) == SLOT_OF(stale[k]))
                reused++;
        }
        if (r % 100 == 0)
            for (int k = 0; k < STALE; k++)
                CHECK_ERR(MPI_Type_size_c(stale[k], &(MPI_Count) { 0 }), MPI_ERR_TYPE);
    }
    CHECK(reused > 0, "no slot of a stale handle was reused in %d rounds", ROUNDS);
    for (int k = 0; k < STALE; k++)
        check_rejected("stale after reuse", stale[k], keyval);
    for (int k = 0; k < LIVE; k++)
        CHECK_MPI(MPI_Type_free(&live[k]));
}

int main(int argc, char **argv)
{
    int keyval;

    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &keyval, NULL));

    test_child_freed_first();
    test_child_kept();
    test_parent_freed_first();
    test_dup_chain();
    test_freed_handle_everywhere(keyval);
    test_double_free();
    test_stale_after_reuse(keyval);

    CHECK_MPI(MPI_Type_free_keyval(&keyval));
    return MTest_Finalize();
}
