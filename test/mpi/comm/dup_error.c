/* A failed MPI_Comm_dup, MPI_Comm_dup_with_info or MPI_Comm_idup leaves MPI_COMM_NULL in newcomm
 * (as MPICH does; MPI 4.1 leaves it open, and programs test for it). The failure here: an attribute
 * copy callback that returns MPI_ERR_OTHER, which the call returns (class MPI_ERR_OTHER) on every
 * rank, MPI_Comm_idup through its request. Once the attribute is gone, the same calls succeed. */
#include "mtest.h"

static int failing_copy(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void) comm, (void) keyval, (void) extra, (void) in, (void) out;
    *flag = 1;
    return MPI_ERR_OTHER;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm base;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &base));
    CHECK_MPI(MPI_Comm_set_errhandler(base, MPI_ERRORS_RETURN));
    int key, v = 1;
    CHECK_MPI(MPI_Comm_create_keyval(failing_copy, MPI_COMM_NULL_DELETE_FN, &key, NULL));
    CHECK_MPI(MPI_Comm_set_attr(base, key, &v));

    MPI_Comm dup = MPI_COMM_WORLD;
    CHECK_ERR(MPI_Comm_dup(base, &dup), MPI_ERR_OTHER);
    CHECK(dup == MPI_COMM_NULL, "MPI_Comm_dup failed and left %#x", (unsigned) dup);
    dup = MPI_COMM_WORLD;
    CHECK_ERR(MPI_Comm_dup_with_info(base, MPI_INFO_NULL, &dup), MPI_ERR_OTHER);
    CHECK(dup == MPI_COMM_NULL, "MPI_Comm_dup_with_info failed and left %#x", (unsigned) dup);
    dup = MPI_COMM_WORLD;
    /* the nonblocking dup still takes part in the agreement (another rank's callback may have
     * succeeded), and its request completes with the error */
    MPI_Request req = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Comm_idup(base, &dup, &req));
    CHECK_ERR(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_ERR_OTHER);
    CHECK(dup == MPI_COMM_NULL, "MPI_Comm_idup failed and left %#x", (unsigned) dup);

    CHECK_MPI(MPI_Comm_delete_attr(base, key));
    CHECK_MPI(MPI_Comm_dup(base, &dup));
    int result;
    CHECK_MPI(MPI_Comm_compare(base, dup, &result));
    CHECK_EQ(result, MPI_CONGRUENT);
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Comm_free_keyval(&key));
    CHECK_MPI(MPI_Comm_free(&base));
    return MTest_Finalize();
}
