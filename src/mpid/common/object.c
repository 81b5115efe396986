/*
 * Object pools (see mpir_object.h for the handle layout and the lookup contract).
 *
 * Allocation and free take the pool's mutex; lookup does not. Blocks are published with a release
 * store and never freed before exit, so a reader that sees a block pointer sees initialized memory.
 * The generation of a slot advances on every free, so the handle a user kept after freeing an object
 * no longer matches the slot, even once the slot is reused.
 */
#include "mpiimpl.h"
#include <stdio.h>

#define GEN_BITS 6
#define GEN_MASK ((1u << GEN_BITS) - 1)

/* Free slots are linked through the int that follows the object header. */
static int *next_free(MPIR_Pool *pool, char *obj)
{
    (void) pool;
    return (int *) (obj + sizeof(MPIR_Object));
}

static int make_handle(MPIR_Pool *pool, int index)
{
    unsigned gen = pool->generation[index] & GEN_MASK;
    return (int) ((unsigned) MPIR_KIND_ALLOCATED << 30 | (unsigned) pool->obj_class << 26
                  | gen << MPIR_HANDLE_INDEX_BITS | (unsigned) index);
}

static void join_registry(MPIR_Pool *pool);

/* Adds a block and queues its slots; called with the lock held. The first block also enters the
 * pool in the registry of pools. */
static bool grow(MPIR_Pool *pool)
{
    if (pool->nblocks == MPIR_POOL_MAX_BLOCKS)
        return false;
    int first = pool->nblocks * MPIR_POOL_BLOCK;
    unsigned char *gen = realloc(pool->generation, (size_t) (first + MPIR_POOL_BLOCK));
    char *block = (first == 0 && pool->direct) ? pool->direct : calloc(MPIR_POOL_BLOCK, pool->obj_size);
    if (!gen || !block) {
        if (gen)
            pool->generation = gen;
        if (block != pool->direct)
            free(block);
        return false;
    }
    pool->generation = gen;
    if (first == 0)
        join_registry(pool);
    memset(gen + first, 0, MPIR_POOL_BLOCK);
    atomic_store_explicit(&pool->blocks[pool->nblocks], block, memory_order_release);
    pool->nblocks++;
    /* index 0 of the first block is never used, so no allocated handle has index and generation 0 */
    for (int i = (first == 0 ? 1 : first); i < first + MPIR_POOL_BLOCK; i++) {
        *next_free(pool, MPIR_Pool_slot(pool, i)) = -1;
        if (pool->free_tail >= 0)
            *next_free(pool, MPIR_Pool_slot(pool, pool->free_tail)) = i;
        else
            pool->free_head = i;
        pool->free_tail = i;
    }
    return true;
}

void *MPIR_Pool_alloc(MPIR_Pool *pool)
{
    pthread_mutex_lock(&pool->lock);
    if (pool->free_head < 0 && !grow(pool)) {
        pthread_mutex_unlock(&pool->lock);
        return NULL;
    }
    int index = pool->free_head;
    char *obj = MPIR_Pool_slot(pool, index);
    pool->free_head = *next_free(pool, obj);
    if (pool->free_head < 0)
        pool->free_tail = -1;
    pool->nlive++;
    memset(obj + sizeof(MPIR_Object), 0, pool->obj_size - sizeof(MPIR_Object));
    atomic_store_explicit(&((MPIR_Object *) obj)->ref_count, 1, memory_order_relaxed);
    atomic_store_explicit(&((MPIR_Object *) obj)->handle, make_handle(pool, index), memory_order_release);
    pthread_mutex_unlock(&pool->lock);
    return obj;
}

void MPIR_Pool_free(MPIR_Pool *pool, void *obj)
{
    int index = MPIR_HANDLE_INDEX(MPIR_Object_handle(obj));
    pthread_mutex_lock(&pool->lock);
    atomic_store_explicit(&((MPIR_Object *) obj)->handle, 0, memory_order_release);
    pool->generation[index]++;
    *next_free(pool, obj) = -1;
    if (pool->free_tail >= 0)
        *next_free(pool, MPIR_Pool_slot(pool, pool->free_tail)) = index;
    else
        pool->free_head = index;
    pool->free_tail = index;
    pool->nlive--;
    pthread_mutex_unlock(&pool->lock);
}

void MPIR_Pool_foreach(MPIR_Pool *pool, void (*fn)(void *obj, void *arg), void *arg)
{
    for (int b = 0; b < pool->nblocks; b++)
        for (int i = 0; i < MPIR_POOL_BLOCK; i++) {
            char *obj = MPIR_Pool_slot(pool, b * MPIR_POOL_BLOCK + i);
            if (MPIR_Object_handle(obj) != 0)
                fn(obj, arg);
        }
}

/* ---- the registry of pools, for leak reports ---- */

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static MPIR_Pool *registry_head, **registry_tail = &registry_head;

static void join_registry(MPIR_Pool *pool)
{
    pthread_mutex_lock(&registry_lock);
    if (!pool->registered) {
        pool->registered = true;
        pool->next_registered = NULL;
        *registry_tail = pool;
        registry_tail = &pool->next_registered;
    }
    pthread_mutex_unlock(&registry_lock);
}

void MPIR_Pool_foreach_registered(void (*fn)(MPIR_Pool *pool, void *arg), void *arg)
{
    /* fn must not allocate from a pool that has never allocated (it would join under the lock) */
    pthread_mutex_lock(&registry_lock);
    for (MPIR_Pool *pool = registry_head; pool; pool = pool->next_registered)
        fn(pool, arg);
    pthread_mutex_unlock(&registry_lock);
}

#define REPORT_MAX_LINES 20     /* per pool: a program that leaks in a loop gets a count, not a flood */

struct report {
    MPIR_Pool *pool;
    long count;
};

static void report_one(void *obj, void *arg)
{
    struct report *r = arg;
    if (r->count++ < REPORT_MAX_LINES)
        fprintf(stderr, "Loom MPI: %s 0x%08x was never freed\n", r->pool->name,
                (unsigned) MPIR_Object_handle(obj));
}

long MPIR_Pool_report(MPIR_Pool *pool)
{
    struct report r = { .pool = pool, .count = 0 };
    MPIR_Pool_foreach(pool, report_one, &r);
    if (r.count > REPORT_MAX_LINES)
        fprintf(stderr, "Loom MPI: ... and %ld more %s handles were never freed\n", r.count - REPORT_MAX_LINES,
                pool->name);
    return r.count;
}

int MPIR_Widen_ints(const int *src, MPI_Count n, MPI_Count **dst)
{
    *dst = malloc((size_t) (n > 0 ? n : 1) * sizeof(MPI_Count));
    MPIR_CHKMEM(*dst);
    for (MPI_Count i = 0; i < n; i++)
        (*dst)[i] = src[i];
    return MPI_SUCCESS;
}
