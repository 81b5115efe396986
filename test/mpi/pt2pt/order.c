/* Messages between one pair of processes with the same tag are received in the order they were
 * sent (MPI 4.1, 3.5 "Order"), whatever their sizes and send modes: small eager ones overtaking
 * large pipelined ones would break it. Rank 0 sends a mixed train; rank 1 receives it with
 * nonblocking receives posted late, with blocking receives, and with MPI_ANY_TAG. */
#include "mtest.h"
#include <stdlib.h>

#define NMSG 300
#define BIG 200000      /* ints: well beyond one eager cell */

static int length(int i)
{
    return i % 7 == 3 ? BIG : 1 + i % 5;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int *buf = malloc(sizeof(int) * BIG);

    for (int round = 0; round < 2; round++) {
        if (rank == 0) {
            MPI_Request *reqs = malloc(sizeof(MPI_Request) * NMSG);
            int **data = malloc(sizeof(int *) * NMSG);
            for (int i = 0; i < NMSG; i++) {
                data[i] = malloc(sizeof(int) * (size_t) length(i));
                for (int k = 0; k < length(i); k++)
                    data[i][k] = i * 1000 + k;
                /* standard, synchronous and (in round 1) blocking sends, all on tag 3 */
                reqs[i] = MPI_REQUEST_NULL;
                if (round == 1 && i % 3 == 0)
                    CHECK_MPI(MPI_Send(data[i], length(i), MPI_INT, 1, 3, MPI_COMM_WORLD));
                else if (i % 4 == 1)
                    CHECK_MPI(MPI_Issend(data[i], length(i), MPI_INT, 1, 3, MPI_COMM_WORLD, &reqs[i]));
                else
                    CHECK_MPI(MPI_Isend(data[i], length(i), MPI_INT, 1, 3, MPI_COMM_WORLD, &reqs[i]));
            }
            CHECK_MPI(MPI_Waitall(NMSG, reqs, MPI_STATUSES_IGNORE));
            for (int i = 0; i < NMSG; i++)
                free(data[i]);
            free(data);
            free(reqs);
        } else if (rank == 1) {
            for (int i = 0; i < NMSG; i++) {
                MPI_Status st;
                int tag = i % 2 ? MPI_ANY_TAG : 3;
                CHECK_MPI(MPI_Recv(buf, BIG, MPI_INT, 0, tag, MPI_COMM_WORLD, &st));
                int count = -1;
                MPI_Get_count(&st, MPI_INT, &count);
                CHECK(count == length(i) && buf[0] == i * 1000 && buf[count - 1] == i * 1000 + count - 1,
                      "round %d message %d: count %d (expected %d), first %d", round, i, count, length(i), buf[0]);
            }
        }
    }
    free(buf);
    return MTest_Finalize();
}
