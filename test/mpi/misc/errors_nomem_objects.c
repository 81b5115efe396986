/*
 * Out of memory outside the datatype module (the harness and what it checks: nomem.h): every
 * allocation of each scenario refused in turn, once and for good. Scenarios on one rank:
 * communicators (dup with attributes, split, create from a group, names, info hints, nonblocking
 * dup), groups (set operations, ranges, exclusions), info objects, user error classes, codes,
 * strings and handlers, user reduction operators, persistent and nonblocking requests, buffered
 * sends, matched probes, and the collectives (v and w forms, on derived types).
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

/* The v and w collectives through the int bindings (which widen their count arrays), and a
 * nonblocking one that reduces a derived type (a temporary buffer of that type). */
static int s_v_collectives(output *o)
{
    static int a[64], b[64];
    MPI_Datatype pairs = MPI_DATATYPE_NULL;
    MPI_Request r = MPI_REQUEST_NULL;
    int rc, counts[1] = { 4 }, displs[1] = { 2 }, bdispls[1] = { 8 };
    const MPI_Datatype ints[1] = { MPI_INT };
    for (int i = 0; i < 64; i++) {
        a[i] = i;
        b[i] = -1;
    }
    TRY(MPI_Gatherv(a, 4, MPI_INT, b, counts, displs, MPI_INT, 0, MPI_COMM_SELF));
    TRY(MPI_Scatterv(a, counts, displs, MPI_INT, b + 10, 4, MPI_INT, 0, MPI_COMM_SELF));
    TRY(MPI_Allgatherv(a + 1, 4, MPI_INT, b + 16, counts, displs, MPI_INT, MPI_COMM_SELF));
    TRY(MPI_Alltoallv(a + 2, counts, displs, MPI_INT, b + 24, counts, displs, MPI_INT, MPI_COMM_SELF));
    TRY(MPI_Alltoallw(a + 3, counts, bdispls, ints, b + 32, counts, bdispls, ints, MPI_COMM_SELF));
    TRY(MPI_Reduce_scatter(a + 4, b + 40, counts, MPI_INT, MPI_SUM, MPI_COMM_SELF));
    TRY(MPI_Type_contiguous(2, MPI_INT, &pairs));
    TRY(MPI_Type_commit(&pairs));
    TRY(MPI_Iallreduce(a + 5, b + 48, 3, pairs, MPI_SUM, MPI_COMM_SELF, &r));
    TRY(MPI_Wait(&r, MPI_STATUS_IGNORE));
    put(o, b, sizeof b);
done:
    if (r != MPI_REQUEST_NULL)
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    if (pairs != MPI_DATATYPE_NULL)
        CHECK_MPI(MPI_Type_free(&pairs));
    return rc;
}

/* A buffered send to oneself, and matched probes. */
static int s_buffered_probes(output *o)
{
    static char buffer[4096];
    int rc, x = 7, y = 0, z = 0, flag = 0, attached = 0;
    MPI_Message msg = MPI_MESSAGE_NULL;
    TRY(MPI_Buffer_attach(buffer, sizeof buffer));
    attached = 1;
    TRY(MPI_Bsend(&x, 1, MPI_INT, 0, 3, MPI_COMM_SELF));
    TRY(MPI_Improbe(0, 3, MPI_COMM_SELF, &flag, &msg, MPI_STATUS_IGNORE));
    if (flag)
        TRY(MPI_Mrecv(&y, 1, MPI_INT, &msg, MPI_STATUS_IGNORE));
    else
        TRY(MPI_Recv(&y, 1, MPI_INT, 0, 3, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    x = 9;
    TRY(MPI_Bsend(&x, 1, MPI_INT, 0, 4, MPI_COMM_SELF));
    TRY(MPI_Mprobe(0, 4, MPI_COMM_SELF, &msg, MPI_STATUS_IGNORE));
    TRY(MPI_Mrecv(&z, 1, MPI_INT, &msg, MPI_STATUS_IGNORE));
    put(o, &y, sizeof y);
    put(o, &z, sizeof z);
done:
    if (msg != MPI_MESSAGE_NULL)
        MPI_Mrecv(&z, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
    if (attached) {
        void *p;
        int size;
        /* waits for the buffered sends; a failed one left a message to take */
        while (MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && flag)
            MPI_Recv(&z, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_SELF, MPI_STATUS_IGNORE);
        CHECK_MPI(MPI_Buffer_detach(&p, &size));
    }
    return rc;
}

/* Group exclusions, a communicator's info hints, and a nonblocking dup. */
static int s_group_info_idup(output *o)
{
    MPI_Group g[3] = { MPI_GROUP_NULL, MPI_GROUP_NULL, MPI_GROUP_NULL };
    MPI_Info in = MPI_INFO_NULL, used = MPI_INFO_NULL;
    MPI_Comm c[2] = { MPI_COMM_NULL, MPI_COMM_NULL };
    MPI_Request r = MPI_REQUEST_NULL;
    int rc, none[1] = { 0 }, sizes[2], nkeys = 0;
    TRY(MPI_Comm_group(MPI_COMM_WORLD, &g[0]));
    TRY(MPI_Group_excl(g[0], 0, none, &g[1]));
    TRY(MPI_Group_intersection(g[0], g[1], &g[2]));
    TRY(MPI_Group_size(g[1], &sizes[0]));
    TRY(MPI_Group_size(g[2], &sizes[1]));
    put(o, sizes, sizeof sizes);
    TRY(MPI_Comm_dup(MPI_COMM_SELF, &c[0]));
    TRY(MPI_Info_create(&in));
    TRY(MPI_Info_set(in, "mpi_assert_no_any_tag", "true"));
    TRY(MPI_Comm_set_info(c[0], in));
    TRY(MPI_Comm_get_info(c[0], &used));
    TRY(MPI_Info_get_nkeys(used, &nkeys));
    put(o, &nkeys, sizeof nkeys);
    TRY(MPI_Comm_idup(c[0], &c[1], &r));
    TRY(MPI_Wait(&r, MPI_STATUS_IGNORE));
done:
    if (r != MPI_REQUEST_NULL)
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    for (int i = 0; i < 3; i++)
        if (g[i] != MPI_GROUP_NULL)
            CHECK_MPI(MPI_Group_free(&g[i]));
    for (int i = 0; i < 2; i++)
        free_comm(&c[i]);
    if (in != MPI_INFO_NULL)
        CHECK_MPI(MPI_Info_free(&in));
    if (used != MPI_INFO_NULL)
        CHECK_MPI(MPI_Info_free(&used));
    return rc;
}

/* User error classes, codes and strings: kept for the rest of the job. */
static int s_error_codes(output *o)
{
    int rc, cls = 0, code = 0, got = -1;
    TRY(MPI_Add_error_class(&cls));
    TRY(MPI_Add_error_code(cls, &code));
    TRY(MPI_Add_error_string(code, "a user error"));
    TRY(MPI_Error_class(code, &got));
    got = got == cls;
    put(o, &got, sizeof got);
done:
    return rc;
}

static const scenario scenarios[] = {
    { "comms", s_comms }, { "groups", s_groups }, { "info", s_info }, { "errors_ops", s_errors_ops },
    { "requests", s_requests }, { "v_collectives", s_v_collectives },
    { "buffered_probes", s_buffered_probes }, { "group_info_idup", s_group_info_idup },
    { "error_codes", s_error_codes, true },
};

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    nomem_init();
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++)
        nomem_run(&scenarios[i]);
    return MTest_Finalize();
}
