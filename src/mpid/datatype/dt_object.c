/*
 * Datatype records: lookup, allocation and the two kinds of references (see mpid_datatype.h).
 */
#include <stdio.h>
#include "mpiimpl.h"
#include "mpid_dataloop.h"

static MPID_Datatype direct_types[MPIR_POOL_BLOCK];
MPIR_Pool MPID_Datatype_pool = MPIR_POOL_INITIALIZER(MPIR_CLASS_DATATYPE, MPID_Datatype, "datatype", direct_types);

MPID_Datatype *MPID_Datatype_new(void)
{
    MPID_Datatype *dt = MPIR_Pool_alloc(&MPID_Datatype_pool);
    if (dt)
        atomic_store_explicit(&dt->user_refs, 1, memory_order_release);
    return dt;
}

void MPID_Datatype_add_ref(MPID_Datatype *dt)
{
    if (!MPID_Datatype_is_builtin(MPID_Datatype_handle(dt)) && !dt->is_permanent)
        MPIR_Object_add_ref(dt);
}

/* Drops one reference to d; true when that was the last (predefined and permanent types have none). */
static bool drop_ref(MPID_Datatype *d)
{
    return !MPID_Datatype_is_builtin(MPID_Datatype_handle(d)) && !d->is_permanent && MPIR_Object_release_ref(d) == 0;
}

/* Drops a reference to child c, adding c to the dead if it was the last. */
static void drop_child(MPID_Datatype *c, MPID_Datatype **dead)
{
    if (drop_ref(c)) {
        c->next_dead = *dead;
        *dead = c;
    }
}

/* Destroys records whose last reference is gone. The dead wait on a list threaded through their
 * own next_dead, not on the stack or in an allocated work list: a type nested a million levels
 * deep frees like a flat one, and freeing cannot run out of memory. */
void MPID_Datatype_release(MPID_Datatype *dt)
{
    if (!drop_ref(dt))
        return;
    dt->next_dead = NULL;
    for (MPID_Datatype *dead = dt; dead != NULL;) {
        MPID_Datatype *d = dead;
        dead = d->next_dead;
        const int64_t *vals;
        const MPI_Datatype *types;
        int nvals, ntypes = 0;
        MPID_Contents_get(d, &vals, &nvals, &types, &ntypes);
        for (int i = 0; i < ntypes; i++)   /* predefined children hold no counts: not even looked up */
            if (!MPID_Datatype_is_builtin(types[i]))
                drop_child(MPID_Datatype_get(types[i]), &dead);
        if (d->impl_type)
            drop_child(d->impl_type, &dead);
        MPID_Contents_free_shallow(d->contents);
        MPID_Dataloop_free(atomic_load(&d->dataloop));
        MPIR_Pool_free(&MPID_Datatype_pool, d);
    }
}

void MPID_Datatype_add_user_ref(MPID_Datatype *dt)
{
    if (MPID_Datatype_is_builtin(MPID_Datatype_handle(dt)) || dt->is_permanent)
        return;
    MPIR_Object_add_ref(dt);
    atomic_fetch_add_explicit(&dt->user_refs, 1, memory_order_acq_rel);
}

int MPID_Datatype_user_free(MPID_Datatype *dt)
{
    if (MPID_Datatype_is_builtin(MPID_Datatype_handle(dt)) || dt->is_permanent)
        return MPIR_Err(MPI_ERR_TYPE, "cannot free a predefined datatype");
    /* The last user handle takes the attributes with it. Delete callbacks see a valid handle; if
     * one fails, the type stays allocated and the error is returned (MPI 4.1, attribute caching).
     * A callback that frees the handle again would destroy the record under this call. */
    if (atomic_load_explicit(&dt->user_refs, memory_order_acquire) == 1) {
        if (dt->is_being_freed)
            return MPIR_Err(MPI_ERR_TYPE, "the datatype is already being freed (MPI_Type_free called "
                            "from one of its attribute delete callbacks)");
        dt->is_being_freed = 1;
        int err = MPIR_Attr_delete_all(&dt->attributes, MPID_Datatype_handle(dt));
        dt->is_being_freed = 0;
        if (err)
            return err;
    }
    atomic_fetch_sub_explicit(&dt->user_refs, 1, memory_order_acq_rel);
    MPID_Datatype_release(dt);
    return MPI_SUCCESS;
}

static void report_leak(void *obj, void *arg)
{
    MPID_Datatype *dt = obj;
    int *count = arg;
    if (atomic_load(&dt->user_refs) > 0 && !dt->is_permanent) {
        fprintf(stderr, "Loom MPI: datatype 0x%08x (size %lld, extent %ld) was never freed\n",
                (unsigned) MPID_Datatype_handle(dt), (long long) dt->size, (long) dt->extent);
        ++*count;
    }
}

void MPID_Datatype_finalize(void)
{
    /* LOOM_REPORT_LEAKS=1 lists the datatypes the program never freed */
    const char *report = getenv("LOOM_REPORT_LEAKS");
    if (report && *report && *report != '0') {
        int count = 0;
        MPIR_Pool_foreach(&MPID_Datatype_pool, report_leak, &count);
    }
}
