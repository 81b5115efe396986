/* MPI_ANY_SOURCE and MPI_ANY_TAG: every other rank sends rank 0 three messages with tags that
 * encode the sender; rank 0 receives them all with wildcards and checks that the status names the
 * real source and tag of each, and that each message arrived exactly once. Then a receive with
 * MPI_ANY_SOURCE but a specific tag picks only messages of that tag. */
#include "mtest.h"
#include <stdlib.h>

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int per = 3;

    if (rank == 0) {
        int *seen = calloc((size_t) size * per, sizeof(int));
        for (int i = 0; i < (size - 1) * per; i++) {
            int msg[2] = { -1, -1 };
            MPI_Status st;
            CHECK_MPI(MPI_Recv(msg, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            CHECK(st.MPI_SOURCE == msg[0] && st.MPI_TAG == 10 * msg[0] + msg[1],
                  "message (%d, %d) arrived with source %d tag %d", msg[0], msg[1], st.MPI_SOURCE, st.MPI_TAG);
            if (msg[0] > 0 && msg[0] < size && msg[1] >= 0 && msg[1] < per)
                seen[msg[0] * per + msg[1]]++;
            int count = -1;
            MPI_Get_count(&st, MPI_INT, &count);
            CHECK_EQ(count, 2);
        }
        for (int r = 1; r < size; r++)
            for (int k = 0; k < per; k++)
                CHECK(seen[r * per + k] == 1, "message %d of rank %d arrived %d times", k, r, seen[r * per + k]);
        free(seen);
    } else {
        for (int k = 0; k < per; k++) {
            int msg[2] = { rank, k };
            CHECK_MPI(MPI_Send(msg, 2, MPI_INT, 0, 10 * rank + k, MPI_COMM_WORLD));
        }
    }

    /* Tag selection with any source: the last rank sends tags 7 then 8 (once rank 0 is done with
     * the wildcards above); rank 0 asks for 8 first. */
    if (size > 1) {
        int last = size - 1, go = 1;
        if (rank == 0)
            CHECK_MPI(MPI_Send(&go, 1, MPI_INT, last, 1, MPI_COMM_WORLD));
        if (rank == last) {
            int a = 70, b = 80;
            MPI_Request r[2];
            CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Isend(&a, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &r[0]));
            CHECK_MPI(MPI_Isend(&b, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, &r[1]));
            CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
        } else if (rank == 0) {
            int v = 0;
            MPI_Status st;
            CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, &st));
            CHECK(v == 80 && st.MPI_TAG == 8 && st.MPI_SOURCE == last, "got %d tag %d source %d", v, st.MPI_TAG,
                  st.MPI_SOURCE);
            CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, last, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            CHECK(v == 70 && st.MPI_TAG == 7 && st.MPI_SOURCE == last, "got %d tag %d source %d", v, st.MPI_TAG,
                  st.MPI_SOURCE);
        }
    }
    return MTest_Finalize();
}
