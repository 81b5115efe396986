/*
 * Every nonblocking collective at once: on each communicator of colltest_comms all seventeen are
 * started back to back (with a blocking MPI_Allreduce on the same communicator in the middle), and
 * only then completed, in an order that is not the start order: MPI_Waitall over the requests
 * reversed, MPI_Wait one by one from the last, MPI_Waitany, or an MPI_Testsome loop. Each result is
 * compared with the value computed by hand.
 */
#include "colltest.h"

enum { NOPS = 17 };

typedef struct {
    int rank, size;
    int bc[4];
    int g_send[2], *g_recv;
    int gv_send[8], *gv_recv, *gv_counts, *gv_displs;
    int *s_send, s_recv[2];
    int *sv_send, *sv_counts, *sv_displs, sv_recv[3];
    int ag_send, *ag_recv;
    int agv_send[2], *agv_recv, *agv_counts, *agv_displs;
    int *a2a_send, *a2a_recv;
    int *a2av_send, *a2av_recv, *a2av_scounts, *a2av_sdispls, *a2av_rcounts, *a2av_rdispls;
    char *a2aw_send, *a2aw_recv;
    int *a2aw_counts, *a2aw_displs;
    MPI_Datatype *a2aw_stypes, *a2aw_rtypes;
    int red_send[3], red_recv[3], ar_send[3], ar_recv[3];
    int *rsb_send, rsb_recv[2];
    int *rs_send, rs_recv[2], *rs_counts;
    int scan_send, scan_recv, exscan_send, exscan_recv;
} Bufs;

static int *ints(int n)
{
    int *p = calloc((size_t) (n > 0 ? n : 1), sizeof *p);
    if (!p)
        abort();
    return p;
}

/* the 8-byte block rank src sends to rank dst in the alltoallw: an int or a double */
static MPI_Datatype w_type(int dst)
{
    return dst % 2 ? MPI_INT : MPI_DOUBLE;
}

static void start_all(Bufs *b, MPI_Comm comm, MPI_Request *reqs)
{
    int r = b->rank, n = b->size, k = 0;

    CHECK_MPI(MPI_Ibarrier(comm, &reqs[k++]));

    int bc_root = n - 1;
    for (int j = 0; j < 4; j++)
        b->bc[j] = r == bc_root ? 100 * bc_root + j : -1;
    CHECK_MPI(MPI_Ibcast(b->bc, 4, MPI_INT, bc_root, comm, &reqs[k++]));

    b->g_send[0] = 10 * r;
    b->g_send[1] = 10 * r + 1;
    b->g_recv = ints(2 * n);
    CHECK_MPI(MPI_Igather(b->g_send, 2, MPI_INT, b->g_recv, 2, MPI_INT, 0, comm, &reqs[k++]));

    /* rank i sends i % 3 + 1 ints to root n / 2, placed with a gap of one */
    b->gv_counts = ints(n);
    b->gv_displs = ints(n);
    for (int i = 0, off = 0; i < n; i++) {
        b->gv_counts[i] = i % 3 + 1;
        b->gv_displs[i] = off;
        off += b->gv_counts[i] + 1;
    }
    for (int j = 0; j < r % 3 + 1; j++)
        b->gv_send[j] = 1000 + 10 * r + j;
    b->gv_recv = ints(5 * n);
    for (int i = 0; i < 5 * n; i++)
        b->gv_recv[i] = -7;
    CHECK_MPI(MPI_Igatherv(b->gv_send, r % 3 + 1, MPI_INT, b->gv_recv, b->gv_counts, b->gv_displs, MPI_INT, n / 2,
                           comm, &reqs[k++]));

    b->s_send = ints(2 * n);
    for (int i = 0; i < 2 * n; i++)
        b->s_send[i] = r == 0 ? 7 * i : -1;
    CHECK_MPI(MPI_Iscatter(b->s_send, 2, MPI_INT, b->s_recv, 2, MPI_INT, 0, comm, &reqs[k++]));

    /* root n - 1 sends rank i (i + 1) % 3 + 1 ints, blocks in reverse order */
    b->sv_counts = ints(n);
    b->sv_displs = ints(n);
    b->sv_send = ints(4 * n);
    for (int i = n - 1, off = 0; i >= 0; i--) {
        b->sv_counts[i] = (i + 1) % 3 + 1;
        b->sv_displs[i] = off;
        for (int j = 0; j < b->sv_counts[i]; j++)
            b->sv_send[off + j] = 300 * i + j;
        off += b->sv_counts[i];
    }
    CHECK_MPI(MPI_Iscatterv(b->sv_send, b->sv_counts, b->sv_displs, MPI_INT, b->sv_recv, (r + 1) % 3 + 1, MPI_INT,
                            n - 1, comm, &reqs[k++]));

    b->ag_send = r * r + 1;
    b->ag_recv = ints(n);
    CHECK_MPI(MPI_Iallgather(&b->ag_send, 1, MPI_INT, b->ag_recv, 1, MPI_INT, comm, &reqs[k++]));

    b->agv_counts = ints(n);
    b->agv_displs = ints(n);
    for (int i = 0, off = 0; i < n; i++) {
        b->agv_counts[i] = i % 2 + 1;
        b->agv_displs[i] = off;
        off += 2;
    }
    b->agv_send[0] = 50 + r;
    b->agv_send[1] = 60 + r;
    b->agv_recv = ints(2 * n);
    CHECK_MPI(MPI_Iallgatherv(b->agv_send, r % 2 + 1, MPI_INT, b->agv_recv, b->agv_counts, b->agv_displs, MPI_INT,
                              comm, &reqs[k++]));

    /* the blocking collectives have their own matching: one in the middle changes nothing */
    int one = 1, total = 0;
    CHECK_MPI(MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, comm));
    CHECK_EQ(total, n);

    b->a2a_send = ints(n);
    b->a2a_recv = ints(n);
    for (int j = 0; j < n; j++)
        b->a2a_send[j] = 100 * r + j;
    CHECK_MPI(MPI_Ialltoall(b->a2a_send, 1, MPI_INT, b->a2a_recv, 1, MPI_INT, comm, &reqs[k++]));

    /* rank r sends (r + j) % 3 ints to rank j */
    b->a2av_scounts = ints(n);
    b->a2av_sdispls = ints(n);
    b->a2av_rcounts = ints(n);
    b->a2av_rdispls = ints(n);
    b->a2av_send = ints(3 * n);
    b->a2av_recv = ints(3 * n);
    for (int j = 0; j < n; j++) {
        b->a2av_scounts[j] = (r + j) % 3;
        b->a2av_rcounts[j] = (j + r) % 3;
        b->a2av_sdispls[j] = 3 * j;
        b->a2av_rdispls[j] = 3 * (n - 1 - j);
        for (int t = 0; t < 3; t++)
            b->a2av_send[3 * j + t] = 10000 * r + 10 * j + t;
    }
    CHECK_MPI(MPI_Ialltoallv(b->a2av_send, b->a2av_scounts, b->a2av_sdispls, MPI_INT, b->a2av_recv,
                             b->a2av_rcounts, b->a2av_rdispls, MPI_INT, comm, &reqs[k++]));

    /* block for rank j: one value of w_type(j), 8 bytes apart */
    b->a2aw_counts = ints(n);
    b->a2aw_displs = ints(n);
    b->a2aw_stypes = malloc((size_t) n * sizeof(MPI_Datatype));
    b->a2aw_rtypes = malloc((size_t) n * sizeof(MPI_Datatype));
    b->a2aw_send = calloc((size_t) n, 8);
    b->a2aw_recv = calloc((size_t) n, 8);
    for (int j = 0; j < n; j++) {
        b->a2aw_counts[j] = 1;
        b->a2aw_displs[j] = 8 * j;
        b->a2aw_stypes[j] = w_type(j);
        b->a2aw_rtypes[j] = w_type(r);
        if (w_type(j) == MPI_INT)
            *(int *) (b->a2aw_send + 8 * j) = 500 * r + j;
        else
            *(double *) (b->a2aw_send + 8 * j) = 500.5 * r + j;
    }
    CHECK_MPI(MPI_Ialltoallw(b->a2aw_send, b->a2aw_counts, b->a2aw_displs, b->a2aw_stypes, b->a2aw_recv,
                             b->a2aw_counts, b->a2aw_displs, b->a2aw_rtypes, comm, &reqs[k++]));

    for (int j = 0; j < 3; j++) {
        b->red_send[j] = r + j;
        b->red_recv[j] = -1;
        b->ar_send[j] = (r * 5 + j) % (n + 1);
    }
    CHECK_MPI(MPI_Ireduce(b->red_send, b->red_recv, 3, MPI_INT, MPI_SUM, n - 1, comm, &reqs[k++]));
    CHECK_MPI(MPI_Iallreduce(b->ar_send, b->ar_recv, 3, MPI_INT, MPI_MAX, comm, &reqs[k++]));

    b->rsb_send = ints(2 * n);
    for (int i = 0; i < 2 * n; i++)
        b->rsb_send[i] = r + i;
    CHECK_MPI(MPI_Ireduce_scatter_block(b->rsb_send, b->rsb_recv, 2, MPI_INT, MPI_SUM, comm, &reqs[k++]));

    b->rs_counts = ints(n);
    int tot = 0;
    for (int i = 0; i < n; i++)
        tot += b->rs_counts[i] = i % 2 + 1;
    b->rs_send = ints(tot);
    for (int i = 0; i < tot; i++)
        b->rs_send[i] = r * i;
    CHECK_MPI(MPI_Ireduce_scatter(b->rs_send, b->rs_recv, b->rs_counts, MPI_INT, MPI_SUM, comm, &reqs[k++]));

    b->scan_send = r + 1;
    b->exscan_send = r + 1;
    b->exscan_recv = -5;
    CHECK_MPI(MPI_Iscan(&b->scan_send, &b->scan_recv, 1, MPI_INT, MPI_SUM, comm, &reqs[k++]));
    CHECK_MPI(MPI_Iexscan(&b->exscan_send, &b->exscan_recv, 1, MPI_INT, MPI_SUM, comm, &reqs[k++]));
    CHECK_EQ(k, NOPS);
}

static void check_all(Bufs *b, MPI_Comm comm)
{
    int r = b->rank, n = b->size;
    const char *name = colltest_name(comm);
    for (int j = 0; j < 4; j++)
        CHECK(b->bc[j] == 100 * (n - 1) + j, "%s: Ibcast bc[%d] = %d", name, j, b->bc[j]);
    if (r == 0)
        for (int i = 0; i < 2 * n; i++)
            CHECK(b->g_recv[i] == 10 * (i / 2) + i % 2, "%s: Igather [%d] = %d", name, i, b->g_recv[i]);
    if (r == n / 2)
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i % 3 + 1; j++)
                CHECK(b->gv_recv[b->gv_displs[i] + j] == 1000 + 10 * i + j, "%s: Igatherv from %d [%d] = %d", name,
                      i, j, b->gv_recv[b->gv_displs[i] + j]);
            CHECK(b->gv_recv[b->gv_displs[i] + i % 3 + 1] == -7, "%s: Igatherv wrote into the gap after %d",
                  name, i);
        }
    for (int j = 0; j < 2; j++)
        CHECK(b->s_recv[j] == 7 * (2 * r + j), "%s: Iscatter [%d] = %d", name, j, b->s_recv[j]);
    for (int j = 0; j < (r + 1) % 3 + 1; j++)
        CHECK(b->sv_recv[j] == 300 * r + j, "%s: Iscatterv [%d] = %d", name, j, b->sv_recv[j]);
    for (int i = 0; i < n; i++)
        CHECK(b->ag_recv[i] == i * i + 1, "%s: Iallgather [%d] = %d", name, i, b->ag_recv[i]);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i % 2 + 1; j++)
            CHECK(b->agv_recv[2 * i + j] == (j ? 60 : 50) + i, "%s: Iallgatherv from %d [%d] = %d", name, i, j,
                  b->agv_recv[2 * i + j]);
    for (int j = 0; j < n; j++)
        CHECK(b->a2a_recv[j] == 100 * j + r, "%s: Ialltoall [%d] = %d", name, j, b->a2a_recv[j]);
    for (int j = 0; j < n; j++)
        for (int t = 0; t < (j + r) % 3; t++)
            CHECK(b->a2av_recv[3 * (n - 1 - j) + t] == 10000 * j + 10 * r + t, "%s: Ialltoallv from %d [%d] = %d",
                  name, j, t, b->a2av_recv[3 * (n - 1 - j) + t]);
    for (int j = 0; j < n; j++) {
        if (w_type(r) == MPI_INT)
            CHECK(*(int *) (b->a2aw_recv + 8 * j) == 500 * j + r, "%s: Ialltoallw from %d", name, j);
        else
            CHECK(*(double *) (b->a2aw_recv + 8 * j) == 500.5 * j + r, "%s: Ialltoallw from %d", name, j);
    }
    if (r == n - 1)
        for (int j = 0; j < 3; j++)
            CHECK(b->red_recv[j] == n * (n - 1) / 2 + n * j, "%s: Ireduce [%d] = %d", name, j, b->red_recv[j]);
    for (int j = 0; j < 3; j++) {
        int want = 0;
        for (int i = 0; i < n; i++)
            want = (i * 5 + j) % (n + 1) > want ? (i * 5 + j) % (n + 1) : want;
        CHECK(b->ar_recv[j] == want, "%s: Iallreduce [%d] = %d, expected %d", name, j, b->ar_recv[j], want);
    }
    for (int k = 0; k < 2; k++)
        CHECK(b->rsb_recv[k] == n * (n - 1) / 2 + n * (2 * r + k), "%s: Ireduce_scatter_block [%d] = %d", name, k,
              b->rsb_recv[k]);
    int first = 0;
    for (int i = 0; i < r; i++)
        first += b->rs_counts[i];
    for (int k = 0; k < b->rs_counts[r]; k++)
        CHECK(b->rs_recv[k] == n * (n - 1) / 2 * (first + k), "%s: Ireduce_scatter [%d] = %d", name, k,
              b->rs_recv[k]);
    CHECK(b->scan_recv == (r + 1) * (r + 2) / 2, "%s: Iscan = %d", name, b->scan_recv);
    if (r > 0)
        CHECK(b->exscan_recv == r * (r + 1) / 2, "%s: Iexscan = %d", name, b->exscan_recv);
}

static void free_all(Bufs *b)
{
    void *ps[] = { b->g_recv, b->gv_recv, b->gv_counts, b->gv_displs, b->s_send, b->sv_send, b->sv_counts,
                   b->sv_displs, b->ag_recv, b->agv_recv, b->agv_counts, b->agv_displs, b->a2a_send, b->a2a_recv,
                   b->a2av_send, b->a2av_recv, b->a2av_scounts, b->a2av_sdispls, b->a2av_rcounts, b->a2av_rdispls,
                   b->a2aw_send, b->a2aw_recv, b->a2aw_counts, b->a2aw_displs, b->a2aw_stypes, b->a2aw_rtypes,
                   b->rsb_send, b->rs_send, b->rs_counts };
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
        free(ps[i]);
}

/* Completes every request, in an order that depends on mode. */
static void complete(MPI_Request *reqs, int mode)
{
    MPI_Request rev[NOPS];
    switch (mode) {
    case 0:
        for (int i = 0; i < NOPS; i++)
            rev[i] = reqs[NOPS - 1 - i];
        CHECK_MPI(MPI_Waitall(NOPS, rev, MPI_STATUSES_IGNORE));
        for (int i = 0; i < NOPS; i++)
            CHECK(rev[i] == MPI_REQUEST_NULL, "Waitall left request %d", i);
        return;
    case 1:
        for (int i = NOPS - 1; i >= 0; i--)
            CHECK_MPI(MPI_Wait(&reqs[i], MPI_STATUS_IGNORE));
        break;
    case 2:
        for (int done = 0; done < NOPS; done++) {
            int idx = -1;
            CHECK_MPI(MPI_Waitany(NOPS, reqs, &idx, MPI_STATUS_IGNORE));
            CHECK(idx >= 0 && idx < NOPS, "Waitany index %d", idx);
        }
        break;
    default: {
        int done = 0, idx[NOPS];
        while (done < NOPS) {
            int outcount = 0;
            CHECK_MPI(MPI_Testsome(NOPS, reqs, &outcount, idx, MPI_STATUSES_IGNORE));
            CHECK(outcount != MPI_UNDEFINED, "Testsome found no active request with %d left", NOPS - done);
            if (outcount == MPI_UNDEFINED)
                break;
            done += outcount;
        }
    }
    }
    for (int i = 0; i < NOPS; i++)
        CHECK(reqs[i] == MPI_REQUEST_NULL, "request %d not completed", i);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    Colltest_comms cs;
    colltest_comms(&cs);
    for (int c = 0; c < cs.n; c++) {
        Bufs b;
        memset(&b, 0, sizeof b);
        MPI_Comm_rank(cs.comms[c], &b.rank);
        MPI_Comm_size(cs.comms[c], &b.size);
        MPI_Request reqs[NOPS];
        start_all(&b, cs.comms[c], reqs);
        complete(reqs, c % 4);
        check_all(&b, cs.comms[c]);
        free_all(&b);
    }
    colltest_free(&cs);
    return MTest_Finalize();
}
