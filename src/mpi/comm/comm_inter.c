/*
 * Intercommunicators: MPI_Intercomm_create and MPI_Intercomm_merge.
 *
 * An intercommunicator has two contexts: it receives on the one its own group agreed on
 * (recv_context_id) and sends on the one the remote group agreed on (context_id), so each id is
 * chosen by the processes that match messages on it. Its local_comm, an intracommunicator of the
 * local group on a third context, carries the collectives each group runs on its own side.
 */
#include "comm.h"

/* Only the leaders talk over peer_comm; they then broadcast what they learned in their group:
 * a header (an error class, the remote receive context, the remote size) and the remote group's
 * world ranks. */
enum { HDR_ERR, HDR_CTX, HDR_SIZE, HDR_LEN };

/* What a failure of one process tells the others: its argument errors keep their class, anything
 * else (out of memory, a failed message) is the other processes' MPI_ERR_OTHER. */
static int class_for_others(int err)
{
    int cls = err & MPIR_ERR_CLASS_MASK;
    return cls == MPI_ERR_COMM || cls == MPI_ERR_RANK ? cls : MPI_ERR_OTHER;
}

/* The leader's side: checks the arguments only it uses, then swaps headers with the remote leader,
 * and the groups' world ranks if neither leader has failed (local_err: its group's failure so far;
 * the remote leader then fails too). Returns an error class with a reason. Without a valid peer
 * there is no one to tell: the remote leader then waits, as for any erroneous call that only one
 * side makes. */
static int leader_exchange(MPIR_Comm *lc, MPI_Comm peer_comm, int remote_leader, int tag, int local_err, int ctx,
                           int *hdr, int **remote_lpids)
{
    MPIR_Comm *pc = MPIR_Comm_lookup(peer_comm);
    if (pc == NULL)
        return MPIR_Err(MPI_ERR_COMM, "peer_comm is not a valid communicator at the local leader");
    if (remote_leader < 0 || remote_leader >= pc->remote_size)
        return MPIR_Err(MPI_ERR_RANK, "remote_leader %d is not a rank of peer_comm (size %d)", remote_leader,
                        pc->remote_size);
    if (MPIR_Comm_lpid(pc, remote_leader) == MPIR_Process.world_rank)
        return MPIR_Err(MPI_ERR_RANK, "remote_leader %d is the local leader itself", remote_leader);
    /* room for any remote group, before the swap, so that a failure here still reaches the remote leader */
    int err = local_err;
    if (err == MPI_SUCCESS) {
        *remote_lpids = malloc((size_t) MPIR_Process.world_size * sizeof **remote_lpids);
        if (*remote_lpids == NULL)
            err = MPIR_Err(MPI_ERR_NO_MEM, "out of memory");
    }
    int mine[HDR_LEN] = { err ? class_for_others(err) : MPI_SUCCESS, ctx, lc->size };
    int e = MPIR_Comm_sendrecv_internal(mine, HDR_LEN, hdr, HDR_LEN, MPI_INT, remote_leader, MPIR_TAG_USER(tag), pc);
    if (err || e)
        return err ? err : e;
    if (hdr[HDR_ERR] != MPI_SUCCESS)
        return MPIR_Err(hdr[HDR_ERR], "the remote leader failed to set up the intercommunicator");
    if (hdr[HDR_SIZE] <= 0 || hdr[HDR_SIZE] > MPIR_Process.world_size)
        return MPIR_Err(MPI_ERR_OTHER, "the remote leader sent a group size of %d", hdr[HDR_SIZE]);
    err = MPIR_Comm_sendrecv_internal(lc->local_group->lpids, lc->size, *remote_lpids, hdr[HDR_SIZE], MPI_INT,
                                      remote_leader, MPIR_TAG_USER(tag), pc);
    if (err)
        return err;
    /* The groups must be disjoint (MPI 4.1, 7.6.2). Both leaders see it, so both sides fail. */
    for (int i = 0; i < hdr[HDR_SIZE]; i++)
        if (lc->rank_of_lpid[(*remote_lpids)[i]] >= 0)
            return MPIR_Err(MPI_ERR_COMM, "the local and remote groups overlap (world rank %d is in both)",
                            (*remote_lpids)[i]);
    return MPI_SUCCESS;
}

/* Every process takes part in every step, whatever failed before it, so that none is left waiting
 * (in its group's collectives, or as the remote leader); a failure travels in the header. */
int MPIR_Intercomm_create_impl(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader,
                               int tag, MPI_Comm *newintercomm)
{
    MPIR_Comm *lc = MPIR_Comm_lookup(local_comm);
    if (lc->is_inter)
        return MPIR_Err(MPI_ERR_COMM, "local_comm must be an intracommunicator");
    if (local_leader < 0 || local_leader >= lc->size)
        return MPIR_Err(MPI_ERR_RANK, "local_leader %d is not a rank of local_comm (size %d)", local_leader,
                        lc->size);
    if (tag < 0 || tag > MPIR_TAG_UB)
        return MPIR_Err(MPI_ERR_TAG, "invalid tag %d, must be in [0, %d]", tag, MPIR_TAG_UB);

    /* 1. Each group agrees on its receive context and its local_comm's (all fail, or none). */
    int ids[2];
    int err = MPIR_Context_alloc(lc, MPI_SUCCESS, 2, ids);
    bool have_ids = err == MPI_SUCCESS;

    /* 2. The leaders swap what their groups need; the header tells the group how it went. */
    int hdr[HDR_LEN] = { 0 }, *remote_lpids = NULL;
    if (lc->rank == local_leader) {
        int e = leader_exchange(lc, peer_comm, remote_leader, tag, err, have_ids ? ids[0] : -1, hdr, &remote_lpids);
        err = err ? err : e;
        hdr[HDR_ERR] = err ? class_for_others(err) : MPI_SUCCESS;
    }
    int e = MPIR_Comm_bcast_ints(hdr, HDR_LEN, local_leader, lc);
    bool exchanged = e == MPI_SUCCESS && hdr[HDR_ERR] == MPI_SUCCESS;      /* the same in the whole group */
    err = err ? err : e;
    if (err == MPI_SUCCESS && !exchanged)
        err = MPIR_Err(hdr[HDR_ERR], "the intercommunicator could not be set up (see the error at the leaders, "
                                     "local rank %d and remote_leader)", local_leader);
    if (exchanged) {
        if (lc->rank != local_leader)
            remote_lpids = malloc((size_t) hdr[HDR_SIZE] * sizeof *remote_lpids);
        if (remote_lpids) {
            e = MPIR_Comm_bcast_ints(remote_lpids, hdr[HDR_SIZE], local_leader, lc);
        } else {
            e = MPIR_Err(MPI_ERR_NO_MEM, "out of memory");
            MPIR_Allreduce_without_data(hdr[HDR_SIZE], MPI_INT, MPI_BOR, local_comm, e);
        }
        err = err ? err : e;
    }

    /* 3. Build it. */
    MPIR_Group *rg = NULL;
    MPIR_Comm *ic = NULL;
    if (err == MPI_SUCCESS)
        err = MPIR_Group_make(remote_lpids, hdr[HDR_SIZE], &rg);
    if (err == MPI_SUCCESS)
        err = MPIR_Comm_new_inter(lc, lc->local_group, rg, hdr[HDR_CTX], ids[0], ids[1], &ic);
    MPIR_Group_release(rg);
    free(remote_lpids);
    if (err) {
        if (have_ids) {
            MPIR_Context_free(ids[0]);
            MPIR_Context_free(ids[1]);
        }
        return err;
    }
    *newintercomm = MPIR_Comm_handle(ic);
    return MPI_SUCCESS;
}

int MPIR_Intercomm_merge_impl(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    MPIR_Comm *c = MPIR_Comm_lookup(intercomm);
    if (!c->is_inter)
        return MPIR_Err(MPI_ERR_COMM, "intercomm must be an intercommunicator");

    /* 1. Which group goes first: the one with high false; if both passed the same, the one whose
     *    first member has the lower world rank (any order both sides agree on will do). */
    int mine = high != 0, theirs = 0;
    int err = MPIR_Comm_swap_with_remote(c, MPI_SUCCESS, &mine, 1, &theirs, 1);
    bool local_first = mine != theirs ? !mine : c->local_group->lpids[0] < c->remote_group->lpids[0];
    const MPIR_Group *first = local_first ? c->local_group : c->remote_group;
    const MPIR_Group *second = local_first ? c->remote_group : c->local_group;

    /* 2. One context free in both groups (agreed on even after a failure above, which one group
     *    alone may have seen: the other would wait in the agreement; now both fail). */
    int id;
    err = MPIR_Context_alloc(c, err, 1, &id);
    if (err)
        return err;

    int n = first->size + second->size;
    int *lpids = malloc((size_t) n * sizeof *lpids);
    MPIR_Group *g = NULL;
    MPIR_Comm *nc = NULL;
    if (lpids == NULL) {
        err = MPIR_Err(MPI_ERR_NO_MEM, "out of memory");
    } else {
        memcpy(lpids, first->lpids, (size_t) first->size * sizeof *lpids);
        memcpy(lpids + first->size, second->lpids, (size_t) second->size * sizeof *lpids);
        err = MPIR_Group_make(lpids, n, &g);
    }
    if (err == MPI_SUCCESS)
        err = MPIR_Comm_new(c, g, id, &nc);
    MPIR_Group_release(g);
    free(lpids);
    if (err) {
        MPIR_Context_free(id);
        return err;
    }
    *newintracomm = MPIR_Comm_handle(nc);
    return MPI_SUCCESS;
}
