/*
 * Collective operations: what other modules may call besides the generated MPIR_*_impl entry
 * points (MPIR_Barrier_impl, MPIR_Allreduce_impl, MPIR_Allgather_impl, ... take handles and are
 * declared in mpir_impl_proto.h).
 */
#ifndef MPIR_COLL_H_INCLUDED
#define MPIR_COLL_H_INCLUDED

#include "mpi.h"

/* Copies the data of (src, scount, stype) into (dst, dcount, dtype) in type-map order, through the
 * segment engine (no full intermediate copy). The types' signatures should match; a source longer
 * than the destination is MPI_ERR_TRUNCATE and nothing is copied. */
int MPIR_Localcopy(const void *src, MPI_Count scount, MPI_Datatype stype, void *dst, MPI_Count dcount,
                   MPI_Datatype dtype);

/* A buffer able to hold count instances of type laid out as in a user buffer: *buf is where
 * instance 0 goes (it may point outside the allocation when the type's true lower bound is not 0);
 * free *base. */
int MPIR_Typed_alloc(MPI_Count count, MPI_Datatype type, void **base, void **buf);

/* Takes part in an MPI_Allreduce of count elements of type with op on the intracommunicator comm
 * without data, for a caller that failed with errclass (reason recorded) before it could: the
 * others are not left waiting, and those whose result depends on this process's data fail with
 * MPI_ERR_OTHER. Returns errclass. */
int MPIR_Allreduce_without_data(MPI_Count count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, int errclass);

/* Persistent collectives (persistent_coll.c). The generated MPIR_<X>_init_impl calls init with a
 * copy of its arguments (size bytes at args) and the function that starts the nonblocking form
 * with them; MPI_Start calls MPIR_Coll_persistent_start, which sets *active to the running
 * instance. */
struct MPIR_Request;
int MPIR_Coll_persistent_init(MPI_Comm comm, const void *args, size_t size,
                              int (*start)(const void *args, MPI_Request *request), MPI_Request *request);
int MPIR_Coll_persistent_start(struct MPIR_Request *req, struct MPIR_Request **active);

/* The same for an MPI_Alltoall (or v, or w: the same messages) on the intracommunicator comm. */
int MPIR_Alltoall_without_data(MPI_Comm comm, int errclass);

#endif
