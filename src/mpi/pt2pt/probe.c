/*
 * MPI_Probe and MPI_Iprobe: whether a matching message has arrived, without receiving it.
 */
#include "pt2pt.h"

/* The status of a probe of MPI_PROC_NULL: found at once, empty, from MPI_PROC_NULL (the error
 * field is left alone, as by every call about one operation). */
static void proc_null_status(MPI_Status *status)
{
    if (MPIR_Status_is_ignore(status))
        return;
    int error = status->MPI_ERROR;
    MPIR_Pt2pt_status_empty(status);
    status->MPI_SOURCE = MPI_PROC_NULL;
    status->MPI_ERROR = error;
}

static int check(MPIR_Comm *c, int source, int tag)
{
    int err = MPIR_Pt2pt_check_source(c, source);
    return err ? err : MPIR_Pt2pt_check_tag(tag, true);
}

/* One look at the device's unexpected messages. */
static int look(int source, int tag, MPIR_Comm *c, int *flag, MPI_Status *status)
{
    MPI_Status found;
    int err = MPID_Iprobe(source, tag, c, 0, flag, &found);
    if (err == MPI_SUCCESS && *flag)
        MPIR_Pt2pt_status_copy(status, &found, false);
    return err;
}

int MPIR_Iprobe_impl(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    int err = check(c, source, tag);
    if (err)
        return err;
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        proc_null_status(status);
        return MPI_SUCCESS;
    }
    /* A program that polls with MPI_Iprobe must see messages arrive: let the device progress. */
    MPIR_Pt2pt_poll(false);
    return look(source, tag, c, flag, status);
}

int MPIR_Probe_impl(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    int err = check(c, source, tag);
    if (err)
        return err;
    if (source == MPI_PROC_NULL) {
        proc_null_status(status);
        return MPI_SUCCESS;
    }
    int flag = 0;
    for (int step = 0; err == MPI_SUCCESS && !flag; step++) {
        MPIR_Pt2pt_poll(step > 0);
        err = look(source, tag, c, &flag, status);
    }
    return err;
}
