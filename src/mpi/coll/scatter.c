/*
 * MPI_Scatter, MPI_Scatterv and their nonblocking forms: the root sends every rank its block straight from sendbuf and
 * copies its own block locally; every other rank receives (linear, the mirror of gather.c).
 */
#include "coll_inter.h"
#include "mpir_impl_proto.h"

void MPIR_Sched_add_scatter(MPIR_Sched *s, const MPIR_Blocks *send, void *recvbuf, MPI_Count recvcount,
                            MPI_Datatype recvtype, int root, MPIR_Comm *c)
{
    if (c->rank != root) {
        MPIR_Sched_recv(s, recvbuf, recvcount, recvtype, root);
        return;
    }
    for (int i = 0; i < c->size; i++) {
        const char *block = MPIR_Blocks_addr(send, i);
        MPI_Count n = MPIR_Blocks_count(send, i);
        if (i != root)
            MPIR_Sched_send(s, block, n, send->type, i);
        else if (recvbuf != MPI_IN_PLACE)
            MPIR_Sched_copy(s, block, n, send->type, recvbuf, recvcount, recvtype);
    }
}

/* v: MPI_Scatterv (send has per-rank counts and displacements). */
static int scatter(const MPIR_Blocks *send, bool v, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request *request)
{
    MPIR_Comm *c = MPIR_Coll_inter(comm);
    if (c)
        return MPIR_Inter_rooted(false, recvbuf, recvcount, recvtype, send, v, root, c, request);
    int err = MPIR_Coll_comm(comm, &c);
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_rooted(false, recvbuf, recvcount, recvtype, send, v, root, c);
    if (err)
        return err;
    MPIR_Sched *s = MPIR_Sched_for(c, MPIR_TAG_SCATTER, request);
    MPIR_Sched_add_scatter(s, send, recvbuf, recvcount, recvtype, root, c);
    return MPIR_Sched_finish(s, request);
}

int MPIR_Scatter_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    MPIR_Blocks send = { .buf = sendbuf, .count = sendcount, .type = sendtype };
    return scatter(&send, false, recvbuf, recvcount, recvtype, root, comm, NULL);
}

int MPIR_Iscatter_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    MPIR_Blocks send = { .buf = sendbuf, .count = sendcount, .type = sendtype };
    return scatter(&send, false, recvbuf, recvcount, recvtype, root, comm, request);
}

int MPIR_Scatterv_impl(const void *sendbuf, MPIR_Count_array sendcounts, MPIR_Aint_array displs,
                       MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm)
{
    MPIR_Blocks send = { .buf = sendbuf, .counts = sendcounts, .displs = displs, .type = sendtype };
    return scatter(&send, true, recvbuf, recvcount, recvtype, root, comm, NULL);
}

int MPIR_Iscatterv_impl(const void *sendbuf, MPIR_Count_array sendcounts, MPIR_Aint_array displs,
                        MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Request *request)
{
    MPIR_Blocks send = { .buf = sendbuf, .counts = sendcounts, .displs = displs, .type = sendtype };
    return scatter(&send, true, recvbuf, recvcount, recvtype, root, comm, request);
}
