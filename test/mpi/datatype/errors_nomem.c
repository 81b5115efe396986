/*
 * Out of memory in the datatype module (the harness and what it checks: nomem.h): every
 * allocation of each scenario refused in turn, once and for good.
 * Scenarios: each constructor, commit of small and large (runs, prefix sums, plans) types,
 * struct trees wide and deep, resized, dup, subarray, darray, MPIX_Type_iov, external32,
 * attributes copied by dup, the F90 parameterised types, and messages of a derived type to
 * oneself. Each makes its types, packs and unpacks with them (the bytes are its output), and
 * frees them.
 */
#include <stdint.h>
#include "nomem.h"

#define SRC_BYTES (1 << 16)
static unsigned char src_mem[SRC_BYTES], dst_mem[SRC_BYTES];
static unsigned char *const src = src_mem + SRC_BYTES / 2;   /* room for negative displacements */
static unsigned char *const dst = dst_mem + SRC_BYTES / 2;

/* Packs count instances from src (native and external32), unpacks them into a cleared dst and
 * appends both the packed bytes and dst to o. */
static int pack_unpack(MPI_Datatype t, int count, output *o)
{
    static unsigned char packed[NOMEM_OUT_BYTES / 4];
    int rc, pos = 0, size = 0;
    MPI_Aint epos = 0;
    TRY(MPI_Pack_size(count, t, MPI_COMM_SELF, &size));
    TRY(MPI_Pack(src, count, t, packed, sizeof packed, &pos, MPI_COMM_SELF));
    put(o, packed, (size_t) pos);
    memset(dst_mem, 0, sizeof dst_mem);
    pos = 0;
    TRY(MPI_Unpack(packed, sizeof packed, &pos, dst, count, t, MPI_COMM_SELF));
    put(o, dst_mem, sizeof dst_mem);
    TRY(MPI_Pack_external("external32", src, count, t, packed, sizeof packed, &epos));
    put(o, packed, (size_t) epos);
    MPI_Count elements = 0;
    MPI_Status st;
    TRY(MPI_Status_set_elements(&st, MPI_BYTE, pos));
    TRY(MPI_Get_elements_x(&st, t, &elements));
    put(o, &elements, sizeof elements);
done:
    return rc;
}

static void free_types(MPI_Datatype *t, int n)
{
    for (int i = 0; i < n; i++)
        if (t[i] != MPI_DATATYPE_NULL)
            CHECK_MPI(MPI_Type_free(&t[i]));
}

static int s_contiguous(output *o)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int rc;
    TRY(MPI_Type_contiguous(3, MPI_INT, &t));
    TRY(MPI_Type_commit(&t));
    TRY(pack_unpack(t, 5, o));
done:
    free_types(&t, 1);
    return rc;
}

static int s_vector(output *o)
{
    MPI_Datatype t[2] = { MPI_DATATYPE_NULL, MPI_DATATYPE_NULL };
    int rc;
    TRY(MPI_Type_vector(4, 2, -5, MPI_DOUBLE, &t[0]));
    TRY(MPI_Type_create_hvector(3, 1, 400, t[0], &t[1]));
    TRY(MPI_Type_commit(&t[1]));
    TRY(pack_unpack(t[1], 2, o));
done:
    free_types(t, 2);
    return rc;
}

static int s_indexed(output *o)
{
    enum { N = 2000 };
    static int lens[N], displs[N];
    static MPI_Aint hdispls[N];
    for (int i = 0; i < N; i++) {
        lens[i] = 1 + i % 3;
        displs[i] = 5 * i + (i % 7 == 0);
        hdispls[i] = (MPI_Aint) displs[i] * 2;
    }
    MPI_Datatype t[5] = { MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL,
                          MPI_DATATYPE_NULL };
    int rc;
    TRY(MPI_Type_indexed(5, lens, displs, MPI_INT, &t[0]));
    TRY(MPI_Type_indexed(N, lens, displs, MPI_CHAR, &t[1]));
    TRY(MPI_Type_create_hindexed(N, lens, hdispls, MPI_SHORT, &t[2]));
    TRY(MPI_Type_create_indexed_block(N, 2, displs, MPI_CHAR, &t[3]));
    TRY(MPI_Type_create_hindexed_block(7, 3, hdispls, MPI_FLOAT, &t[4]));
    for (int i = 0; i < 5; i++) {
        TRY(MPI_Type_commit(&t[i]));
        TRY(pack_unpack(t[i], 1, o));
    }
done:
    free_types(t, 5);
    return rc;
}

/* A padded mixed struct, a vector of it, and a struct of 72 distinct children (wide trees). */
static int s_struct(output *o)
{
    enum { W = 72 };
    MPI_Datatype t[3] = { MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL };
    MPI_Datatype kids[W];
    for (int i = 0; i < W; i++)
        kids[i] = MPI_DATATYPE_NULL;
    int lens[W];
    MPI_Aint disps[W];
    MPI_Datatype types[W];
    int rc;
    const MPI_Datatype mixed[4] = { MPI_CHAR, MPI_DOUBLE, MPI_SHORT, MPI_INT };
    for (int i = 0; i < 4; i++) {
        lens[i] = 1 + i;
        disps[i] = 16 * i;
    }
    TRY(MPI_Type_create_struct(4, lens, disps, mixed, &t[0]));
    TRY(MPI_Type_contiguous(10, t[0], &t[1]));
    TRY(MPI_Type_commit(&t[0]));
    TRY(MPI_Type_commit(&t[1]));
    TRY(pack_unpack(t[1], 2, o));
    for (int i = 0; i < W; i++) {
        TRY(MPI_Type_vector(2, 1, 2 + i % 5, i % 2 ? MPI_INT : MPI_SHORT, &kids[i]));
        lens[i] = 1;
        disps[i] = 48 * i;
        types[i] = kids[i];
    }
    TRY(MPI_Type_create_struct(W, lens, disps, types, &t[2]));
    TRY(MPI_Type_commit(&t[2]));
    TRY(pack_unpack(t[2], 3, o));
done:
    free_types(kids, W);
    free_types(t, 3);
    return rc;
}

/* A chain of 200 nested structs: deeper than any fixed stack of the walks over the tree. */
static int s_deep(output *o)
{
    enum { D = 200 };
    MPI_Datatype t = MPI_DATATYPE_NULL, inner;
    int rc, one = 1;
    MPI_Aint disp = 2;
    TRY(MPI_Type_dup(MPI_SHORT, &t));
    for (int i = 0; i < D; i++) {
        MPI_Datatype child = t;
        rc = MPI_Type_create_struct(1, &one, &disp, &child, &inner);
        MPI_Type_free(&child);
        t = MPI_DATATYPE_NULL;
        if (rc != MPI_SUCCESS)
            goto done;
        t = inner;
    }
    TRY(MPI_Type_commit(&t));
    TRY(pack_unpack(t, 4, o));
done:
    free_types(&t, 1);
    return rc;
}

/* Structs whose loops are not a single leaf: a pair type beside a double (the pair's halves are
 * two loops), and entries that are runs of derived types (gathered into one leaf). */
static int s_struct_loops(output *o)
{
    MPI_Datatype t[4] = { MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL };
    const int lens[3] = { 2, 1, 3 };
    const MPI_Aint disps[3] = { 0, 40, 64 };
    int rc;
    TRY(MPI_Type_contiguous(3, MPI_INT, &t[0]));
    TRY(MPI_Type_contiguous(2, MPI_DOUBLE, &t[1]));
    const MPI_Datatype runs[3] = { t[0], t[1], MPI_SHORT };
    TRY(MPI_Type_create_struct(3, lens, disps, runs, &t[2]));
    const MPI_Datatype pairs[3] = { MPI_DOUBLE_INT, MPI_DOUBLE, MPI_SHORT_INT };
    TRY(MPI_Type_create_struct(3, lens, disps, pairs, &t[3]));
    for (int i = 2; i < 4; i++) {
        TRY(MPI_Type_commit(&t[i]));
        TRY(pack_unpack(t[i], 3, o));
    }
done:
    free_types(t, 4);
    return rc;
}

/* The loops of the smallest cases: a type with no data, and pair types alone. */
static int s_small(output *o)
{
    MPI_Datatype t[3] = { MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL };
    int rc;
    TRY(MPI_Type_contiguous(0, MPI_INT, &t[0]));
    TRY(MPI_Type_contiguous(3, MPI_2INT, &t[1]));
    TRY(MPI_Type_contiguous(2, MPI_FLOAT_INT, &t[2]));
    for (int i = 0; i < 3; i++) {
        TRY(MPI_Type_commit(&t[i]));
        TRY(pack_unpack(t[i], 2, o));
    }
done:
    free_types(t, 3);
    return rc;
}

/* The F90 types are made once per (p, r) and kept: each run asks for one not made before (p and
 * r that select MPI_REAL8, so every run's bytes are the same), and only makes it (what a pack
 * allocates, the type keeps). */
static int s_f90(output *o)
{
    static int next_r = 38;
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int rc;
    if (next_r > 307) {
        MTEST_FAIL("f90: out of new ranges");
        return MPI_ERR_OTHER;
    }
    int size = 0, nints, naddrs, ntypes, combiner;
    TRY(MPI_Type_create_f90_real(10, next_r++, &t));
    TRY(MPI_Type_size(t, &size));
    TRY(MPI_Type_get_envelope(t, &nints, &naddrs, &ntypes, &combiner));
    put(o, &size, sizeof size);
    put(o, &combiner, sizeof combiner);
done:
    return rc;
}

static int s_resized_dup(output *o)
{
    MPI_Datatype t[3] = { MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL };
    int rc;
    TRY(MPI_Type_vector(3, 1, 3, MPI_INT, &t[0]));
    TRY(MPI_Type_create_resized(t[0], -8, 20, &t[1]));
    TRY(MPI_Type_commit(&t[1]));
    TRY(MPI_Type_dup(t[1], &t[2]));
    TRY(pack_unpack(t[2], 6, o));
done:
    free_types(t, 3);
    return rc;
}

static int s_subarray_darray(output *o)
{
    MPI_Datatype t[2] = { MPI_DATATYPE_NULL, MPI_DATATYPE_NULL };
    const int sizes[3] = { 6, 7, 8 }, subs[3] = { 2, 3, 4 }, starts[3] = { 1, 2, 3 };
    const int distribs[3] = { MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE };
    const int dargs[3] = { MPI_DISTRIBUTE_DFLT_DARG, 2, MPI_DISTRIBUTE_DFLT_DARG }, psizes[3] = { 2, 3, 1 };
    int rc;
    TRY(MPI_Type_create_subarray(3, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t[0]));
    TRY(MPI_Type_create_darray(6, 4, 3, sizes, distribs, dargs, psizes, MPI_ORDER_FORTRAN, MPI_SHORT, &t[1]));
    for (int i = 0; i < 2; i++) {
        TRY(MPI_Type_commit(&t[i]));
        TRY(pack_unpack(t[i], 1, o));
    }
done:
    free_types(t, 2);
    return rc;
}

static int s_iov(output *o)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int rc;
    MPIX_Iov iov[40];
    MPI_Count n = 0, bytes = 0;
    TRY(MPI_Type_vector(30, 2, 3, MPI_INT, &t));
    TRY(MPI_Type_commit(&t));
    TRY(MPIX_Type_iov_len(t, 100, &n, &bytes));
    put(o, &n, sizeof n);
    put(o, &bytes, sizeof bytes);
    TRY(MPIX_Type_iov(t, 3, iov, 40, &n));
    put(o, &n, sizeof n);
    put(o, iov, (size_t) n * sizeof iov[0]);
done:
    free_types(&t, 1);
    return rc;
}

static int copy_attr(MPI_Datatype t, int kv, void *extra, void *in, void *out, int *flag)
{
    (void) t; (void) kv; (void) extra;
    *(void **) out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int s_attributes(output *o)
{
    MPI_Datatype t[2] = { MPI_DATATYPE_NULL, MPI_DATATYPE_NULL };
    int kv = MPI_KEYVAL_INVALID, rc, flag = 0;
    void *val = NULL;
    TRY(MPI_Type_create_keyval(copy_attr, MPI_TYPE_NULL_DELETE_FN, &kv, NULL));
    TRY(MPI_Type_contiguous(2, MPI_INT, &t[0]));
    TRY(MPI_Type_set_attr(t[0], kv, &live));
    TRY(MPI_Type_set_name(t[0], "with an attribute"));
    TRY(MPI_Type_dup(t[0], &t[1]));
    TRY(MPI_Type_get_attr(t[1], kv, &val, &flag));
    put(o, &flag, sizeof flag);
    put(o, &val, sizeof val);
    TRY(MPI_Type_delete_attr(t[1], kv));
done:
    free_types(t, 2);
    if (kv != MPI_KEYVAL_INVALID)
        CHECK_MPI(MPI_Type_free_keyval(&kv));
    return rc;
}

/* Messages of a derived type to oneself: sent before the receive is posted (the unexpected
 * message is kept packed) and after, and gathered on one rank. */
static int s_messages(output *o)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    MPI_Request req = MPI_REQUEST_NULL;
    int rc;
    TRY(MPI_Type_vector(50, 3, 7, MPI_INT, &t));
    TRY(MPI_Type_commit(&t));
    memset(dst_mem, 0, sizeof dst_mem);
    TRY(MPI_Sendrecv(src, 2, t, 0, 1, dst, 2, t, 0, 1, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    put(o, dst_mem, sizeof dst_mem);
    memset(dst_mem, 0, sizeof dst_mem);
    TRY(MPI_Isend(src, 3, t, 0, 2, MPI_COMM_SELF, &req));
    rc = MPI_Recv(dst, 3, t, 0, 2, MPI_COMM_SELF, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) {   /* the send cannot complete: withdraw it */
        MPI_Cancel(&req);
        MPI_Request_free(&req);
        goto done;
    }
    TRY(MPI_Wait(&req, MPI_STATUS_IGNORE));
    put(o, dst_mem, sizeof dst_mem);
    memset(dst_mem, 0, sizeof dst_mem);
    TRY(MPI_Allgather(src, 1, t, dst, 1, t, MPI_COMM_SELF));
    put(o, dst_mem, sizeof dst_mem);
done:
    free_types(&t, 1);
    return rc;
}

static const scenario scenarios[] = {
    { "contiguous", s_contiguous }, { "small", s_small }, { "vector", s_vector }, { "indexed", s_indexed },
    { "struct", s_struct }, { "struct_loops", s_struct_loops }, { "f90", s_f90, true },
    { "deep", s_deep }, { "resized_dup", s_resized_dup }, { "subarray_darray", s_subarray_darray },
    { "iov", s_iov }, { "attributes", s_attributes }, { "messages", s_messages },
};

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    nomem_init();
    for (int i = 0; i < SRC_BYTES; i++)
        src_mem[i] = (unsigned char) (i * 7 + (i >> 8));
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++)
        nomem_run(&scenarios[i]);
    return MTest_Finalize();
}
