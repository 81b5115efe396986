/*
 * MPI_Scatter and MPI_Scatterv from every root on groups of every size, with basic and derived
 * types (struct of mixed types, vector, reversed indexed, negative stride, resized): the root and
 * the receivers use different layouts of the same signature; MPI_IN_PLACE at the root; arguments
 * that only the root uses are garbage elsewhere. Scatterv takes the blocks in reverse rank order
 * with gaps; no receive byte outside the data may change.
 */
#include "colltest.h"
#include "layouts.h"

static int value(int receiver, int salt, int k)
{
    return 100 * receiver + 3 * k + salt;
}

/* the received block of m elements in layout l holds value(rank, salt, k) and nothing else */
static void check_recv(const Buf *b, const Layout *l, int m, int rank, int salt, const char *call, MPI_Comm comm)
{
    char what[200];
    snprintf(what, sizeof what, "%s in %s", call, colltest_name(comm));
    blocks_check(b, l, 1, m, value, 0, rank, salt, what);
}

static void test_scatter(MPI_Comm comm, int family, int m, int in_place)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    Layout ls[8];
    int nl = layouts_make(family, m, 0, ls);
    for (int shift = 0; shift < nl; shift++)
        for (int root = 0; root < size; root++) {
            const Layout *sl = &ls[(root + shift + 1) % nl], *rl = &ls[(rank + shift) % nl];
            Buf sb, rb;
            buf_alloc_blocks(&rb, rl, 1);
            if (rank == root) {
                buf_alloc_blocks(&sb, sl, size);
                for (int i = 0; i < size; i++)
                    for (int k = 0; k < m; k++)
                        put_elem(sl, sb.base + i * sl->block, k, value(i, shift, k));
                CHECK_MPI(MPI_Scatter(sb.base, sl->count, sl->type, in_place ? MPI_IN_PLACE : rb.base,
                                      in_place ? -1 : rl->count, in_place ? MPI_DATATYPE_NULL : rl->type, root, comm));
                /* the send buffer is only read */
                blocks_check(&sb, sl, size, m, value, 1, 0, shift, "MPI_Scatter: the send buffer");
                buf_free(&sb);
                if (in_place)   /* no block: the unused recvbuf is untouched */
                    blocks_check(&rb, rl, 0, m, value, 0, 0, shift, "MPI_Scatter in place: the unused recvbuf");
                else
                    check_recv(&rb, rl, m, rank, shift, "MPI_Scatter at the root", comm);
            } else {
                CHECK_MPI(MPI_Scatter(NULL, -1, MPI_DATATYPE_NULL, rb.base, rl->count, rl->type, root, comm));
                check_recv(&rb, rl, m, rank, shift, "MPI_Scatter", comm);
            }
            buf_free(&rb);
        }
    layouts_free(ls, nl);
}

static void test_scatterv(MPI_Comm comm, int family, int m, int in_place)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    Layout ls[8];
    int nl = layouts_make(family, m, 1, ls);
    int *counts = malloc((size_t) size * sizeof(int)), *displs = malloc((size_t) size * sizeof(int));
    Vblock *vb = malloc((size_t) size * sizeof(Vblock));
    for (int shift = 0; shift < nl; shift++)
        for (int root = 0; root < size; root++) {
            const Layout *sl = &ls[(root + shift + 1) % nl], *rl = &ls[(rank + shift) % nl];
            int mine = vblock_count(rank, m);
            Buf sb, rb;
            buf_alloc(&rb, 0, (mine + 1) * rl->stride);
            if (rank != root) {
                /* the root-only arrays may be garbage here: they must not even be read */
                CHECK_MPI(MPI_Scatterv(NULL, (const int *) 16, (const int *) 32, MPI_DATATYPE_NULL, rb.base, mine,
                                       rl->type, root, comm));
                check_recv(&rb, rl, mine, rank, shift, "MPI_Scatterv", comm);
                buf_free(&rb);
                continue;
            }
            vblocks_make(vb, size, sl, m, &sb, counts, displs);
            for (int i = 0; i < size; i++)
                vblock_fill(&sb, &vb[i], value, i, shift);
            CHECK_MPI(MPI_Scatterv(sb.base, counts, displs, sl->type, in_place ? MPI_IN_PLACE : rb.base,
                                   in_place ? 0 : mine, in_place ? MPI_DATATYPE_NULL : rl->type, root, comm));
            if (!in_place)
                check_recv(&rb, rl, mine, rank, shift, "MPI_Scatterv at the root", comm);
            buf_free(&sb);
            buf_free(&rb);
        }
    free(counts);
    free(displs);
    free(vb);
    layouts_free(ls, nl);
}

int main(int argc, char **argv)
{
    static const Layouts_case cases[] = {
        { test_scatter, 1 }, { test_scatter, 6 }, { test_scatterv, 0 }, { test_scatterv, 3 },
    };
    MTest_Init(&argc, &argv);
    layouts_run(cases, sizeof cases / sizeof cases[0]);
    return MTest_Finalize();
}
