/*
 * MPI_Scan and MPI_Exscan: recursive doubling in rank order. After round k, partial holds the
 * reduction of the ranks (r - 2^(k+1), r] that exist; in each round rank r sends its partial to
 * r + 2^k and combines what r - 2^k sent in front of its own (lower ranks first, so
 * non-commutative operations work): partial = theirs op partial, result = theirs op result.
 * MPI_Exscan's result leaves out the rank's own value; at rank 0 it stays undefined (untouched).
 */
#include "coll_util.h"
#include "mpir_impl_proto.h"

static int scan(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype type, MPI_Op op, bool exclusive,
                MPIR_Comm *c)
{
    const void *input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    MPIR_Tmpbuf partial = { NULL, NULL }, theirs = { NULL, NULL };
    int err = MPIR_Tmpbuf_alloc(&partial, count, type);
    if (err == MPI_SUCCESS)
        err = MPIR_Tmpbuf_alloc(&theirs, count, type);
    if (err == MPI_SUCCESS)
        err = MPIR_Localcopy(input, count, type, partial.buf, count, type);
    /* the inclusive result starts as the own value; the exclusive one starts empty */
    if (err == MPI_SUCCESS && !exclusive && input != recvbuf)
        err = MPIR_Localcopy(input, count, type, recvbuf, count, type);
    bool have_result = !exclusive;
    for (int mask = 1; err == MPI_SUCCESS && mask < c->size; mask <<= 1) {
        int up = c->rank + mask, down = c->rank - mask;
        err = MPIR_Coll_sendrecv(partial.buf, up < c->size ? count : 0, type, up < c->size ? up : MPI_PROC_NULL,
                                 theirs.buf, count, type, down >= 0 ? down : MPI_PROC_NULL, MPIR_TAG_SCAN, c);
        if (err || down < 0)
            continue;
        if (have_result) {
            err = MPIR_Op_apply(theirs.buf, recvbuf, count, type, op);
        } else {
            err = MPIR_Localcopy(theirs.buf, count, type, recvbuf, count, type);
            have_result = true;
        }
        if (err == MPI_SUCCESS)
            err = MPIR_Op_apply(theirs.buf, partial.buf, count, type, op);
    }
    free(partial.base);
    free(theirs.base);
    return err;
}

static int check_and_scan(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                          bool exclusive, MPI_Comm comm)
{
    MPIR_Comm *c;
    int err = MPIR_Coll_comm(comm, &c);
    if (err == MPI_SUCCESS && sendbuf != MPI_IN_PLACE)
        err = MPIR_Coll_check_data("sendbuf", sendbuf, "count", count, "datatype", datatype, -1);
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_data("recvbuf", recvbuf, "count", count, "datatype", datatype, -1);
    if (err == MPI_SUCCESS)
        err = MPIR_Coll_check_alias(sendbuf, count, recvbuf, count);
    if (err == MPI_SUCCESS)
        err = MPIR_Op_check(op, datatype);
    if (err || count == 0)
        return err;
    return scan(sendbuf, recvbuf, count, datatype, op, exclusive, c);
}

int MPIR_Scan_impl(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm)
{
    return check_and_scan(sendbuf, recvbuf, count, datatype, op, false, comm);
}

int MPIR_Exscan_impl(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm)
{
    return check_and_scan(sendbuf, recvbuf, count, datatype, op, true, comm);
}
