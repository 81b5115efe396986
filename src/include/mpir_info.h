/*
 * Info objects: ordered lists of (key, value) strings.
 *
 * User info objects come from a pool (class MPIR_CLASS_INFO); MPI_INFO_ENV is a static record
 * filled on first use and read-only. One global lock guards every list (src/mpi/info/info.c), so
 * the fields below are for that file only; other modules go through the MPI_Info_* implementations
 * or MPIR_Info_get_value.
 *
 * Lengths: a key has at most MPI_MAX_INFO_KEY - 1 characters and a value at most
 * MPI_MAX_INFO_VAL - 1, so both always fit, with their terminating NUL, in arrays of
 * MPI_MAX_INFO_KEY and MPI_MAX_INFO_VAL characters (the standard's rationale: applications
 * declare keys of size MPI_MAX_INFO_KEY).
 */
#ifndef MPIR_INFO_H_INCLUDED
#define MPIR_INFO_H_INCLUDED

#include <stdbool.h>
#include "mpi.h"
#include "mpir_object.h"

typedef struct MPIR_Info_entry {
    char *key;          /* key and value share one allocation, owned by the entry */
    char *value;
} MPIR_Info_entry;

typedef struct MPIR_Info {
    MPIR_Object obj;
    int nkeys, capacity;
    MPIR_Info_entry *entries;   /* in the order the keys were first set: MPI_Info_get_nthkey's order */
} MPIR_Info;

/* The info object behind a handle (MPI_INFO_ENV included), or NULL. */
MPIR_Info *MPIR_Info_lookup(MPI_Info info);

/* Copies the value of key (truncated to size - 1 characters) into value and returns true, or
 * returns false if info (which may be MPI_INFO_NULL) has no such key. For modules reading hints. */
bool MPIR_Info_get_value(MPI_Info info, const char *key, char *value, size_t size);

#endif
