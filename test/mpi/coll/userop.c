/*
 * User-defined operations: a non-commutative one must combine in rank order (v0 op v1 op ... op
 * vn-1) in MPI_Reduce from every root and in MPI_Allreduce, also on a derived datatype (which the
 * function receives as given) and in place; a commutative one; MPI_Op_create_c; what
 * MPI_Op_commutative reports; MPI_Op_free and the errors of freed and predefined operations.
 *
 * The non-commutative operation concatenates decimal digits: an element (value, ndigits) stands
 * for a digit string, and a op b is the string of a followed by that of b.
 */
#include "colltest.h"

typedef struct {
    long long val, len;
} digits;

static MPI_Datatype pair_type;      /* digits: contiguous(2, MPI_LONG_LONG) */
static MPI_Datatype strided_type;   /* 3 digits elements, every other one: vector(3, 1, 2, pair_type) */
static int bad_type_seen;

static void concat(const digits *in, digits *inout)
{
    long long p = 1;
    for (long long i = 0; i < inout->len; i++)
        p *= 10;
    inout->val = in->val * p + inout->val;
    inout->len += in->len;
}

static void concat_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
    if (*type == pair_type) {
        for (int i = 0; i < *len; i++)
            concat((digits *) in + i, (digits *) inout + i);
    } else if (*type == strided_type) {
        for (int i = 0; i < *len; i++)
            for (int j = 0; j < 3; j++)
                concat((digits *) in + 6 * i + 2 * j, (digits *) inout + 6 * i + 2 * j);
    } else {
        bad_type_seen++;
    }
}

static void concat_fn_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *type)
{
    int n = (int) *len;
    concat_fn(in, inout, &n, type);
}

/* a commutative operation: sum modulo 1000 */
static void summod_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void) type;
    for (int i = 0; i < *len; i++)
        ((int *) inout)[i] = (((int *) in)[i] + ((int *) inout)[i]) % 1000;
}

/* element j of rank r: one digit */
static long long digit(int r, int j)
{
    return (r + j) % 9 + 1;
}

/* the concatenation of the digits of ranks 0..n-1 */
static long long expected(int n, int j)
{
    long long v = 0;
    for (int r = 0; r < n; r++)
        v = v * 10 + digit(r, j);
    return v;
}

#define N 4

static void fill(digits *d, int stride, int rank)
{
    for (int j = 0; j < N * stride; j++)
        d[j] = (digits) { -1, -1 };     /* gaps */
    for (int j = 0; j < N; j++)
        d[j * stride] = (digits) { digit(rank, j), 1 };
}

static void verify(const digits *d, int stride, int n, const char *what, MPI_Comm comm)
{
    for (int j = 0; j < N * stride; j++) {
        long long want = j % stride ? -1 : expected(n, j / stride), wlen = j % stride ? -1 : n;
        CHECK(d[j].val == want && d[j].len == wlen, "%s, element %d: got (%lld, %lld), expected (%lld, %lld) in %s",
              what, j, d[j].val, d[j].len, want, wlen, colltest_name(comm));
    }
}

static void test_noncommutative(MPI_Comm comm, MPI_Op op)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    digits in[N], out[N];
    for (int root = 0; root < size; root++) {
        fill(in, 1, rank);
        fill(out, 1, -1);
        CHECK_MPI(MPI_Reduce(in, out, N, pair_type, op, root, comm));
        if (rank == root)
            verify(out, 1, size, "MPI_Reduce", comm);
        fill(out, 1, rank);
        if (rank == root) {
            CHECK_MPI(MPI_Reduce(MPI_IN_PLACE, out, N, pair_type, op, root, comm));
            verify(out, 1, size, "MPI_Reduce in place", comm);
        } else {
            CHECK_MPI(MPI_Reduce(out, NULL, N, pair_type, op, root, comm));
        }
    }
    fill(in, 1, rank);
    CHECK_MPI(MPI_Allreduce(in, out, N, pair_type, op, comm));
    verify(out, 1, size, "MPI_Allreduce", comm);
    fill(out, 1, rank);
    CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, out, N, pair_type, op, comm));
    verify(out, 1, size, "MPI_Allreduce in place", comm);

    /* the derived type: elements 0, 2, 4 of the buffer; 1, 3, 5 and 6, 7 are gaps */
    digits sin[2 * N], sout[2 * N];
    for (int j = 0; j < 2 * N; j++)
        sin[j] = sout[j] = (digits) { -1, -1 };
    for (int j = 0; j < 3; j++)
        sin[2 * j] = (digits) { digit(rank, j), 1 };
    CHECK_MPI(MPI_Allreduce(sin, sout, 1, strided_type, op, comm));
    for (int j = 0; j < 2 * N; j++) {
        int data = j % 2 == 0 && j < 6;
        long long want = data ? expected(size, j / 2) : -1, wlen = data ? size : -1;
        CHECK(sout[j].val == want && sout[j].len == wlen,
              "MPI_Allreduce on the strided type, element %d: got (%lld, %lld), expected (%lld, %lld) in %s", j,
              sout[j].val, sout[j].len, want, wlen, colltest_name(comm));
    }
}

static void test_commutative(MPI_Comm comm, MPI_Op op)
{
    int rank, size, in[3], out[3];
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int j = 0; j < 3; j++)
        in[j] = 400 + rank * 7 + j;
    for (int root = 0; root < size; root++) {
        CHECK_MPI(MPI_Reduce(in, out, 3, MPI_INT, op, root, comm));
        if (rank == root)
            for (int j = 0; j < 3; j++)
                CHECK_EQ(out[j], (400 * size + 7 * size * (size - 1) / 2 + j * size) % 1000);
    }
}

static void test_objects(void)
{
    int commute = -1;
    MPI_Op ops[] = { MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND, MPI_LOR, MPI_BOR, MPI_LXOR,
                     MPI_BXOR, MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE, MPI_NO_OP };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        CHECK_MPI(MPI_Op_commutative(ops[i], &commute));
        CHECK(commute == 1, "predefined operation %zu is not commutative", i);
    }
    MPI_Op a, b;
    CHECK_MPI(MPI_Op_create(summod_fn, 1, &a));
    CHECK_MPI(MPI_Op_create(concat_fn, 0, &b));
    CHECK(a != b && a != MPI_OP_NULL, "MPI_Op_create gave %#x and %#x", (unsigned) a, (unsigned) b);
    CHECK_MPI(MPI_Op_commutative(a, &commute));
    CHECK_EQ(commute, 1);
    CHECK_MPI(MPI_Op_commutative(b, &commute));
    CHECK_EQ(commute, 0);
    MPI_Op freed = a;
    CHECK_MPI(MPI_Op_free(&a));
    CHECK(a == MPI_OP_NULL, "MPI_Op_free left %#x", (unsigned) a);
    CHECK_MPI(MPI_Op_free(&b));

    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int x = 1, y = 2;
    MPI_Op sum = MPI_SUM, null = MPI_OP_NULL;
    CHECK_ERR(MPI_Op_free(&sum), MPI_ERR_OP);
    CHECK(sum == MPI_SUM, "a failed MPI_Op_free changed the handle");
    CHECK_ERR(MPI_Op_free(&freed), MPI_ERR_OP);
    CHECK_ERR(MPI_Op_free(&null), MPI_ERR_OP);
    CHECK_ERR(MPI_Op_commutative(freed, &commute), MPI_ERR_OP);
    CHECK_ERR(MPI_Reduce_local(&x, &y, 1, MPI_INT, freed), MPI_ERR_OP);
    CHECK_ERR(MPI_Allreduce(&x, &y, 1, MPI_INT, freed, MPI_COMM_WORLD), MPI_ERR_OP);
    CHECK_ERR(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP);
    CHECK_ERR(MPI_Reduce(&x, &y, 1, MPI_INT, (MPI_Op) 12345, 0, MPI_COMM_WORLD), MPI_ERR_OP);
    CHECK_ERR(MPI_Op_create(NULL, 1, &a), MPI_ERR_ARG);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Type_contiguous(2, MPI_LONG_LONG, &pair_type);
    MPI_Type_commit(&pair_type);
    MPI_Type_vector(3, 1, 2, pair_type, &strided_type);
    MPI_Type_commit(&strided_type);
    test_objects();

    MPI_Op concat_op, concat_op_c, summod;
    CHECK_MPI(MPI_Op_create(concat_fn, 0, &concat_op));
    CHECK_MPI(MPI_Op_create_c(concat_fn_c, 0, &concat_op_c));
    CHECK_MPI(MPI_Op_create(summod_fn, 1, &summod));
    Colltest_comms cs;
    colltest_comms(&cs);
    for (int i = 0; i < cs.n; i++) {
        test_noncommutative(cs.comms[i], concat_op);
        test_noncommutative(cs.comms[i], concat_op_c);
        test_commutative(cs.comms[i], summod);
    }
    colltest_free(&cs);

    /* MPI_Reduce_local with a user operation: inout = in op inout */
    digits in = { 12, 2 }, inout = { 345, 3 };
    CHECK_MPI(MPI_Reduce_local(&in, &inout, 1, pair_type, concat_op));
    CHECK(inout.val == 12345 && inout.len == 5, "MPI_Reduce_local: got (%lld, %lld), expected (12345, 5)",
          inout.val, inout.len);
    CHECK(bad_type_seen == 0, "the user function saw another datatype than the one given %d times", bad_type_seen);

    MPI_Op_free(&concat_op);
    MPI_Op_free(&concat_op_c);
    MPI_Op_free(&summod);
    MPI_Type_free(&strided_type);
    MPI_Type_free(&pair_type);
    return MTest_Finalize();
}
