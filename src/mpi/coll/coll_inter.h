/*
 * Collectives on intercommunicators (coll_inter.c), called by the front ends of the collectives
 * when their communicator c is one. Each checks its arguments the intercommunicator way and builds
 * one schedule (request NULL: blocking).
 */
#ifndef COLL_INTER_H_INCLUDED
#define COLL_INTER_H_INCLUDED

#include "coll_sched.h"

int MPIR_Inter_barrier(MPIR_Comm *c, MPI_Request *request);
int MPIR_Inter_bcast(void *buffer, MPI_Count count, MPI_Datatype type, int root, MPIR_Comm *c, MPI_Request *request);
/* Gather (gather) or scatter between the root's blocks, one per remote process, and each remote
 * process's data (count, type); v: the blocks' counts and displacements must be given. */
int MPIR_Inter_rooted(bool gather, const void *data, MPI_Count count, MPI_Datatype type, const MPIR_Blocks *blocks,
                      bool v, int root, MPIR_Comm *c, MPI_Request *request);
/* Allgather (same: one send block for all) or all-to-all, recv one block per remote process. */
int MPIR_Inter_exchange(const MPIR_Blocks *send, bool same, const MPIR_Blocks *recv, int kind, MPIR_Comm *c,
                        MPI_Request *request);
enum MPIR_Inter_reduction {
    MPIR_INTER_REDUCE, MPIR_INTER_ALLREDUCE, MPIR_INTER_REDUCE_SCATTER_BLOCK, MPIR_INTER_REDUCE_SCATTER
};
/* The reduction of the other group's data: to the root (root used only for MPIR_INTER_REDUCE), to
 * every process, or scattered: in blocks of count elements (the vector every process gives holds
 * a block for each process of its own group), or by counts (its recvcounts, one per process of its
 * own group). */
int MPIR_Inter_reduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPIR_Count_array counts, MPI_Datatype type,
                      MPI_Op op, int root, enum MPIR_Inter_reduction how, MPIR_Comm *c, MPI_Request *request);

#endif
