/*
 * MPI_Scan, MPI_Exscan, MPI_Reduce_scatter_block and MPI_Reduce_scatter on groups of every size:
 * with MPI_SUM on a strided derived type, and with a non-commutative user operation (digit
 * concatenation of digits.h), which must combine in rank order; MPI_IN_PLACE for each.
 */
#include "colltest.h"
#include "digits.h"

static long long digit(int r, int j)
{
    return (r + 2 * j) % 9 + 1;
}

/* the digits of ranks [from, to) for element j */
static long long concat_of(int from, int to, int j)
{
    long long v = 0;
    for (int r = from; r < to; r++)
        v = v * 10 + digit(r, j);
    return v;
}

static MPI_Datatype pair_type, strided;     /* digits; every other int */

static void test_scans(MPI_Comm comm, MPI_Op concat)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    enum { N = 3 };
    for (int in_place = 0; in_place < 2; in_place++)
        for (int ex = 0; ex < 2; ex++) {
            const char *name = ex ? "MPI_Exscan" : "MPI_Scan";
            digits in[N], out[N];
            for (int j = 0; j < N; j++) {
                in[j] = (digits) { digit(rank, j), 1 };
                out[j] = in_place ? in[j] : (digits) { -1, -1 };
            }
            const void *sb = in_place ? MPI_IN_PLACE : (const void *) in;
            CHECK_MPI(ex ? MPI_Exscan(sb, out, N, pair_type, concat, comm) : MPI_Scan(sb, out, N, pair_type, concat, comm));
            int upto = ex ? rank : rank + 1;
            if (upto > 0)       /* rank 0's MPI_Exscan result is undefined */
                for (int j = 0; j < N; j++)
                    CHECK(out[j].val == concat_of(0, upto, j) && out[j].len == upto,
                          "%s%s element %d: got (%lld, %lld), expected (%lld, %d) in %s", name,
                          in_place ? " in place" : "", j, out[j].val, out[j].len, concat_of(0, upto, j), upto,
                          colltest_name(comm));

            /* MPI_SUM over the strided type: ints 0, 2, 4 hold data, 1, 3, 5 must stay */
            int iv[6], ov[6];
            for (int k = 0; k < 6; k++) {
                iv[k] = k % 2 ? -5 : rank * 10 + k;
                ov[k] = in_place ? iv[k] : -5;
            }
            sb = in_place ? MPI_IN_PLACE : (const void *) iv;
            CHECK_MPI(ex ? MPI_Exscan(sb, ov, 1, strided, MPI_SUM, comm) : MPI_Scan(sb, ov, 1, strided, MPI_SUM, comm));
            for (int k = 0; k < 6 && upto > 0; k++) {
                int want = k % 2 ? -5 : 10 * upto * (upto - 1) / 2 + upto * k;
                CHECK(ov[k] == want, "%s%s on the strided type, int %d: got %d, expected %d in %s", name,
                      in_place ? " in place" : "", k, ov[k], want, colltest_name(comm));
            }
        }
}

static void test_reduce_scatter(MPI_Comm comm, MPI_Op concat)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int total = 0, *counts = malloc((size_t) size * sizeof(int)), first = 0;
    for (int i = 0; i < size; i++) {
        counts[i] = (i % 3) + (i == 0);
        if (i < rank)
            first += counts[i];
        total += counts[i];
    }
    size_t cap = (size_t) (total > 2 * size ? total : 2 * size) + 1;
    digits *in = malloc(cap * sizeof(digits)), *out = malloc(cap * sizeof(digits));
    for (int block = 0; block < 2; block++)
        for (int in_place = 0; in_place < 2; in_place++) {
            /* block: every rank gets 2 elements; else counts[i] */
            int n = block ? 2 * size : total, mine = block ? 2 : counts[rank], start = block ? 2 * rank : first;
            for (size_t j = 0; j < cap; j++)
                out[j] = (digits) { -1, -1 };
            for (int j = 0; j < n; j++) {
                in[j] = (digits) { digit(rank, j), 1 };
                if (in_place)
                    out[j] = in[j];
            }
            const void *sb = in_place ? MPI_IN_PLACE : (const void *) in;
            if (block)
                CHECK_MPI(MPI_Reduce_scatter_block(sb, out, 2, pair_type, concat, comm));
            else
                CHECK_MPI(MPI_Reduce_scatter(sb, out, counts, pair_type, concat, comm));
            for (int j = 0; j < mine; j++)
                CHECK(out[j].val == concat_of(0, size, start + j) && out[j].len == size,
                      "%s%s element %d: got (%lld, %lld), expected (%lld, %d) in %s",
                      block ? "MPI_Reduce_scatter_block" : "MPI_Reduce_scatter", in_place ? " in place" : "", j,
                      out[j].val, out[j].len, concat_of(0, size, start + j), size, colltest_name(comm));
            if (!in_place)
                CHECK(out[mine].val == -1, "element %d beyond the block was written", mine);
        }
    /* MPI_SUM of ints */
    int *iin = malloc((size_t) total * sizeof(int)), iout[4] = { -1, -1, -1, -1 };
    for (int j = 0; j < total; j++)
        iin[j] = j + rank;
    CHECK_MPI(MPI_Reduce_scatter(iin, iout, counts, MPI_INT, MPI_SUM, comm));
    for (int j = 0; j < counts[rank]; j++)
        CHECK_EQ(iout[j], (first + j) * size + size * (size - 1) / 2);
    free(iin);
    free(in);
    free(out);
    free(counts);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Type_contiguous(2, MPI_LONG_LONG, &pair_type);
    MPI_Type_commit(&pair_type);
    MPI_Type_vector(3, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    MPI_Op concat;
    MPI_Op_create(digits_concat_fn, 0, &concat);
    Colltest_comms cs;
    colltest_comms(&cs);
    for (int i = 0; i < cs.n; i++) {
        test_scans(cs.comms[i], concat);
        test_reduce_scatter(cs.comms[i], concat);
    }
    colltest_free(&cs);
    MPI_Op_free(&concat);
    MPI_Type_free(&pair_type);
    MPI_Type_free(&strided);
    return MTest_Finalize();
}
