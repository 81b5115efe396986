/*
 * Window errors: bad sizes (MPI_ERR_SIZE), displacement units (MPI_ERR_DISP), info objects and
 * communicators at creation; MPI_WIN_NULL, freed and foreign handles (MPI_ERR_WIN); the
 * predefined attributes are read-only, and other kinds' keyvals are refused (MPI_ERR_KEYVAL).
 * Errors of calls on a window reach the window's handler (set to MPI_ERRORS_RETURN on each
 * window here); those of MPI_Win_create, and calls on an invalid window, reach the
 * communicator's (MPI_COMM_WORLD's for no window).
 */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char buf[64];
    MPI_Win win = MPI_WIN_NULL;

    /* ---- creation ---- */
    CHECK_ERR(MPI_Win_create(buf, -1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_ERR_SIZE);
    CHECK_ERR(MPI_Win_create(buf, 8, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_ERR_DISP);
    CHECK_ERR(MPI_Win_create(buf, 8, -4, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_ERR_DISP);
    CHECK_ERR(MPI_Win_create(buf, 8, 1, MPI_INFO_NULL, MPI_COMM_NULL, &win), MPI_ERR_COMM);
    CHECK_ERR(MPI_Win_create(buf, 8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info stale = info;
    MPI_Info_free(&info);
    CHECK_ERR(MPI_Win_create(buf, 8, 1, stale, MPI_COMM_WORLD, &win), MPI_ERR_INFO);
    CHECK_ERR(MPI_Win_create(buf, 8, 1, MPI_INFO_ENV, MPI_COMM_NULL, &win), MPI_ERR_COMM);
    void *mem = buf;
    CHECK_ERR(MPI_Win_allocate(-8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win), MPI_ERR_SIZE);
    CHECK_ERR(MPI_Win_allocate(8, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win), MPI_ERR_DISP);
    CHECK(mem == (void *) buf && win == MPI_WIN_NULL, "failed calls changed their outputs");

    /* ---- invalid window handles ---- */
    int flag, len;
    char name[MPI_MAX_OBJECT_NAME];
    CHECK_ERR(MPI_Win_set_name(MPI_WIN_NULL, "x"), MPI_ERR_WIN);
    CHECK_ERR(MPI_Win_get_name(MPI_WIN_NULL, name, &len), MPI_ERR_WIN);
    CHECK_ERR(MPI_Win_free(&win), MPI_ERR_WIN);                     /* win is MPI_WIN_NULL */
    CHECK_ERR(MPI_Win_get_name((MPI_Win) MPI_COMM_WORLD, name, &len), MPI_ERR_WIN);
    CHECK_MPI(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    MPI_Win old = win;
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_ERR(MPI_Win_get_attr(old, MPI_WIN_BASE, &mem, &flag), MPI_ERR_WIN);
    CHECK_ERR(MPI_Win_free(&old), MPI_ERR_WIN);
    int rc = MPI_Win_set_name(old, "x");
    char msg[MPI_MAX_ERROR_STRING];
    MPI_Error_string(rc, msg, &len);
    CHECK(strstr(msg, "MPI_Win_set_name") && strstr(msg, "freed"), "message: %s", msg);

    /* ---- attributes ---- */
    CHECK_MPI(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_ERR(MPI_Win_set_attr(win, MPI_WIN_BASE, buf), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Win_set_attr(win, MPI_WIN_SIZE, buf), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Win_delete_attr(win, MPI_WIN_MODEL), MPI_ERR_KEYVAL);
    int kv = MPI_WIN_DISP_UNIT;
    CHECK_ERR(MPI_Win_free_keyval(&kv), MPI_ERR_KEYVAL);
    CHECK_EQ(kv, MPI_WIN_DISP_UNIT);
    CHECK_ERR(MPI_Win_get_attr(win, MPI_TAG_UB, &mem, &flag), MPI_ERR_KEYVAL);     /* a comm keyval */
    int tkv;
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tkv, NULL);
    CHECK_ERR(MPI_Win_set_attr(win, tkv, buf), MPI_ERR_KEYVAL);                     /* a datatype keyval */
    CHECK_ERR(MPI_Win_get_attr(win, tkv, &mem, &flag), MPI_ERR_KEYVAL);
    int wkv;
    CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &wkv, NULL));
    CHECK_ERR(MPI_Type_set_attr(MPI_INT, wkv, buf), MPI_ERR_KEYVAL);               /* and the reverse */
    CHECK_ERR(MPI_Win_get_attr(win, wkv, NULL, &flag), MPI_ERR_ARG);
    CHECK_ERR(MPI_Win_get_attr(win, wkv, &mem, NULL), MPI_ERR_ARG);
    int freed_kv = wkv;
    CHECK_MPI(MPI_Win_free_keyval(&wkv));
    CHECK_EQ(wkv, MPI_KEYVAL_INVALID);
    CHECK_ERR(MPI_Win_set_attr(win, freed_kv, buf), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Win_free_keyval(&freed_kv), MPI_ERR_KEYVAL);
    MPI_Type_free_keyval(&tkv);
    CHECK_ERR(MPI_Win_get_name(win, NULL, &len), MPI_ERR_ARG);
    CHECK_ERR(MPI_Win_set_name(win, NULL), MPI_ERR_ARG);
    CHECK_MPI(MPI_Win_free(&win));

    return MTest_Finalize();
}
