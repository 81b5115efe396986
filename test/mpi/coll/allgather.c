/*
 * MPI_Allgather and MPI_Allgatherv on groups of every size, with basic and derived types (struct
 * of mixed types, vector, reversed indexed, negative stride, resized): each rank sends with one
 * layout and receives with another of the same signature; MPI_IN_PLACE. Allgatherv places the
 * blocks in reverse rank order with gaps; no byte outside the data may change.
 */
#include "colltest.h"
#include "layouts.h"

static int value(int sender, int salt, int k)
{
    return 100 * sender + 3 * k + salt;
}

static void test_allgather(MPI_Comm comm, int family, int m, int in_place)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    Layout ls[8];
    int nl = layouts_make(family, m, 0, ls);
    for (int shift = 0; shift < nl; shift++) {
        const Layout *sl = &ls[(rank + shift) % nl], *rl = &ls[(rank + shift + 1) % nl];
        Buf sb, rb;
        buf_alloc_blocks(&sb, sl, 1);
        buf_alloc_blocks(&rb, rl, size);
        for (int k = 0; k < m; k++)
            put_elem(in_place ? rl : sl, in_place ? rb.base + rank * rl->block : sb.base, k, value(rank, shift, k));
        CHECK_MPI(MPI_Allgather(in_place ? MPI_IN_PLACE : sb.base, in_place ? -1 : sl->count,
                                in_place ? MPI_DATATYPE_NULL : sl->type, rb.base, rl->count, rl->type, comm));
        char what[200];
        snprintf(what, sizeof what, "MPI_Allgather%s in %s", in_place ? " in place" : "", colltest_name(comm));
        blocks_check(&rb, rl, size, m, value, 1, 0, shift, what);
        buf_free(&rb);
        buf_free(&sb);
    }
    layouts_free(ls, nl);
}

static void test_allgatherv(MPI_Comm comm, int family, int m, int in_place)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    Layout ls[8];
    int nl = layouts_make(family, m, 1, ls);
    int *counts = malloc((size_t) size * sizeof(int)), *displs = malloc((size_t) size * sizeof(int));
    Vblock *vb = malloc((size_t) size * sizeof(Vblock));
    for (int shift = 0; shift < nl; shift++) {
        const Layout *sl = &ls[(rank + shift) % nl], *rl = &ls[(rank + shift + 1) % nl];
        Vblock mine = { sl, vblock_count(rank, m), 0 };
        Buf sb, rb;
        buf_alloc(&sb, 0, (mine.count + 1) * sl->stride);
        vblock_fill(&sb, &mine, value, rank, shift);
        vblocks_make(vb, size, rl, m, &rb, counts, displs);
        if (in_place)
            vblock_fill(&rb, &vb[rank], value, rank, shift);
        CHECK_MPI(MPI_Allgatherv(in_place ? MPI_IN_PLACE : sb.base, in_place ? 0 : mine.count,
                                 in_place ? MPI_DATATYPE_NULL : sl->type, rb.base, counts, displs, rl->type, comm));
        char what[200];
        snprintf(what, sizeof what, "MPI_Allgatherv%s in %s", in_place ? " in place" : "", colltest_name(comm));
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
        { test_allgather, 1 }, { test_allgather, 9 }, { test_allgatherv, 0 }, { test_allgatherv, 3 },
    };
    MTest_Init(&argc, &argv);
    layouts_run(cases, sizeof cases / sizeof cases[0]);
    return MTest_Finalize();
}
