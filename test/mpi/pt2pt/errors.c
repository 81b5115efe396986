/* Argument errors of point-to-point calls, each with its class (MPI_ERRORS_RETURN): ranks outside
 * the communicator (MPI_ERR_RANK; MPI_ANY_SOURCE is no destination), tags outside 0..MPI_TAG_UB
 * (MPI_ERR_TAG; MPI_ANY_TAG only for receives), negative counts, uncommitted or freed types,
 * invalid communicators and requests, NULL output arguments. A failing call starts nothing: the
 * receives that follow see no stray message. Run with 2 processes. */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    int buf[4] = { 0 }, flag;
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Status st;

    /* MPI_TAG_UB is at least 32767; ours is 2^30 - 1 */
    int *tag_ub = NULL;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag));
    CHECK(flag && tag_ub && *tag_ub == (1 << 30) - 1, "MPI_TAG_UB: flag %d value %d", flag, tag_ub ? *tag_ub : -1);

    CHECK_ERR(MPI_Send(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    CHECK_ERR(MPI_Send(buf, 1, MPI_INT, -5, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    CHECK_ERR(MPI_Send(buf, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    CHECK_ERR(MPI_Isend(buf, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
    CHECK_ERR(MPI_Ssend(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    CHECK_ERR(MPI_Recv(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK);
    CHECK_ERR(MPI_Irecv(buf, 1, MPI_INT, -3, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
    CHECK_ERR(MPI_Probe(size, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK);
    CHECK_ERR(MPI_Iprobe(-7, 0, MPI_COMM_WORLD, &flag, &st), MPI_ERR_RANK);
    CHECK_ERR(MPI_Send(buf, 1, MPI_INT, 1, 0, MPI_COMM_SELF), MPI_ERR_RANK);
    CHECK_ERR(MPI_Sendrecv(buf, 1, MPI_INT, 0, 0, buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK);
    CHECK_ERR(MPI_Sendrecv(buf, 1, MPI_INT, size, 0, buf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK);
    CHECK(r == MPI_REQUEST_NULL, "a failed call set the request");

    CHECK_ERR(MPI_Send(buf, 1, MPI_INT, 0, -1, MPI_COMM_WORLD), MPI_ERR_TAG);
    CHECK_ERR(MPI_Send(buf, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_ERR_TAG);
    CHECK_ERR(MPI_Send(buf, 1, MPI_INT, 0, 1 << 30, MPI_COMM_WORLD), MPI_ERR_TAG);
    CHECK_ERR(MPI_Bsend(buf, 1, MPI_INT, 0, -4, MPI_COMM_WORLD), MPI_ERR_TAG);
    CHECK_ERR(MPI_Recv(buf, 1, MPI_INT, 0, -2, MPI_COMM_WORLD, &st), MPI_ERR_TAG);
    CHECK_ERR(MPI_Irecv(buf, 1, MPI_INT, 0, (1 << 30) + 5, MPI_COMM_WORLD, &r), MPI_ERR_TAG);
    CHECK_ERR(MPI_Iprobe(0, -9, MPI_COMM_WORLD, &flag, &st), MPI_ERR_TAG);
    CHECK_ERR(MPI_Sendrecv_replace(buf, 1, MPI_INT, 0, MPI_ANY_TAG, 0, 0, MPI_COMM_WORLD, &st), MPI_ERR_TAG);
    /* the largest tag works */
    CHECK_MPI(MPI_Sendrecv(buf, 1, MPI_INT, rank, (1 << 30) - 1, buf + 1, 1, MPI_INT, rank, (1 << 30) - 1,
                           MPI_COMM_WORLD, &st));
    CHECK_EQ(st.MPI_TAG, (1 << 30) - 1);

    CHECK_ERR(MPI_Send(buf, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Irecv(buf, -2, MPI_INT, 0, 0, MPI_COMM_WORLD, &r), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Send_c(buf, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);

    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    CHECK_ERR(MPI_Send(buf, 1, vec, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);      /* not committed */
    CHECK_ERR(MPI_Recv(buf, 1, vec, 0, 0, MPI_COMM_WORLD, &st), MPI_ERR_TYPE);
    MPI_Type_commit(&vec);
    MPI_Datatype stale = vec;
    MPI_Type_free(&vec);
    CHECK_ERR(MPI_Send(buf, 1, stale, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);    /* freed */
    CHECK_ERR(MPI_Send(buf, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);

    CHECK_ERR(MPI_Send(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    CHECK_ERR(MPI_Recv(buf, 1, MPI_INT, 0, 0, (MPI_Comm) 0x12345, &st), MPI_ERR_COMM);
    CHECK_ERR(MPI_Isend(buf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Recv(buf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Iprobe(0, 0, MPI_COMM_WORLD, NULL, &st), MPI_ERR_ARG);

    MPI_Request bogus = (MPI_Request) 0x12345;
    CHECK_ERR(MPI_Wait(&bogus, &st), MPI_ERR_REQUEST);
    CHECK_ERR(MPI_Test(&bogus, &flag, &st), MPI_ERR_REQUEST);
    CHECK_ERR(MPI_Request_free(&bogus), MPI_ERR_REQUEST);
    CHECK_ERR(MPI_Cancel(&bogus), MPI_ERR_REQUEST);
    CHECK_ERR(MPI_Request_get_status(bogus, &flag, &st), MPI_ERR_REQUEST);
    MPI_Request arr[3] = { MPI_REQUEST_NULL, bogus, MPI_REQUEST_NULL };
    int index, outcount, indices[3];
    CHECK_ERR(MPI_Waitall(3, arr, MPI_STATUSES_IGNORE), MPI_ERR_REQUEST);
    CHECK_ERR(MPI_Waitany(3, arr, &index, &st), MPI_ERR_REQUEST);
    CHECK_ERR(MPI_Testsome(3, arr, &outcount, indices, MPI_STATUSES_IGNORE), MPI_ERR_REQUEST);
    CHECK_ERR(MPI_Waitall(-1, arr, MPI_STATUSES_IGNORE), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Waitall(2, NULL, MPI_STATUSES_IGNORE), MPI_ERR_ARG);
    CHECK_ERR(MPI_Wait(NULL, &st), MPI_ERR_ARG);

    /* nothing stray was sent by the failed calls */
    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
    CHECK(!flag, "a message from %d tag %d after failed calls", st.MPI_SOURCE, st.MPI_TAG);
    return MTest_Finalize();
}
