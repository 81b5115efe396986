/*
 * Process-wide state: init/finalize, the world this process belongs to, error handlers.
 * Communicators, groups and requests are declared in mpir_comm.h and mpir_request.h.
 */
#ifndef MPIR_PROCESS_H_INCLUDED
#define MPIR_PROCESS_H_INCLUDED

#include <pthread.h>
#include <stdatomic.h>
#include "mpi.h"
#include "mpir_object.h"

struct MPIR_Attribute;

typedef struct MPIR_Errhandler {
    MPIR_Object obj;
    MPI_Comm_errhandler_function *fn;   /* NULL for the predefined handlers */
} MPIR_Errhandler;

#include "mpir_comm.h"

enum MPIR_State { MPIR_STATE_PRE_INIT = 0, MPIR_STATE_INITIALIZED = 1, MPIR_STATE_FINALIZED = 2 };

typedef struct MPIR_Process_t {
    _Atomic int state;                  /* enum MPIR_State */
    int thread_level;
    pthread_t main_thread;
    int world_rank, world_size;         /* set by MPID_Init: from mpiexec, or 0 and 1 (singleton) */
} MPIR_Process_t;
extern MPIR_Process_t MPIR_Process;

static inline int MPIR_Is_initialized(void)
{
    return atomic_load_explicit(&MPIR_Process.state, memory_order_acquire) == MPIR_STATE_INITIALIZED;
}

/* The communicator (or errhandler) object for a valid handle, else NULL. */
MPIR_Comm *MPIR_Comm_lookup(MPI_Comm comm);
MPIR_Errhandler *MPIR_Errhandler_lookup(MPI_Errhandler errhandler);

/* Whether comm is a valid communicator: the predefined ones without a call, since the binding
 * checks the comm argument of every call (MPI_Pack and MPI_Unpack per message). */
static inline bool MPIR_Comm_valid(MPI_Comm comm)
{
    return comm == MPI_COMM_WORLD || comm == MPI_COMM_SELF || MPIR_Comm_lookup(comm) != NULL;
}

/* Invokes the error handler of object on code: a window's (a window handle), a communicator's, or
 * (MPI_COMM_NULL, a freed window) the handler for errors tied to no object, which is
 * MPI_COMM_SELF's if the user set one, else MPI_COMM_WORLD's. Returns code unless the handler
 * aborts the process. */
int MPIR_Errhandler_invoke(int object, int code, const char *message);

/* Ends the process: prints message (if any) to stderr and exits with errorcode. */
void MPIR_Abort_process(int errorcode, const char *message) __attribute__((noreturn));

/* Called by MPI_Finalize for each module to release what it holds. */
void MPID_Datatype_finalize(void);
void MPIR_Attr_finalize(void);
/* Frees the cached MPI_Type_create_f90_* types: after MPIR_Attr_finalize (MPI_COMM_SELF's callbacks may
 * still use them), before MPID_Datatype_finalize (its leak report). */
void MPIR_Type_f90_finalize(void);
/* Point-to-point: waits for buffered sends in flight, releases requests freed before they completed,
 * reports leaked requests (LOOM_REPORT_LEAKS). After the world's barrier, before MPID_Finalize. */
void MPIR_Pt2pt_finalize(void);

#endif
