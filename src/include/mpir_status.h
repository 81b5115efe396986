/*
 * The private fields of MPI_Status: the number of bytes received (64 bits, split over two ints
 * so that the public struct keeps int fields only, as Fortran's MPI_STATUS_SIZE needs) and the
 * cancelled flag. Everything that reads or writes them goes through these helpers.
 */
#ifndef MPIR_STATUS_H_INCLUDED
#define MPIR_STATUS_H_INCLUDED

#include <stdbool.h>
#include <stdint.h>
#include "mpi.h"

/* The status arguments a call may write to or read from (MPI_STATUS_IGNORE is a sentinel). */
static inline bool MPIR_Status_is_ignore(const MPI_Status *status)
{
    return status == MPI_STATUS_IGNORE;
}

static inline MPI_Count MPIR_Status_get_bytes(const MPI_Status *status)
{
    uint64_t hi = (uint32_t) status->loom_count_hi, lo = (uint32_t) status->loom_count_lo;
    return (MPI_Count) (hi << 32 | lo);
}

static inline void MPIR_Status_set_bytes(MPI_Status *status, MPI_Count bytes)
{
    uint64_t v = (uint64_t) bytes;
    status->loom_count_lo = (int) (uint32_t) v;
    status->loom_count_hi = (int) (uint32_t) (v >> 32);
}

static inline bool MPIR_Status_get_cancelled(const MPI_Status *status)
{
    return status->loom_cancelled != 0;
}

static inline void MPIR_Status_set_cancelled(MPI_Status *status, bool cancelled)
{
    status->loom_cancelled = cancelled;
}

#endif
