/*
 * Out of memory outside the datatype module (the harness and what it checks: nomem.h): every
 * allocation of each scenario refused in turn, once and for good. Scenarios on one rank:
 * communicators (dup with attributes, split, create from a group, names), groups (set operations,
 * ranges), info objects, user error classes and handlers, user reduction operators, persistent
 * and nonblocking requests, and the collectives on derived types.
 */
#include "nomem.h"

static int sum_ints(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void) type;
    for (int i = 0; i < *len; i++)
        ((int *) inout)[i] += ((int *) in)[i];
    return MPI_SUCCESS;
}

static void free_comm(MPI_Comm *c)
{
    if (*c != MPI_COMM_NULL)
        CHECK_MPI(MPI_Comm_free(c));
}

static int copy_attr(MPI_Comm c, int kv, void *extra, void *in, void *out, int *flag)
{
    (void) c; (void) kv; (void) extra;
    *(void **) out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int s_comms(output *o)
{
    MPI_Comm c[4] = { MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL };
    MPI_Group g = MPI_GROUP_NULL;
    int kv = MPI_KEYVAL_INVALID, rc, size = 0, flag = 0;
    void *val = NULL;
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    TRY(MPI_Comm_create_keyval(copy_attr, MPI_COMM_NULL_DELETE_FN, &kv, NULL));
    TRY(MPI_Comm_dup(MPI_COMM_WORLD, &c[0]));
    TRY(MPI_Comm_set_attr(c[0], kv, &size));
    TRY(MPI_Comm_set_name(c[0], "first"));
    TRY(MPI_Comm_dup(c[0], &c[1]));
    TRY(MPI_Comm_get_attr(c[1], kv, &val, &flag));
    put(o, &flag, sizeof flag);
    put(o, &val, sizeof val);
    TRY(MPI_Comm_split(c[1], 0, 0, &c[2]));
    TRY(MPI_Comm_group(c[2], &g));
    TRY(MPI_Comm_create(c[2], g, &c[3]));
    TRY(MPI_Comm_size(c[3], &size));
    TRY(MPI_Comm_get_name(c[1], name, &len));
    put(o, &size, sizeof size);
    put(o, name, (size_t) len);
done:
    for (int i = 0; i < 4; i++)
        free_comm(&c[i]);
    if (g != MPI_GROUP_NULL)
        CHECK_MPI(MPI_Group_free(&g));
    if (kv != MPI_KEYVAL_INVALID)
        CHECK_MPI(MPI_Comm_free_keyval(&kv));
    return rc;
}

static int s_groups(output *o)
{
    MPI_Group g[5] = { MPI_GROUP_NULL, MPI_GROUP_NULL, MPI_GROUP_NULL, MPI_GROUP_NULL, MPI_GROUP_NULL };
    int rc, ranks[1] = { 0 }, ranges[1][3] = { { 0, 0, 1 } }, size[4], result = -1;
    TRY(MPI_Comm_group(MPI_COMM_WORLD, &g[0]));
    TRY(MPI_Group_incl(g[0], 1, ranks, &g[1]));
    TRY(MPI_Group_union(g[0], g[1], &g[2]));
    TRY(MPI_Group_difference(g[2], g[1], &g[3]));
    TRY(MPI_Group_range_incl(g[0], 1, ranges, &g[4]));
    for (int i = 1; i < 5; i++)
        TRY(MPI_Group_size(g[i], &size[i - 1]));
    TRY(MPI_Group_compare(g[1], g[4], &result));
    put(o, size, sizeof size);
    put(o, &result, sizeof result);
done:
    for (int i = 0; i < 5; i++)
        if (g[i] != MPI_GROUP_NULL)
            CHECK_MPI(MPI_Group_free(&g[i]));
    return rc;
}

static int s_info(output *o)
{
    MPI_Info info[2] = { MPI_INFO_NULL, MPI_INFO_NULL };
    char value[64];
    int rc, flag = 0, nkeys = 0;
    TRY(MPI_Info_create(&info[0]));
    TRY(MPI_Info_set(info[0], "alpha", "one"));
    TRY(MPI_Info_set(info[0], "beta", "two"));
    TRY(MPI_Info_set(info[0], "alpha", "three"));
    TRY(MPI_Info_dup(info[0], &info[1]));
    TRY(MPI_Info_delete(info[1], "beta"));
    TRY(MPI_Info_get_nkeys(info[1], &nkeys));
    TRY(MPI_Info_get(info[1], "alpha", sizeof value - 1, value, &flag));
    put(o, &nkeys, sizeof nkeys);
    put(o, value, strlen(value));
done:
    for (int i = 0; i < 2; i++)
        if (info[i] != MPI_INFO_NULL)
            CHECK_MPI(MPI_Info_free(&info[i]));
    return rc;
}

static void on_error(MPI_Comm *c, int *code, ...)
{
    (void) c; (void) code;
}

static int s_errors_ops(output *o)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    MPI_Op op = MPI_OP_NULL;
    int rc, in[4] = { 1, 2, 3, 4 }, out[4] = { 0 };
    TRY(MPI_Comm_create_errhandler(on_error, &eh));
    TRY(MPI_Op_create(sum_ints, 1, &op));
    TRY(MPI_Allreduce(in, out, 4, MPI_INT, op, MPI_COMM_SELF));
    TRY(MPI_Reduce(in, out + 2, 2, MPI_INT, op, 0, MPI_COMM_SELF));
    put(o, out, sizeof out);
done:
    if (eh != MPI_ERRHANDLER_NULL)
        CHECK_MPI(MPI_Errhandler_free(&eh));
    if (op != MPI_OP_NULL)
        CHECK_MPI(MPI_Op_free(&op));
    return rc;
}

/* Persistent and nonblocking requests on a vector type, and a nonblocking collective. */
static int s_requests(output *o)
{
    static int a[64], b[64];
    MPI_Datatype t = MPI_DATATYPE_NULL;
    MPI_Request r[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL };
    int rc;
    for (int i = 0; i < 64; i++) {
        a[i] = i;
        b[i] = 0;
    }
    TRY(MPI_Type_vector(8, 2, 4, MPI_INT, &t));
    TRY(MPI_Type_commit(&t));
    TRY(MPI_Recv_init(b, 1, t, 0, 5, MPI_COMM_SELF, &r[0]));
    TRY(MPI_Send_init(a, 1, t, 0, 5, MPI_COMM_SELF, &r[1]));
    TRY(MPI_Startall(2, r));
    TRY(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    put(o, b, sizeof b);
    for (int i = 0; i < 2; i++)
        TRY(MPI_Request_free(&r[i]));
    TRY(MPI_Ibcast(a, 2, t, 0, MPI_COMM_SELF, &r[0]));
    TRY(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    TRY(MPI_Alltoall(a, 1, t, b, 1, t, MPI_COMM_SELF));
    put(o, b, sizeof b);
done:
    for (int i = 0; i < 2; i++)
        if (r[i] != MPI_REQUEST_NULL) {
            MPI_Cancel(&r[i]);
            MPI_Request_free(&r[i]);
        }
    if (t != MPI_DATATYPE_NULL)
        CHECK_MPI(MPI_Type_free(&t));
    return rc;
}

static const scenario scenarios[] = {
    { "comms", s_comms }, { "groups", s_groups }, { "info", s_info }, { "errors_ops", s_errors_ops },
    { "requests", s_requests },
};

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    nomem_init();
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++)
        nomem_run(&scenarios[i]);
    return MTest_Finalize();
}
