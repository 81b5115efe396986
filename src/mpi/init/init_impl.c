/*
 * Starting and stopping MPI, and the environment queries (versions, clocks, thread level).
 *
 * The state moves once, PRE_INIT -> INITIALIZED -> FINALIZED; a mutex makes each move whole
 * when threads race to initialize or finalize. Bindings test the state with MPIR_Is_initialized.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"
#include <stdio.h>
#include <time.h>

MPIR_Process_t MPIR_Process = { .state = MPIR_STATE_PRE_INIT, .thread_level = MPI_THREAD_SINGLE };

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;

static int state(void)
{
    return atomic_load_explicit(&MPIR_Process.state, memory_order_acquire);
}

int MPIR_Init_thread_impl(int *argc, char ***argv, int required, int *provided)
{
    pthread_mutex_lock(&init_lock);
    if (state() != MPIR_STATE_PRE_INIT) {
        int finalized = state() == MPIR_STATE_FINALIZED;
        pthread_mutex_unlock(&init_lock);
        return MPIR_Err(MPI_ERR_OTHER, finalized ? "MPI cannot be initialized again after MPI_Finalize"
                                                 : "MPI is already initialized");
    }
    MPID_Builtin_init();
    /* join the job (or become a singleton), then build the world on top of it */
    int err = MPID_Init();
    if (!err)
        err = MPIR_Comm_init_builtins();
    if (err) {
        pthread_mutex_unlock(&init_lock);
        return err;
    }
    /* Every level is supported (the library is thread-safe throughout), so the caller gets what
     * it asked for; a value outside the four levels is clamped to the nearest one. */
    int level = required < MPI_THREAD_SINGLE ? MPI_THREAD_SINGLE
              : required > MPI_THREAD_MULTIPLE ? MPI_THREAD_MULTIPLE : required;
    MPIR_Process.thread_level = level;
    MPIR_Process.main_thread = pthread_self();
    atomic_store_explicit(&MPIR_Process.state, MPIR_STATE_INITIALIZED, memory_order_release);
    pthread_mutex_unlock(&init_lock);
    *provided = level;
    return MPI_SUCCESS;
}

int MPIR_Init_impl(int *argc, char ***argv)
{
    int provided;
    return MPIR_Init_thread_impl(argc, argv, MPI_THREAD_SINGLE, &provided);
}

int MPIR_Initialized_impl(int *flag)
{
    *flag = state() != MPIR_STATE_PRE_INIT;     /* stays true after MPI_Finalize */
    return MPI_SUCCESS;
}

int MPIR_Finalized_impl(int *flag)
{
    *flag = state() == MPIR_STATE_FINALIZED;
    return MPI_SUCCESS;
}

int MPIR_Finalize_impl(void)
{
    pthread_mutex_lock(&init_lock);
    if (state() != MPIR_STATE_INITIALIZED) {
        pthread_mutex_unlock(&init_lock);
        return MPIR_Err_not_initialized();
    }
    /* Every process gets here before any leaves: no message is then in flight to a process gone. */
    int err = MPIR_Barrier_impl(MPI_COMM_WORLD);
    /* Attributes first: their delete callbacks (MPI_COMM_SELF's above all, which the standard runs
     * at the start of MPI_Finalize) may still call MPI, and may free datatypes the datatype module
     * would otherwise report as leaked. */
    MPIR_Attr_finalize();
    MPIR_Pt2pt_finalize();      /* buffered sends still going hold communicators */
    MPIR_Comm_finalize();
    MPIR_Type_f90_finalize();   /* after attributes: SELF delete callbacks may use f90 types */
    MPID_Datatype_finalize();
    MPIR_Op_finalize();
    MPIR_Report_leaks();        /* LOOM_REPORT_LEAKS=1: every handle the program never freed */
    if (!err)
        err = MPID_Finalize();
    atomic_store_explicit(&MPIR_Process.state, MPIR_STATE_FINALIZED, memory_order_release);
    pthread_mutex_unlock(&init_lock);
    return err;
}

int MPIR_Abort_impl(MPI_Comm comm, int errorcode)
{
    char what[MPIR_HANDLE_STR_MAX], line[128];
    snprintf(line, sizeof line, "MPI_Abort(%s, %d): process %d aborted the job", MPIR_Comm_str(comm, what),
             errorcode, MPIR_Process.world_rank);
    /* The shell sees only the low 8 bits of an exit status; an abort must never look like success
     * (not even MPI_Abort(comm, 0)), or mpiexec would let the other ranks run on. */
    int status = errorcode & 0xff;
    if (status == 0)
        status = 1;
    fflush(stdout);
    MPIR_Abort_process(status, line);
}

int MPIR_Query_thread_impl(int *provided)
{
    *provided = MPIR_Process.thread_level;
    return MPI_SUCCESS;
}

int MPIR_Is_thread_main_impl(int *flag)
{
    *flag = pthread_equal(pthread_self(), MPIR_Process.main_thread) != 0;
    return MPI_SUCCESS;
}

int MPIR_Get_version_impl(int *version, int *subversion)
{
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

int MPIR_Get_library_version_impl(char *version, int *resultlen)
{
    snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING, "Loom MPI %s: MPI %d.%d datatype-centred implementation",
             LOOM_MPI_VERSION, MPI_VERSION, MPI_SUBVERSION);
    *resultlen = (int) strlen(version);
    return MPI_SUCCESS;
}

double MPIR_Wtime_impl(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

double MPIR_Wtick_impl(void)
{
    struct timespec r;
    if (clock_getres(CLOCK_MONOTONIC, &r) != 0 || (r.tv_sec == 0 && r.tv_nsec == 0))
        return 1e-9;
    return (double) r.tv_sec + 1e-9 * (double) r.tv_nsec;
}
