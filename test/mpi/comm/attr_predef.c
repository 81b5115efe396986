/*
 * Predefined communicator attributes (MPI 4.1, 9.1.2): MPI_TAG_UB (2^30 - 1 here, at least 32767
 * by the standard), MPI_HOST (MPI_PROC_NULL), MPI_IO (MPI_ANY_SOURCE: every process can do I/O),
 * MPI_WTIME_IS_GLOBAL (0), MPI_UNIVERSE_SIZE, MPI_LASTUSEDCODE, MPI_APPNUM, returned in C as
 * pointers to ints; on MPI_COMM_WORLD and also on other communicators; read-only: set, delete and
 * free_keyval fail with MPI_ERR_KEYVAL. Run with 3 processes.
 */
#include "mtest.h"

static int get_int(MPI_Comm comm, int key, int *flag)
{
    int *p = NULL;
    *flag = -1;
    int rc = MPI_Comm_get_attr(comm, key, &p, flag);
    if (rc != MPI_SUCCESS || !*flag || p == NULL) {
        MTEST_FAIL("MPI_Comm_get_attr(%#x) rc=%d flag=%d p=%p", (unsigned) key, rc, *flag, (void *) p);
        return -12345;
    }
    return *p;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int size, flag;
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_Comm comms[3] = { MPI_COMM_WORLD, MPI_COMM_SELF, dup };
    for (int i = 0; i < 3; i++) {
        MPI_Comm c = comms[i];
        CHECK_EQ(get_int(c, MPI_TAG_UB, &flag), (1 << 30) - 1);
        CHECK_EQ(get_int(c, MPI_HOST, &flag), MPI_PROC_NULL);
        CHECK_EQ(get_int(c, MPI_IO, &flag), MPI_ANY_SOURCE);
        CHECK_EQ(get_int(c, MPI_WTIME_IS_GLOBAL, &flag), 0);
        CHECK_EQ(get_int(c, MPI_UNIVERSE_SIZE, &flag), size);
        CHECK_EQ(get_int(c, MPI_APPNUM, &flag), 0);
        int last = get_int(c, MPI_LASTUSEDCODE, &flag);
        /* at least MPI_ERR_LASTCODE (MPI 4.1, 9.5); no class or code was added, so exactly it
         * here (user classes and codes are numbered above it: errhan/add_error.c) */
        CHECK_EQ(last, MPI_ERR_LASTCODE);
    }

    /* the largest tag really works */
    int rank, v = 5, got = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int *ub;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag));
    CHECK_MPI(MPI_Sendrecv(&v, 1, MPI_INT, rank, *ub, &got, 1, MPI_INT, rank, *ub, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    CHECK_EQ(got, 5);
    CHECK_ERR(MPI_Send(&v, 1, MPI_INT, rank, *ub + 1, MPI_COMM_WORLD), MPI_ERR_TAG);

    /* read-only */
    int mine = 1, key = MPI_TAG_UB;
    CHECK_ERR(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, &mine), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Comm_delete_attr(dup, MPI_HOST), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Attr_put(MPI_COMM_WORLD, MPI_IO, &mine), MPI_ERR_KEYVAL);
    CHECK_ERR(MPI_Comm_free_keyval(&key), MPI_ERR_KEYVAL);
    CHECK_EQ(key, MPI_TAG_UB);
    CHECK_EQ(get_int(MPI_COMM_WORLD, MPI_TAG_UB, &flag), (1 << 30) - 1);

    /* the MPI-1 form answers too */
    int *p = NULL;
    CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &p, &flag));
    CHECK_EQ(flag, 1);
    CHECK(p && *p == (1 << 30) - 1, "MPI_Attr_get(MPI_TAG_UB) gave %p", (void *) p);

    CHECK_MPI(MPI_Comm_free(&dup));
    return MTest_Finalize();
}
