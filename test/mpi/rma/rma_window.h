/*
 * The windows of the RMA tests, over either kind of memory, so that each test runs over both:
 * memory the test allocated (MPI_Win_create; the library reaches it through messages), or memory
 * of the library's (MPI_Win_allocate; in Loom, shared memory that origins reach directly), as the
 * environment variable RMA_TEST_WINDOW says ("create", the default, or "allocate").
 */
#ifndef RMA_WINDOW_H_INCLUDED
#define RMA_WINDOW_H_INCLUDED

#include <stdlib.h>
#include <string.h>
#include "mtest.h"

static inline int rma_window_allocates(void)
{
    const char *kind = getenv("RMA_TEST_WINDOW");
    return kind && strcmp(kind, "allocate") == 0;
}

/* A window of bytes over *mem (from malloc, already filled): in "allocate" mode the window's memory
 * takes over the contents, *mem becomes it, and the malloc'd block is freed. Collective. */
static inline void rma_window(void **mem, MPI_Aint bytes, int disp_unit, MPI_Win *win)
{
    if (!rma_window_allocates()) {
        CHECK_MPI(MPI_Win_create(*mem, bytes, disp_unit, MPI_INFO_NULL, MPI_COMM_WORLD, win));
        return;
    }
    void *base = NULL;
    CHECK_MPI(MPI_Win_allocate(bytes, disp_unit, MPI_INFO_NULL, MPI_COMM_WORLD, &base, win));
    memcpy(base, *mem, (size_t) bytes);
    free(*mem);
    *mem = base;
    /* as MPI_Win_create after the filling: no process reaches the window before it is filled
     * (a passive-target epoch needs no other synchronization to start) */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* What the test frees after MPI_Win_free: its own memory, or nothing (the window's went with it). */
static inline void rma_free_mem(void *mem)
{
    if (!rma_window_allocates())
        free(mem);
}

#endif
