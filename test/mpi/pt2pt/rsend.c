/* Ready mode: MPI_Rsend and MPI_Irsend are correct only when the receive is already posted; rank
 * 1 posts its receives, then tells rank 0, which sends in ready mode (small and large). */
#include "mtest.h"
#include <stdlib.h>

#define BIG 100000

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int *a = malloc(sizeof(int) * BIG), *b = malloc(sizeof(int) * BIG);
    if (rank == 0) {
        for (int i = 0; i < BIG; i++)
            a[i] = i ^ 0x5555;
        int ready = 0;
        CHECK_MPI(MPI_Recv(&ready, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Rsend(a, 3, MPI_INT, 1, 1, MPI_COMM_WORLD));
        MPI_Request r;
        CHECK_MPI(MPI_Irsend(a, BIG, MPI_INT, 1, 2, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Rsend_c(a, (MPI_Count) BIG, MPI_INT, 1, 3, MPI_COMM_WORLD));
    } else if (rank == 1) {
        MPI_Request r[3];
        int s[3] = { -1, -1, -1 };
        CHECK_MPI(MPI_Irecv(s, 3, MPI_INT, 0, 1, MPI_COMM_WORLD, &r[0]));
        CHECK_MPI(MPI_Irecv(b, BIG, MPI_INT, 0, 2, MPI_COMM_WORLD, &r[1]));
        CHECK_MPI(MPI_Irecv_c(a, (MPI_Count) BIG, MPI_INT, 0, 3, MPI_COMM_WORLD, &r[2]));
        int ready = 1;
        CHECK_MPI(MPI_Send(&ready, 1, MPI_INT, 0, 0, MPI_COMM_WORLD));
        MPI_Status st[3];
        CHECK_MPI(MPI_Waitall(3, r, st));
        CHECK(s[0] == 0x5555 && s[2] == (2 ^ 0x5555), "small: %d %d", s[0], s[2]);
        for (int k = 0; k < 2; k++) {
            int *d = k ? a : b;
            CHECK(d[0] == 0x5555 && d[BIG - 1] == ((BIG - 1) ^ 0x5555), "large %d: %d .. %d", k, d[0], d[BIG - 1]);
            MPI_Count c = -1;
            MPI_Get_count_c(&st[1 + k], MPI_INT, &c);
            CHECK_EQ(c, BIG);
        }
    }
    free(a);
    free(b);
    return MTest_Finalize();
}
