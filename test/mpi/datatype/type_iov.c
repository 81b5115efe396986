/*
 * MPIX_Type_iov_len and MPIX_Type_iov (the MPICH extension): the contiguous pieces of one instance
 * of a type, as (offset, length) pairs relative to buffer address 0, in type-map order, pieces
 * that touch merged.
 *   iov_len(type, max_bytes) counts the leading pieces whose total stays within max_bytes (whole
 *   pieces only) and returns that total; iov(type, offset, iov, max) returns up to max pieces
 *   starting at piece number offset.
 * The expected pieces were worked out by hand from the constructors' arguments.
 */
#include <limits.h>
#include <stdint.h>
#include "mtest.h"

typedef struct {
    MPI_Aint off, len;
} piece;

/* Checks the whole piece list of type, then every (offset, max) window of it, then iov_len. */
static void expect_pieces(int line, MPI_Datatype type, int n, const piece *want)
{
    MPI_Count len = -1, bytes = -1, total = 0;
    for (int i = 0; i < n; i++)
        total += want[i].len;
    CHECK_MPI(MPIX_Type_iov_len(type, LLONG_MAX, &len, &bytes));
    if (len != n || bytes != total)
        MTEST_FAIL("line %d: iov_len(all) = %lld pieces, %lld bytes; expected %d, %lld", line, (long long) len,
                   (long long) bytes, n, (long long) total);

    MPIX_Iov iov[300];
    for (int off = 0; off <= n; off += (n > 20 ? 37 : 1)) {
        for (int max = 0; max <= n + 1; max += (n > 20 ? 61 : 1)) {
            MPI_Count got = -1;
            memset(iov, 0xff, sizeof iov);
            CHECK_MPI(MPIX_Type_iov(type, off, iov, max, &got));
            int expect_n = n - off < max ? n - off : max;
            if (got != expect_n) {
                MTEST_FAIL("line %d: iov(offset %d, max %d) gave %lld pieces, expected %d", line, off, max,
                           (long long) got, expect_n);
                return;
            }
            for (int i = 0; i < expect_n; i++)
                if ((MPI_Aint) (intptr_t) iov[i].iov_base != want[off + i].off || iov[i].iov_len != want[off + i].len) {
                    MTEST_FAIL("line %d: iov(offset %d) piece %d = (%ld, %ld), expected (%ld, %ld)", line, off, i,
                               (long) (intptr_t) iov[i].iov_base, (long) iov[i].iov_len, (long) want[off + i].off,
                               (long) want[off + i].len);
                    return;
                }
            /* nothing written past the pieces returned */
            if (expect_n < 300 && iov[expect_n].iov_len != (MPI_Aint) -1)
                MTEST_FAIL("line %d: iov(offset %d, max %d) wrote past its pieces", line, off, max);
        }
    }

    /* iov_len with a byte budget: whole pieces only */
    MPI_Count sum = 0;
    for (int k = 0; k <= n; k++) {
        /* a budget of exactly k pieces, then one byte short of the next */
        CHECK_MPI(MPIX_Type_iov_len(type, sum, &len, &bytes));
        if (len != k || bytes != sum)
            MTEST_FAIL("line %d: iov_len(%lld) = %lld, %lld; expected %d, %lld", line, (long long) sum,
                       (long long) len, (long long) bytes, k, (long long) sum);
        if (k < n) {
            CHECK_MPI(MPIX_Type_iov_len(type, sum + want[k].len - 1, &len, &bytes));
            if (len != k || bytes != sum)
                MTEST_FAIL("line %d: iov_len(%lld) = %lld, %lld; expected %d, %lld", line,
                           (long long) (sum + want[k].len - 1), (long long) len, (long long) bytes, k,
                           (long long) sum);
            sum += want[k].len;
        }
        if (n > 20)
            break;   /* long lists: the first budgets are enough */
    }
}

static MPI_Datatype commit(MPI_Datatype t)
{
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Datatype t, c2;

    /* a predefined type is one piece */
    piece p_int[] = { { 0, 4 } };
    expect_pieces(__LINE__, MPI_INT, 1, p_int);

    /* vector(3, 2, 4) of int: 8-byte blocks 16 bytes apart */
    CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &t));
    piece p_vec[] = { { 0, 8 }, { 16, 8 }, { 32, 8 } };
    expect_pieces(__LINE__, t = commit(t), 3, p_vec);
    MPI_Type_free(&t);

    /* negative stride: pieces in type-map order, below the buffer address */
    CHECK_MPI(MPI_Type_vector(3, 1, -2, MPI_INT, &t));
    piece p_neg[] = { { 0, 4 }, { -8, 4 }, { -16, 4 } };
    expect_pieces(__LINE__, t = commit(t), 3, p_neg);
    MPI_Type_free(&t);

    /* vector whose blocks touch: one piece */
    CHECK_MPI(MPI_Type_vector(4, 2, 2, MPI_INT, &t));
    piece p_one[] = { { 0, 32 } };
    expect_pieces(__LINE__, t = commit(t), 1, p_one);
    MPI_Type_free(&t);

    /* indexed {2 at 5, 1 at 0, 3 at 9} ints */
    int bl[3] = { 2, 1, 3 }, d[3] = { 5, 0, 9 };
    CHECK_MPI(MPI_Type_indexed(3, bl, d, MPI_INT, &t));
    piece p_idx[] = { { 20, 8 }, { 0, 4 }, { 36, 12 } };
    expect_pieces(__LINE__, t = commit(t), 3, p_idx);
    MPI_Type_free(&t);

    /* indexed blocks that follow each other in memory merge: {2 at 0, 2 at 2, 1 at 6} */
    int bl2[3] = { 2, 2, 1 }, d2[3] = { 0, 2, 6 };
    CHECK_MPI(MPI_Type_indexed(3, bl2, d2, MPI_INT, &t));
    piece p_idx2[] = { { 0, 16 }, { 24, 4 } };
    expect_pieces(__LINE__, t = commit(t), 2, p_idx2);
    MPI_Type_free(&t);

    /* struct {char at 0, double at 8, short at 16}: the double and the short touch */
    int sbl[3] = { 1, 1, 1 };
    MPI_Aint sd[3] = { 0, 8, 16 };
    MPI_Datatype st[3] = { MPI_CHAR, MPI_DOUBLE, MPI_SHORT };
    CHECK_MPI(MPI_Type_create_struct(3, sbl, sd, st, &t));
    piece p_st[] = { { 0, 1 }, { 8, 10 } };
    expect_pieces(__LINE__, t = commit(t), 2, p_st);
    MPI_Type_free(&t);

    /* struct {int at 0, double at 4}: touching entries of different types are one piece */
    MPI_Aint sd2[2] = { 0, 4 };
    MPI_Datatype st2[2] = { MPI_INT, MPI_DOUBLE };
    CHECK_MPI(MPI_Type_create_struct(2, sbl, sd2, st2, &t));
    piece p_st2[] = { { 0, 12 } };
    expect_pieces(__LINE__, t = commit(t), 1, p_st2);
    MPI_Type_free(&t);

    /* struct of a vector and an int: {vector(2,1,2) of int at 100, int at 0} */
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &c2));
    int sbl3[2] = { 1, 1 };
    MPI_Aint sd3[2] = { 100, 0 };
    MPI_Datatype st3[2] = { c2, MPI_INT };
    CHECK_MPI(MPI_Type_create_struct(2, sbl3, sd3, st3, &t));
    MPI_Type_free(&c2);
    piece p_st3[] = { { 100, 4 }, { 108, 4 }, { 0, 4 } };
    expect_pieces(__LINE__, t = commit(t), 3, p_st3);
    MPI_Type_free(&t);

    /* resized moves the bounds, not the data */
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 12, &t));
    expect_pieces(__LINE__, t = commit(t), 1, p_int);
    MPI_Type_free(&t);

    /* many pieces: hindexed of 250 ints at 8 * i + 3 (more than any internal chunk) */
    static int hbl[250];
    static MPI_Aint hd[250];
    static piece p_many[250];
    for (int i = 0; i < 250; i++) {
        hbl[i] = 1;
        hd[i] = 8 * i + 3;
        p_many[i] = (piece) { 8 * i + 3, 4 };
    }
    CHECK_MPI(MPI_Type_create_hindexed(250, hbl, hd, MPI_INT, &t));
    expect_pieces(__LINE__, t = commit(t), 250, p_many);
    MPI_Type_free(&t);

    /* beyond 32 bits (the engine keeps offsets and prefix sums in 32 bits where they fit): more
     * than 4 GiB of data in blocks 64 bytes apart (the second inside the first), then offsets
     * 3 GiB apart around the first block's */
    MPI_Count lbl[2] = { ((MPI_Count) 1 << 32) + 8, 16 }, ld[2] = { 0, 64 };
    CHECK_MPI(MPI_Type_create_hindexed_c(2, lbl, ld, MPI_BYTE, &t));
    piece p_big[] = { { 0, ((MPI_Aint) 1 << 32) + 8 }, { 64, 16 } };
    expect_pieces(__LINE__, t = commit(t), 2, p_big);
    MPI_Type_free(&t);
    MPI_Count fbl[3] = { 8, 16, 24 }, fd[3] = { (MPI_Count) 3 << 29, 0, (MPI_Count) 3 << 30 };
    CHECK_MPI(MPI_Type_create_hindexed_c(3, fbl, fd, MPI_BYTE, &t));
    piece p_far[] = { { (MPI_Aint) 3 << 29, 8 }, { 0, 16 }, { (MPI_Aint) 3 << 30, 24 } };
    expect_pieces(__LINE__, t = commit(t), 3, p_far);
    MPI_Type_free(&t);

    /* empty type: no pieces */
    CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &t));
    expect_pieces(__LINE__, t = commit(t), 0, NULL);
    MPI_Type_free(&t);

    /* errors: negative arguments, uncommitted type, NULL array */
    MPI_Count len, bytes;
    MPIX_Iov iov[2];
    CHECK_ERR(MPIX_Type_iov_len(MPI_INT, -1, &len, &bytes), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Type_iov(MPI_INT, -1, iov, 2, &len), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Type_iov(MPI_INT, 0, iov, -1, &len), MPI_ERR_ARG);
    CHECK_ERR(MPIX_Type_iov(MPI_INT, 0, NULL, 2, &len), MPI_ERR_ARG);
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
    CHECK_ERR(MPIX_Type_iov_len(t, 100, &len, &bytes), MPI_ERR_TYPE);
    CHECK_ERR(MPIX_Type_iov(t, 0, iov, 2, &len), MPI_ERR_TYPE);
    MPI_Type_free(&t);

    return MTest_Finalize();
}
