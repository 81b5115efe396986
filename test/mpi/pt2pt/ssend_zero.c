/* A synchronous send of 0 bytes still completes only when its receive matches it, and the receive
 * completes with an empty status of the right source and tag (MPI 4.1, 3.4 and 3.2.5). A 0-byte
 * synchronous send goes through the rendezvous (request to send, clear to send) with no data
 * after it. Each rank sends to the next and receives from the previous one, with the receive
 * posted before (matched at arrival) and after (matched from the unexpected queue) the send; the
 * count is 0 of MPI_INT and of a non-empty derived type. */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(3, 2, 5, MPI_DOUBLE, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    MPI_Datatype types[2] = { MPI_INT, vec };
    for (int t = 0; t < 2; t++) {
        for (int posted_first = 0; posted_first < 2; posted_first++) {
            int tag = 10 * t + posted_first;
            MPI_Request rreq = MPI_REQUEST_NULL, sreq;
            MPI_Status st;
            double buf[16];
            if (posted_first)
                CHECK_MPI(MPI_Irecv(buf, 0, types[t], prev, tag, MPI_COMM_WORLD, &rreq));
            /* everyone has posted (or not) before anyone sends */
            CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
            CHECK_MPI(MPI_Issend(NULL, 0, types[t], next, tag, MPI_COMM_WORLD, &sreq));
            if (!posted_first) {
                /* the receive is not posted: the synchronous send must not complete yet */
                int flag = 1;
                for (int i = 0; i < 100 && flag; i++)
                    CHECK_MPI(MPI_Test(&sreq, &flag, MPI_STATUS_IGNORE));
                CHECK(!flag, "type %d: a 0-byte MPI_Issend completed before its receive was posted", t);
                /* no rank posts its receive before every rank has tested */
                CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
                CHECK_MPI(MPI_Irecv(buf, 0, types[t], prev, tag, MPI_COMM_WORLD, &rreq));
            }
            CHECK_MPI(MPI_Wait(&rreq, &st));
            CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
            int count = -1;
            CHECK_MPI(MPI_Get_count(&st, types[t], &count));
            CHECK_EQ(count, 0);
            CHECK_EQ(st.MPI_SOURCE, prev);
            CHECK_EQ(st.MPI_TAG, tag);
            CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        }
    }
    /* blocking MPI_Ssend of 0 bytes to a receive posted with MPI_ANY_SOURCE */
    if (rank == 0) {
        for (int r = 1; r < size; r++) {
            MPI_Status st;
            CHECK_MPI(MPI_Recv(NULL, 0, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st));
            CHECK(st.MPI_SOURCE > 0 && st.MPI_SOURCE < size, "source %d", st.MPI_SOURCE);
        }
    } else {
        CHECK_MPI(MPI_Ssend(NULL, 0, MPI_INT, 0, 7, MPI_COMM_WORLD));
    }
    CHECK_MPI(MPI_Type_free(&vec));
    return MTest_Finalize();
}
