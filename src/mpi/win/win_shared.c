/*
 * Windows in shared memory: the memory of MPI_Win_allocate_shared, and of MPI_Win_allocate, and
 * MPI_Win_shared_query.
 *
 * Every process of a job runs on this machine, so any communicator may make one. The processes'
 * memory is one POSIX shared-memory object: a control area (a lock word and an accumulate lock
 * per process, rma.h), then the processes' parts in rank order, each starting on the alignment
 * asked for: 1 for MPI_Win_allocate_shared, whose parts are contiguous as the standard's default
 * asks (the info key alloc_shared_noncontig changes nothing), the MPI_Alloc_mem alignment for
 * MPI_Win_allocate. The first process creates the object and names it after its process id and
 * a number of its own, the name travels by broadcast, every process maps it, and the name is
 * removed once all have: the memory lives as long as a mapping does. Each process maps it at an
 * address of its own, so MPI_Win_shared_query answers with addresses in the caller's mapping.
 *
 * Since every process reaches every part, one-sided operations on these windows are done by the
 * origin itself (rma_ops.c, rma_sync.c: "direct" windows).
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include "mpiimpl.h"
#include "mpir_impl_proto.h"
#include "rma.h"

/* Every process learns whether every other succeeded (collective over comm). */
static int agree(MPI_Comm comm, int err)
{
    int failed = err != MPI_SUCCESS, any = 1;
    int cerr = MPIR_Allreduce_impl(&failed, &any, 1, MPI_INT, MPI_MAX, comm);
    if (err)
        return err;
    if (cerr)
        return cerr;
    return any ? MPIR_Err(MPI_ERR_OTHER, "another process failed to set up the shared window") : MPI_SUCCESS;
}

int MPIR_Win_shared_segment(MPI_Comm comm, MPI_Aint size, size_t align, void **segment, size_t *length,
                            MPI_Aint **offsets)
{
    const MPIR_Comm *c = MPIR_Comm_lookup(comm);
    int rank = c->rank, n = c->size;
    MPI_Aint *sizes = malloc((size_t) n * sizeof *sizes);
    int err = sizes ? MPI_SUCCESS : MPIR_Err(MPI_ERR_NO_MEM, "out of memory for the shared window's sizes");
    if ((err = agree(comm, err)) != MPI_SUCCESS) {
        free(sizes);
        return err;
    }
    err = MPIR_Allgather_impl(&size, 1, MPI_AINT, sizes, 1, MPI_AINT, comm);
    /* the control area, then the parts: sizes[] becomes their offsets */
    MPI_Aint total = ((MPI_Aint) n * (MPI_Aint) sizeof(MPIR_Rma_control) + 4095) / 4096 * 4096;
    for (int i = 0; err == MPI_SUCCESS && i < n; i++) {
        MPI_Aint part = sizes[i];
        sizes[i] = total;
        if (part > INT64_MAX - (MPI_Aint) align || __builtin_add_overflow(total, (part + (MPI_Aint) align - 1) /
                                                                           (MPI_Aint) align * (MPI_Aint) align, &total))
            err = MPIR_Err(MPI_ERR_SIZE, "the shared window's sizes add up to more than 2^63 bytes");
    }
    /* the first process creates the object: its name from the process id and a count */
    static _Atomic unsigned serial;
    int name_id[2] = { (int) getpid(), (int) atomic_fetch_add(&serial, 1) };
    char name[64];
    size_t len = (size_t) total;
    int fd = -1;
    if (err == MPI_SUCCESS && rank == 0) {
        snprintf(name, sizeof name, "/loom-win-%d-%d", name_id[0], name_id[1]);
        fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
        if (fd < 0 || ftruncate(fd, (off_t) len) != 0)
            err = MPIR_Err(MPI_ERR_NO_MEM, "cannot create a shared-memory object of %zu bytes", len);
    }
    if ((err = agree(comm, err)) == MPI_SUCCESS)
        err = MPIR_Bcast_impl(name_id, 2, MPI_INT, 0, comm);
    if (err == MPI_SUCCESS && rank != 0) {
        snprintf(name, sizeof name, "/loom-win-%d-%d", name_id[0], name_id[1]);
        fd = shm_open(name, O_RDWR, 0600);
        if (fd < 0)
            err = MPIR_Err(MPI_ERR_OTHER, "cannot open the shared window's memory");
    }
    void *mem = MAP_FAILED;
    if (err == MPI_SUCCESS && (mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED)
        err = MPIR_Err(MPI_ERR_NO_MEM, "cannot map %zu bytes of shared memory", len);
    if (fd >= 0)
        close(fd);
    /* every process has mapped it (or failed): the name can go */
    int all = agree(comm, err);
    if (rank == 0 && fd >= 0)
        shm_unlink(name);
    if (all != MPI_SUCCESS) {
        if (mem != MAP_FAILED)
            munmap(mem, len);
        free(sizes);
        return all;
    }
    *segment = mem;
    *length = len;
    *offsets = sizes;
    return MPI_SUCCESS;
}

void MPIR_Win_shared_segment_free(void *segment, size_t length)
{
    if (segment)
        munmap(segment, length);
}

int MPIR_Win_shared_query_impl(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr)
{
    MPIR_Win *w = MPIR_Win_lookup(win);
    MPIR_Rma *r = w->rma;
    if (w->flavor != MPI_WIN_FLAVOR_SHARED)
        return MPIR_Err(MPI_ERR_RMA_FLAVOR, "the window was not made by MPI_Win_allocate_shared");
    if (rank != MPI_PROC_NULL && (rank < 0 || rank >= r->nranks))
        return MPIR_Err(MPI_ERR_RANK, "rank %d is not a rank of the window's group (0..%d)", rank, r->nranks - 1);
    /* MPI_PROC_NULL: the first process whose part is not empty */
    int target = rank;
    if (rank == MPI_PROC_NULL)
        for (target = 0; target < r->nranks && r->sizes[target] == 0; target++)
            ;
    if (target == r->nranks) {      /* every part is empty */
        *size = 0;
        *disp_unit = w->disp_unit;
        *(void **) baseptr = NULL;
        return MPI_SUCCESS;
    }
    *size = r->sizes[target];
    *disp_unit = r->disp_units[target];
    *(void **) baseptr = r->bases[target];
    return MPI_SUCCESS;
}
