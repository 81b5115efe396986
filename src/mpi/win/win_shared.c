/*
 * Shared-memory windows (MPI_Win_allocate_shared, MPI_Win_shared_query).
 *
 * Every process of a job runs on this machine, so any communicator may make one. The processes'
 * memory is one POSIX shared-memory object, laid out contiguously in rank order as the standard's
 * default asks (each part starts where the previous one ends; the info key
 * alloc_shared_noncontig changes nothing). The first process creates it and names it after its
 * process id and a number of its own, the name travels by broadcast, every process maps it, and
 * the name is removed once all have: the memory lives as long as a mapping does. Each process
 * maps it at an address of its own, so MPI_Win_shared_query answers with addresses in the
 * caller's mapping. One-sided operations on the window go through the window like any other.
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

int MPIR_Win_shared_segment(MPI_Comm comm, MPI_Aint size, void **segment, size_t *length, MPI_Aint *offset)
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
    MPI_Aint total = 0;
    for (int i = 0; err == MPI_SUCCESS && i < n; i++) {
        if (i == rank)
            *offset = total;
        if (__builtin_add_overflow(total, sizes[i], &total))
            err = MPIR_Err(MPI_ERR_SIZE, "the shared window's sizes add up to more than 2^63 bytes");
    }
    free(sizes);

    /* the first process creates the object: its name from the process id and a count */
    static _Atomic unsigned serial;
    int name_id[2] = { (int) getpid(), (int) atomic_fetch_add(&serial, 1) };
    char name[64];
    size_t len = total > 0 ? (size_t) total : 1;
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
        return all;
    }
    *segment = mem;
    *length = len;
    return MPI_SUCCESS;
}

void MPIR_Win_shared_segment_free(void *segment, size_t length)
{
    if (segment)
        munmap(segment, length);
}

int MPIR_Win_shared_query_impl(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
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
    MPI_Aint offset = 0;
    for (int i = 0; i < target; i++)
        offset += r->sizes[i];
    *size = r->sizes[target];
    *disp_unit = r->disp_units[target];
    *(void **) baseptr = (char *) w->shared_segment + offset;
    return MPI_SUCCESS;
}
