/*
 * Window objects: MPI_Win_create, MPI_Win_allocate, MPI_Win_free, MPI_Win_get_group.
 *
 * Enough of windows for programs and test harnesses that create them; the one-sided operations
 * come with a later issue, which will extend MPIR_Win (exchanging every process's base, size and
 * displacement unit at creation).
 *
 * A window works on a private copy of the user's communicator: the same group on a context of its
 * own, so the one-sided traffic to come can never match the user's messages, and still valid after
 * the user frees the communicator (the standard allows it). Creation and free are collective and
 * synchronize the processes: agreeing on the new context at creation, a barrier at free, so no
 * process can touch a window another has not finished creating or has already freed.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"
#include "../comm/comm.h"

static MPIR_Pool win_pool = MPIR_POOL_INITIALIZER(MPIR_CLASS_WIN, MPIR_Win, "window", NULL);

MPIR_Win *MPIR_Win_lookup(MPI_Win win)
{
    return MPIR_Pool_lookup(&win_pool, win);
}

/* The arguments every flavor checks. */
static int check_args(MPI_Aint size, int disp_unit, MPIR_Comm *comm)
{
    if (size < 0)
        return MPIR_Err(MPI_ERR_SIZE, "size is %ld, must be non-negative", (long) size);
    if (disp_unit <= 0)
        return MPIR_Err(MPI_ERR_DISP, "disp_unit is %d, must be positive", disp_unit);
    if (comm->is_inter)
        return MPIR_Err(MPI_ERR_COMM, "windows are created over intracommunicators, not intercommunicators");
    return MPI_SUCCESS;
}

/* The window's private communicator: comm's group on a new context (collective over comm). */
static int private_comm(MPIR_Comm *comm, MPIR_Comm **out)
{
    int ctx;
    int err = MPIR_Context_alloc(comm, MPI_SUCCESS, 1, &ctx);
    if (err != MPI_SUCCESS)
        return err;
    err = MPIR_Comm_new(comm, comm->local_group, ctx, out);
    if (err != MPI_SUCCESS) {
        MPIR_Context_free(ctx);
        return err;
    }
    (*out)->is_internal = 1;    /* no user handle: not the user's to free, nor a leak */
    return MPI_SUCCESS;
}

/* Builds the window record (collective over comm). On failure the caller keeps base. */
static int win_new(MPI_Comm comm, void *base, MPI_Aint size, int disp_unit, int flavor, MPI_Win *win)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    int err = check_args(size, disp_unit, c);
    if (err != MPI_SUCCESS)
        return err;
    MPIR_Comm *wc;
    err = private_comm(c, &wc);     /* first: every process takes part, even one out of memory below */
    if (err != MPI_SUCCESS)
        return err;
    MPIR_Win *w = MPIR_Pool_alloc(&win_pool);
    if (w == NULL) {
        MPIR_Comm_release(wc);
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory or of window handles");
    }
    w->comm = wc;
    w->base = base;
    w->size = size;
    w->disp_unit = disp_unit;
    w->flavor = flavor;
    w->model = MPI_WIN_UNIFIED;     /* the pool zeroed name and attributes */
    *win = MPIR_Object_handle(w);
    return MPI_SUCCESS;
}

/* The info hints change nothing yet; they are valid or MPI_INFO_NULL (the binding checked). */
int MPIR_Win_create_impl(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    (void) info;
    return win_new(comm, base, size, disp_unit, MPI_WIN_FLAVOR_CREATE, win);
}

/* baseptr is really a void **: it receives the address of the memory, which the window owns. */
int MPIR_Win_allocate_impl(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                           MPI_Win *win)
{
    if (size < 0)   /* MPI_ERR_SIZE, as for MPI_Win_create, before MPI_Alloc_mem would say MPI_ERR_ARG */
        return MPIR_Err(MPI_ERR_SIZE, "size is %ld, must be non-negative", (long) size);
    void *base;
    int err = MPIR_Alloc_mem_impl(size, info, &base);     /* honours mpi_minimum_memory_alignment */
    if (err != MPI_SUCCESS)
        return err;
    err = win_new(comm, base, size, disp_unit, MPI_WIN_FLAVOR_ALLOCATE, win);
    if (err != MPI_SUCCESS) {
        free(base);
        return err;
    }
    *(void **) baseptr = base;
    return MPI_SUCCESS;
}

int MPIR_Win_free_impl(MPI_Win *win)
{
    MPIR_Win *w = MPIR_Win_lookup(*win);
    if (w == NULL)
        return MPIR_Err(MPI_ERR_WIN, "the window was freed");
    /* A delete callback that frees the window again would free it under this call. */
    if (w->is_being_freed)
        return MPIR_Err(MPI_ERR_WIN, "the window is already being freed (MPI_Win_free called from one "
                        "of its attribute delete callbacks)");
    /* 1. Synchronize first: a failing delete callback below then leaves this process's window in
     *    place (the call fails) without leaving the others waiting in a barrier. */
    int err = MPIR_Barrier_impl(MPIR_Comm_handle(w->comm));
    if (err != MPI_SUCCESS)
        return err;
    /* 2. Attributes go while the handle is still valid: their delete callbacks receive it. */
    w->is_being_freed = 1;
    err = MPIR_Attr_delete_all(&w->attributes, *win);
    w->is_being_freed = 0;
    if (err != MPI_SUCCESS)
        return err;
    MPIR_Comm_release(w->comm);
    if (w->flavor == MPI_WIN_FLAVOR_ALLOCATE)
        free(w->base);
    MPIR_Pool_free(&win_pool, w);
    *win = MPI_WIN_NULL;
    return MPI_SUCCESS;
}

int MPIR_Win_get_group_impl(MPI_Win win, MPI_Group *group)
{
    MPIR_Win *w = MPIR_Win_lookup(win);
    if (w == NULL)
        return MPIR_Err(MPI_ERR_WIN, "the window was freed");
    return MPIR_Group_new_handle(w->comm->local_group, group);     /* a new handle the user frees */
}
