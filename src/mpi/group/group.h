/*
 * Groups inside the library (src/mpi/group, used by src/mpi/comm).
 *
 * A group is an immutable list of world ranks ("lpids"). Every handle the user holds names its own
 * object (ref_count 1), so freeing a handle twice is caught as MPI_ERR_GROUP; communicators share
 * their groups among themselves by reference, never with the user. Empty results are handed out as
 * MPI_GROUP_EMPTY, as MPICH and Open MPI do, so `g == MPI_GROUP_EMPTY` tests keep working.
 */
#ifndef MPIR_GROUP_H_INCLUDED
#define MPIR_GROUP_H_INCLUDED

#include "mpiimpl.h"

/* MPI_GROUP_EMPTY's record. */
extern MPIR_Group MPIR_Group_empty;

/* A new group of the n world ranks in lpids (copied); sets its rank of the caller. */
int MPIR_Group_make(const int *lpids, int n, MPIR_Group **out);
/* Hands a new group to the user: its handle, or MPI_GROUP_EMPTY (g released) when it is empty. */
MPI_Group MPIR_Group_publish(MPIR_Group *g);
/* A user handle for a copy of g (MPI_Comm_group, MPI_Win_get_group ...). */
int MPIR_Group_new_handle(const MPIR_Group *g, MPI_Group *handle);
/* MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL. */
int MPIR_Group_compare_groups(const MPIR_Group *a, const MPIR_Group *b);
/* Rank in g of each world rank (-1 for non-members), in a new array of world_size entries. */
int MPIR_Group_rank_map(const MPIR_Group *g, int **map);
/* At MPI_Finalize, after the communicators: frees the groups the user never freed, and lists them
 * on stderr if report is set. */
void MPIR_Group_finalize(bool report);

#endif
