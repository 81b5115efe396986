/*
 * MPI_Reduce and MPI_Allreduce with predefined operations on groups of every size, from every
 * root: basic types, derived types (vector, reversed indexed, negative stride, resized,
 * contiguous) whose gaps must stay untouched, counts from 0 to beyond the engine's 64 KB chunks,
 * and MPI_IN_PLACE (at the root for MPI_Reduce, everywhere for MPI_Allreduce).
 */
#include "colltest.h"
#include "layouts.h"

/* rank r's element k, and the sum over ranks 0..n-1 */
static int value(int r, int k)
{
    return (r + 1) * 1000 + k % 997;
}

static int sum_of(int n, int k)
{
    return 1000 * n * (n + 1) / 2 + n * (k % 997);
}

static void fill(const Layout *l, Buf *b, int m, int rank)
{
    buf_reset(b);
    for (int k = 0; k < m; k++)
        put_elem(l, b->base, k, value(rank, k));
}

/* the result (MPI_SUM of every rank's values) in b, and nothing outside the elements */
static void check_sum(const Layout *l, const Buf *b, int m, int n, const char *what, MPI_Comm comm)
{
    unsigned char *map = calloc(b->size, 1);
    mark_block(b, map, l, b->base, m);
    for (int k = 0; k < m; k++) {
        int v;
        get_elem(l, b->base, k, &v);
        if (v != sum_of(n, k)) {
            MTEST_FAIL("%s as %s, element %d of %d: got %d, expected %d in %s", what, l->name, k, m, v, sum_of(n, k),
                       colltest_name(comm));
            break;
        }
    }
    check_gaps(b, map, what);
    free(map);
}

static void test(MPI_Comm comm, int m)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    Layout ls[8];
    int nl = layouts_make(INTS, m, 0, ls);
    for (int li = 0; li < nl; li++) {
        const Layout *l = &ls[li];
        Buf sb, rb;
        buf_alloc_blocks(&sb, l, 1);
        buf_alloc_blocks(&rb, l, 1);
        unsigned char *none = calloc(rb.size, 1);     /* no byte of the buffer is data */
        int step = m > 10000 && size > 1 ? size - 1 : 1;    /* big counts: the first and last root */
        for (int root = 0; root < size; root += step) {
            fill(l, &sb, m, rank);
            buf_reset(&rb);
            CHECK_MPI(MPI_Reduce(sb.base, rb.base, l->count, l->type, MPI_SUM, root, comm));
            if (rank == root)
                check_sum(l, &rb, m, size, "MPI_Reduce", comm);
            else
                check_gaps(&rb, none, "MPI_Reduce: recvbuf at a non-root");

            /* in place at the root; non-roots pass no receive buffer at all */
            fill(l, &rb, m, rank);
            if (rank == root) {
                CHECK_MPI(MPI_Reduce(MPI_IN_PLACE, rb.base, l->count, l->type, MPI_SUM, root, comm));
                check_sum(l, &rb, m, size, "MPI_Reduce in place", comm);
            } else {
                CHECK_MPI(MPI_Reduce(rb.base, NULL, l->count, l->type, MPI_SUM, root, comm));
            }
        }
        fill(l, &sb, m, rank);
        buf_reset(&rb);
        CHECK_MPI(MPI_Allreduce(sb.base, rb.base, l->count, l->type, MPI_SUM, comm));
        check_sum(l, &rb, m, size, "MPI_Allreduce", comm);
        fill(l, &rb, m, rank);
        CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, rb.base, l->count, l->type, MPI_SUM, comm));
        check_sum(l, &rb, m, size, "MPI_Allreduce in place", comm);
        free(none);
        buf_free(&sb);
        buf_free(&rb);
    }
    layouts_free(ls, nl);
}

/* count 0: nothing is read or written */
static void test_empty(MPI_Comm comm)
{
    int rank, a = 7, b = 9;
    MPI_Comm_rank(comm, &rank);
    CHECK_MPI(MPI_Reduce(&a, &b, 0, MPI_INT, MPI_SUM, 0, comm));
    CHECK_MPI(MPI_Allreduce(&a, &b, 0, MPI_INT, MPI_PROD, comm));
    CHECK(a == 7 && b == 9, "a count of 0 changed the buffers: %d %d", a, b);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    Colltest_comms cs;
    colltest_comms(&cs);
    for (int i = 0; i < cs.n; i++) {
        test_empty(cs.comms[i]);
        test(cs.comms[i], 1);
        test(cs.comms[i], 13);
    }
    /* beyond one 64 KB chunk of the reduction engine, on world and one smaller group */
    test(cs.comms[0], 50000);
    if (cs.n > 2)
        test(cs.comms[cs.n - 2], 50000);
    colltest_free(&cs);
    return MTest_Finalize();
}
