/* Shared by the files of src/mpi/info: the lock over every info list and the list operations. */
#ifndef INFO_INTERNAL_H_INCLUDED
#define INFO_INTERNAL_H_INCLUDED

#include "mpir_info.h"

void MPIR_Info_lock(void);
void MPIR_Info_unlock(void);

/* The rest is called with the lock held. */
MPIR_Info *MPIR_Info_find_locked(MPI_Info info);
/* Sets key to value (copies both); MPI_ERR_NO_MEM leaves the list as it was. */
int MPIR_Info_set_locked(MPIR_Info *info, const char *key, const char *value);
/* Removes every entry. */
void MPIR_Info_clear_locked(MPIR_Info *info);
/* A new pooled info object holding the entries of src. */
int MPIR_Info_copy_new(const MPIR_Info *src, MPI_Info *newinfo);
/* MPI_INFO_ENV, filled on first use (and again once MPI is initialized, if it was first used
 * before: the keys that need MPI_Init are then added). */
MPIR_Info *MPIR_Info_env_locked(void);

#endif
