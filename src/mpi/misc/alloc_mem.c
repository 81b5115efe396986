/*
 * MPI_Alloc_mem and MPI_Free_mem.
 *
 * Memory comes from the C heap, aligned to a cache line (or to the alignment the info key
 * "mpi_minimum_memory_alignment" of MPI 4.1 asks for, if larger), so MPI_Free_mem is free().
 * Nothing is registered with the device: shared-memory transfers need no pinned memory.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"
#include <errno.h>

#define DEFAULT_ALIGNMENT 64

/* The alignment requested through info, or 0 if none (or not a power of two). */
static size_t requested_alignment(MPI_Info info);

size_t MPIR_Alloc_mem_alignment(MPI_Info info)
{
    size_t align = requested_alignment(info);
    return align < DEFAULT_ALIGNMENT ? DEFAULT_ALIGNMENT : align;
}

static size_t requested_alignment(MPI_Info info)
{
    char value[32];
    if (!MPIR_Info_get_value(info, "mpi_minimum_memory_alignment", value, sizeof value))
        return 0;
    char *end;
    errno = 0;
    unsigned long long a = strtoull(value, &end, 10);
    if (errno || end == value || *end != '\0' || a == 0 || (a & (a - 1)) != 0 || a > ((size_t) 1 << 30))
        return 0;   /* a value we do not understand is ignored, as hints are */
    return (size_t) a;
}

/* baseptr is really a void **: it receives the address of the memory. */
int MPIR_Alloc_mem_impl(MPI_Aint size, MPI_Info info, void *baseptr)
{
    if (size < 0)
        return MPIR_Err(MPI_ERR_ARG, "size is %ld, must be non-negative", (long) size);
    size_t align = MPIR_Alloc_mem_alignment(info);
    void *p = NULL;
    /* size 0 still gets a distinct pointer the user may pass to MPI_Free_mem */
    int rc = posix_memalign(&p, align, size > 0 ? (size_t) size : 1);
    if (rc != 0)
        return MPIR_Err(MPI_ERR_NO_MEM, "cannot allocate %ld bytes", (long) size);
    *(void **) baseptr = p;
    return MPI_SUCCESS;
}

int MPIR_Free_mem_impl(void *base)
{
    free(base);     /* NULL is allowed and does nothing, as for free() */
    return MPI_SUCCESS;
}
