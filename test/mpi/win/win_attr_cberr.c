/*
 * A failing delete callback (MPI 4.1, "Caching"): the call that ran it fails with the callback's
 * error, and the attribute stays. MPI_Win_free then leaves the window valid (with its attribute),
 * and a later MPI_Win_free, once the callback agrees, frees it. A delete callback that frees its
 * own window again fails with MPI_ERR_WIN.
 */
#include "mtest.h"

static int refuse = 1, ncalls = 0;

static int picky_delete(MPI_Win win, int keyval, void *value, void *extra_state)
{
    ncalls++;
    return refuse ? MPI_ERR_OTHER : MPI_SUCCESS;
}

/* An erroneous program's delete callback that frees its own window again. */
static int self_free_rc = -1;
static int self_freeing_delete(MPI_Win win, int keyval, void *value, void *extra_state)
{
    self_free_rc = MPI_Win_free(&win);
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char buf[8];
    int kv, flag, value = 42;
    void *got;
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_SELF, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, picky_delete, &kv, NULL));
    CHECK_MPI(MPI_Win_set_attr(win, kv, &value));

    CHECK_ERR(MPI_Win_delete_attr(win, kv), MPI_ERR_OTHER);
    CHECK_MPI(MPI_Win_get_attr(win, kv, &got, &flag));
    CHECK(flag == 1 && got == &value, "after a refused delete: flag %d, %p", flag, got);

    MPI_Win handle = win;
    CHECK_ERR(MPI_Win_free(&win), MPI_ERR_OTHER);
    CHECK(win == handle, "a failed MPI_Win_free changed the handle to %#x", (unsigned) win);
    CHECK_MPI(MPI_Win_get_attr(win, kv, &got, &flag));       /* the window and its value are still there */
    CHECK(flag == 1 && got == &value, "after a failed free: flag %d, %p", flag, got);
    CHECK_EQ(ncalls, 2);

    refuse = 0;
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_EQ(ncalls, 3);
    CHECK(win == MPI_WIN_NULL, "MPI_Win_free left %#x", (unsigned) win);
    CHECK_MPI(MPI_Win_free_keyval(&kv));

    /* A delete callback that frees its window again gets MPI_ERR_WIN (going on would free the
     * window under the outer MPI_Win_free); the outer call frees it. */
    CHECK_MPI(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_SELF, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, self_freeing_delete, &kv, NULL));
    CHECK_MPI(MPI_Win_set_attr(win, kv, &value));
    CHECK_MPI(MPI_Win_free(&win));
    int cls = -1;
    MPI_Error_class(self_free_rc, &cls);
    CHECK_EQ(cls, MPI_ERR_WIN);
    CHECK(win == MPI_WIN_NULL, "MPI_Win_free left %#x", (unsigned) win);
    CHECK_MPI(MPI_Win_free_keyval(&kv));
    return MTest_Finalize();
}
