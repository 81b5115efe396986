/*
 * The leak report lists nothing when the program freed everything, even handles the library still
 * uses then (an error handler attached to MPI_COMM_SELF, a keyval whose value MPI_COMM_WORLD
 * keeps), and nothing at all when it is not asked for. Run twice by the testlist: with
 * LOOM_REPORT_LEAKS=1 (the program frees every handle) and with LOOM_REPORT_LEAKS=0 (it leaks them,
 * unreported).
 */
#include "mtest.h"
#include "leak_capture.h"

static void quiet_handler(MPI_Comm *comm, int *code, ...)
{
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    const char *v = getenv("LOOM_REPORT_LEAKS");
    int freeing = v && strcmp(v, "1") == 0;
    char buf[16];
    MPI_Info info;
    MPI_Win win;
    MPI_Comm comm;
    MPI_Group group;
    MPI_Datatype type;
    MPI_Errhandler eh;
    int kv;
    MPI_Info_create(&info);
    MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &kv, NULL);
    MPI_Win_set_attr(win, kv, buf);
    MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &comm);
    MPI_Comm_group(comm, &group);
    MPI_Type_contiguous(2, MPI_INT, &type);
    MPI_Comm_create_errhandler(quiet_handler, &eh);
    MPI_Comm_set_errhandler(comm, eh);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, eh);     /* still attached at MPI_Finalize */
    int ckv;    /* freed below while MPI_COMM_WORLD keeps its value */
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ckv, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, ckv, buf);
    MPI_Comm_free_keyval(&ckv);
    if (freeing) {
        MPI_Info_free(&info);
        MPI_Win_free(&win);
        MPI_Win_free_keyval(&kv);
        MPI_Group_free(&group);
        MPI_Comm_free(&comm);
        MPI_Type_free(&type);
        MPI_Errhandler_free(&eh);
    }
    finalize_capturing_stderr();
    CHECK(leak_lines_with(NULL) == 0, "%d report lines, expected none", leak_lines_with(NULL));
    printf(mtest_errs ? " Found %d errors\n" : " No Errors\n", mtest_errs);
    return mtest_errs != 0;
}
