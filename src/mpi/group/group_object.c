/*
 * Group objects: the pool, MPI_GROUP_EMPTY, and the queries that need no arithmetic on members
 * (MPI_Group_size, _rank, _compare, _free).
 */
#include <stdio.h>
#include "mpiimpl.h"
#include "mpir_impl_proto.h"
#include "group.h"

MPIR_Group MPIR_Group_empty = {
    .obj = { .handle = MPI_GROUP_EMPTY, .ref_count = 1 },
    .size = 0, .rank = MPI_UNDEFINED, .lpids = NULL,
};

static MPIR_Pool group_pool = MPIR_POOL_INITIALIZER(MPIR_CLASS_GROUP, MPIR_Group, "group", NULL);

static bool is_builtin(const MPIR_Group *g)
{
    return MPIR_HANDLE_KIND(MPIR_Object_handle(g)) == MPIR_KIND_BUILTIN;
}

MPIR_Group *MPIR_Group_lookup(MPI_Group group)
{
    if (group == MPI_GROUP_EMPTY)
        return &MPIR_Group_empty;
    return MPIR_Pool_lookup(&group_pool, group);
}

void MPIR_Group_add_ref(MPIR_Group *group)
{
    if (!is_builtin(group))
        MPIR_Object_add_ref(group);
}

void MPIR_Group_release(MPIR_Group *group)
{
    if (group == NULL || is_builtin(group) || MPIR_Object_release_ref(group) > 0)
        return;
    free(group->lpids);
    MPIR_Pool_free(&group_pool, group);
}

int MPIR_Group_make(const int *lpids, int n, MPIR_Group **out)
{
    MPIR_Group *g = MPIR_Pool_alloc(&group_pool);
    if (g == NULL)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory or of group handles");
    g->lpids = malloc((size_t) (n > 0 ? n : 1) * sizeof *g->lpids);
    if (g->lpids == NULL) {
        MPIR_Pool_free(&group_pool, g);
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory");
    }
    if (n > 0)
        memcpy(g->lpids, lpids, (size_t) n * sizeof *lpids);
    g->size = n;
    g->rank = MPI_UNDEFINED;
    for (int i = 0; i < n; i++)
        if (lpids[i] == MPIR_Process.world_rank)
            g->rank = i;
    *out = g;
    return MPI_SUCCESS;
}

MPI_Group MPIR_Group_publish(MPIR_Group *g)
{
    if (g->size > 0) {
        g->is_user = 1;
        return MPIR_Object_handle(g);
    }
    MPIR_Group_release(g);
    return MPI_GROUP_EMPTY;
}

int MPIR_Group_new_handle(const MPIR_Group *g, MPI_Group *handle)
{
    MPIR_Group *copy;
    int err = MPIR_Group_make(g->lpids, g->size, &copy);
    if (err)
        return err;
    *handle = MPIR_Group_publish(copy);
    return MPI_SUCCESS;
}

int MPIR_Group_rank_map(const MPIR_Group *g, int **map)
{
    int n = MPIR_Process.world_size;
    int *m = malloc((size_t) (n > 0 ? n : 1) * sizeof *m);
    MPIR_CHKMEM(m);
    for (int i = 0; i < n; i++)
        m[i] = -1;
    for (int r = 0; r < g->size; r++)
        m[g->lpids[r]] = r;
    *map = m;
    return MPI_SUCCESS;
}

int MPIR_Group_compare_groups(const MPIR_Group *a, const MPIR_Group *b)
{
    if (a->size != b->size)
        return MPI_UNEQUAL;
    if (a->size == 0 || memcmp(a->lpids, b->lpids, (size_t) a->size * sizeof *a->lpids) == 0)
        return MPI_IDENT;
    /* Same members in another order? Mark a's members in a world-sized table, then look up b's. */
    int *map;
    if (MPIR_Group_rank_map(a, &map) != MPI_SUCCESS)
        return MPI_UNEQUAL;     /* out of memory: cannot happen for the sizes of one machine */
    int result = MPI_SIMILAR;
    for (int r = 0; r < b->size && result == MPI_SIMILAR; r++)
        if (map[b->lpids[r]] < 0)
            result = MPI_UNEQUAL;
    free(map);
    return result;
}

/* ---- MPI functions ---- */

int MPIR_Group_size_impl(MPI_Group group, int *size)
{
    *size = MPIR_Group_lookup(group)->size;
    return MPI_SUCCESS;
}

int MPIR_Group_rank_impl(MPI_Group group, int *rank)
{
    *rank = MPIR_Group_lookup(group)->rank;
    return MPI_SUCCESS;
}

int MPIR_Group_compare_impl(MPI_Group group1, MPI_Group group2, int *result)
{
    *result = MPIR_Group_compare_groups(MPIR_Group_lookup(group1), MPIR_Group_lookup(group2));
    return MPI_SUCCESS;
}

int MPIR_Group_free_impl(MPI_Group *group)
{
    /* MPI_GROUP_EMPTY is what group operations return for empty results, and programs free those
     * handles like any other (MPICH accepts it too): freeing it only resets the handle. */
    MPIR_Group_release(MPIR_Group_lookup(*group));
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}

/* ---- finalize ---- */

static void drop_leak(void *obj, void *arg)
{
    MPIR_Group *g = obj;
    if (!g->is_user)
        return;     /* held by a communicator that outlives MPI_Finalize (a leaked window's, say) */
    if (*(bool *) arg)
        fprintf(stderr, "Loom MPI: group 0x%08x (size %d) was never freed\n", (unsigned) MPIR_Object_handle(g),
                g->size);
    free(g->lpids);
    MPIR_Pool_free(&group_pool, g);     /* MPIR_Pool_foreach holds no lock: freeing here is safe */
}

void MPIR_Group_finalize(bool report)
{
    MPIR_Pool_foreach(&group_pool, drop_leak, &report);
}
