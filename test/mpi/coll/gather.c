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
                unsigned char *map = calloc(rb.size, 1);
                for (int i = 0; i < size; i++) {
                    char *block = rb.base + i * rl->block;
                    mark_block(&rb, map, rl, block, m);
                    for (int k = 0; k < m; k++) {
                        int v;
                        int ok = get_elem(rl, block, k, &v);
                        CHECK(ok && v == value(i, shift, k), "%sroot %d, from %d as %s into %s, element %d: got %d, "
                              "expected %d in %s", in_place ? "in place, " : "", root, i, ls[(i + shift) % nl].name,
                              rl->name, k, v, value(i, shift, k), colltest_name(comm));
                    }
                }
                check_gaps(&rb, map, rl->name);
                free(map);
                buf_free(&rb);
            } else {
                /* receive arguments are not significant here */
                CHECK_MPI(MPI_Gather(sb.base, sl->count, sl->type, NULL, -1, MPI_DATATYPE_NULL, root, comm));
            }
            buf_free(&sb);
        }
    layouts_free(ls, nl);
}

/* rank i sends count(i) elements */
static int count_of(int i, int m)
{
    return (i * 5) % 4 + m;
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
            Vblock mine = { sl, count_of(rank, m), 0 };
            buf_alloc(&sb, 0, (mine.count + 1) * sl->stride);
            vblock_fill(&sb, &mine, value, rank, shift);
            if (rank != root) {
                /* the root-only arrays may be garbage here: they must not even be read */
                CHECK_MPI(MPI_Gatherv(sb.base, mine.count, sl->type, NULL, (const int *) 16, NULL, MPI_DATATYPE_NULL,
                                      root, comm));
                buf_free(&sb);
                continue;
            }
            for (int i = 0; i < size; i++)
                vb[i] = (Vblock) { rl, count_of(i, m), 0 };
            buf_alloc(&rb, 0, vblocks_place(vb, size));
            for (int i = 0; i < size; i++) {
                counts[i] = vb[i].count;
                displs[i] = (int) (vb[i].off / rl->stride);
            }
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
    MTest_Init(&argc, &argv);
    Colltest_comms cs;
    colltest_comms(&cs);
    for (int i = 0; i < cs.n; i++)
        for (int family = INTS; family <= RECORDS; family++)
            for (int in_place = 0; in_place < 2; in_place++) {
                test_gather(cs.comms[i], family, 1, in_place);
                test_gather(cs.comms[i], family, 6, in_place);
                test_gatherv(cs.comms[i], family, 0, in_place);
                test_gatherv(cs.comms[i], family, 3, in_place);
            }
    colltest_free(&cs);
    return MTest_Finalize();
}
