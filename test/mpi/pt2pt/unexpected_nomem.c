/*
 * An unexpected message that the receiver has no memory to hold stays in the shared ring, its
 * sender held back, until a receive matches it (shm_progress.c): nothing aborts, nothing is lost
 * or reordered. Rank 0 sends eager messages of a vector type and a large (rendezvous) one; rank
 * 1, with every allocation refused (nomem.h's hooks), polls with MPI_Iprobe while they arrive,
 * probes the first (MPI_Probe sees it, MPI_Improbe has no memory to take it out of the ring:
 * MPI_ERR_NO_MEM), then receives them in order, still refused every allocation, and checks every
 * element. Then a second batch, received in the reverse order: each receive takes its message
 * from behind the ones held back before it (read past them), where it used to wait for ever.
 */
#include "nomem.h"

#define NMSG 20
#define BIG (1 << 20)
#define REVERSED 100    /* the tags of the second batch ... */
#define NREV 6          /* ... and its size: all of it held back at once must fit a ring (8 cells) */

/* Receives the message with tag from rank 0 and checks it holds elements first, first + 2, ... */
static void receive_check(int *b, MPI_Datatype every_other, int tag, int first)
{
    memset(b, 0, 128 * sizeof(int));
    CHECK_MPI(MPI_Recv(b, 1, every_other, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int k = 0; k < 128; k++)
        if (b[k] != (k % 2 ? 0 : first + k)) {
            MTEST_FAIL("message with tag %d: element %d is %d, expected %d", tag, k, b[k], k % 2 ? 0 : first + k);
            break;
        }
}

int main(int argc, char **argv)
{
    static int a[BIG], b[BIG];
    int rank, size;
    MTest_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Datatype every_other;
    MPI_Type_vector(64, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);

    if (rank == 0) {
        for (int i = 0; i < BIG; i++)
            a[i] = i;
        /* a message received before rank 1 refuses allocations, then its word that it does */
        CHECK_MPI(MPI_Send(a, 0, MPI_INT, 1, NMSG + 1, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(NULL, 0, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (int m = 0; m < NMSG; m++)
            CHECK_MPI(MPI_Send(a + m, 1, every_other, 1, m, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(a, BIG, MPI_INT, 1, NMSG, MPI_COMM_WORLD));
        for (int m = 0; m < NREV; m++)
            CHECK_MPI(MPI_Send(a + m, 1, every_other, 1, REVERSED + m, MPI_COMM_WORLD));
    } else if (rank == 1) {
        /* warm up what receiving needs once (request pools), then refuse everything */
        CHECK_MPI(MPI_Recv(b, 0, MPI_INT, 0, NMSG + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        arm(1, true);
        CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, 0, 0, MPI_COMM_WORLD));
        int flag = 0;
        for (int i = 0; i < 1000; i++)
            CHECK_MPI(MPI_Iprobe(0, NMSG + 2, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        CHECK(!flag, "a message with tag %d that was never sent", NMSG + 2);
        /* a probe sees a message held back; a matched probe, which must take it out of the
         * ring, has no memory to */
        MPI_Status st;
        int count = -1;
        CHECK_MPI(MPI_Probe(0, 0, MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(st.MPI_TAG == 0 && count == 64, "probe: tag %d, %d ints", st.MPI_TAG, count);
        MPI_Message msg = MPI_MESSAGE_NULL;
        CHECK_ERR(MPI_Improbe(0, 0, MPI_COMM_WORLD, &flag, &msg, MPI_STATUS_IGNORE), MPI_ERR_NO_MEM);
        CHECK(msg == MPI_MESSAGE_NULL, "a failed matched probe made a message");
        for (int m = 0; m < NMSG; m++)
            receive_check(b, every_other, m, m);
        CHECK_MPI(MPI_Recv(b, BIG, MPI_INT, 0, NMSG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        int big_ok = 1;
        for (int i = 0; i < BIG && big_ok; i++)
            big_ok = b[i] == i;
        for (int m = NREV - 1; m >= 0; m--)
            receive_check(b, every_other, REVERSED + m, m);
        long refusals = disarm();
        CHECK(refusals > 0, "no allocation was refused: the unexpected messages were never held back");
        CHECK(big_ok, "the large message arrived with other values");
        printf("%ld allocations refused\n", refusals);
    }
    MPI_Type_free(&every_other);
    return MTest_Finalize();
}
