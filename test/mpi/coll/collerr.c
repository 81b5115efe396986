/*
 * Argument errors of the collectives, with MPI_ERRORS_RETURN: a root out of range (MPI_ERR_ROOT),
 * invalid or undefined operations (MPI_ERR_OP), negative counts (MPI_ERR_COUNT), invalid and
 * uncommitted types (MPI_ERR_TYPE), a send buffer that is the receive buffer and MPI_IN_PLACE
 * where it is not allowed (MPI_ERR_BUFFER), NULL arrays (MPI_ERR_ARG), MPI_COMM_NULL
 * (MPI_ERR_COMM); errors that only some ranks see (truncation at the root, a type mismatch, an
 * invalid root-only argument, with the failure passed on to the ranks that depend on them); and
 * messages that name the call. After each error the communicator still works.
 */
#include "colltest.h"

static void expect(int rc, int cls, const char *call, const char *must_mention)
{
    int got = -1, len = 0;
    char msg[MPI_MAX_ERROR_STRING] = "";
    if (rc == MPI_SUCCESS) {
        MTEST_FAIL("%s succeeded, expected error class %d", call, cls);
        return;
    }
    MPI_Error_class(rc, &got);
    MPI_Error_string(rc, msg, &len);
    CHECK(got == cls, "%s gave class %d, expected %d (%s)", call, got, cls, msg);
    CHECK(strstr(msg, call) != NULL, "the message of %s does not name it: %s", call, msg);
    if (must_mention)
        CHECK(strstr(msg, must_mention) != NULL, "the message of %s does not mention \"%s\": %s", call,
              must_mention, msg);
}

/* a correct collective after an error: the communicator still works */
static void still_works(MPI_Comm comm)
{
    int size, one = 1, sum = 0;
    MPI_Comm_size(comm, &size);
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm));
    CHECK_EQ(sum, size);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int *a = calloc((size_t) size * 4 + 8, sizeof(int)), *b = calloc((size_t) size * 4 + 8, sizeof(int));
    int *counts = calloc((size_t) size, sizeof(int)), *displs = calloc((size_t) size, sizeof(int));
    MPI_Datatype *types = malloc((size_t) size * sizeof(MPI_Datatype));
    for (int i = 0; i < size; i++) {
        counts[i] = 1, displs[i] = i, types[i] = MPI_INT;
    }
    MPI_Datatype uncommitted;
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);

    /* ---- errors every rank sees ---- */
    expect(MPI_Bcast(a, 1, MPI_INT, size, comm), MPI_ERR_ROOT, "MPI_Bcast", "root");
    expect(MPI_Bcast(a, 1, MPI_INT, -1, comm), MPI_ERR_ROOT, "MPI_Bcast", "root");
    expect(MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, size, comm), MPI_ERR_ROOT, "MPI_Reduce", NULL);
    expect(MPI_Gather(a, 1, MPI_INT, b, 1, MPI_INT, size + 3, comm), MPI_ERR_ROOT, "MPI_Gather", NULL);
    expect(MPI_Gatherv(a, 1, MPI_INT, b, counts, displs, MPI_INT, -2, comm), MPI_ERR_ROOT, "MPI_Gatherv", NULL);
    expect(MPI_Scatter(a, 1, MPI_INT, b, 1, MPI_INT, size, comm), MPI_ERR_ROOT, "MPI_Scatter", NULL);
    expect(MPI_Scatterv(a, counts, displs, MPI_INT, b, 1, MPI_INT, size, comm), MPI_ERR_ROOT, "MPI_Scatterv", NULL);
    still_works(comm);

    expect(MPI_Allreduce(a, b, 1, MPI_INT, MPI_OP_NULL, comm), MPI_ERR_OP, "MPI_Allreduce", "MPI_OP_NULL");
    expect(MPI_Reduce(a, b, 1, MPI_DOUBLE, MPI_BXOR, 0, comm), MPI_ERR_OP, "MPI_Reduce", "MPI_BXOR");
    expect(MPI_Allreduce(a, b, 1, MPI_FLOAT_INT, MPI_SUM, comm), MPI_ERR_OP, "MPI_Allreduce", "MPI_SUM");
    expect(MPI_Allreduce(a, b, 1, MPI_INT, MPI_MAXLOC, comm), MPI_ERR_OP, "MPI_Allreduce", NULL);
    expect(MPI_Allreduce(a, b, 1, MPI_INT, MPI_REPLACE, comm), MPI_ERR_OP, "MPI_Allreduce", NULL);
    still_works(comm);

    expect(MPI_Bcast(a, -1, MPI_INT, 0, comm), MPI_ERR_COUNT, "MPI_Bcast", NULL);
    expect(MPI_Allreduce(a, b, -3, MPI_INT, MPI_SUM, comm), MPI_ERR_COUNT, "MPI_Allreduce", NULL);
    expect(MPI_Allgather(a, -1, MPI_INT, b, 1, MPI_INT, comm), MPI_ERR_COUNT, "MPI_Allgather", "sendcount");
    expect(MPI_Alltoall(a, 1, MPI_INT, b, -1, MPI_INT, comm), MPI_ERR_COUNT, "MPI_Alltoall", NULL);
    counts[size - 1] = -1;
    expect(MPI_Allgatherv(a, 1, MPI_INT, b, counts, displs, MPI_INT, comm), MPI_ERR_COUNT, "MPI_Allgatherv",
           "recvcounts");
    counts[size - 1] = 1;
    still_works(comm);

    expect(MPI_Bcast(a, 1, MPI_DATATYPE_NULL, 0, comm), MPI_ERR_TYPE, "MPI_Bcast", NULL);
    expect(MPI_Bcast(a, 1, uncommitted, 0, comm), MPI_ERR_TYPE, "MPI_Bcast", "commit");
    expect(MPI_Allgather(a, 1, uncommitted, b, 2, MPI_INT, comm), MPI_ERR_TYPE, "MPI_Allgather", "commit");
    expect(MPI_Alltoall(a, 1, MPI_INT, b, 1, MPI_DATATYPE_NULL, comm), MPI_ERR_TYPE, "MPI_Alltoall", NULL);
    types[0] = MPI_DATATYPE_NULL;
    expect(MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, comm), MPI_ERR_TYPE, "MPI_Alltoallw",
           NULL);
    types[0] = MPI_INT;
    still_works(comm);

    expect(MPI_Allreduce(a, a, 1, MPI_INT, MPI_SUM, comm), MPI_ERR_BUFFER, "MPI_Allreduce", "MPI_IN_PLACE");
    expect(MPI_Allgather(a, 1, MPI_INT, a, 1, MPI_INT, comm), MPI_ERR_BUFFER, "MPI_Allgather", NULL);
    expect(MPI_Alltoall(b, 1, MPI_INT, b, 1, MPI_INT, comm), MPI_ERR_BUFFER, "MPI_Alltoall", NULL);
    expect(MPI_Bcast(NULL, 3, MPI_INT, 0, comm), MPI_ERR_BUFFER, "MPI_Bcast", NULL);
    /* MPI_IN_PLACE at a non-root: with count 0 the root has nothing to wait for */
    if (rank != 0)
        expect(MPI_Reduce(MPI_IN_PLACE, b, 0, MPI_INT, MPI_SUM, 0, comm), MPI_ERR_BUFFER, "MPI_Reduce", "root");
    else
        CHECK_MPI(MPI_Reduce(MPI_IN_PLACE, b, 0, MPI_INT, MPI_SUM, 0, comm));
    still_works(comm);

    expect(MPI_Alltoallv(a, NULL, displs, MPI_INT, b, counts, displs, MPI_INT, comm), MPI_ERR_ARG,
           "MPI_Alltoallv", "sendcounts");
    expect(MPI_Allgatherv(a, 1, MPI_INT, b, counts, NULL, MPI_INT, comm), MPI_ERR_ARG, "MPI_Allgatherv", "displs");
    expect(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Barrier", NULL);
    expect(MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Allreduce", NULL);
    still_works(comm);

    /* ---- errors only some ranks see ---- */
    /* truncation at the root: every rank sends 2 ints, the root has room for 1 per rank */
    for (int i = 0; i < size * 4; i++)
        a[i] = i;
    int rc = MPI_Gather(a, 2, MPI_INT, b, 1, MPI_INT, 0, comm);
    if (rank == 0)
        expect(rc, MPI_ERR_TRUNCATE, "MPI_Gather", NULL);
    else
        CHECK_MPI(rc);
    still_works(comm);

    /* a broadcast the others receive into a shorter buffer: rank 1 (which receives from the root
     * in any tree) reports the truncation; ranks that receive from other non-roots may see the
     * truncation too, or the failure of the rank they receive from (it sends them nothing:
     * MPI_ERR_OTHER); none hangs */
    rc = MPI_Bcast(a, rank == 0 ? 4 : 2, MPI_INT, 0, comm);
    if (rank == 1)
        expect(rc, MPI_ERR_TRUNCATE, "MPI_Bcast", NULL);
    else if (rank == 0)
        CHECK_MPI(rc);
    else if (rc != MPI_SUCCESS) {
        int cls;
        MPI_Error_class(rc, &cls);
        expect(rc, cls == MPI_ERR_OTHER ? MPI_ERR_OTHER : MPI_ERR_TRUNCATE, "MPI_Bcast", NULL);
    }
    still_works(comm);

    /* type signatures that do not match: ints gathered as floats (MPI_ERR_TYPE at the root, also
     * for its own block) */
    rc = MPI_Gather(a, 1, MPI_INT, b, 1, MPI_FLOAT, 0, comm);
    if (rank == 0)
        expect(rc, MPI_ERR_TYPE, "MPI_Gather", "signature");
    else
        CHECK_MPI(rc);
    still_works(comm);

    /* root-only arguments that are invalid at the root: the others' messages stay unreceived, so
     * this comes last, on a communicator of its own */
    MPI_Comm last;
    MPI_Comm_dup(comm, &last);
    rc = MPI_Gather(a, 1, MPI_INT, b, 1, MPI_DATATYPE_NULL, 0, last);
    if (rank == 0)
        expect(rc, MPI_ERR_TYPE, "MPI_Gather", "recvtype");
    else
        CHECK_MPI(rc);
    rc = MPI_Gatherv(a, 1, MPI_INT, b, NULL, displs, MPI_INT, 0, last);
    if (rank == 0)
        expect(rc, MPI_ERR_ARG, "MPI_Gatherv", "recvcounts");
    else
        CHECK_MPI(rc);
    MPI_Barrier(comm);
    MPI_Comm_free(&last);

    MPI_Type_free(&uncommitted);
    free(a), free(b), free(counts), free(displs), free(types);
    MPI_Comm_free(&comm);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    return MTest_Finalize();
}
