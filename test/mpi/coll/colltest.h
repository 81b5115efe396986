/*
 * Shared by the collective tests: the communicators every test runs on, so that one run with N
 * ranks covers every group size from 1 to N (odd and even, powers of two and not) and a group
 * whose ranks are numbered backwards from MPI_COMM_WORLD's.
 */
#ifndef COLLTEST_H_INCLUDED
#define COLLTEST_H_INCLUDED

#include <stdlib.h>
#include "mtest.h"

#define COLLTEST_MAX_COMMS 130

typedef struct {
    MPI_Comm comms[COLLTEST_MAX_COMMS];
    int n;
} Colltest_comms;

/* MPI_COMM_WORLD, its prefixes of every size 1 .. size-1 (the calling rank is in those that
 * include it), and world reversed. Each errors return. */
static inline void colltest_comms(Colltest_comms *cs)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    cs->n = 0;
    cs->comms[cs->n++] = MPI_COMM_WORLD;
    for (int k = 1; k < size && cs->n < COLLTEST_MAX_COMMS - 1; k++) {
        MPI_Comm c;
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank < k ? 0 : MPI_UNDEFINED, rank, &c));
        if (c != MPI_COMM_NULL)
            cs->comms[cs->n++] = c;
    }
    if (size > 1) {
        MPI_Comm c;
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &c));
        cs->comms[cs->n++] = c;
    }
    for (int i = 0; i < cs->n; i++)
        MPI_Comm_set_errhandler(cs->comms[i], MPI_ERRORS_RETURN);
}

static inline void colltest_free(Colltest_comms *cs)
{
    for (int i = 1; i < cs->n; i++)
        CHECK_MPI(MPI_Comm_free(&cs->comms[i]));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    cs->n = 0;
}

/* A description of a communicator for failure messages. */
static inline const char *colltest_name(MPI_Comm comm)
{
    static char buf[64];
    int size, rank, wrank;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    snprintf(buf, sizeof buf, "comm of size %d (rank %d, world rank %d)", size, rank, wrank);
    return buf;
}

#endif
