/*
 * Out of memory on one rank of a collective (the harness and what it checks: nomem.h,
 * nomem_run_collective): each rank in turn has every allocation of each scenario refused, once and
 * for good, while the others run unhindered. A rank whose part fails still takes part, so no rank
 * hangs, the ranks that depend on its data learn of it (MPI_ERR_OTHER), and the next collective on
 * the communicator pairs up as it should.
 *
 * Every scenario calls all its collectives whatever the earlier ones returned (as an MPI program
 * that goes on after an error must) and returns the first error. Blocking and nonblocking forms,
 * MPI_IN_PLACE, derived types, a user operation, the creation of communicators (dup, split,
 * create, idup; and of intercommunicators: create, dup, split, create, merge), collectives on an
 * intercommunicator, topologies with the neighbourhood collectives, and windows.
 */
#include "nomem.h"

static MPI_Comm comm;
static int rank, size;
/* made before, so that a scenario's local calls cannot fail on one rank only and leave it with
 * other arguments than the rest */
static MPI_Datatype vec;
static MPI_Op diff;
static MPI_Group first;
/* the two halves of comm (low ranks first), and the intercommunicator between them */
static MPI_Comm half, inter;
static MPI_Group half_group;
static int color, remote_leader;
/* a ring as a general graph, a ring with weights and without, and a grid over comm */
static int ring_index[64], ring_edges[128], next, prev, weight;
enum { CART, GRAPH, DIST, ADJACENT, SUB, NTOPO };
static MPI_Comm topo[SUB];      /* made before the scenario: CART .. ADJACENT */

/* Runs call and keeps the first error in rc. */
#define ALL(call) do { int e_ = (call); if (rc == MPI_SUCCESS) rc = e_; } while (0)

#define N 12    /* ints per rank */

/* Each collective reads in (never written) and writes a region of out of its own, so that one
 * that fails on the victim does not change what a later one sends. */
static int in[8 * N], out[64 * N];

static void fill(void)
{
    for (int i = 0; i < 8 * N; i++)
        in[i] = rank * 1000 + i;
    for (int i = 0; i < 64 * N; i++)
        out[i] = -1;
}

/* 3 in - inout, element by element: the result depends on the order the schedule combines in */
static void diff_ints(void *a, void *inout, int *len, MPI_Datatype *type)
{
    (void) type;
    for (int i = 0; i < *len; i++)
        ((int *) inout)[i] = 3 * ((int *) a)[i] - ((int *) inout)[i];
}

static int s_rooted(output *o)
{
    int rc = MPI_SUCCESS;
    fill();
    memcpy(out, in, 2 * N * sizeof(int));
    ALL(MPI_Bcast(out, 2, vec, size - 1, comm));
    ALL(MPI_Reduce(in, out + 2 * N, N, MPI_INT, MPI_SUM, 0, comm));
    int counts[64], displs[64];
    for (int i = 0; i < size; i++)
        counts[i] = i % 3, displs[i] = 3 * i;
    ALL(MPI_Gatherv(in, rank % 3, MPI_INT, out + 4 * N, counts, displs, MPI_INT, 1 % size, comm));
    ALL(MPI_Scatterv(in, counts, displs, MPI_INT, out + 8 * N, rank % 3, MPI_INT, 0, comm));
    ALL(MPI_Gather(in, 1, vec, out + 12 * N, 6, MPI_INT, 0, comm));
    ALL(MPI_Scatter(in, 6, MPI_INT, rank == 0 ? MPI_IN_PLACE : out + 20 * N, 1, vec, 0, comm));
    put(o, out, sizeof out);
    return rc;
}

static int s_all(output *o)
{
    int rc = MPI_SUCCESS;
    fill();
    ALL(MPI_Allreduce(in, out, N, MPI_INT, diff, comm));
    memcpy(out + 2 * N, in, N * sizeof(int));
    ALL(MPI_Allreduce(MPI_IN_PLACE, out + 2 * N, N, MPI_INT, MPI_MAX, comm));
    ALL(MPI_Allgather(in, 2, MPI_INT, out + 4 * N, 2, MPI_INT, comm));
    int counts[64], displs[64], bdispls[64];
    MPI_Datatype types[64];
    for (int i = 0; i < size; i++)
        counts[i] = 1 + i % 2, displs[i] = 2 * i, bdispls[i] = 8 * i, types[i] = MPI_INT;
    ALL(MPI_Allgatherv(in, counts[rank], MPI_INT, out + 8 * N, counts, displs, MPI_INT, comm));
    ALL(MPI_Reduce_scatter(in, out + 12 * N, counts, MPI_INT, MPI_SUM, comm));
    for (int i = 0; i < size; i++)
        counts[i] = 1 + (rank + i) % 2;     /* what rank sends to i is what i receives from rank */
    ALL(MPI_Alltoall(in, 2, MPI_INT, out + 16 * N, 2, MPI_INT, comm));
    memcpy(out + 20 * N, in, 2 * (size_t) size * sizeof(int));
    ALL(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, out + 20 * N, 2, MPI_INT, comm));
    ALL(MPI_Alltoallv(in, counts, displs, MPI_INT, out + 24 * N, counts, displs, MPI_INT, comm));
    ALL(MPI_Alltoallw(in, counts, bdispls, types, out + 28 * N, counts, bdispls, types, comm));
    ALL(MPI_Reduce_scatter_block(in, out + 36 * N, 2, MPI_INT, MPI_SUM, comm));
    ALL(MPI_Scan(in, out + 40 * N, N, MPI_INT, diff, comm));
    ALL(MPI_Exscan(in, out + 44 * N, N, MPI_INT, MPI_SUM, comm));
    ALL(MPI_Barrier(comm));
    put(o, out, sizeof out);
    return rc;
}

/* Nonblocking collectives in flight together; one that fails completes its request with the
 * error. */
static int s_nonblocking(output *o)
{
    MPI_Request r[4] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL };
    int rc = MPI_SUCCESS;
    fill();
    memcpy(out, in, N * sizeof(int));
    ALL(MPI_Ibcast(out, N, MPI_INT, 0, comm, &r[0]));
    ALL(MPI_Iallreduce(in + N, out + 2 * N, N, MPI_INT, MPI_SUM, comm, &r[1]));
    ALL(MPI_Ialltoall(in + 2 * N, 3, MPI_INT, out + 4 * N, 3, MPI_INT, comm, &r[2]));
    ALL(MPI_Ibarrier(comm, &r[3]));
    for (int i = 0; i < 4; i++)
        ALL(MPI_Wait(&r[i], MPI_STATUS_IGNORE));
    put(o, out, sizeof out);
    return rc;
}

static int s_comms(output *o)
{
    MPI_Comm c[4] = { MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL };
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = MPI_SUCCESS, sizes[4] = { -1, -1, -1, -1 };
    ALL(MPI_Comm_dup(comm, &c[0]));
    ALL(MPI_Comm_split(comm, rank % 2, -rank, &c[1]));
    ALL(MPI_Comm_create(comm, first, &c[2]));
    ALL(MPI_Comm_idup(comm, &c[3], &r));
    ALL(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < 4; i++)
        if (c[i] != MPI_COMM_NULL)
            ALL(MPI_Comm_size(c[i], &sizes[i]));
    put(o, sizes, sizeof sizes);
    for (int i = 0; i < 4; i++)
        if (c[i] != MPI_COMM_NULL)
            CHECK_MPI(MPI_Comm_free(&c[i]));
    return rc;
}

/* Intercommunicators: made, duplicated, split, created from and merged. Each call runs collectives
 * on the local communicator of inter and messages between its leaders: a rank that left one early
 * would pair the next run's with the wrong ones. */
static int s_inter(output *o)
{
    MPI_Comm c[5] = { MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL };
    int rc = MPI_SUCCESS, shape[5][3];
    ALL(MPI_Intercomm_create(half, 0, comm, remote_leader, 7, &c[0]));
    ALL(MPI_Comm_dup(inter, &c[1]));
    ALL(MPI_Comm_split(inter, rank % 2, -rank, &c[2]));
    ALL(MPI_Comm_create(inter, half_group, &c[3]));
    ALL(MPI_Intercomm_merge(inter, color, &c[4]));
    for (int i = 0; i < 5; i++) {
        shape[i][0] = shape[i][1] = shape[i][2] = -1;
        if (c[i] == MPI_COMM_NULL)
            continue;
        int is_inter = 0;
        ALL(MPI_Comm_size(c[i], &shape[i][0]));
        ALL(MPI_Comm_rank(c[i], &shape[i][1]));
        ALL(MPI_Comm_test_inter(c[i], &is_inter));
        if (is_inter)
            ALL(MPI_Comm_remote_size(c[i], &shape[i][2]));
        CHECK_MPI(MPI_Comm_free(&c[i]));
    }
    put(o, shape, sizeof shape);
    return rc;
}

/* Topologies, each a split of comm (MPI_Dist_graph_create first sends every edge to its ends in two
 * all-to-alls), and the neighbourhood collectives on topologies made before (a creation that fails
 * after its last exchange leaves a communicator at some ranks only, which MPI allows). */
static int s_topo(output *o)
{
    MPI_Comm c[NTOPO];
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = MPI_SUCCESS, dims[2] = { 0, 0 }, keep[2] = { 0, 1 }, sizes[NTOPO];
    for (int i = 0; i < NTOPO; i++)
        c[i] = MPI_COMM_NULL;
    fill();
    ALL(MPI_Dims_create(size, 2, dims));
    ALL(MPI_Cart_create(comm, 2, dims, (int[]) { 1, 0 }, 0, &c[CART]));
    ALL(MPI_Cart_sub(topo[CART], keep, &c[SUB]));
    ALL(MPI_Graph_create(comm, size, ring_index, ring_edges, 0, &c[GRAPH]));
    ALL(MPI_Dist_graph_create(comm, 1, &rank, (int[]) { 1 }, &next, &weight, MPI_INFO_NULL, 0, &c[DIST]));
    ALL(MPI_Dist_graph_create_adjacent(comm, 1, &prev, MPI_UNWEIGHTED, 1, &next, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                       &c[ADJACENT]));
    for (int i = 0; i < NTOPO; i++) {
        sizes[i] = -1;
        if (c[i] != MPI_COMM_NULL) {
            ALL(MPI_Comm_size(c[i], &sizes[i]));
            CHECK_MPI(MPI_Comm_free(&c[i]));
        }
    }
    ALL(MPI_Neighbor_alltoall(in, 2, MPI_INT, out, 2, MPI_INT, topo[CART]));
    ALL(MPI_Neighbor_allgather(in, 2, vec, out + 8, 2, vec, topo[GRAPH]));
    ALL(MPI_Ineighbor_allgather(in, N, MPI_INT, out + 32 * N, N, MPI_INT, topo[DIST], &r));
    ALL(MPI_Wait(&r, MPI_STATUS_IGNORE));
    ALL(MPI_Neighbor_alltoallv(in, (int[]) { N }, (int[]) { N }, MPI_INT, out + 40 * N, (int[]) { N }, (int[]) { 0 },
                               MPI_INT, topo[ADJACENT]));
    put(o, sizes, sizeof sizes);
    put(o, out, sizeof out);
    return rc;
}

/* Collectives on the intercommunicator: rooted at the first process of the low group, to all, and
 * a reduction, blocking and nonblocking. */
static int s_inter_coll(output *o)
{
    int rc = MPI_SUCCESS, inter_rank;
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Comm_rank(inter, &inter_rank);
    int root = color ? 0 : inter_rank == 0 ? MPI_ROOT : MPI_PROC_NULL;
    fill();
    memcpy(out, in, N * sizeof(int));
    ALL(MPI_Bcast(out, N, MPI_INT, root, inter));
    ALL(MPI_Allreduce(in, out + N, N, MPI_INT, MPI_SUM, inter));
    ALL(MPI_Ialltoall(in, 1, MPI_INT, out + 2 * N, 1, MPI_INT, inter, &r));
    ALL(MPI_Wait(&r, MPI_STATUS_IGNORE));
    ALL(MPI_Gather(in, 2, vec, out + 4 * N, 2, vec, root, inter));
    ALL(MPI_Barrier(inter));
    put(o, out, sizeof out);
    return rc;
}

/* A window in shared memory (MPI_Win_allocate: its creation agrees on failure like a
 * communicator's), and one-sided operations whose results depend on this rank alone: a get and
 * an accumulate on its own part. (A get of another rank's part would depend on the fence's
 * barrier, and a barrier that failed on the victim does not hold the others back, nor tell them.
 * Operations on memory the user gave, MPI_Win_create, are applied by the target, which would wait
 * for memory refused for good.) */
static int s_rma(output *o)
{
    int rc = MPI_SUCCESS, *mem = NULL;
    MPI_Win win = MPI_WIN_NULL;
    fill();
    ALL(MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, comm, &mem, &win));
    if (win != MPI_WIN_NULL) {
        MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
        for (int i = 0; i < N; i++)
            mem[i] = in[i];
        ALL(MPI_Win_fence(0, win));
        ALL(MPI_Get(out, 1, vec, rank, 0, 1, vec, win));
        ALL(MPI_Accumulate(in + N, 2, MPI_INT, rank, 2, 2, MPI_INT, MPI_SUM, win));     /* not read by the get */
        ALL(MPI_Win_fence(0, win));
        memcpy(out + N, mem, N * sizeof(int));
        ALL(MPI_Win_free(&win));
    }
    put(o, out, sizeof out);
    return rc;
}

static const scenario scenarios[] = {
    { "rooted", s_rooted }, { "all", s_all }, { "nonblocking", s_nonblocking }, { "comms", s_comms },
    { "inter", s_inter }, { "inter_coll", s_inter_coll }, { "topo", s_topo }, { "rma", s_rma },
};

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    nomem_init();
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Type_vector(3, 2, 4, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Op_create(diff_ints, 0, &diff);
    MPI_Group all;
    int zero = 0;
    MPI_Comm_group(comm, &all);
    MPI_Group_incl(all, 1, &zero, &first);
    MPI_Group_free(&all);
    int low = (size + 1) / 2;
    color = rank >= low;
    remote_leader = color ? 0 : low;
    MPI_Comm_split(comm, color, rank, &half);
    MPI_Comm_group(half, &half_group);
    MPI_Intercomm_create(half, 0, comm, remote_leader, 5, &inter);
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;
    weight = rank + 1;
    for (int i = 0; i < size; i++) {
        ring_index[i] = 2 * (i + 1);
        ring_edges[2 * i] = (i + size - 1) % size;
        ring_edges[2 * i + 1] = (i + 1) % size;
    }
    int dims[2] = { 0, 0 };
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(comm, 2, dims, (int[]) { 1, 0 }, 0, &topo[CART]);
    MPI_Graph_create(comm, size, ring_index, ring_edges, 0, &topo[GRAPH]);
    MPI_Dist_graph_create(comm, 1, &rank, (int[]) { 1 }, &next, &weight, MPI_INFO_NULL, 0, &topo[DIST]);
    MPI_Dist_graph_create_adjacent(comm, 1, &prev, MPI_UNWEIGHTED, 1, &next, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                   &topo[ADJACENT]);
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++)
        nomem_run_collective(&scenarios[i], comm);
    MPI_Group_free(&first);
    MPI_Group_free(&half_group);
    MPI_Comm_free(&inter);
    for (int i = 0; i < SUB; i++)
        MPI_Comm_free(&topo[i]);
    MPI_Comm_free(&half);
    MPI_Op_free(&diff);
    MPI_Type_free(&vec);
    MPI_Comm_free(&comm);
    return MTest_Finalize();
}
