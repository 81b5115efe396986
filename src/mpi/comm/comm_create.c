/*
 * Making and freeing communicators: MPI_Comm_dup (and _with_info), MPI_Comm_split (and _type),
 * MPI_Comm_create, MPI_Comm_create_group, MPI_Comm_free (MPI_Comm_idup: comm_idup.c).
 *
 * Split is the general case: every process brings (color, key), the values of the group are
 * gathered (an MPI_Allreduce with MPI_SUM in which each process fills its own slot: the only
 * collective this module needs), and each process picks the members of its color ordered by key.
 * MPI_Comm_create is a split with key "rank in the group" and a color naming the group: on an
 * intracommunicator each process may bring a different group as long as the groups are disjoint
 * (MPI 4.1), so a group's color is the world rank of its first member. On an intercommunicator the
 * two groups also swap their tables through their leaders, and the result joins the members of
 * one color on both sides: there the color is 0 for every member.
 *
 * Argument errors that only one process can see (a bad color, a group that is not a subgroup) are
 * carried through the gathered table, so every process of the call returns the error instead of
 * some of them waiting for the others forever.
 */
#include "comm.h"

#ifndef MPI_COMM_TYPE_SHARED
#define MPI_COMM_TYPE_SHARED 1      /* until mpi.h defines it (MPICH's value) */
#endif

static int copy_attributes_and_publish(MPIR_Comm *old, MPIR_Comm *c, MPI_Comm *newcomm)
{
    int err = MPIR_Attr_copy_all(&old->attributes, MPIR_Comm_handle(old), &c->attributes);
    if (err) {
        MPIR_Comm_release(c);
        return err;
    }
    *newcomm = MPIR_Comm_handle(c);
    return MPI_SUCCESS;
}

/* A communicator like comm on new contexts: the same groups, the same error handler. */
static int dup_comm(MPIR_Comm *comm, MPIR_Comm **out)
{
    int ids[2], err;
    if (!comm->is_inter) {
        err = MPIR_Context_alloc(comm, MPI_SUCCESS, 1, ids);
        if (err)
            return err;
        err = MPIR_Comm_new(comm, comm->local_group, ids[0], out);
        if (err)
            MPIR_Context_free(ids[0]);
        else
            (*out)->topo = MPIR_Topo_share(comm->topo);     /* a duplicate keeps the topology */
        return err;
    }
    /* Each group agrees on its receive context and its new local_comm's; the groups swap the
     * former (each side sends on the other's). The swap runs after a failed agreement too, so that
     * the other group learns of it instead of waiting. */
    err = MPIR_Context_alloc(comm->local_comm, MPI_SUCCESS, 2, ids);
    bool have_ids = err == MPI_SUCCESS;
    int remote_ctx = -1;
    int e = MPIR_Comm_swap_with_remote(comm, err, &ids[0], 1, &remote_ctx, 1);
    err = err ? err : e;
    if (err == MPI_SUCCESS)
        err = MPIR_Comm_new_inter(comm, comm->local_group, comm->remote_group, remote_ctx, ids[0], ids[1], out);
    if (err && have_ids) {
        MPIR_Context_free(ids[0]);
        MPIR_Context_free(ids[1]);
    }
    return err;
}

/* MPI_Comm_dup copies the hints of comm; MPI_Comm_dup_with_info gives the copy those of info
 * instead (kept and returned by MPI_Comm_get_info: no hint changes how a communicator behaves). */
static int dup_with_hints(MPI_Comm comm, MPI_Info hints, MPI_Comm *newcomm)
{
    MPIR_Comm *old = MPIR_Comm_lookup(comm), *c;
    int err = dup_comm(old, &c);
    if (err)
        return err;
    err = MPIR_Comm_info_merge(c, hints);
    if (err) {
        MPIR_Comm_release(c);
        return err;
    }
    return copy_attributes_and_publish(old, c, newcomm);
}

/* A failed dup gives MPI_COMM_NULL (as MPICH does; MPI 4.1 leaves it unspecified). */
int MPIR_Comm_dup_impl(MPI_Comm comm, MPI_Comm *newcomm)
{
    MPIR_Comm *old = MPIR_Comm_lookup(comm);
    int err = dup_with_hints(comm, old->info ? old->info : MPI_INFO_NULL, newcomm);
    if (err)
        *newcomm = MPI_COMM_NULL;
    return err;
}

int MPIR_Comm_dup_with_info_impl(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    int err = dup_with_hints(comm, info, newcomm);
    if (err)
        *newcomm = MPI_COMM_NULL;
    return err;
}

/* ---- split ---- */

struct member {
    int key, rank;
};

static int by_key_then_rank(const void *a, const void *b)
{
    const struct member *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The group of the processes of g whose color in table (color, key pairs by rank) is color,
 * ordered by key, then rank; NULL (and MPI_SUCCESS) if there are none. */
static int members_of(const MPIR_Group *g, const int *table, int color, MPIR_Group **out)
{
    struct member *m = malloc(((size_t) g->size + 1) * sizeof *m);
    int *lpids = malloc(((size_t) g->size + 1) * sizeof *lpids);
    int n = 0, err = MPI_SUCCESS;
    if (m == NULL || lpids == NULL) {
        err = MPIR_Err(MPI_ERR_NO_MEM, "out of memory");
    } else {
        for (int r = 0; r < g->size; r++)
            if (table[2 * r] == color)
                m[n++] = (struct member) { table[2 * r + 1], r };
        qsort(m, (size_t) n, sizeof *m, by_key_then_rank);
        for (int i = 0; i < n; i++)
            lpids[i] = g->lpids[m[i].rank];
        *out = NULL;
        if (n > 0)
            err = MPIR_Group_make(lpids, n, out);
    }
    free(m);
    free(lpids);
    return err;
}

/* Gathers the (color, key) pairs of the local group, and of the remote group if comm is an
 * intercommunicator, into new tables. */
static int gather_colors(MPIR_Comm *comm, int color, int key, int **local_table, int **remote_table)
{
    MPIR_Comm *local = MPIR_Comm_local(comm);
    int n = local->size, rn = comm->is_inter ? comm->remote_size : 0;
    int *all = calloc(2 * (size_t) n, sizeof *all);
    int *remote = malloc((2 * (size_t) rn + 1) * sizeof *remote);
    int err = MPI_SUCCESS;
    if (all == NULL || remote == NULL)
        err = MPIR_Err(MPI_ERR_NO_MEM, "out of memory for a table of %d colors", n + rn);
    /* Every process takes part in the collective even after a local failure, so none is left
     * waiting: one without memory for its table takes part without data, the others tell them
     * by their color. The sum of the tables, zero but for each one's own entries, is the table. */
    if (all) {
        all[2 * local->rank] = err ? MPIR_SPLIT_FAILED_COLOR : color;
        all[2 * local->rank + 1] = key;
        int e = MPIR_Allreduce_impl(MPI_IN_PLACE, all, 2 * n, MPI_INT, MPI_SUM, MPIR_Comm_handle(local));
        err = err ? err : e;
    } else
        MPIR_Allreduce_without_data(2 * n, MPI_INT, MPI_SUM, MPIR_Comm_handle(local), err);
    /* The groups swap their tables only if every process of both has one; the group's table says
     * whether it does, and its leader tells the other group. */
    if (comm->is_inter) {
        int group_err = err;
        for (int r = 0; all && group_err == MPI_SUCCESS && r < n; r++)
            if (all[2 * r] == MPIR_SPLIT_FAILED_COLOR)
                group_err = MPI_ERR_OTHER;
        int e = MPIR_Comm_swap_with_remote(comm, group_err, all, 2 * n, remote, 2 * rn);
        if (group_err == MPI_SUCCESS)
            err = err ? err : e;
    }
    if (err) {
        free(all);
        free(remote);
        return err;
    }
    *local_table = all;
    *remote_table = remote;
    return MPI_SUCCESS;
}

/* Returns the error every process reports when some process of the table brought a bad color
 * (me: this process's entry, -1 if none). */
static int check_colors(const int *table, int n, int me, int bad_class, const char *what)
{
    for (int r = 0; r < n; r++) {
        if (table[2 * r] == MPIR_SPLIT_FAILED_COLOR)
            return MPIR_Err(r == me ? MPI_ERR_NO_MEM : MPI_ERR_OTHER,
                            "process %d of the group failed before the split (out of memory, or an error it "
                            "learnt of)", r);
        if (table[2 * r] < 0 && table[2 * r] != MPI_UNDEFINED)
            return MPIR_Err(bad_class, "process %d of the group %s", r, what);
    }
    return MPI_SUCCESS;
}

/* Split's work, also for MPI_Comm_create and the topology constructors (see comm.h). */
int MPIR_Comm_split_internal(MPIR_Comm *comm, int color, int key, int bad_class, const char *what, MPI_Comm *newcomm)
{
    int *table = NULL, *remote_table = NULL, ids[2] = { -1, -1 }, remote_ctx = -1;
    int err = gather_colors(comm, color, key, &table, &remote_table);
    MPIR_Comm *local = MPIR_Comm_local(comm);
    if (err == MPI_SUCCESS)
        err = check_colors(table, local->size, local->rank, bad_class, what);
    if (err == MPI_SUCCESS && comm->is_inter)
        err = check_colors(remote_table, comm->remote_size, -1, bad_class, what);

    /* One agreement serves every color: the new communicators are disjoint. Every process takes
     * part in it and in the swap of ids, even after a failure, which one process or one group
     * alone may have seen: the others would wait for it in the next step; now all fail. */
    err = MPIR_Context_alloc(local, err, comm->is_inter ? 2 : 1, ids);
    bool have_ids = err == MPI_SUCCESS;
    if (comm->is_inter) {
        int e = MPIR_Comm_swap_with_remote(comm, err, &ids[0], 1, &remote_ctx, 1);
        err = err ? err : e;
    }

    MPIR_Group *lg = NULL, *rg = NULL;
    MPIR_Comm *c = NULL;
    if (err == MPI_SUCCESS && color != MPI_UNDEFINED) {
        err = members_of(local->local_group, table, color, &lg);
        if (err == MPI_SUCCESS && comm->is_inter)
            err = members_of(comm->remote_group, remote_table, color, &rg);
        if (err == MPI_SUCCESS && !comm->is_inter)
            err = MPIR_Comm_new(comm, lg, ids[0], &c);
        else if (err == MPI_SUCCESS && rg != NULL)      /* no remote partners: MPI_COMM_NULL */
            err = MPIR_Comm_new_inter(comm, lg, rg, remote_ctx, ids[0], ids[1], &c);
    }
    MPIR_Group_release(lg);
    MPIR_Group_release(rg);
    free(table);
    free(remote_table);
    if (c == NULL && have_ids) {    /* failed, or no new communicator here: its contexts go back */
        for (int i = 0; i < (comm->is_inter ? 2 : 1); i++)
            MPIR_Context_free(ids[i]);
    }
    if (err == MPI_SUCCESS)
        *newcomm = c ? MPIR_Comm_handle(c) : MPI_COMM_NULL;
    return err;
}

int MPIR_Comm_split_impl(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    return MPIR_Comm_split_internal(MPIR_Comm_lookup(comm), color, key, MPI_ERR_ARG,
                                    "passed an invalid color (must be non-negative or MPI_UNDEFINED)", newcomm);
}

int MPIR_Comm_split_type_impl(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    (void) info;
    /* All processes of a job share one machine's memory, so a shared-memory split keeps
     * everyone; an unknown type is an argument error of the process that passed it. */
    int color = split_type == MPI_UNDEFINED ? MPI_UNDEFINED
                : split_type == MPI_COMM_TYPE_SHARED ? 0 : MPIR_SPLIT_BAD_COLOR;
    return MPIR_Comm_split_internal(MPIR_Comm_lookup(comm), color, key, MPI_ERR_ARG,
                                    "passed an unknown split_type (supported: MPI_COMM_TYPE_SHARED, MPI_UNDEFINED)",
                                    newcomm);
}

/* ---- create ---- */

/* Whether every member of g belongs to the local group of comm. */
static int is_subgroup(MPIR_Comm *comm, const MPIR_Group *g, bool *yes)
{
    int *map;
    int err = MPIR_Group_rank_map(comm->local_group, &map);
    if (err)
        return err;
    *yes = true;
    for (int i = 0; i < g->size && *yes; i++)
        *yes = map[g->lpids[i]] >= 0;
    free(map);
    return MPI_SUCCESS;
}

int MPIR_Comm_create_impl(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    MPIR_Group *g = MPIR_Group_lookup(group);
    bool subgroup = false;
    int color = g->rank == MPI_UNDEFINED ? MPI_UNDEFINED : c->is_inter ? 0 : g->lpids[0];
    /* a failed check still takes part in the collective, with a color that says so */
    if (is_subgroup(c, g, &subgroup) != MPI_SUCCESS)
        color = MPIR_SPLIT_FAILED_COLOR;
    else if (!subgroup)
        color = MPIR_SPLIT_BAD_COLOR;
    return MPIR_Comm_split_internal(c, color, g->rank, MPI_ERR_GROUP,
                                    "passed a group that is not a subgroup of the communicator's group", newcomm);
}

int MPIR_Comm_create_group_impl(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    MPIR_Group *g = MPIR_Group_lookup(group);
    if (c->is_inter)
        return MPIR_Err(MPI_ERR_COMM, "comm must be an intracommunicator");
    if (tag < 0 || tag > MPIR_TAG_UB)
        return MPIR_Err(MPI_ERR_TAG, "invalid tag %d, must be in [0, %d]", tag, MPIR_TAG_UB);
    bool subgroup;
    int err = is_subgroup(c, g, &subgroup);
    if (err)
        return err;
    if (!subgroup)
        return MPIR_Err(MPI_ERR_GROUP, "group is not a subgroup of the communicator's group");
    if (g->rank == MPI_UNDEFINED) {     /* not a member: nothing to take part in (as in MPICH) */
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    /* The new communicator gets a group of its own: the user may free theirs at once. */
    MPIR_Group *copy;
    err = MPIR_Group_make(g->lpids, g->size, &copy);
    if (err)
        return err;
    int id;
    MPIR_Comm *nc;
    err = MPIR_Context_alloc_group(c, copy, tag, 1, &id);
    if (err == MPI_SUCCESS) {
        err = MPIR_Comm_new(c, copy, id, &nc);
        if (err)
            MPIR_Context_free(id);
    }
    MPIR_Group_release(copy);
    if (err == MPI_SUCCESS)
        *newcomm = MPIR_Comm_handle(nc);
    return err;
}

/* ---- free ---- */

int MPIR_Comm_free_impl(MPI_Comm *comm)
{
    if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
        return MPIR_Err(MPI_ERR_COMM, "%s cannot be freed", *comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD"
                                                                                   : "MPI_COMM_SELF");
    MPIR_Comm *c = MPIR_Comm_lookup(*comm);
    /* Delete callbacks first, while the handle is still valid for them; if one fails, the
     * communicator stays as it was (MPI 4.1, attribute caching). A callback that frees the
     * handle again would destroy the record under this call. */
    if (c->is_being_freed)
        return MPIR_Err(MPI_ERR_COMM, "the communicator is already being freed (MPI_Comm_free called "
                        "from one of its attribute delete callbacks)");
    c->is_being_freed = 1;
    int err = MPIR_Attr_delete_all(&c->attributes, *comm);
    c->is_being_freed = 0;
    if (err)
        return err;
    if (atomic_exchange(&c->freed, 1))
        return MPIR_Err(MPI_ERR_COMM, "the communicator was freed by another thread");
    *comm = MPI_COMM_NULL;
    MPIR_Comm_release(c);   /* pending requests keep it alive until they complete */
    return MPI_SUCCESS;
}

int MPIR_Comm_get_parent_impl(MPI_Comm *parent)
{
    *parent = MPI_COMM_NULL;    /* no process of this library is ever spawned */
    return MPI_SUCCESS;
}
