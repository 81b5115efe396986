/* MPI_Error_class maps every class to itself, MPI_Error_string describes each one, and codes
 * that are not error codes are rejected with MPI_ERR_ARG. */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    static const int classes[] = {
        MPI_SUCCESS, MPI_ERR_BUFFER, MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_TAG, MPI_ERR_COMM,
        MPI_ERR_RANK, MPI_ERR_ROOT, MPI_ERR_GROUP, MPI_ERR_OP, MPI_ERR_TOPOLOGY, MPI_ERR_DIMS,
        MPI_ERR_ARG, MPI_ERR_UNKNOWN, MPI_ERR_TRUNCATE, MPI_ERR_OTHER, MPI_ERR_INTERN,
        MPI_ERR_IN_STATUS, MPI_ERR_PENDING, MPI_ERR_REQUEST, MPI_ERR_ACCESS, MPI_ERR_AMODE,
        MPI_ERR_BAD_FILE, MPI_ERR_CONVERSION, MPI_ERR_DUP_DATAREP, MPI_ERR_FILE_EXISTS,
        MPI_ERR_FILE_IN_USE, MPI_ERR_FILE, MPI_ERR_INFO, MPI_ERR_INFO_KEY, MPI_ERR_INFO_VALUE,
        MPI_ERR_INFO_NOKEY, MPI_ERR_IO, MPI_ERR_NAME, MPI_ERR_NO_MEM, MPI_ERR_NOT_SAME,
        MPI_ERR_NO_SPACE, MPI_ERR_NO_SUCH_FILE, MPI_ERR_PORT, MPI_ERR_QUOTA, MPI_ERR_READ_ONLY,
        MPI_ERR_SERVICE, MPI_ERR_SPAWN, MPI_ERR_UNSUPPORTED_DATAREP, MPI_ERR_UNSUPPORTED_OPERATION,
        MPI_ERR_WIN, MPI_ERR_BASE, MPI_ERR_LOCKTYPE, MPI_ERR_KEYVAL, MPI_ERR_RMA_CONFLICT,
        MPI_ERR_RMA_SYNC, MPI_ERR_SIZE, MPI_ERR_DISP, MPI_ERR_ASSERT, MPI_ERR_RMA_RANGE,
        MPI_ERR_RMA_ATTACH, MPI_ERR_RMA_SHARED, MPI_ERR_RMA_FLAVOR, MPI_ERR_PROC_ABORTED,
        MPI_ERR_VALUE_TOO_LARGE, MPI_ERR_SESSION, MPI_ERR_ERRHANDLER, MPI_T_ERR_MEMORY,
    };
    int n = (int) (sizeof classes / sizeof classes[0]);
    CHECK_EQ(n, 63);
    static char text[63][MPI_MAX_ERROR_STRING];
    for (int i = 0; i < n; i++) {
        int cls = -1, len = -1;
        CHECK_MPI(MPI_Error_class(classes[i], &cls));
        CHECK_EQ(cls, classes[i]);
        CHECK_MPI(MPI_Error_string(classes[i], text[i], &len));
        CHECK(len > 0 && len == (int) strlen(text[i]), "class %d: text \"%s\", resultlen %d", classes[i],
              text[i], len);
        for (int j = 0; j < i; j++)
            CHECK(strcmp(text[i], text[j]) != 0, "classes %d and %d share the text \"%s\"", classes[j],
                  classes[i], text[i]);
    }

    /* Not error codes: negative, a class beyond the last, above MPI_ERR_LASTCODE. */
    const int bad[] = { -1, -12345, MPI_T_ERR_MEMORY + 1, 0x7f, MPI_ERR_LASTCODE + 1 };
    for (int i = 0; i < (int) (sizeof bad / sizeof bad[0]); i++) {
        int cls = -7, len = -7;
        char msg[MPI_MAX_ERROR_STRING];
        CHECK_ERR(MPI_Error_class(bad[i], &cls), MPI_ERR_ARG);
        CHECK_EQ(cls, -7);
        CHECK_ERR(MPI_Error_string(bad[i], msg, &len), MPI_ERR_ARG);
        CHECK_EQ(len, -7);
    }
    /* The output pointer must not be NULL. */
    CHECK_ERR(MPI_Error_class(MPI_ERR_COUNT, NULL), MPI_ERR_ARG);

    return MTest_Finalize();
}
