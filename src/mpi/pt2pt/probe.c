/*
 * MPI_Probe and MPI_Iprobe: whether a matching message has arrived, without receiving it.
 */
#include "pt2pt.h"

/* One look at the device's unexpected messages. */
static int look(int source, int tag, MPIR_Comm *c, int *flag, MPI_Status *status)
{
    MPI_Status found;
    int err = MPID_Iprobe(source, tag, c, 0, flag, &found);
    if (err == MPI_SUCCESS && *flag)
        MPIR_Pt2pt_status_copy(status, &found, false);
    return err;
}

/* One look (block: until found). Each look lets the device progress first, so that a program that
 * polls with MPI_Iprobe sees messages arrive; the later ones of MPI_Probe also back off. */
static int probe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status, bool block)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    int err = MPIR_Pt2pt_check_peer(c, source, tag, true);
    if (err)
        return err;
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        MPIR_Pt2pt_status_proc_null(status);
        return MPI_SUCCESS;
    }
    for (int step = 0;; step++) {
        MPIR_Pt2pt_poll(step > 0);
        err = look(source, tag, c, flag, status);
        if (!block || err || *flag)
            return err;
    }
}

int MPIR_Iprobe_impl(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    return probe(source, tag, comm, flag, status, false);
}

int MPIR_Probe_impl(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    int flag;
    return probe(source, tag, comm, &flag, status, true);
}
