/*
 * The neighbourhood collectives (MPI 4.1 8.6): MPI_Neighbor_allgather(v), MPI_Neighbor_alltoall(v,
 * w) and their nonblocking forms, over a communicator's topology (src/mpi/topo). Each process
 * sends block j (allgather: its one buffer) to its j-th destination and receives block i from its
 * i-th source, all at once in one schedule phase; MPI_PROC_NULL neighbours are skipped.
 *
 * Matching. Messages between two processes pair up in the order the schedule adds them. On a
 * Cartesian grid with a periodic dimension of size 1 or 2 a process is its neighbour on both sides:
 * what it sends towards -1 must land in the receiver's +1 slot. So along each dimension the sends
 * go +1 first, then -1, while the receives are posted -1 first, then +1; between two processes the
 * first send then meets the first receive slot it belongs to.
 */
#include "coll_sched.h"
#include "mpir_impl_proto.h"
#include "../topo/topo.h"

static int neighbor_comm(MPI_Comm comm, MPIR_Comm **c, MPIR_Topology **t)
{
    int err = MPIR_Coll_comm(comm, c);
    return err ? err : MPIR_Topo_get(comm, 0, t);
}

/* send: one block for every destination, or (gather) the same block for all. */
static int neighbor(const MPIR_Blocks *send, bool gather, const MPIR_Blocks *recv, MPI_Comm comm, MPI_Request *request)
{
    MPIR_Comm *c;
    MPIR_Topology *t;
    int err = neighbor_comm(comm, &c, &t);
    if (err)
        return err;
    err = MPIR_Coll_check_blocks("sendbuf", send, gather ? 1 : t->outdegree,
                                 MPIR_Blocks_v(send) ? "sendcounts" : "sendcount",
                                 send->types ? "sendtypes" : "sendtype");
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_blocks("recvbuf", recv, t->indegree, MPIR_Blocks_v(recv) ? "recvcounts" : "recvcount",
                                     recv->types ? "recvtypes" : "recvtype");
    if (err)
        return err;
    MPIR_Sched *s = MPIR_Sched_for(c, MPIR_TAG_NEIGHBOR, request);
    for (int i = 0; i < t->outdegree; i++) {
        int j = t->kind == MPI_CART ? i ^ 1 : i;    /* +1 before -1: see the top of the file */
        int k = gather ? 0 : j;
        if (t->out[j] != MPI_PROC_NULL)
            MPIR_Sched_send(s, MPIR_Blocks_addr(send, k), MPIR_Blocks_count(send, k), MPIR_Blocks_type(send, k),
                            t->out[j]);
    }
    for (int i = 0; i < t->indegree; i++)
        if (t->in[i] != MPI_PROC_NULL)
            MPIR_Sched_recv(s, MPIR_Blocks_addr(recv, i), MPIR_Blocks_count(recv, i), MPIR_Blocks_type(recv, i),
                            t->in[i]);
    return MPIR_Sched_finish(s, request);
}

/* MPI_ERR_ARG for the first user array that is NULL where the topology needs entries. */
static int null_arrays(MPI_Comm comm, const MPIR_Blocks *send, bool gather, const MPIR_Blocks *recv, bool w)
{
    MPIR_Topology *t;
    if (MPIR_Topo_get(comm, 0, &t))
        return MPI_SUCCESS;     /* reported by neighbor() */
    bool out = !gather && t->outdegree > 0, in = t->indegree > 0;
    const char *what = out && !MPIR_Blocks_v(send) ? "sendcounts"
                       : out && MPIR_Aint_array_is_null(send->displs) ? "sdispls"
                       : out && w && !send->types ? "sendtypes"
                       : in && !MPIR_Blocks_v(recv) ? "recvcounts"
                       : in && MPIR_Aint_array_is_null(recv->displs) ? (gather ? "displs" : "rdispls")
                       : in && w && !recv->types ? "recvtypes" : NULL;
    return what ? MPIR_Err(MPI_ERR_ARG, "%s is NULL", what) : MPI_SUCCESS;
}

static int allgather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    MPIR_Blocks send = { .buf = sendbuf, .count = sendcount, .type = sendtype };
    MPIR_Blocks recv = { .buf = recvbuf, .count = recvcount, .type = recvtype };
    return neighbor(&send, true, &recv, comm, request);
}

static int allgatherv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      MPIR_Count_array recvcounts, MPIR_Aint_array displs, MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Request *request)
{
    MPIR_Blocks send = { .buf = sendbuf, .count = sendcount, .type = sendtype };
    MPIR_Blocks recv = { .buf = recvbuf, .counts = recvcounts, .displs = displs, .type = recvtype };
    int err = null_arrays(comm, &send, true, &recv, false);
    return err ? err : neighbor(&send, true, &recv, comm, request);
}

static int alltoall(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    MPIR_Blocks send = { .buf = sendbuf, .count = sendcount, .type = sendtype };
    MPIR_Blocks recv = { .buf = recvbuf, .count = recvcount, .type = recvtype };
    return neighbor(&send, false, &recv, comm, request);
}

static int alltoallv(const void *sendbuf, MPIR_Count_array sendcounts, MPIR_Aint_array sdispls,
                     MPI_Datatype sendtype, void *recvbuf, MPIR_Count_array recvcounts, MPIR_Aint_array rdispls,
                     MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    MPIR_Blocks send = { .buf = sendbuf, .counts = sendcounts, .displs = sdispls, .type = sendtype };
    MPIR_Blocks recv = { .buf = recvbuf, .counts = recvcounts, .displs = rdispls, .type = recvtype };
    int err = null_arrays(comm, &send, false, &recv, false);
    return err ? err : neighbor(&send, false, &recv, comm, request);
}

static int alltoallw(const void *sendbuf, MPIR_Count_array sendcounts, MPIR_Aint_array sdispls,
                     const MPI_Datatype *sendtypes, void *recvbuf, MPIR_Count_array recvcounts,
                     MPIR_Aint_array rdispls, const MPI_Datatype *recvtypes, MPI_Comm comm, MPI_Request *request)
{
    MPIR_Blocks send = { .buf = sendbuf, .counts = sendcounts, .displs = sdispls, .byte_displs = true,
                         .types = sendtypes };
    MPIR_Blocks recv = { .buf = recvbuf, .counts = recvcounts, .displs = rdispls, .byte_displs = true,
                         .types = recvtypes };
    int err = null_arrays(comm, &send, false, &recv, true);
    return err ? err : neighbor(&send, false, &recv, comm, request);
}

/* ---- the entry points: blocking (no request) and nonblocking ---- */

int MPIR_Neighbor_allgather_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL);
}

int MPIR_Ineighbor_allgather_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}

int MPIR_Neighbor_allgatherv_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  MPIR_Count_array recvcounts, MPIR_Aint_array displs, MPI_Datatype recvtype,
                                  MPI_Comm comm)
{
    return allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, NULL);
}

int MPIR_Ineighbor_allgatherv_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                   MPIR_Count_array recvcounts, MPIR_Aint_array displs, MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Request *request)
{
    return allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request);
}

int MPIR_Neighbor_alltoall_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL);
}

int MPIR_Ineighbor_alltoall_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}

int MPIR_Neighbor_alltoallv_impl(const void *sendbuf, MPIR_Count_array sendcounts, MPIR_Aint_array sdispls,
                                 MPI_Datatype sendtype, void *recvbuf, MPIR_Count_array recvcounts,
                                 MPIR_Aint_array rdispls, MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, NULL);
}

int MPIR_Ineighbor_alltoallv_impl(const void *sendbuf, MPIR_Count_array sendcounts, MPIR_Aint_array sdispls,
                                  MPI_Datatype sendtype, void *recvbuf, MPIR_Count_array recvcounts,
                                  MPIR_Aint_array rdispls, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request);
}

int MPIR_Neighbor_alltoallw_impl(const void *sendbuf, MPIR_Count_array sendcounts, MPIR_Aint_array sdispls,
                                 const MPI_Datatype *sendtypes, void *recvbuf, MPIR_Count_array recvcounts,
                                 MPIR_Aint_array rdispls, const MPI_Datatype *recvtypes, MPI_Comm comm)
{
    return alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, NULL);
}

int MPIR_Ineighbor_alltoallw_impl(const void *sendbuf, MPIR_Count_array sendcounts, MPIR_Aint_array sdispls,
                                  const MPI_Datatype *sendtypes, void *recvbuf, MPIR_Count_array recvcounts,
                                  MPIR_Aint_array rdispls, const MPI_Datatype *recvtypes, MPI_Comm comm,
                                  MPI_Request *request)
{
    return alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm,
                     request);
}
