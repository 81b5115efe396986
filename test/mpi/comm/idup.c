/* MPI_Comm_idup and MPI_Comm_idup_with_info are nonblocking (MPI 4.1, 7.4.2): a process returns
 * from the call at once and may communicate, even wait for other processes, before it completes
 * the request; the result is a communicator like MPI_Comm_dup's.
 *   1. A chain: rank r starts its idup only after rank r-1 has started its own and sent it a
 *      token (a blocking idup would hang at rank 0).
 *   2. Two idups in flight on different communicators, started in opposite orders by even and
 *      odd ranks, completed by MPI_Test polling.
 *   3. An idup in flight while a blocking MPI_Comm_dup of another communicator runs, in opposite
 *      orders on even and odd ranks.
 *   4. Ten idups of one communicator in flight at once: ten distinct, working communicators.
 *   5. The results: congruent with the original, attributes copied by the copy callback (called
 *      in MPI_Comm_idup itself), hints of idup_with_info, messages that do not cross.
 *   6. An intercommunicator (even ranks / odd ranks): the idup is an intercommunicator with the
 *      same groups, and point-to-point works on it. */
#include "mtest.h"

static int copies;

static int copy_fn(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void) comm, (void) keyval, (void) extra;
    copies++;
    *(void **) out = (char *) in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

/* A dup works: ranks agree on a sum over it, and it is congruent with what it copies. */
static void check_dup(MPI_Comm orig, MPI_Comm dup)
{
    int result, size, sum = -1, rank;
    CHECK(dup != MPI_COMM_NULL, "no communicator");
    if (dup == MPI_COMM_NULL)
        return;
    CHECK_MPI(MPI_Comm_compare(orig, dup, &result));
    CHECK_EQ(result, MPI_CONGRUENT);
    MPI_Comm_size(dup, &size);
    MPI_Comm_rank(dup, &rank);
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup));
    CHECK_EQ(sum, size * (size - 1) / 2);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Request req, reqs[10];

    /* 1 */
    MPI_Comm chain;
    int token = 0;
    if (rank > 0)
        CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &chain, &req));
    if (rank < size - 1)
        CHECK_MPI(MPI_Send(&token, 1, MPI_INT, rank + 1, 0, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(req == MPI_REQUEST_NULL, "the completed request was not freed");
    check_dup(MPI_COMM_WORLD, chain);

    /* 2 */
    MPI_Comm a, b, c[10];
    int first = rank % 2;
    MPI_Comm src[2] = { MPI_COMM_WORLD, chain }, *dst[2] = { &a, &b };
    CHECK_MPI(MPI_Comm_idup(src[first], dst[first], &reqs[0]));
    CHECK_MPI(MPI_Comm_idup(src[!first], dst[!first], &reqs[1]));
    int done = 0;
    while (!done)
        CHECK_MPI(MPI_Testall(2, reqs, &done, MPI_STATUSES_IGNORE));
    check_dup(MPI_COMM_WORLD, a);
    check_dup(chain, b);

    /* 3 */
    MPI_Comm nb, bl;
    if (rank % 2 == 0) {
        CHECK_MPI(MPI_Comm_idup(a, &nb, &req));
        CHECK_MPI(MPI_Comm_dup(b, &bl));
    } else {
        CHECK_MPI(MPI_Comm_dup(b, &bl));
        CHECK_MPI(MPI_Comm_idup(a, &nb, &req));
    }
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    check_dup(a, nb);
    check_dup(b, bl);

    /* 4 */
    for (int i = 0; i < 10; i++)
        CHECK_MPI(MPI_Comm_idup(nb, &c[i], &reqs[i]));
    CHECK_MPI(MPI_Waitall(10, reqs, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 10; i++) {
        check_dup(nb, c[i]);
        for (int j = 0; j < i; j++) {
            int result;
            CHECK_MPI(MPI_Comm_compare(c[i], c[j], &result));
            CHECK_EQ(result, MPI_CONGRUENT);
        }
    }
    /* messages on different dups never cross: sent in one order, received in the other */
    if (rank == 0) {
        for (int i = 0; i < 10; i++)
            CHECK_MPI(MPI_Send(&i, 1, MPI_INT, size - 1, 5, c[i]));
    }
    if (rank == size - 1) {
        for (int i = 9; i >= 0; i--) {
            int v = -1;
            CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 5, c[i], MPI_STATUS_IGNORE));
            CHECK_EQ(v, i);
        }
    }

    /* 5: attributes and hints */
    int key;
    static char base[4];
    CHECK_MPI(MPI_Comm_create_keyval(copy_fn, MPI_COMM_NULL_DELETE_FN, &key, NULL));
    CHECK_MPI(MPI_Comm_set_attr(a, key, base));
    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
    MPI_Comm withattr, withinfo;
    CHECK_MPI(MPI_Comm_idup(a, &withattr, &reqs[0]));
    CHECK_EQ(copies, 1);        /* copied in the call */
    CHECK_MPI(MPI_Comm_idup_with_info(a, info, &withinfo, &reqs[1]));
    CHECK_MPI(MPI_Info_free(&info));    /* the call keeps its own copy */
    CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
    void *val = NULL;
    int flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(withattr, key, &val, &flag));
    CHECK(flag && val == base + 1, "flag %d, value %p, expected %p", flag, val, (void *) (base + 1));
    MPI_Info got;
    char value[MPI_MAX_INFO_VAL];
    int len = sizeof value;
    CHECK_MPI(MPI_Comm_get_info(withinfo, &got));
    CHECK_MPI(MPI_Info_get_string(got, "mpi_assert_no_any_tag", &len, value, &flag));
    CHECK(flag && strcmp(value, "true") == 0, "hint: flag %d, \"%s\"", flag, flag ? value : "");
    CHECK_MPI(MPI_Info_free(&got));
    check_dup(a, withinfo);

    /* 6 */
    if (size >= 2) {
        MPI_Comm half, inter, idup;
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
        CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 9, &inter));
        CHECK_MPI(MPI_Comm_idup(inter, &idup, &req));
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        int is_inter = 0, rsize = -1, result;
        CHECK_MPI(MPI_Comm_test_inter(idup, &is_inter));
        CHECK_EQ(is_inter, 1);
        CHECK_MPI(MPI_Comm_remote_size(idup, &rsize));
        CHECK_EQ(rsize, rank % 2 ? size / 2 + size % 2 : size / 2);
        CHECK_MPI(MPI_Comm_compare(inter, idup, &result));
        CHECK_EQ(result, MPI_CONGRUENT);
        /* local rank 0 of each side sends its world rank to the other's rank 0, on the dup */
        int lrank;
        MPI_Comm_rank(idup, &lrank);
        if (lrank == 0) {
            int other = -1;
            CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, 0, 3, &other, 1, MPI_INT, 0, 3, idup, MPI_STATUS_IGNORE));
            CHECK_EQ(other, rank % 2 ? 0 : 1);
        }
        CHECK_MPI(MPI_Comm_free(&idup));
        CHECK_MPI(MPI_Comm_free(&inter));
        CHECK_MPI(MPI_Comm_free(&half));
    }

    CHECK_MPI(MPI_Comm_free(&withattr));
    CHECK_MPI(MPI_Comm_free(&withinfo));
    CHECK_MPI(MPI_Comm_free_keyval(&key));
    for (int i = 0; i < 10; i++)
        CHECK_MPI(MPI_Comm_free(&c[i]));
    MPI_Comm *all[] = { &chain, &a, &b, &nb, &bl };
    for (int i = 0; i < 5; i++)
        CHECK_MPI(MPI_Comm_free(all[i]));
    return MTest_Finalize();
}
