/*
 * MPI_Scan, MPI_Exscan and their nonblocking forms: recursive doubling in rank order. After round k, partial holds the
 * reduction of the ranks (r - 2^(k+1), r] that exist; in each round rank r sends its partial to
 * r + 2^k and combines what r - 2^k sent in front of its own (lower ranks first, so
 * non-commutative operations work): partial = theirs op partial, result = theirs op result.
 * MPI_Exscan's result leaves out the rank's own value; at rank 0 it stays undefined (untouched).
 */
#include "coll_sched.h"
#include "mpir_impl_proto.h"

static void build(MPIR_Sched *s, const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype type, MPI_Op op,
                  bool exclusive, MPIR_Comm *c)
{
    const void *input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    void *partial = MPIR_Sched_tmpbuf(s, count, type), *theirs = MPIR_Sched_tmpbuf(s, count, type);
    MPIR_Sched_copy(s, input, count, type, partial, count, type);
    /* the inclusive result starts as the own value; the exclusive one starts empty */
    if (!exclusive && input != recvbuf)
        MPIR_Sched_copy(s, input, count, type, recvbuf, count, type);
    bool have_result = !exclusive;
    for (int mask = 1; mask < c->size; mask <<= 1) {
        int up = c->rank + mask, down = c->rank - mask;
        if (up < c->size)
            MPIR_Sched_send(s, partial, count, type, up);
        if (down >= 0)
            MPIR_Sched_recv(s, theirs, count, type, down);
        MPIR_Sched_barrier(s);
        if (down < 0)
            continue;
        if (have_result)
            MPIR_Sched_reduce(s, theirs, recvbuf, count, type, op);
        else
            MPIR_Sched_copy(s, theirs, count, type, recvbuf, count, type);
        have_result = true;
        MPIR_Sched_reduce(s, theirs, partial, count, type, op);
    }
}

static int check_and_scan(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                          bool exclusive, MPI_Comm comm, MPI_Request *request)
{
    MPIR_Comm *c;
    int err = MPIR_Coll_check_reduction(comm, &c, sendbuf, recvbuf, count, datatype, op);
    if (err || (count == 0 && !request))
        return err;
    MPIR_Sched *s = MPIR_Sched_for(c, MPIR_TAG_SCAN, request);
    if (count > 0)
        build(s, sendbuf, recvbuf, count, datatype, op, exclusive, c);
    return MPIR_Sched_finish(s, request);
}

int MPIR_Scan_impl(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm)
{
    return check_and_scan(sendbuf, recvbuf, count, datatype, op, false, comm, NULL);
}

int MPIR_Exscan_impl(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm)
{
    return check_and_scan(sendbuf, recvbuf, count, datatype, op, true, comm, NULL);
}

int MPIR_Iscan_impl(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, MPI_Request *request)
{
    return check_and_scan(sendbuf, recvbuf, count, datatype, op, false, comm, request);
}

int MPIR_Iexscan_impl(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                      MPI_Comm comm, MPI_Request *request)
{
    return check_and_scan(sendbuf, recvbuf, count, datatype, op, true, comm, request);
}
