/*
 * Window objects: MPI_Win_create, MPI_Win_allocate, MPI_Win_allocate_shared (their memory in
 * shared memory: win_shared.c), MPI_Win_create_dynamic with MPI_Win_attach and MPI_Win_detach,
 * MPI_Win_free, MPI_Win_get_group, and the info hints.
 *
 * A window works on a private copy of the user's communicator: the same group on a context of its
 * own, so one-sided traffic can never match the user's messages, and still valid after the user
 * frees the communicator (the standard allows it). Creation and free are collective and
 * synchronize the processes: agreeing on the new context and exchanging every process's window
 * size and displacement unit at creation (an origin checks its accesses against them), a barrier
 * at free, so no process can touch a window another has not finished creating or has already
 * freed.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"
#include "../comm/comm.h"
#include "rma.h"

static MPIR_Pool win_pool = MPIR_POOL_INITIALIZER(MPIR_CLASS_WIN, MPIR_Win, "window", NULL);

MPIR_Win *MPIR_Win_lookup(MPI_Win win)
{
    return MPIR_Pool_lookup(&win_pool, win);
}

/* The arguments every flavor checks. */
static int check_args(MPI_Aint size, MPI_Aint disp_unit, MPIR_Comm *comm)
{
    if (size < 0)
        return MPIR_Err(MPI_ERR_SIZE, "size is %ld, must be non-negative", (long) size);
    if (disp_unit <= 0)
        return MPIR_Err(MPI_ERR_DISP, "disp_unit is %ld, must be positive", (long) disp_unit);
    if (disp_unit > INT_MAX)    /* the _c creations: the MPI_WIN_DISP_UNIT attribute is an int */
        return MPIR_Err(MPI_ERR_DISP, "disp_unit is %ld, larger than this library supports (%d)", (long) disp_unit,
                        INT_MAX);
    if (comm->is_inter)
        return MPIR_Err(MPI_ERR_COMM, "windows are created over intracommunicators, not intercommunicators");
    return MPI_SUCCESS;
}

int MPIR_Rma_new(int nranks, MPIR_Rma **out)
{
    size_t n = (size_t) nranks;
    MPIR_Rma *r = calloc(1, sizeof *r);
    if (r) {
        r->sizes = malloc(n * sizeof *r->sizes);
        r->disp_units = malloc(n * sizeof *r->disp_units);
        r->touched = calloc(n, 1);
        r->locked = calloc(n, 1);
        r->in_access = calloc(n, 1);
    }
    if (!r || !r->sizes || !r->disp_units || !r->touched || !r->locked || !r->in_access) {
        MPIR_Rma_free(r);
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory for the window's one-sided state");
    }
    r->nranks = nranks;
    pthread_mutex_init(&r->lock, NULL);
    *out = r;
    return MPI_SUCCESS;
}

void MPIR_Rma_free(MPIR_Rma *r)
{
    if (!r)
        return;
    if (r->win)
        MPIR_Rma_wait_pending(r, -1);   /* empty after a correct program's last epoch */
    free(r->pending);
    free(r->sizes);
    free(r->disp_units);
    free(r->touched);
    free(r->locked);
    free(r->in_access);
    free(r->exposure);
    free(r->bases);
    free(r);
}

/* Builds the window record (collective over comm); local_err: this process failed before, and
 * all will fail. On failure the caller keeps base.
 *
 * Everything this process needs is allocated first; then the processes agree on a context (all
 * fail if one did), make the private communicator, and exchange over comm their window sizes,
 * displacement units and whether they got this far, so that all succeed or all fail. */
static int win_new(MPI_Comm comm, void *base, MPI_Aint size, MPI_Aint disp_unit, int flavor, MPI_Info info,
                   int local_err, MPI_Win *win)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    int err = check_args(size, disp_unit, c);
    if (err != MPI_SUCCESS)
        return err;
    int n = c->size, ctx;
    MPIR_Win *w = MPIR_Pool_alloc(&win_pool);
    MPIR_Rma *r = NULL;
    MPI_Aint *all = malloc((size_t) n * 3 * sizeof *all);
    if (local_err)
        err = local_err;
    else if (!w || !all)
        err = MPIR_Err(MPI_ERR_NO_MEM, "out of memory or of window handles");
    else
        err = MPIR_Rma_new(n, &r);
    err = MPIR_Context_alloc(c, err, 1, &ctx);
    if (err != MPI_SUCCESS) {
        MPIR_Rma_free(r);
        free(all);
        if (w)
            MPIR_Pool_free(&win_pool, w);
        return err;
    }
    MPIR_Comm *wc = NULL;
    int local = MPIR_Comm_new(c, c->local_group, ctx, &wc);
    if (local != MPI_SUCCESS)
        MPIR_Context_free(ctx);
    else {
        wc->is_internal = 1;    /* no user handle: not the user's to free, nor a leak */
        local = MPIR_Comm_info_merge(wc, info);     /* the window's hints (MPI_Win_get_info) */
    }
    MPI_Aint mine[3] = { size, disp_unit, local != MPI_SUCCESS };
    err = MPIR_Allgather_impl(mine, 3, MPI_AINT, all, 3, MPI_AINT, comm);
    for (int i = 0; err == MPI_SUCCESS && i < n; i++) {
        if (all[3 * i + 2])
            err = i == c->rank ? local : MPIR_Err(MPI_ERR_OTHER, "process %d failed to create the window", i);
        r->sizes[i] = all[3 * i];
        r->disp_units[i] = (int) all[3 * i + 1];
    }
    free(all);
    if (err != MPI_SUCCESS) {
        if (wc)
            MPIR_Comm_release(wc);
        MPIR_Rma_free(r);
        MPIR_Pool_free(&win_pool, w);
        return err;
    }
    w->comm = wc;
    w->base = base;
    w->size = size;
    w->disp_unit = (int) disp_unit;     /* checked */
    w->flavor = flavor;
    w->model = MPI_WIN_UNIFIED;     /* the pool zeroed name and attributes */
    atomic_store(&w->errhandler, MPI_ERRORS_ARE_FATAL);
    w->rma = r;
    r->win = w;
    MPIR_Rma_target_attach(r);
    *win = MPIR_Object_handle(w);
    return MPI_SUCCESS;
}

int MPIR_Win_create_impl(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    return win_new(comm, base, size, disp_unit, MPI_WIN_FLAVOR_CREATE, info, MPI_SUCCESS, win);
}

/* Its memory is attached later: base MPI_BOTTOM, displacements are addresses (rma_target.c). */
int MPIR_Win_create_dynamic_impl(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    int err = win_new(comm, MPI_BOTTOM, 0, 1, MPI_WIN_FLAVOR_DYNAMIC, info, MPI_SUCCESS, win);
    if (err == MPI_SUCCESS)
        MPIR_Win_lookup(*win)->rma->dynamic = true;
    return err;
}

static int check_dynamic(MPIR_Win *w)
{
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return MPIR_Err(MPI_ERR_RMA_FLAVOR, "memory is attached to windows of MPI_Win_create_dynamic only");
    return MPI_SUCCESS;
}

int MPIR_Win_attach_impl(MPI_Win win, void *base, MPI_Aint size)
{
    MPIR_Win *w = MPIR_Win_lookup(win);
    int err = check_dynamic(w);
    return err ? err : MPIR_Rma_attach(w->rma, base, size);
}

int MPIR_Win_detach_impl(MPI_Win win, const void *base)
{
    MPIR_Win *w = MPIR_Win_lookup(win);
    int err = check_dynamic(w);
    return err ? err : MPIR_Rma_detach(w->rma, base);
}

/* A window's hints are kept by its private communicator (comm_info.c): none changes how it
 * behaves, and MPI_Win_get_info returns them as they were set. */
int MPIR_Win_set_info_impl(MPI_Win win, MPI_Info info)
{
    return MPIR_Comm_info_merge(MPIR_Win_lookup(win)->comm, info);
}

int MPIR_Win_get_info_impl(MPI_Win win, MPI_Info *info_used)
{
    return MPIR_Comm_get_info_impl(MPIR_Comm_handle(MPIR_Win_lookup(win)->comm), info_used);
}

/* A window whose memory is in shared memory (win_shared.c), parts aligned to align: origins
 * reach it directly. baseptr is really a void **: it receives this process's part. */
static int shared_window(MPI_Aint size, MPI_Aint disp_unit, size_t align, int flavor, MPI_Info info, MPI_Comm comm,
                         void *baseptr, MPI_Win *win)
{
    int err = check_args(size, disp_unit, MPIR_Comm_lookup(comm));
    if (err != MPI_SUCCESS)
        return err;
    void *segment;
    size_t length;
    MPI_Aint *offsets;
    if ((err = MPIR_Win_shared_segment(comm, size, align, &segment, &length, &offsets)) != MPI_SUCCESS)
        return err;
    int rank = MPIR_Comm_lookup(comm)->rank, n = MPIR_Comm_lookup(comm)->size;
    char **bases = malloc((size_t) n * sizeof *bases);
    err = bases ? MPI_SUCCESS : MPIR_Err(MPI_ERR_NO_MEM, "out of memory for the shared window's addresses");
    /* win_new's collective agreement carries this process's failure to the others */
    if ((err = win_new(comm, (char *) segment + offsets[rank], size, disp_unit, flavor, info, err, win))
        != MPI_SUCCESS) {
        free(offsets);
        free(bases);
        MPIR_Win_shared_segment_free(segment, length);
        return err;
    }
    MPIR_Win *w = MPIR_Win_lookup(*win);
    for (int i = 0; i < n; i++)
        bases[i] = (char *) segment + offsets[i];
    free(offsets);
    w->shared_segment = segment;
    w->shared_length = length;
    w->rma->bases = bases;
    w->rma->control = segment;
    w->rma->direct = true;
    *(void **) baseptr = w->base;
    return MPI_SUCCESS;
}

/* baseptr is really a void **: it receives the address of the memory, which the window owns. In
 * shared memory, unless the info asks for an alignment beyond a page, or LOOM_RMA_DIRECT=0 (tests:
 * the message path over such memory too). */
int MPIR_Win_allocate_impl(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                           MPI_Win *win)
{
    if (size < 0)   /* MPI_ERR_SIZE, as for MPI_Win_create, before MPI_Alloc_mem would say MPI_ERR_ARG */
        return MPIR_Err(MPI_ERR_SIZE, "size is %ld, must be non-negative", (long) size);
    size_t align = MPIR_Alloc_mem_alignment(info);
    const char *direct = getenv("LOOM_RMA_DIRECT");
    if (align <= 4096 && !(direct && strcmp(direct, "0") == 0))
        return shared_window(size, disp_unit, align, MPI_WIN_FLAVOR_ALLOCATE, info, comm, baseptr, win);
    void *base;
    int err = MPIR_Alloc_mem_impl(size, info, &base);     /* honours mpi_minimum_memory_alignment */
    if (err != MPI_SUCCESS)
        return err;
    err = win_new(comm, base, size, disp_unit, MPI_WIN_FLAVOR_ALLOCATE, info, MPI_SUCCESS, win);
    if (err != MPI_SUCCESS) {
        free(base);
        return err;
    }
    *(void **) baseptr = base;
    return MPI_SUCCESS;
}

/* The processes' parts contiguous, as the standard's default is. */
int MPIR_Win_allocate_shared_impl(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                                  MPI_Win *win)
{
    return shared_window(size, disp_unit, 1, MPI_WIN_FLAVOR_SHARED, info, comm, baseptr, win);
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
     *    place (the call fails) without leaving the others waiting in a barrier. A barrier that
     *    failed here (it took part all the same) still frees the window, and the call reports it. */
    int barrier_err = MPIR_Barrier_impl(MPIR_Comm_handle(w->comm));
    /* 2. Attributes go while the handle is still valid: their delete callbacks receive it. */
    w->is_being_freed = 1;
    int err = MPIR_Attr_delete_all(&w->attributes, *win);
    w->is_being_freed = 0;
    if (err != MPI_SUCCESS)
        return err;
    MPIR_Rma_target_detach(w->rma);
    MPIR_Rma_free(w->rma);
    MPIR_Win_release_errhandler(w);
    MPIR_Comm_release(w->comm);
    if (w->shared_segment)
        MPIR_Win_shared_segment_free(w->shared_segment, w->shared_length);
    else if (w->flavor == MPI_WIN_FLAVOR_ALLOCATE)
        free(w->base);
    MPIR_Pool_free(&win_pool, w);
    *win = MPI_WIN_NULL;
    return barrier_err;
}

int MPIR_Win_get_group_impl(MPI_Win win, MPI_Group *group)
{
    MPIR_Win *w = MPIR_Win_lookup(win);
    if (w == NULL)
        return MPIR_Err(MPI_ERR_WIN, "the window was freed");
    return MPIR_Group_new_handle(w->comm->local_group, group);     /* a new handle the user frees */
}
