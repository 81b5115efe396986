/*
 * Window attributes on keyvals of our own (MPI 4.1, "Caching"): set, get, replace and delete run
 * the delete callback exactly once per value, with the window's handle, the keyval and its
 * extra_state; MPI_Win_free deletes what is left, and a keyval freed while in use stays alive for
 * its values. The predefined null callbacks can be used. Every rank does the same on a window over
 * MPI_COMM_WORLD.
 */
#include "objtest.h"

static int logging_delete(MPI_Win win, int keyval, void *value, void *extra_state)
{
    return attr_log_call((long long) win, keyval, value, extra_state);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    char buf[32];
    int a = 1, b = 2, c = 3, x1 = 0, x2 = 0, flag = -1;
    void *got = NULL;
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));

    int k1, k2, k_null;
    CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, logging_delete, &k1, &x1));
    CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_DUP_FN, logging_delete, &k2, &x2));
    CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &k_null, NULL));
    CHECK(k1 != k2 && k1 != MPI_KEYVAL_INVALID, "keyvals %#x %#x", (unsigned) k1, (unsigned) k2);

    /* nothing set yet */
    CHECK_MPI(MPI_Win_get_attr(win, k1, &got, &flag));
    CHECK_EQ(flag, 0);
    CHECK_MPI(MPI_Win_delete_attr(win, k1));        /* deleting nothing calls nothing */
    CHECK_EQ(attr_ncalls, 0);

    /* set and get */
    CHECK_MPI(MPI_Win_set_attr(win, k1, &a));
    CHECK_MPI(MPI_Win_set_attr(win, k2, &b));
    CHECK_MPI(MPI_Win_set_attr(win, k_null, &c));
    CHECK_MPI(MPI_Win_get_attr(win, k1, &got, &flag));
    CHECK(flag == 1 && got == &a, "k1: flag %d, %p", flag, got);
    CHECK_MPI(MPI_Win_get_attr(win, k2, &got, &flag));
    CHECK(flag == 1 && got == &b, "k2: flag %d, %p", flag, got);
    CHECK_EQ(attr_ncalls, 0);

    /* replacing a value deletes the old one */
    CHECK_MPI(MPI_Win_set_attr(win, k1, &c));
    CHECK_EQ(attr_ncalls, 1);
    CHECK_CALL(0, win, k1, &a, &x1);
    CHECK_MPI(MPI_Win_get_attr(win, k1, &got, &flag));
    CHECK(flag == 1 && got == &c, "k1 after replace: %p", got);

    /* delete */
    CHECK_MPI(MPI_Win_delete_attr(win, k2));
    CHECK_EQ(attr_ncalls, 2);
    CHECK_CALL(1, win, k2, &b, &x2);
    CHECK_MPI(MPI_Win_get_attr(win, k2, &got, &flag));
    CHECK_EQ(flag, 0);
    CHECK_MPI(MPI_Win_set_attr(win, k2, &a));

    /* the predefined attributes are there too, and untouched by ours */
    MPI_Aint *size = NULL;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &size, &flag));
    CHECK(flag == 1 && size && *size == (MPI_Aint) sizeof buf, "MPI_WIN_SIZE");

    /* a keyval freed while in use still deletes its value at MPI_Win_free */
    int k1_handle = k1;
    CHECK_MPI(MPI_Win_free_keyval(&k1));
    CHECK_EQ(k1, MPI_KEYVAL_INVALID);
    MPI_Win handle = win;
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_EQ(attr_ncalls, 4);
    int i1 = attr_calls[2].keyval == k1_handle ? 2 : 3, i2 = 5 - i1;
    CHECK_CALL(i1, handle, k1_handle, &c, &x1);
    CHECK_CALL(i2, handle, k2, &a, &x2);

    /* the keyvals live on for other windows */
    CHECK_MPI(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_get_attr(win, k2, &got, &flag));
    CHECK_EQ(flag, 0);                                 /* a new window has no attributes */
    CHECK_MPI(MPI_Win_set_attr(win, k2, &b));
    int k2_handle = k2;
    CHECK_MPI(MPI_Win_free_keyval(&k2));
    CHECK_MPI(MPI_Win_free_keyval(&k_null));
    handle = win;
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_EQ(attr_ncalls, 5);
    CHECK_CALL(4, handle, k2_handle, &b, &x2);

    return MTest_Finalize();
}
