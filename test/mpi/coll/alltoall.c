/*
 * MPI_Alltoall, MPI_Alltoallv and MPI_Alltoallw on groups of every size, with basic and derived
 * types (struct of mixed types, vector, reversed indexed, negative stride, resized): send and
 * receive layouts differ (in Alltoallw, per peer); counts differ per pair (zero included);
 * MPI_IN_PLACE for all three. Blocks of the v/w forms lie in reverse rank order with gaps; no byte
 * outside the data may change.
 */
#include "colltest.h"
#include "layouts.h"

/* the value of element k of the block src sends to dst */
static int value(int src_dst, int salt, int k)
{
    return 1000 * src_dst + 3 * k + salt;
}
#define PAIR(src, dst) ((src) * 64 + (dst))

static void test_alltoall(MPI_Comm comm, int family, int m, int in_place)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    Layout ls[8];
    int nl = layouts_make(family, m, 0, ls);
    for (int shift = 0; shift < nl; shift++) {
        const Layout *sl = &ls[(rank + shift) % nl], *rl = &ls[(rank + shift + 2) % nl];
        Buf sb, rb;
        buf_alloc_blocks(&sb, sl, size);
        buf_alloc_blocks(&rb, rl, size);
        for (int d = 0; d < size; d++)
            for (int k = 0; k < m; k++) {
                if (in_place)
                    put_elem(rl, rb.base + d * rl->block, k, value(PAIR(rank, d), shift, k));
                else
                    put_elem(sl, sb.base + d * sl->block, k, value(PAIR(rank, d), shift, k));
            }
        CHECK_MPI(MPI_Alltoall(in_place ? MPI_IN_PLACE : sb.base, in_place ? -1 : sl->count,
                               in_place ? MPI_DATATYPE_NULL : sl->type, rb.base, rl->count, rl->type, comm));
        char what[200];
        snprintf(what, sizeof what, "MPI_Alltoall%s in %s", in_place ? " in place" : "", colltest_name(comm));
        blocks_check(&rb, rl, size, m, value, PAIR(1, 0), rank, shift, what);   /* block s: PAIR(s, rank) */
        buf_free(&rb);
        buf_free(&sb);
    }
    layouts_free(ls, nl);
}

/* elements src sends to dst; symmetric for MPI_IN_PLACE, where what rank j receives from rank i
 * has the count of what j sends to i */
static int count_of(int src, int dst, int m, int in_place)
{
    return (in_place ? src + dst : src + 2 * dst) % 3 + m;
}

/* w: per-peer layouts (ls[(rank + peer + shift) % nl] to send, + 1 to receive); v: one each */
static void test_alltoallvw(MPI_Comm comm, int family, int m, int in_place, int w)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    Layout ls[8];
    int nl = layouts_make(family, m, 1, ls);
    size_t n = (size_t) size;
    int *scounts = malloc(n * sizeof(int)), *sdispls = malloc(n * sizeof(int));
    int *rcounts = malloc(n * sizeof(int)), *rdispls = malloc(n * sizeof(int));
    MPI_Datatype *stypes = malloc(n * sizeof(MPI_Datatype)), *rtypes = malloc(n * sizeof(MPI_Datatype));
    Vblock *svb = malloc(n * sizeof(Vblock)), *rvb = malloc(n * sizeof(Vblock));
    const char *name = w ? "MPI_Alltoallw" : "MPI_Alltoallv";
    for (int shift = 0; shift < nl; shift++) {
        for (int p = 0; p < size; p++) {
            svb[p] = (Vblock) { &ls[((w ? rank + p : rank) + shift) % nl], count_of(rank, p, m, in_place), 0 };
            rvb[p] = (Vblock) { &ls[((w ? rank + p : rank) + shift + 1) % nl], count_of(p, rank, m, in_place), 0 };
        }
        Buf sb, rb;
        buf_alloc(&sb, 0, vblocks_place(svb, size));
        buf_alloc(&rb, 0, vblocks_place(rvb, size));
        for (int p = 0; p < size; p++) {
            scounts[p] = svb[p].count;
            rcounts[p] = rvb[p].count;
            stypes[p] = svb[p].l->type;
            rtypes[p] = rvb[p].l->type;
            /* v: in extents of the one type; w: in bytes */
            sdispls[p] = (int) (w ? svb[p].off : svb[p].off / svb[p].l->stride);
            rdispls[p] = (int) (w ? rvb[p].off : rvb[p].off / rvb[p].l->stride);
            if (in_place)
                vblock_fill(&rb, &rvb[p], value, PAIR(rank, p), shift);
            else
                vblock_fill(&sb, &svb[p], value, PAIR(rank, p), shift);
        }
        const void *sbuf = in_place ? MPI_IN_PLACE : sb.base;
        /* in place, the send arguments are ignored: garbage that must not even be read */
        const int *garbage = (const int *) 16;
        if (w)
            CHECK_MPI(MPI_Alltoallw(sbuf, in_place ? garbage : scounts, in_place ? garbage : sdispls,
                                    in_place ? (const MPI_Datatype *) garbage : stypes, rb.base, rcounts, rdispls,
                                    rtypes, comm));
        else
            CHECK_MPI(MPI_Alltoallv(sbuf, in_place ? garbage : scounts, in_place ? garbage : sdispls,
                                    in_place ? MPI_DATATYPE_NULL : stypes[0], rb.base, rcounts, rdispls, rtypes[0],
                                    comm));
        char what[200];
        snprintf(what, sizeof what, "%s%s in %s", name, in_place ? " in place" : "", colltest_name(comm));
        vblocks_check(&rb, rvb, size, value, PAIR(1, 0), rank, shift, what);   /* block s: PAIR(s, rank) */
        buf_free(&rb);
        buf_free(&sb);
    }
    free(scounts), free(sdispls), free(rcounts), free(rdispls), free(stypes), free(rtypes), free(svb), free(rvb);
    layouts_free(ls, nl);
}

static void test_alltoallv(MPI_Comm comm, int family, int m, int in_place)
{
    test_alltoallvw(comm, family, m, in_place, 0);
}

static void test_alltoallw(MPI_Comm comm, int family, int m, int in_place)
{
    test_alltoallvw(comm, family, m, in_place, 1);
}

int main(int argc, char **argv)
{
    static const Layouts_case cases[] = {
        { test_alltoall, 1 }, { test_alltoall, 5 }, { test_alltoallv, 0 }, { test_alltoallv, 2 },
        { test_alltoallw, 0 }, { test_alltoallw, 2 },
    };
    MTest_Init(&argc, &argv);
    layouts_run(cases, sizeof cases / sizeof cases[0]);
    return MTest_Finalize();
}
