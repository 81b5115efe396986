/*
 * Errors of the one-sided calls and the window error handlers (MPI 4.1, 9.3.2, 9.4, 12.8).
 *   - A new window gets MPI_ERRORS_ARE_FATAL (not the communicator's handler);
 *     MPI_Win_get_errhandler returns what MPI_Win_set_errhandler attached.
 *   - With MPI_ERRORS_RETURN on the window, the error classes of:
 *       synchronization: an RMA call outside any epoch (before the first fence, and after a fence
 *       with MPI_MODE_NOSUCCEED), MPI_Win_unlock without a lock, MPI_Win_unlock_all without
 *       lock_all, MPI_Win_flush(_all) outside a passive epoch, MPI_Win_complete without start,
 *       MPI_Win_wait without post, a second lock on a locked target, MPI_Rput in a fence epoch:
 *       MPI_ERR_RMA_SYNC;
 *       arguments, inside a valid epoch: target rank out of range (MPI_ERR_RANK), negative counts
 *       (MPI_ERR_COUNT), uncommitted datatypes and MPI_DATATYPE_NULL on either side
 *       (MPI_ERR_TYPE), an invalid lock type (MPI_ERR_LOCKTYPE), target memory past the end of
 *       the target's window (MPI_ERR_RMA_RANGE), a negative target displacement (MPI_ERR_DISP),
 *       MPI_OP_NULL in the accumulate family (MPI_ERR_OP), MPI_WIN_NULL (MPI_ERR_WIN; that error
 *       belongs to no window, so MPI_COMM_WORLD and MPI_COMM_SELF return errors too).
 *   - A handler from MPI_Win_create_errhandler is called with the window and the code the
 *     failing call then returns; MPI_Win_call_errhandler calls it with the code given and
 *     succeeds; the communicator's handler sees none of this; the handler stays attached after
 *     MPI_Errhandler_free.
 *   - Afterwards the window still works: a correct fence epoch with puts and gets.
 * Every rank provokes the same errors (only local checks: no erroneous call needs the target).
 * Run with 2 processes.
 */
#include "mtest.h"

#define WN 16                   /* ints in each window */

static int rank, size, next;
static int calls, comm_calls, seen_code;
static MPI_Win seen_win;

static void win_handler(MPI_Win *win, int *code, ...)
{
    calls++;
    seen_win = *win;
    seen_code = *code;
}

static void comm_handler(MPI_Comm *comm, int *code, ...)
{
    (void) comm;
    (void) code;
    comm_calls++;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    next = (rank + 1) % size;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    /* the window: the first WN of 4 * WN ints, so that a wrongly done access past its end still
     * lands in the program's memory */
    int *mem = malloc(4 * WN * sizeof(int)), buf[4 * WN], res[4 * WN];
    for (int i = 0; i < 4 * WN; i++) {
        mem[i] = -1;
        buf[i] = rank * 100 + i;
        res[i] = 0;
    }
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(mem, WN * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));

    /* ---- the default handler, set and get ---- */
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    CHECK_MPI(MPI_Win_get_errhandler(win, &eh));
    CHECK(eh == MPI_ERRORS_ARE_FATAL, "a new window's handler is %#x, not MPI_ERRORS_ARE_FATAL", (unsigned) eh);
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Win_get_errhandler(win, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "after set: %#x, not MPI_ERRORS_RETURN", (unsigned) eh);
    CHECK_MPI(MPI_Errhandler_free(&eh));

    /* ---- synchronization errors ---- */
    int one = 1;
    MPI_Request req = MPI_REQUEST_NULL;
    CHECK_ERR(MPI_Put(buf, 1, MPI_INT, next, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Get(res, 1, MPI_INT, next, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Accumulate(buf, 1, MPI_INT, next, 0, 1, MPI_INT, MPI_SUM, win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Fetch_and_op(&one, res, MPI_INT, next, 0, MPI_SUM, win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Win_unlock(next, win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Win_unlock_all(win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Win_flush(next, win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Win_flush_all(win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Win_complete(win), MPI_ERR_RMA_SYNC);
    CHECK_ERR(MPI_Win_wait(win), MPI_ERR_RMA_SYNC);
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, next, 0, win));
    CHECK_ERR(MPI_Win_lock(MPI_LOCK_SHARED, next, 0, win), MPI_ERR_RMA_SYNC);
    CHECK_MPI(MPI_Win_unlock(next, win));
    CHECK_ERR(MPI_Win_unlock(next, win), MPI_ERR_RMA_SYNC);     /* unlocked already */
    /* request-based operations need a passive-target epoch, a fence epoch is not one */
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_ERR(MPI_Rput(buf, 1, MPI_INT, next, 0, 1, MPI_INT, win, &req), MPI_ERR_RMA_SYNC);
    if (req != MPI_REQUEST_NULL) {      /* accepted after all: complete it */
        MTEST_FAIL("MPI_Rput in a fence epoch gave a request");
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    CHECK_ERR(MPI_Put(buf, 1, MPI_INT, next, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
    MPI_Barrier(MPI_COMM_WORLD);

    /* ---- argument errors inside a valid passive epoch ---- */
    MPI_Datatype uncommitted;
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    int rc;
    CHECK_ERR(rc = MPI_Win_lock(12345, next, 0, win), MPI_ERR_LOCKTYPE);
    if (rc == MPI_SUCCESS)              /* accepted after all: undo it */
        MPI_Win_unlock(next, win);
    CHECK_ERR(rc = MPI_Win_lock(MPI_LOCK_EXCLUSIVE + MPI_LOCK_SHARED, next, 0, win), MPI_ERR_LOCKTYPE);
    if (rc == MPI_SUCCESS)
        MPI_Win_unlock(next, win);
    CHECK_MPI(MPI_Win_lock_all(0, win));
    CHECK_ERR(MPI_Put(buf, 1, MPI_INT, size, 0, 1, MPI_INT, win), MPI_ERR_RANK);
    CHECK_ERR(MPI_Get(res, 1, MPI_INT, size + 3, 0, 1, MPI_INT, win), MPI_ERR_RANK);
    CHECK_ERR(MPI_Accumulate(buf, 1, MPI_INT, -100, 0, 1, MPI_INT, MPI_SUM, win), MPI_ERR_RANK);
    CHECK_ERR(MPI_Put(buf, -1, MPI_INT, next, 0, -1, MPI_INT, win), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Put(buf, 1, MPI_INT, next, 0, -1, MPI_INT, win), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Get(res, -2, MPI_INT, next, 0, 1, MPI_INT, win), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Accumulate(buf, -1, MPI_INT, next, 0, 1, MPI_INT, MPI_SUM, win), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Put_c(buf, -1, MPI_INT, next, 0, 1, MPI_INT, win), MPI_ERR_COUNT);
    CHECK_ERR(MPI_Put(buf, 1, uncommitted, next, 0, 2, MPI_INT, win), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Get(res, 2, MPI_INT, next, 0, 1, uncommitted, win), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Put(buf, 1, MPI_DATATYPE_NULL, next, 0, 1, MPI_INT, win), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Get(res, 1, MPI_INT, next, 0, 1, MPI_DATATYPE_NULL, win), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Fetch_and_op(&one, res, MPI_DATATYPE_NULL, next, 0, MPI_SUM, win), MPI_ERR_TYPE);
    /* past the end of the target's window of WN ints */
    CHECK_ERR(MPI_Put(buf, 1, MPI_INT, next, WN, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
    CHECK_ERR(MPI_Put(buf, WN + 1, MPI_INT, next, 0, WN + 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
    CHECK_ERR(MPI_Get(res, 2, MPI_INT, next, WN - 1, 2, MPI_INT, win), MPI_ERR_RMA_RANGE);
    CHECK_ERR(MPI_Accumulate(buf, 4, MPI_INT, next, WN - 2, 4, MPI_INT, MPI_SUM, win), MPI_ERR_RMA_RANGE);
    CHECK_ERR(MPI_Put(buf, 1, MPI_INT, next, -1, 1, MPI_INT, win), MPI_ERR_DISP);
    /* invalid operations */
    CHECK_ERR(MPI_Accumulate(buf, 1, MPI_INT, next, 0, 1, MPI_INT, MPI_OP_NULL, win), MPI_ERR_OP);
    CHECK_ERR(MPI_Get_accumulate(buf, 1, MPI_INT, res, 1, MPI_INT, next, 0, 1, MPI_INT, MPI_OP_NULL, win),
              MPI_ERR_OP);
    CHECK_ERR(MPI_Fetch_and_op(&one, res, MPI_INT, next, 0, MPI_OP_NULL, win), MPI_ERR_OP);
    /* the epoch survived the errors */
    CHECK_MPI(MPI_Win_unlock_all(win));
    MPI_Type_free(&uncommitted);

    /* ---- MPI_WIN_NULL ---- */
    int flag;
    CHECK_ERR(MPI_Put(buf, 1, MPI_INT, next, 0, 1, MPI_INT, MPI_WIN_NULL), MPI_ERR_WIN);
    CHECK_ERR(MPI_Get(res, 1, MPI_INT, next, 0, 1, MPI_INT, MPI_WIN_NULL), MPI_ERR_WIN);
    CHECK_ERR(MPI_Win_fence(0, MPI_WIN_NULL), MPI_ERR_WIN);
    CHECK_ERR(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, MPI_WIN_NULL), MPI_ERR_WIN);
    CHECK_ERR(MPI_Win_flush_all(MPI_WIN_NULL), MPI_ERR_WIN);
    CHECK_ERR(MPI_Win_test(MPI_WIN_NULL, &flag), MPI_ERR_WIN);
    CHECK_ERR(MPI_Win_set_errhandler(MPI_WIN_NULL, MPI_ERRORS_RETURN), MPI_ERR_WIN);
    CHECK_ERR(MPI_Win_get_errhandler(MPI_WIN_NULL, &eh), MPI_ERR_WIN);

    /* ---- a user handler ---- */
    MPI_Errhandler user = MPI_ERRHANDLER_NULL, ceh = MPI_ERRHANDLER_NULL, got = MPI_ERRHANDLER_NULL;
    CHECK_MPI(MPI_Win_create_errhandler(win_handler, &user));
    CHECK(user != MPI_ERRHANDLER_NULL && user != MPI_ERRORS_RETURN && user != MPI_ERRORS_ARE_FATAL,
          "new handler %#x", (unsigned) user);
    CHECK_MPI(MPI_Comm_create_errhandler(comm_handler, &ceh));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, ceh));
    CHECK_MPI(MPI_Win_set_errhandler(win, user));
    CHECK_MPI(MPI_Win_get_errhandler(win, &got));
    CHECK(got == user, "MPI_Win_get_errhandler gave %#x, set %#x", (unsigned) got, (unsigned) user);
    CHECK_MPI(MPI_Errhandler_free(&got));
    CHECK_MPI(MPI_Errhandler_free(&user));      /* the window keeps it */
    CHECK(user == MPI_ERRHANDLER_NULL, "free left %#x", (unsigned) user);

    CHECK_MPI(MPI_Win_lock_all(0, win));
    rc = MPI_Put(buf, 1, MPI_INT, size, 0, 1, MPI_INT, win);
    CHECK_EQ(calls, 1);
    CHECK(seen_win == win, "the handler saw window %#x, not %#x", (unsigned) seen_win, (unsigned) win);
    CHECK(seen_code == rc, "the handler saw code %d, the call returned %d", seen_code, rc);
    CHECK_ERR(rc, MPI_ERR_RANK);
    rc = MPI_Win_lock(MPI_LOCK_SHARED, next, 0, win);   /* inside lock_all */
    CHECK_EQ(calls, 2);
    CHECK(seen_code == rc, "the handler saw code %d, the call returned %d", seen_code, rc);
    CHECK_ERR(rc, MPI_ERR_RMA_SYNC);
    CHECK_MPI(MPI_Win_unlock_all(win));
    seen_win = MPI_WIN_NULL;
    CHECK_MPI(MPI_Win_call_errhandler(win, MPI_ERR_RMA_CONFLICT));
    CHECK_EQ(calls, 3);
    CHECK(seen_win == win && seen_code == MPI_ERR_RMA_CONFLICT, "MPI_Win_call_errhandler: window %#x, code %d",
          (unsigned) seen_win, seen_code);
    CHECK_EQ(comm_calls, 0);
    /* with MPI_ERRORS_RETURN attached, call_errhandler just succeeds */
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Win_call_errhandler(win, MPI_ERR_RMA_SYNC));
    CHECK_EQ(calls, 3);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Errhandler_free(&ceh));

    /* ---- the window still works ---- */
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < 4 * WN; i++)
        mem[i] = -1;
    int out[WN], in[WN];
    for (int i = 0; i < WN; i++) {
        out[i] = 1000 * rank + i;
        in[i] = -5;
    }
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(out, WN / 2, MPI_INT, next, 0, WN / 2, MPI_INT, win));
    CHECK_MPI(MPI_Get(in, WN / 2, MPI_INT, next, WN / 2, WN / 2, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    int prev = (rank + size - 1) % size;
    for (int i = 0; i < WN / 2; i++) {
        CHECK(mem[i] == 1000 * prev + i, "final epoch: window[%d] = %d, expected %d", i, mem[i], 1000 * prev + i);
        CHECK(in[i] == -1, "final epoch: got %d, expected -1", in[i]);
    }
    for (int i = WN / 2; i < 4 * WN; i++)
        CHECK(mem[i] == -1, "final epoch: int %d changed to %d", i, mem[i]);
    CHECK_MPI(MPI_Win_free(&win));
    free(mem);
    return MTest_Finalize();
}
