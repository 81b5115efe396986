/*
 * MPI_MINLOC and MPI_MAXLOC on every pair type, predefined and inside derived types (contiguous,
 * and a strided vector whose gaps must stay untouched), through MPI_Allreduce, MPI_Reduce and
 * MPI_Reduce_local. Values repeat across ranks so ties happen: then the smaller index wins, and
 * the indices decrease with the rank, so "first rank wins" would be wrong. Other operations on
 * pair types, and MINLOC on non-pair types, are MPI_ERR_OP.
 */
#include "colltest.h"

#define PAIR(N, V, I) \
    typedef struct { V v; I i; } N##_t; \
    static void set_##N(void *b, int k, long long v, long long i) \
    { ((N##_t *) b)[k].v = (V) v; ((N##_t *) b)[k].i = (I) i; } \
    static void get_##N(const void *b, int k, long long *v, long long *i) \
    { *v = (long long) ((const N##_t *) b)[k].v; *i = (long long) ((const N##_t *) b)[k].i; }
PAIR(float_int, float, int) PAIR(double_int, double, int) PAIR(long_int, long, int) PAIR(two_int, int, int)
PAIR(short_int, short, int) PAIR(ldouble_int, long double, int) PAIR(two_real, float, float)
PAIR(two_dprec, double, double) PAIR(two_integer, int, int)

typedef struct {
    const char *name;
    MPI_Datatype type;
    size_t size;
    void (*set)(void *, int, long long, long long);
    void (*get)(const void *, int, long long *, long long *);
} Pair;
#define P(h, n) { #h, h, sizeof(n##_t), set_##n, get_##n }
static const Pair pairs[] = {
    P(MPI_FLOAT_INT, float_int), P(MPI_DOUBLE_INT, double_int), P(MPI_LONG_INT, long_int),
    P(MPI_2INT, two_int), P(MPI_SHORT_INT, short_int), P(MPI_LONG_DOUBLE_INT, ldouble_int),
    P(MPI_2REAL, two_real), P(MPI_2DOUBLE_PRECISION, two_dprec), P(MPI_2INTEGER, two_integer),
};
#define NPAIRS ((int) (sizeof pairs / sizeof pairs[0]))

#define N 6                     /* pair elements per reduction */
#define SENTINEL_V (-77)
#define SENTINEL_I 999

static long long val(int r, int j) { return ((r + j) / 2) % 3 - 1; }     /* equal for pairs of ranks */
static long long idx(int r, int j) { return 100 - r + j; }

/* MAXLOC (max = 1) or MINLOC of the values of ranks 0..n-1, element j */
static void expected(int max, int n, int j, long long *v, long long *i)
{
    *v = val(0, j), *i = idx(0, j);
    for (int r = 1; r < n; r++) {
        long long rv = val(r, j), ri = idx(r, j);
        if ((max && rv > *v) || (!max && rv < *v) || (rv == *v && ri < *i))
            *v = rv, *i = ri;
    }
}

/* a layout: the type given to MPI and where element j of the data lives in the pair array */
typedef struct {
    const char *name;
    MPI_Datatype type;
    int count, stride;
} Layout;

static void make_layouts(const Pair *p, Layout *l)
{
    l[0] = (Layout) { "predefined", p->type, N, 1 };
    l[1] = (Layout) { "contiguous(3)", MPI_DATATYPE_NULL, N / 3, 1 };
    MPI_Type_contiguous(3, p->type, &l[1].type);
    l[2] = (Layout) { "vector(stride 2)", MPI_DATATYPE_NULL, 1, 2 };
    MPI_Type_vector(N, 1, 2, p->type, &l[2].type);
    MPI_Type_commit(&l[1].type);
    MPI_Type_commit(&l[2].type);
}

static void fill(const Pair *p, void *buf, const Layout *l, int r)
{
    for (int k = 0; k < N * l->stride; k++)
        p->set(buf, k, SENTINEL_V, SENTINEL_I);
    if (r >= 0)
        for (int j = 0; j < N; j++)
            p->set(buf, j * l->stride, val(r, j), idx(r, j));
}

static void verify(const char *what, int max, const Pair *p, const void *buf, const Layout *l, int n, MPI_Comm comm)
{
    for (int k = 0; k < N * l->stride; k++) {
        long long v, i, wv = SENTINEL_V, wi = SENTINEL_I;
        p->get(buf, k, &v, &i);
        if (k % l->stride == 0)
            expected(max, n, k / l->stride, &wv, &wi);
        CHECK(v == wv && i == wi, "%s %s on %s as %s, pair %d: got (%lld, %lld), expected (%lld, %lld) in %s",
              what, max ? "MPI_MAXLOC" : "MPI_MINLOC", p->name, l->name, k, v, i, wv, wi, colltest_name(comm));
    }
}

static void test_comm(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    char in[2 * N * 32], out[2 * N * 32];
    for (int pi = 0; pi < NPAIRS; pi++) {
        const Pair *p = &pairs[pi];
        Layout layouts[3];
        make_layouts(p, layouts);
        for (int li = 0; li < 3; li++) {
            const Layout *l = &layouts[li];
            for (int max = 0; max < 2; max++) {
                MPI_Op op = max ? MPI_MAXLOC : MPI_MINLOC;
                fill(p, in, l, rank);
                fill(p, out, l, -1);
                CHECK_MPI(MPI_Allreduce(in, out, l->count, l->type, op, comm));
                verify("MPI_Allreduce", max, p, out, l, size, comm);
                fill(p, out, l, -1);
                CHECK_MPI(MPI_Reduce(in, out, l->count, l->type, op, size / 2, comm));
                if (rank == size / 2)
                    verify("MPI_Reduce", max, p, out, l, size, comm);
            }
        }
        MPI_Type_free(&layouts[1].type);
        MPI_Type_free(&layouts[2].type);
    }
}

/* inout = in op inout with in = rank 1's values and inout = rank 0's */
static void test_local(void)
{
    char in[2 * N * 32], inout[2 * N * 32];
    for (int pi = 0; pi < NPAIRS; pi++) {
        const Pair *p = &pairs[pi];
        Layout layouts[3];
        make_layouts(p, layouts);
        for (int li = 0; li < 3; li++)
            for (int max = 0; max < 2; max++) {
                fill(p, in, &layouts[li], 1);
                fill(p, inout, &layouts[li], 0);
                CHECK_MPI(MPI_Reduce_local(in, inout, layouts[li].count, layouts[li].type,
                                           max ? MPI_MAXLOC : MPI_MINLOC));
                verify("MPI_Reduce_local", max, p, inout, &layouts[li], 2, MPI_COMM_SELF);
            }
        MPI_Type_free(&layouts[1].type);
        MPI_Type_free(&layouts[2].type);
    }
}

static void expect_op_error(const char *what, int rc)
{
    int cls = -1;
    if (rc == MPI_SUCCESS) {
        MTEST_FAIL("%s succeeded, expected MPI_ERR_OP", what);
        return;
    }
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_OP, "%s gave class %d, expected MPI_ERR_OP", what, cls);
}

static void test_errors(void)
{
    int a[8] = { 0 }, b[8] = { 0 };
    MPI_Datatype mixed;
    int lens[2] = { 1, 1 };
    MPI_Aint disps[2] = { 0, 8 };
    MPI_Datatype types[2] = { MPI_FLOAT, MPI_DOUBLE };
    MPI_Type_create_struct(2, lens, disps, types, &mixed);
    MPI_Type_commit(&mixed);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    expect_op_error("MPI_MINLOC on MPI_INT", MPI_Allreduce(a, b, 2, MPI_INT, MPI_MINLOC, MPI_COMM_WORLD));
    expect_op_error("MPI_MAXLOC on MPI_DOUBLE", MPI_Reduce_local(a, b, 2, MPI_DOUBLE, MPI_MAXLOC));
    expect_op_error("MPI_MAX on MPI_2INT", MPI_Allreduce(a, b, 2, MPI_2INT, MPI_MAX, MPI_COMM_WORLD));
    expect_op_error("MPI_SUM on MPI_DOUBLE_INT", MPI_Reduce_local(a, b, 1, MPI_DOUBLE_INT, MPI_SUM));
    expect_op_error("MPI_MAXLOC on struct {float, double}", MPI_Reduce_local(a, b, 1, mixed, MPI_MAXLOC));
    expect_op_error("MPI_SUM on struct {float, double}", MPI_Allreduce(a, b, 1, mixed, MPI_SUM, MPI_COMM_WORLD));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    MPI_Type_free(&mixed);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    test_local();
    test_errors();
    Colltest_comms cs;
    colltest_comms(&cs);
    for (int i = 0; i < cs.n; i++)
        test_comm(cs.comms[i]);
    colltest_free(&cs);
    return MTest_Finalize();
}
