/*
 * Running a recursive algorithm on a stack large enough for its depth.
 *
 * Datatypes may nest as deeply as the user likes; the engine's recursions (building a dataloop,
 * walking it) need stack in proportion. Rather than cap the depth, a call whose depth exceeds what
 * the caller's stack surely holds runs on a thread created with a stack of the size it needs.
 */
#include "mpiimpl.h"

/* Stack per level: about 1 KiB covers every recursion of the engine, with room to spare; the
 * redzones of AddressSanitizer make its frames several times larger (a build of a chain of
 * structs 100000 deep overflowed 1 KiB per level). */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LEVEL_BYTES 4096
#endif
#endif
#if !defined(LEVEL_BYTES) && defined(__SANITIZE_ADDRESS__)
#define LEVEL_BYTES 4096
#endif
#ifndef LEVEL_BYTES
#define LEVEL_BYTES 1024
#endif

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
    size_t bytes = ((size_t) depth + 1024) * LEVEL_BYTES;
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
