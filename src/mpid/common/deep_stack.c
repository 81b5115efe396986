/*
 * Running a recursive algorithm on a stack large enough for its depth.
 *
 * Datatypes may nest as deeply as the user likes; the engine's recursions (building a dataloop,
 * walking it) need stack in proportion. Rather than cap the depth, a call whose depth exceeds what
 * the caller's stack surely holds runs on a thread created with a stack of the size it needs.
 */
#include "mpiimpl.h"

typedef struct {
    void (*fn)(void *);
    void *arg;
} Call;

static void *trampoline(void *p)
{
    Call *call = p;
    call->fn(call->arg);
    return NULL;
}

int MPIR_Run_deep(int depth, void (*fn)(void *), void *arg)
{
    if (depth <= MPIR_DEEP_THRESHOLD) {
        fn(arg);
        return MPI_SUCCESS;
    }
    /* about 1 KiB per level covers every recursion of the engine, with room to spare */
    size_t bytes = ((size_t) depth + 1024) * 1024;
    pthread_attr_t attr;
    pthread_t thread;
    Call call = { fn, arg };
    if (pthread_attr_init(&attr))
        return MPIR_Err(MPI_ERR_NO_MEM, "cannot set up a stack for a datatype nested %d deep", depth);
    int rc = pthread_attr_setstacksize(&attr, bytes);
    if (!rc)
        rc = pthread_create(&thread, &attr, trampoline, &call);
    pthread_attr_destroy(&attr);
    if (rc)
        return MPIR_Err(MPI_ERR_NO_MEM, "no memory for the stack a datatype nested %d deep needs", depth);
    pthread_join(thread, NULL);
    return MPI_SUCCESS;
}
