/*
 * MPI_Gather and MPI_Gatherv from every root on groups of every size, with basic and derived types
 * (struct of mixed types, vector, reversed indexed, negative stride, resized): senders and the
 * root use different layouts of the same signature; MPI_IN_PLACE at the root; arguments that only
 * the root uses are garbage elsewhere. Gatherv places the blocks in reverse rank order with gaps,
 * and no byte outside the data may change.
 */
#include "colltest.h"
#include "layouts.h"

static int value(int sender, int salt, int k)
{
    return 100 * sender + 3 * k + salt;
}

static void test_gather(MPI_Comm comm, int family, int m, int in_place)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    Layout ls[8];
    int nl = layouts_make(family, m, 0, ls);
    for (int shift = 0; shift < nl; shift++)
        for (int root = 0; root < size; root++) {
            const Layout *sl = &ls[(rank + shift) % nl], *rl = &ls[(root + shift + 1) % nl];
            Buf sb, rb;
            buf_alloc_blocks(&sb, sl, 1);
            for (int k = 0; k < m; k++)
                put_elem(sl, sb.base, k, value(rank, shift, k));
            if (rank == root) {
                buf_alloc_blocks(&rb, rl, size);
                if (in_place)
                    for (int k = 0; k < m; k++)
                        put_elem(rl, rb.base + root * rl->block, k, value(root, shift, k));
                CHECK_MPI(MPI_Gather(in_place ? MPI_IN_PLACE : sb.base, in_place ? -1 : sl->count,
                                     in_place ? MPI_DATATYPE_NULL : sl->type, rb.base, rl->count, rl->type, root, comm));
                char what[200];
                snprintf(what, sizeof what, "MPI_Gather%s to root %d in %s", in_place ? " in place" : "", root,
                         colltest_name(comm));
                blocks_check(&rb, rl, size, m, value, 1, 0, shift, what);
                buf_free(&rb);
            } else {
                /* receive arguments are not significant here */
                CHECK_MPI(MPI_Gather(sb.base, sl->count, sl->type, NULL, -1, MPI_DATATYPE_NULL, root, comm));
            }
            buf_free(&sb);
        }
    layouts_free(ls, nl);
}

static void test_gatherv(MPI_Comm comm, int family, int m, int in_place)
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
            const Layout *sl = &ls[(rank + shift) % nl], *rl = &ls[(root + shift + 1) % nl];
            Buf sb, rb;
            Vblock mine = { sl, vblock_count(rank, m), 0 };
            buf_alloc(&sb, 0, (mine.count + 1) * sl->stride);
            vblock_fill(&sb, &mine, value, rank, shift);
            if (rank != root) {
                /* the root-only arrays may be garbage here: they must not even be read */
                CHECK_MPI(MPI_Gatherv(sb.base, mine.count, sl->type, NULL, (const int *) 16, NULL, MPI_DATATYPE_NULL,
                                      root, comm));
                buf_free(&sb);
                continue;
            }
            vblocks_make(vb, size, rl, m, &rb, counts, displs);
            if (in_place)
                vblock_fill(&rb, &vb[root], value, root, shift);
            CHECK_MPI(MPI_Gatherv(in_place ? MPI_IN_PLACE : sb.base, in_place ? 0 : mine.count,
                                  in_place ? MPI_DATATYPE_NULL : sl->type, rb.base, counts, displs, rl->type, root, comm));
            char what[200];
            snprintf(what, sizeof what, "MPI_Gatherv%s to root %d in %s", in_place ? " in place" : "", root,
                     colltest_name(comm));
            vblocks_check(&rb, vb, size, value, 1, 0, shift, what);
            buf_free(&rb);
            buf_free(&sb);
        }
    free(counts);
    free(displs);
    free(vb);
    layouts_free(ls, nl);
}

int main(int argc, char **argv)
{
    static const Layouts_case cases[] = {
        { test_gather, 1 }, { test_gather, 6 }, { test_gatherv, 0 }, { test_gatherv, 3 },
    };
    MTest_Init(&argc, &argv);
    layouts_run(cases, sizeof cases / sizeof cases[0]);
    return MTest_Finalize();
}
