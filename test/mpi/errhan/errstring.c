/* A failing call under MPI_ERRORS_RETURN returns a code of the right class whose string names the
 * call, its arguments and the reason; each code keeps its own message. */
#include "mtest.h"

static void check_string(int code, const char *want1, const char *want2)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = -1;
    CHECK_MPI(MPI_Error_string(code, msg, &len));
    CHECK_EQ(len, (int) strlen(msg));
    CHECK(strstr(msg, want1) != NULL, "\"%s\" lacks \"%s\"", msg, want1);
    CHECK(strstr(msg, want2) != NULL, "\"%s\" lacks \"%s\"", msg, want2);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    MPI_Datatype t = MPI_DATATYPE_NULL;
    int rc1 = MPI_Type_contiguous(-1, MPI_INT, &t);
    CHECK_ERR(rc1, MPI_ERR_COUNT);
    CHECK(t == MPI_DATATYPE_NULL, "newtype was written on error");
    check_string(rc1, "MPI_Type_contiguous(count=-1", "invalid count");
    check_string(rc1, "oldtype=MPI_INT", "invalid count");

    int rc2 = MPI_Type_contiguous(3, MPI_DATATYPE_NULL, &t);
    CHECK_ERR(rc2, MPI_ERR_TYPE);
    /* the reason (after the call) names the bad argument */
    check_string(rc2, "MPI_Type_contiguous(count=3, oldtype=MPI_DATATYPE_NULL", "): oldtype");

    int rank;
    int rc3 = MPI_Comm_rank(MPI_COMM_NULL, &rank);
    CHECK_ERR(rc3, MPI_ERR_COMM);
    check_string(rc3, "MPI_Comm_rank(comm=MPI_COMM_NULL", "invalid communicator");

    /* Distinct codes, and the first message is still there after later errors. */
    CHECK(rc1 != rc2 && rc2 != rc3 && rc1 != rc3, "codes %#x %#x %#x are not distinct", rc1, rc2, rc3);
    check_string(rc1, "MPI_Type_contiguous(count=-1", "invalid count");

    /* A bare class gives the class's standard text, not some stored message. */
    char msg[MPI_MAX_ERROR_STRING];
    int len;
    CHECK_MPI(MPI_Error_string(MPI_ERR_COUNT, msg, &len));
    CHECK(strstr(msg, "MPI_Type_contiguous") == NULL && len > 0, "class text is \"%s\"", msg);

    /* Old codes fall out of the ring of recent messages but keep their class. */
    for (int i = 0; i < 1000; i++)
        MPI_Type_contiguous(-2, MPI_INT, &t);
    int cls = -1;
    CHECK_MPI(MPI_Error_class(rc1, &cls));
    CHECK_EQ(cls, MPI_ERR_COUNT);
    CHECK_MPI(MPI_Error_string(rc1, msg, &len));
    CHECK(strstr(msg, "count=-1") == NULL, "evicted code still gives \"%s\"", msg);

    return MTest_Finalize();
}
