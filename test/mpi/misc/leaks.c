/*
 * The leak report (LOOM_REPORT_LEAKS=1, set by the testlist): MPI_Finalize names every handle the
 * program never freed, one line each, whatever its kind, and nothing else: not the handles the
 * program freed, not the library's own objects (MPI_COMM_WORLD's group, a window's private
 * communicator), not a keyval the program freed while a leaked window still uses it.
 */
#include "mtest.h"
#include "leak_capture.h"

static void sum_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
    for (int i = 0; i < *len; i++)
        ((int *) inout)[i] += ((int *) in)[i];
}

static void quiet_handler(MPI_Comm *comm, int *code, ...)
{
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    char buf[16];

    /* ---- one leak of each kind ---- */
    MPI_Info info;
    MPI_Win win;
    MPI_Comm comm;
    MPI_Group group;
    MPI_Datatype type;
    MPI_Op op;
    MPI_Errhandler eh;
    MPI_Request req;
    int win_kv, type_kv, x = 7, y;
    MPI_Info_create(&info);
    MPI_Info_set(info, "leaked", "yes");
    MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_group(MPI_COMM_WORLD, &group);
    MPI_Type_contiguous(3, MPI_INT, &type);
    MPI_Type_commit(&type);
    MPI_Op_create(sum_fn, 1, &op);
    MPI_Comm_create_errhandler(quiet_handler, &eh);
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &win_kv, NULL);
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &type_kv, NULL);
    MPI_Isend(&x, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &req);      /* completes, never waited for */
    MPI_Recv(&y, 1, MPI_INT, 0, 5, MPI_COMM_SELF, MPI_STATUS_IGNORE);
    unsigned leaked[] = { info, win, comm, group, type, op, eh, win_kv, type_kv, req };
    int nleaked = sizeof leaked / sizeof leaked[0];

    /* ---- the same kinds, freed ---- */
    MPI_Info info2;
    MPI_Win win2;
    MPI_Comm comm2;
    MPI_Group group2;
    MPI_Datatype type2;
    MPI_Op op2;
    MPI_Errhandler eh2;
    MPI_Request req2;
    int kv2, kv_in_use;
    MPI_Info_create(&info2);
    MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win2);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm2);
    MPI_Comm_group(comm2, &group2);
    MPI_Type_vector(2, 1, 2, MPI_INT, &type2);
    MPI_Op_create(sum_fn, 0, &op2);
    MPI_Comm_create_errhandler(quiet_handler, &eh2);
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &kv2, NULL);
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &kv_in_use, NULL);
    MPI_Isend(&x, 1, MPI_INT, 0, 6, MPI_COMM_SELF, &req2);
    MPI_Recv(&y, 1, MPI_INT, 0, 6, MPI_COMM_SELF, MPI_STATUS_IGNORE);
    unsigned freed[] = { info2, win2, comm2, group2, type2, op2, eh2, kv2, kv_in_use, req2 };
    int nfreed = sizeof freed / sizeof freed[0];
    /* an error handler freed while MPI_COMM_WORLD still uses it, a keyval while a leaked window does */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh2);
    MPI_Win_set_attr(win, kv_in_use, buf);
    MPI_Info_free(&info2);
    MPI_Win_free(&win2);
    MPI_Group_free(&group2);
    MPI_Comm_free(&comm2);
    MPI_Type_free(&type2);
    MPI_Op_free(&op2);
    MPI_Errhandler_free(&eh2);
    MPI_Win_free_keyval(&kv2);
    MPI_Win_free_keyval(&kv_in_use);
    MPI_Wait(&req2, MPI_STATUS_IGNORE);

    finalize_capturing_stderr();
    for (int i = 0; i < nleaked; i++)
        CHECK(leak_lines_for(leaked[i]) == 1, "leaked handle 0x%08x is reported %d times", leaked[i],
              leak_lines_for(leaked[i]));
    for (int i = 0; i < nfreed; i++)
        CHECK(leak_lines_for(freed[i]) == 0, "freed handle 0x%08x is reported", freed[i]);
    CHECK(leak_lines_with(NULL) == nleaked, "%d report lines, expected %d", leak_lines_with(NULL), nleaked);

    /* after MPI_Finalize: no reduction, one process */
    printf(mtest_errs ? " Found %d errors\n" : " No Errors\n", mtest_errs);
    return mtest_errs != 0;
}
