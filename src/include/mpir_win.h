/*
 * Windows (MPI_Win_create & co., src/mpi/win/).
 *
 * A window records what this process exposed, the processes it spans, and the state of one-sided
 * communication (src/mpi/win/rma.h). The window has a communicator of its own (the user's group
 * on a private context), so the user may free theirs first, and one-sided traffic never meets
 * the user's messages.
 */
#ifndef MPIR_WIN_H_INCLUDED
#define MPIR_WIN_H_INCLUDED

#include "mpi.h"
#include "mpir_object.h"
#include "mpir_comm.h"

struct MPIR_Attribute;

typedef struct MPIR_Win {
    MPIR_Object obj;
    MPIR_Comm *comm;                    /* private: the user's group on a context of its own */
    void *base;                         /* this process's memory (MPI_WIN_BASE) */
    MPI_Aint size;                      /* its size in bytes (MPI_WIN_SIZE) */
    int disp_unit;                      /* MPI_WIN_DISP_UNIT */
    int flavor;                         /* MPI_WIN_FLAVOR_CREATE, _ALLOCATE or _SHARED (MPI_WIN_CREATE_FLAVOR) */
    int model;                          /* MPI_WIN_UNIFIED: one machine, coherent memory (MPI_WIN_MODEL) */
    char name[MPI_MAX_OBJECT_NAME];     /* "" until MPI_Win_set_name: windows have no default name */
    struct MPIR_Attribute *attributes;
    int is_being_freed;                 /* MPI_Win_free is running its attribute delete callbacks */
    _Atomic int errhandler;             /* MPI_Errhandler: MPI_ERRORS_ARE_FATAL until the user sets one */
    struct MPIR_Rma *rma;               /* one-sided state */
    void *shared_segment;               /* MPI_WIN_FLAVOR_SHARED: every process's memory, mapped here */
    size_t shared_length;
} MPIR_Win;

/* The window behind a handle, or NULL. */
MPIR_Win *MPIR_Win_lookup(MPI_Win win);
/* Drops the window's reference on its error handler (MPI_Win_free). */
void MPIR_Win_release_errhandler(MPIR_Win *w);

#endif
