/*
 * Communicator objects: the pool, MPI_COMM_WORLD and MPI_COMM_SELF, references, finalize.
 *
 * WORLD and SELF are static records with builtin handles, valid even before MPI_Init and after
 * MPI_Finalize (errors raised then still find their error handler); MPIR_Comm_init_builtins gives
 * them their groups and contexts. Every other communicator comes from a pool and is reference
 * counted: the user's handle is one reference, each pending request another, an intercommunicator
 * holds its local_comm. MPI_Comm_free marks the record freed (its handle is invalid from then on,
 * like a freed datatype's) and drops the user's reference; the last reference destroys it.
 */
#include <stdio.h>
#include "comm.h"

static MPIR_Comm comm_world = {
    .obj = { .handle = MPI_COMM_WORLD, .ref_count = 1 },
    .rank = 0, .size = 1, .remote_size = 1,
    .context_id = MPIR_CONTEXT_WORLD, .recv_context_id = MPIR_CONTEXT_WORLD,
    .errhandler = MPI_ERRORS_ARE_FATAL,
    .name = "MPI_COMM_WORLD",
};

static MPIR_Comm comm_self = {
    .obj = { .handle = MPI_COMM_SELF, .ref_count = 1 },
    .rank = 0, .size = 1, .remote_size = 1,
    .context_id = MPIR_CONTEXT_SELF, .recv_context_id = MPIR_CONTEXT_SELF,
    .errhandler = MPI_ERRORS_ARE_FATAL,
    .name = "MPI_COMM_SELF",
};

static MPIR_Pool comm_pool = MPIR_POOL_INITIALIZER(MPIR_CLASS_COMM, MPIR_Comm, "communicator", NULL);

static bool is_builtin(const MPIR_Comm *comm)
{
    return comm == &comm_world || comm == &comm_self;
}

MPIR_Comm *MPIR_Comm_lookup(MPI_Comm comm)
{
    if (comm == MPI_COMM_WORLD)
        return &comm_world;
    if (comm == MPI_COMM_SELF)
        return &comm_self;
    MPIR_Comm *c = MPIR_Pool_lookup(&comm_pool, comm);
    if (c && atomic_load_explicit(&c->freed, memory_order_acquire))
        return NULL;
    return c;
}

/* ---- error handlers: a communicator holds a reference on a user-defined one ---- */

static void inherit_errhandler(MPIR_Comm *comm, MPIR_Comm *parent)
{
    /* get takes a reference under the error handler lock, so a concurrent set on the parent
     * cannot free the handler first. Predefined handlers need no reference: give it back. */
    MPI_Errhandler h = MPI_ERRORS_ARE_FATAL;
    if (MPIR_Comm_get_errhandler_impl(MPIR_Comm_handle(parent), &h) != MPI_SUCCESS)
        h = MPI_ERRORS_ARE_FATAL;
    atomic_store(&comm->errhandler, h);
    if (MPIR_HANDLE_KIND(h) == MPIR_KIND_BUILTIN)
        (void) MPIR_Errhandler_free_impl(&h);
}

static void release_errhandler(MPIR_Comm *comm)
{
    MPI_Errhandler h = atomic_exchange(&comm->errhandler, MPI_ERRORS_ARE_FATAL);
    if (MPIR_HANDLE_KIND(h) != MPIR_KIND_BUILTIN)
        (void) MPIR_Errhandler_free_impl(&h);
}

/* ---- creation and destruction ---- */

/* rank_of_lpid for the group g: world rank -> rank in g, or -1. */
static int build_rank_map(MPIR_Comm *comm, const MPIR_Group *g)
{
    free(comm->rank_of_lpid);
    comm->rank_of_lpid = NULL;
    return MPIR_Group_rank_map(g, &comm->rank_of_lpid);
}

/* The record behind every constructor: the caller sets what is particular to its kind. */
static int comm_alloc(MPIR_Comm *parent, MPIR_Group *local, MPIR_Group *addressed, MPIR_Comm **out)
{
    MPIR_Comm *c = MPIR_Pool_alloc(&comm_pool);
    if (c == NULL)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory or of communicator handles");
    int err = build_rank_map(c, addressed);
    if (err) {
        MPIR_Pool_free(&comm_pool, c);
        return err;
    }
    c->rank = local->rank;
    c->size = local->size;
    c->remote_size = addressed->size;
    c->local_group = local;
    MPIR_Group_add_ref(local);
    inherit_errhandler(c, parent);
    *out = c;
    return MPI_SUCCESS;
}

int MPIR_Comm_new(MPIR_Comm *parent, MPIR_Group *local, int context_id, MPIR_Comm **out)
{
    int err = comm_alloc(parent, local, local, out);
    if (err == MPI_SUCCESS)
        (*out)->context_id = (*out)->recv_context_id = context_id;
    return err;
}

int MPIR_Comm_new_inter(MPIR_Comm *parent, MPIR_Group *local, MPIR_Group *remote, int send_ctx, int recv_ctx,
                        int local_ctx, MPIR_Comm **out)
{
    MPIR_Comm *lc, *c;
    int err = MPIR_Comm_new(parent, local, local_ctx, &lc);
    if (err)
        return err;
    lc->is_internal = 1;
    err = comm_alloc(parent, local, remote, &c);
    if (err) {
        lc->recv_context_id = -1;       /* the caller keeps local_ctx */
        MPIR_Comm_release(lc);
        return err;
    }
    c->is_inter = 1;
    c->remote_group = remote;
    MPIR_Group_add_ref(remote);
    c->context_id = send_ctx;
    c->recv_context_id = recv_ctx;
    c->local_comm = lc;
    *out = c;
    return MPI_SUCCESS;
}

/* Everything a pooled communicator holds, except other communicators. */
static void destroy(MPIR_Comm *c)
{
    MPIR_Group_release(c->local_group);
    MPIR_Group_release(c->remote_group);
    free(c->rank_of_lpid);
    release_errhandler(c);
    MPIR_Comm_info_free(c);
    MPIR_Topo_release(c->topo);
    MPIR_Bsend_comm_free(c);
    if (c->recv_context_id >= 0)
        MPIR_Context_free(c->recv_context_id);
    MPIR_Pool_free(&comm_pool, c);
}

void MPIR_Comm_add_ref(MPIR_Comm *comm)
{
    if (!is_builtin(comm))
        MPIR_Object_add_ref(comm);
}

void MPIR_Comm_release(MPIR_Comm *comm)
{
    if (comm == NULL || is_builtin(comm) || MPIR_Object_release_ref(comm) > 0)
        return;
    MPIR_Comm *local = comm->local_comm;
    destroy(comm);
    MPIR_Comm_release(local);
}

/* ---- MPI_COMM_WORLD and MPI_COMM_SELF ---- */

static int init_builtin(MPIR_Comm *c, const int *lpids, int n)
{
    MPIR_Group *g;
    int err = MPIR_Group_make(lpids, n, &g);
    if (err)
        return err;
    err = build_rank_map(c, g);
    if (err) {
        MPIR_Group_release(g);
        return err;
    }
    c->local_group = g;
    c->rank = g->rank;
    c->size = c->remote_size = n;
    return MPI_SUCCESS;
}

int MPIR_Comm_init_builtins(void)
{
    int n = MPIR_Process.world_size, me = MPIR_Process.world_rank;
    int *lpids = malloc((size_t) n * sizeof *lpids);
    MPIR_CHKMEM(lpids);
    for (int i = 0; i < n; i++)
        lpids[i] = i;
    MPIR_Context_init();
    MPIR_Comm_attr_init();
    int err = init_builtin(&comm_world, lpids, n);
    if (err == MPI_SUCCESS)
        err = init_builtin(&comm_self, &me, 1);
    free(lpids);
    return err;
}

int MPIR_Comm_rank_impl(MPI_Comm comm, int *rank)
{
    *rank = MPIR_Comm_lookup(comm)->rank;
    return MPI_SUCCESS;
}

int MPIR_Comm_size_impl(MPI_Comm comm, int *size)
{
    *size = MPIR_Comm_lookup(comm)->size;
    return MPI_SUCCESS;
}

/* ---- finalize ---- */

/* A communicator the user never freed: reported if wanted, then freed as MPI_Comm_free would,
 * except that the standard runs no delete callbacks at finalize. Whatever else still holds it (a
 * window the user leaked too) keeps it. */
static void release_leaked(void *obj, void *arg)
{
    MPIR_Comm *c = obj;
    if (c->is_internal || atomic_load(&c->freed))
        return;
    if (*(bool *) arg)
        fprintf(stderr, "Loom MPI: communicator 0x%08x (%s, size %d%s%s) was never freed\n",
                (unsigned) MPIR_Comm_handle(c), c->is_inter ? "inter" : "intra", c->size,
                c->name[0] ? ", name " : "", c->name);
    MPIR_Attr_drop_all(&c->attributes);
    atomic_store(&c->freed, 1);
    MPIR_Comm_release(c);   /* MPIR_Pool_foreach holds no lock: freeing here is safe */
}

void MPIR_Comm_finalize(void)
{
    bool report = MPIR_Leak_report_wanted();
    MPIR_Pool_foreach(&comm_pool, release_leaked, &report);
    MPIR_Comm *builtins[] = { &comm_world, &comm_self };
    for (int i = 0; i < 2; i++) {
        /* A user-defined handler goes back to its pool (so the leak report sees it freed, if the
         * user freed it); errors after MPI_Finalize then return, as that handler presumably did. */
        if (MPIR_HANDLE_KIND(atomic_load(&builtins[i]->errhandler)) != MPIR_KIND_BUILTIN) {
            release_errhandler(builtins[i]);
            atomic_store(&builtins[i]->errhandler, MPI_ERRORS_RETURN);
        }
        MPIR_Comm_info_free(builtins[i]);
        MPIR_Bsend_comm_free(builtins[i]);
        MPIR_Group_release(builtins[i]->local_group);
        builtins[i]->local_group = NULL;
        free(builtins[i]->rank_of_lpid);
        builtins[i]->rank_of_lpid = NULL;
    }
    MPIR_Group_finalize(report);
}
