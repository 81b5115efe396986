/*
 * The leak report of MPI_Finalize: with LOOM_REPORT_LEAKS=1 in the environment, every handle the
 * program created and never freed is listed on stderr, one line each:
 *
 *     Loom MPI: info 0x98000001 was never freed
 *
 * Every object pool enters a registry on its first allocation (src/mpid/common/object.c), so a new
 * kind of object is covered without a line here. MPIR_Report_leaks is the last step of
 * MPI_Finalize: every module has released what it holds itself by then (the predefined
 * communicators and the error handlers attached to them, say), so whatever a pool still holds is
 * what the program left behind.
 *
 * Some modules list their own leftovers while they finalize, with more to say about each (a
 * datatype's size, a communicator's name, whether a request is still pending); their pools are
 * skipped here. They use MPIR_Leak_report_wanted, so one switch drives every report.
 */
#include "mpiimpl.h"
#include <stdio.h>

static const int self_reported[] = {
    MPIR_CLASS_DATATYPE,    /* MPID_Datatype_finalize */
    MPIR_CLASS_COMM,        /* MPIR_Comm_finalize */
    MPIR_CLASS_GROUP,       /* MPIR_Group_finalize, from MPIR_Comm_finalize */
    MPIR_CLASS_REQUEST,     /* MPIR_Pt2pt_finalize */
    MPIR_CLASS_OP,          /* MPIR_Op_finalize */
    MPIR_CLASS_KEYVAL,      /* MPIR_Attr_finalize */
};

bool MPIR_Leak_report_wanted(void)
{
    const char *v = getenv("LOOM_REPORT_LEAKS");
    return v && *v && *v != '0';
}

static void report_pool(MPIR_Pool *pool, void *arg)
{
    (void) arg;
    for (size_t i = 0; i < sizeof self_reported / sizeof self_reported[0]; i++)
        if (pool->obj_class == self_reported[i])
            return;
    (void) MPIR_Pool_report(pool);
}

void MPIR_Report_leaks(void)
{
    if (!MPIR_Leak_report_wanted())
        return;
    MPIR_Pool_foreach_registered(report_pool, NULL);
    fflush(stderr);
}
