/*
 * Persistent collectives (MPI 4.1 6.13): MPI_Bcast_init and the others, generated from their
 * nonblocking forms (maint/gen_binding.py, flag init). The request keeps a copy of the arguments
 * (its owned block) and the function that starts the nonblocking form with them; each MPI_Start
 * runs that form afresh, as a new instance the completion calls release.
 *
 * Matching: the init call takes the next number of the communicator's sequence of collectives
 * (every process makes its collective calls in the same order, inits included), and every start
 * runs its schedule under that number. So processes may start different persistent collectives in
 * different orders; two starts of one request never overlap at a process, and the messages of
 * successive starts between two processes pair up in order. The argument checks run at each start
 * (an error is MPI_Start's).
 */
#include "coll_sched.h"

int MPIR_Coll_persistent_init(MPI_Comm comm, const void *args, size_t size,
                              int (*start)(const void *args, MPI_Request *request), MPI_Request *request)
{
    MPIR_Comm *c = MPIR_Coll_inter(comm);
    int err = c ? MPI_SUCCESS : MPIR_Coll_comm(comm, &c);
    if (err)
        return err;
    MPIR_Request *req = MPIR_Request_create(MPIR_REQUEST_GENERALIZED);
    void *copy = malloc(size);
    if (req == NULL || copy == NULL) {
        free(copy);
        if (req)
            MPIR_Request_release(req);
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory or of request handles");
    }
    memcpy(copy, args, size);
    req->owned = copy;
    req->persistent = true;
    req->persist.op = MPIR_PERSIST_COLL;
    req->persist.start = start;
    req->persist.seq = c->coll_seq++;
    MPIR_Comm_add_ref(c);
    req->comm = c;
    *request = MPIR_Object_handle(req);
    return MPI_SUCCESS;
}

int MPIR_Coll_persistent_start(MPIR_Request *req, MPIR_Request **active)
{
    MPI_Request instance = MPI_REQUEST_NULL;
    MPIR_Sched_pin_seq(true, req->persist.seq);
    int err = req->persist.start(req->owned, &instance);
    MPIR_Sched_pin_seq(false, 0);
    if (err == MPI_SUCCESS)
        *active = MPIR_Request_lookup(instance);
    return err;
}
