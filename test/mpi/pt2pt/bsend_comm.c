/*
 * The buffers of MPI 4.1 buffered mode beyond the process's: a communicator's own
 * (MPI_Comm_attach_buffer, detach, flush, iflush), which the buffered sends on that communicator
 * use instead of the process's while it is attached, and MPI_Buffer_iflush. Checked: which
 * buffer a send uses (one too small to hold the message fails it), the buffer and size detach
 * gives back, flushes that complete once the receiver has taken the messages, a flush with nothing
 * pending, MPI_BUFFER_AUTOMATIC, a communicator freed with its buffer attached, the _c forms, and
 * the errors (attaching twice). Run with 2 processes.
 */
#include "mtest.h"

#define BIG 16384       /* ints in a message: large enough for the rendezvous protocol */
#define NMSG 3

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm a;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    int peer = (rank + 1) % size, from = (rank + size - 1) % size;

    int msg_bytes = 0;
    MPI_Pack_size(BIG, MPI_INT, a, &msg_bytes);
    int room = NMSG * (msg_bytes + MPI_BSEND_OVERHEAD);
    char *comm_buf = malloc((size_t) room), *small = malloc(64);
    int *data = malloc(BIG * sizeof(int)), *got = malloc(BIG * sizeof(int));
    for (int i = 0; i < BIG; i++)
        data[i] = rank * BIG + i;

    /* the process's buffer is too small for a message, a's holds three */
    CHECK_MPI(MPI_Buffer_attach(small, 64));
    CHECK_MPI(MPI_Comm_attach_buffer(a, comm_buf, room));
    CHECK_ERR(MPI_Comm_attach_buffer(a, comm_buf, room), MPI_ERR_BUFFER);
    CHECK_ERR(MPI_Bsend(data, BIG, MPI_INT, peer, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    for (int m = 0; m < NMSG; m++)
        CHECK_MPI(MPI_Bsend(data, BIG, MPI_INT, peer, m, a));
    CHECK_ERR(MPI_Bsend(data, BIG, MPI_INT, peer, 9, a), MPI_ERR_BUFFER);    /* a's is full */

    /* a flush of a's buffer completes once the receiver has taken them: it receives after a word
     * that this process sends after starting the flush */
    MPI_Request flush;
    CHECK_MPI(MPI_Comm_iflush_buffer(a, &flush));
    int word = 1;
    CHECK_MPI(MPI_Send(&word, 1, MPI_INT, peer, 100, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Recv(&word, 1, MPI_INT, from, 100, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int m = 0; m < NMSG; m++) {
        CHECK_MPI(MPI_Recv(got, BIG, MPI_INT, from, m, a, MPI_STATUS_IGNORE));
        for (int i = 0; i < BIG; i += 997)
            CHECK_EQ(got[i], from * BIG + i);
    }
    CHECK_MPI(MPI_Wait(&flush, MPI_STATUS_IGNORE));

    /* nothing pending: the flushes complete at once */
    int flag = 0;
    CHECK_MPI(MPI_Buffer_iflush(&flush));
    CHECK_MPI(MPI_Test(&flush, &flag, MPI_STATUS_IGNORE));
    CHECK_EQ(flag, 1);
    CHECK_MPI(MPI_Comm_flush_buffer(a));

    /* detached: the same buffer comes back, and a's sends use the process's buffer again */
    void *back = NULL;
    int back_size = 0;
    CHECK_MPI(MPI_Comm_detach_buffer(a, &back, &back_size));
    CHECK(back == comm_buf && back_size == room, "detach gave %p, %d (attached %p, %d)", back, back_size,
          (void *) comm_buf, room);
    CHECK_ERR(MPI_Bsend(data, BIG, MPI_INT, peer, 0, a), MPI_ERR_BUFFER);
    CHECK_MPI(MPI_Comm_detach_buffer(a, &back, &back_size));     /* nothing attached */
    CHECK(back == NULL && back_size == 0, "detach of nothing gave %p, %d", back, back_size);

    /* MPI_BUFFER_AUTOMATIC, with the large-count forms; then a freed with it attached and a
     * message still to be received */
    CHECK_MPI(MPI_Comm_attach_buffer_c(a, MPI_BUFFER_AUTOMATIC, 0));
    CHECK_MPI(MPI_Bsend(data, BIG, MPI_INT, peer, 7, a));
    CHECK_MPI(MPI_Recv(got, BIG, MPI_INT, from, 7, a, MPI_STATUS_IGNORE));
    CHECK_EQ(got[BIG - 1], from * BIG + BIG - 1);
    MPI_Count back_c = -1;
    CHECK_MPI(MPI_Comm_detach_buffer_c(a, &back, &back_c));
    CHECK(back == MPI_BUFFER_AUTOMATIC, "detach gave %p, not MPI_BUFFER_AUTOMATIC", back);
    CHECK_EQ(back_c, 0);
    CHECK_MPI(MPI_Comm_attach_buffer(a, MPI_BUFFER_AUTOMATIC, 0));
    if (rank == 0) {    /* freed with its buffer attached and a message on its way */
        CHECK_MPI(MPI_Bsend(data, BIG, MPI_INT, 1, 8, a));
    } else if (rank == 1) {
        CHECK_MPI(MPI_Recv(got, BIG, MPI_INT, 0, 8, a, MPI_STATUS_IGNORE));
        CHECK_EQ(got[BIG / 2], BIG / 2);
    }
    CHECK_MPI(MPI_Comm_free(&a));

    CHECK_MPI(MPI_Buffer_detach(&back, &back_size));
    free(comm_buf);
    free(small);
    free(data);
    free(got);
    return MTest_Finalize();
}
