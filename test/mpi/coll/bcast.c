/*
 * MPI_Bcast from every root on groups of every size, with basic and derived types (vector,
 * indexed in reverse order, negative stride, resized, struct of mixed types): every rank uses a
 * different layout of the same type signature, and no byte outside the data may change.
 */
#include "colltest.h"
#include "layouts.h"

static int value(int root, int shift, int k)
{
    return 1000 * root + 10 * k + shift;
}

static void test(MPI_Comm comm, int family, int m)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    Layout ls[8];
    int nl = layouts_make(family, m, 0, ls);
    for (int shift = 0; shift < nl; shift++) {
        const Layout *l = &ls[(rank + shift) % nl];
        Buf b;
        buf_alloc_blocks(&b, l, 1);
        unsigned char *map = calloc(b.size, 1);
        mark_block(&b, map, l, b.base, m);
        for (int root = 0; root < size; root++) {
            buf_reset(&b);
            if (rank == root)
                for (int k = 0; k < m; k++)
                    put_elem(l, b.base, k, value(root, shift, k));
            CHECK_MPI(MPI_Bcast(b.base, l->count, l->type, root, comm));
            for (int k = 0; k < m; k++) {
                int v;
                int ok = get_elem(l, b.base, k, &v);
                CHECK(ok && v == value(root, shift, k), "root %d, layout %s, element %d: got %d, expected %d in %s",
                      root, l->name, k, v, value(root, shift, k), colltest_name(comm));
            }
            check_gaps(&b, map, l->name);
        }
        free(map);
        buf_free(&b);
    }
    layouts_free(ls, nl);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    Colltest_comms cs;
    colltest_comms(&cs);
    for (int i = 0; i < cs.n; i++)
        for (int family = INTS; family <= RECORDS; family++) {
            test(cs.comms[i], family, 1);
            test(cs.comms[i], family, 7);
            test(cs.comms[i], family, 1000);
        }
    colltest_free(&cs);
    return MTest_Finalize();
}
