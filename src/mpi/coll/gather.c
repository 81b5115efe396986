/*
 * MPI_Gather, MPI_Gatherv and their nonblocking forms: the root posts one receive per rank straight into its block of
 * recvbuf and copies its own block locally; every other rank sends. (Linear: the root's receives
 * all proceed at once, and no rank stores data that is not its own.)
 */
#include "coll_inter.h"
#include "mpir_impl_proto.h"

static void build(MPIR_Sched *s, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                  const MPIR_Blocks *recv, int root, MPIR_Comm *c)
{
    if (c->rank != root) {
        MPIR_Sched_send(s, sendbuf, sendcount, sendtype, root);
        return;
    }
    for (int i = 0; i < c->size; i++) {
        char *block = MPIR_Blocks_addr(recv, i);
        MPI_Count n = MPIR_Blocks_count(recv, i);
        if (i != root)
            MPIR_Sched_recv(s, block, n, recv->type, i);
        else if (sendbuf != MPI_IN_PLACE)
            MPIR_Sched_copy(s, sendbuf, sendcount, sendtype, block, n, recv->type);
    }
}

/* v: MPI_Gatherv (recv has per-rank counts and displacements). */
static int gather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, const MPIR_Blocks *recv, bool v,
                  int root, MPI_Comm comm, MPI_Request *request)
{
    MPIR_Comm *c = MPIR_Coll_inter(comm);
    if (c)
        return MPIR_Inter_rooted(true, sendbuf, sendcount, sendtype, recv, v, root, c, request);
    int err = MPIR_Coll_comm(comm, &c);
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_rooted(true, sendbuf, sendcount, sendtype, recv, v, root, c);
    if (err)
        return err;
    MPIR_Sched *s = MPIR_Sched_for(c, MPIR_TAG_GATHER, request);
    build(s, sendbuf, sendcount, sendtype, recv, root, c);
    return MPIR_Sched_finish(s, request);
}

int MPIR_Gather_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    MPIR_Blocks recv = { .buf = recvbuf, .count = recvcount, .type = recvtype };
    return gather(sendbuf, sendcount, sendtype, &recv, false, root, comm, NULL);
}

int MPIR_Igather_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    MPIR_Blocks recv = { .buf = recvbuf, .count = recvcount, .type = recvtype };
    return gather(sendbuf, sendcount, sendtype, &recv, false, root, comm, request);
}

int MPIR_Gatherv_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      MPIR_Count_array recvcounts, MPIR_Aint_array displs, MPI_Datatype recvtype, int root,
                      MPI_Comm comm)
{
    MPIR_Blocks recv = { .buf = recvbuf, .counts = recvcounts, .displs = displs,
                         .type = recvtype };
    return gather(sendbuf, sendcount, sendtype, &recv, true, root, comm, NULL);
}

int MPIR_Igatherv_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       MPIR_Count_array recvcounts, MPIR_Aint_array displs, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, MPI_Request *request)
{
    MPIR_Blocks recv = { .buf = recvbuf, .counts = recvcounts, .displs = displs,
                         .type = recvtype };
    return gather(sendbuf, sendcount, sendtype, &recv, true, root, comm, request);
}
