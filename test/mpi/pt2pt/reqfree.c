/* MPI_Request_free of active sends: the handle becomes MPI_REQUEST_NULL at once, and the messages
 * still arrive intact (small ones and large pipelined ones; the sender keeps its buffers until
 * the receiver confirms). A handle that was freed is then invalid: MPI_ERR_REQUEST. Freeing
 * MPI_REQUEST_NULL is an error too. */
#include "mtest.h"
#include <stdlib.h>

#define BIG 200000

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int *big = malloc(sizeof(int) * BIG);

    if (rank == 0) {
        int small[4] = { 1, 2, 3, 4 };
        for (int i = 0; i < BIG; i++)
            big[i] = 3 * i;
        MPI_Request r1, r2, r3;
        CHECK_MPI(MPI_Isend(small, 4, MPI_INT, 1, 1, MPI_COMM_WORLD, &r1));
        CHECK_MPI(MPI_Isend(big, BIG, MPI_INT, 1, 2, MPI_COMM_WORLD, &r2));
        CHECK_MPI(MPI_Issend(small, 4, MPI_INT, 1, 3, MPI_COMM_WORLD, &r3));
        MPI_Request kept = r2;
        CHECK_MPI(MPI_Request_free(&r1));
        CHECK_MPI(MPI_Request_free(&r2));
        CHECK_MPI(MPI_Request_free(&r3));
        CHECK(r1 == MPI_REQUEST_NULL && r2 == MPI_REQUEST_NULL && r3 == MPI_REQUEST_NULL,
              "MPI_Request_free did not null the handles");
        CHECK_ERR(MPI_Wait(&kept, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
        CHECK_ERR(MPI_Request_free(&kept), MPI_ERR_REQUEST);
        MPI_Request null = MPI_REQUEST_NULL;
        CHECK_ERR(MPI_Request_free(&null), MPI_ERR_REQUEST);
        int done = 0;
        CHECK_MPI(MPI_Recv(&done, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_EQ(done, 1);
    } else if (rank == 1) {
        int small[4] = { 0 };
        CHECK_MPI(MPI_Recv(big, BIG, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(big[0] == 0 && big[BIG - 1] == 3 * (BIG - 1), "large freed send: %d .. %d", big[0], big[BIG - 1]);
        CHECK_MPI(MPI_Recv(small, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(small[0] == 1 && small[3] == 4, "small freed send: %d .. %d", small[0], small[3]);
        CHECK_MPI(MPI_Recv(small, 4, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(small[0] == 1 && small[3] == 4, "freed synchronous send: %d .. %d", small[0], small[3]);
        int done = 1;
        CHECK_MPI(MPI_Send(&done, 1, MPI_INT, 0, 9, MPI_COMM_WORLD));
    }
    free(big);
    return MTest_Finalize();
}
