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
static void check_recv(const Buf *b, const Layout *l, int m, int rank, int salt, const char *what, MPI_Comm comm)
{
    unsigned char *map = calloc(b->size, 1);
    mark_block(b, map, l, b->base, m);
    for (int k = 0; k < m; k++) {
        int v;
        int ok = get_elem(l, b->base, k, &v);
        CHECK(ok && v == value(rank, salt, k), "%s as %s, element %d: got %d, expected %d in %s", what, l->name, k,
              v, value(rank, salt, k), colltest_name(comm));
    }
    check_gaps(b, map, what);
    free(map);
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
                for (int i = 0; i < size; i++)
                    for (int k = 0; k < m; k++) {
                        int v;
                        get_elem(sl, sb.base + i * sl->block, k, &v);
                        CHECK_EQ(v, value(i, shift, k));
                    }
                buf_free(&sb);
                if (in_place) {
                    unsigned char *map = calloc(rb.size, 1);
                    check_gaps(&rb, map, "MPI_Scatter in place: the unused recvbuf");
                    free(map);
                } else {
                    check_recv(&rb, rl, m, rank, shift, "MPI_Scatter at the root", comm);
                }
            } else {
                CHECK_MPI(MPI_Scatter(NULL, -1, MPI_DATATYPE_NULL, rb.base, rl->count, rl->type, root, comm));
                check_recv(&rb, rl, m, rank, shift, "MPI_Scatter", comm);
            }
            buf_free(&rb);
        }
    layouts_free(ls, nl);
}

static int count_of(int i, int m)
{
    return (i * 5) % 4 + m;
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
            int mine = count_of(rank, m);
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
            for (int i = 0; i < size; i++)
                vb[i] = (Vblock) { sl, count_of(i, m), 0 };
            buf_alloc(&sb, 0, vblocks_place(vb, size));
            for (int i = 0; i < size; i++) {
                counts[i] = vb[i].count;
                displs[i] = (int) (vb[i].off / sl->stride);
                vblock_fill(&sb, &vb[i], value, i, shift);
            }
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
    MTest_Init(&argc, &argv);
    Colltest_comms cs;
    colltest_comms(&cs);
    for (int i = 0; i < cs.n; i++)
        for (int family = INTS; family <= RECORDS; family++)
            for (int in_place = 0; in_place < 2; in_place++) {
                test_scatter(cs.comms[i], family, 1, in_place);
                test_scatter(cs.comms[i], family, 6, in_place);
                test_scatterv(cs.comms[i], family, 0, in_place);
                test_scatterv(cs.comms[i], family, 3, in_place);
            }
    colltest_free(&cs);
    return MTest_Finalize();
}
