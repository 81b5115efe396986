/*
 * Handles and object pools.
 *
 * A handle is an int: bits 31-30 kind, bits 29-26 object class, the rest depends on the kind.
 *   builtin   (kind 1): predefined objects; for datatypes bits 15-8 hold the size in bytes.
 *   allocated (kind 2): bits 25-20 a generation, bits 19-0 the pool index.
 * Every object starts with MPIR_Object. A pool never moves or frees its blocks, so a lookup is
 * lock-free: it checks kind, class and index, then that the slot still carries this exact handle
 * (a freed slot carries 0; a reused slot carries a new generation). Freed slots are reused in FIFO
 * order, so a stale handle stays detectable for a long time.
 */
#ifndef MPIR_OBJECT_H_INCLUDED
#define MPIR_OBJECT_H_INCLUDED

#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stddef.h>
#include "mpi.h"

enum MPIR_Handle_kind { MPIR_KIND_INVALID = 0, MPIR_KIND_BUILTIN = 1, MPIR_KIND_ALLOCATED = 2 };

enum MPIR_Object_class {
    MPIR_CLASS_COMM = 1, MPIR_CLASS_GROUP = 2, MPIR_CLASS_DATATYPE = 3, MPIR_CLASS_ERRHANDLER = 4,
    MPIR_CLASS_OP = 5, MPIR_CLASS_INFO = 6, MPIR_CLASS_WIN = 7, MPIR_CLASS_KEYVAL = 8,
    MPIR_CLASS_REQUEST = 9, MPIR_CLASS_SESSION = 10, MPIR_CLASS_MESSAGE = 11
};

#define MPIR_HANDLE_KIND(h)  ((int) (((unsigned) (h)) >> 30))
#define MPIR_HANDLE_CLASS(h) ((int) ((((unsigned) (h)) >> 26) & 0xf))
#define MPIR_HANDLE_INDEX_BITS 20
#define MPIR_HANDLE_INDEX(h) ((int) (((unsigned) (h)) & ((1u << MPIR_HANDLE_INDEX_BITS) - 1)))
#define MPIR_BUILTIN_INDEX(h) ((int) (((unsigned) (h)) & 0xff))

typedef struct MPIR_Object {
    _Atomic int handle;     /* this object's handle; 0 while the slot is free */
    _Atomic int ref_count;  /* the object is destroyed when this drops to 0 */
} MPIR_Object;

#define MPIR_POOL_BLOCK 256     /* objects per block */
#define MPIR_POOL_MAX_BLOCKS ((1 << MPIR_HANDLE_INDEX_BITS) / MPIR_POOL_BLOCK)

typedef struct MPIR_Pool {
    int obj_class;
    size_t obj_size;
    const char *name;                   /* for leak reports */
    pthread_mutex_t lock;
    _Atomic(char *) blocks[MPIR_POOL_MAX_BLOCKS];
    int nblocks;
    int free_head, free_tail;           /* FIFO of free indices, linked through the slots */
    int nlive;
    unsigned char *generation;          /* per index; grows with the pool */
    void *direct;                       /* optional preallocated first block (static storage) */
    bool registered;                    /* in the registry of pools (leak reports) */
    struct MPIR_Pool *next_registered;
} MPIR_Pool;

/* direct: NULL, or a static array of MPIR_POOL_BLOCK objects used before any block is allocated. */
#define MPIR_POOL_INITIALIZER(cls, type, label, direct_block) \
    { .obj_class = (cls), .obj_size = sizeof(type), .name = (label), \
      .lock = PTHREAD_MUTEX_INITIALIZER, .free_head = -1, .free_tail = -1, .direct = (direct_block) }

/* A new zeroed object with ref_count 1 and a fresh handle, or NULL when memory or handles run out. */
void *MPIR_Pool_alloc(MPIR_Pool *pool);
/* Returns the slot to the pool; the handle becomes invalid. */
void MPIR_Pool_free(MPIR_Pool *pool, void *obj);
/* The object at a pool index, NULL if its block does not exist yet. */
static inline char *MPIR_Pool_slot(MPIR_Pool *pool, int index)
{
    char *block = atomic_load_explicit(&pool->blocks[index / MPIR_POOL_BLOCK], memory_order_acquire);
    return block ? block + (size_t) (index % MPIR_POOL_BLOCK) * pool->obj_size : NULL;
}

/* The live object for a handle of this pool, or NULL. Inline: every MPI call looks up its
 * arguments, and a call costs more than the lookup. */
static inline void *MPIR_Pool_lookup(MPIR_Pool *pool, int handle)
{
    if (MPIR_HANDLE_KIND(handle) != MPIR_KIND_ALLOCATED || MPIR_HANDLE_CLASS(handle) != pool->obj_class)
        return NULL;
    int index = MPIR_HANDLE_INDEX(handle);
    if (index / MPIR_POOL_BLOCK >= MPIR_POOL_MAX_BLOCKS)
        return NULL;
    char *obj = MPIR_Pool_slot(pool, index);
    if (!obj || atomic_load_explicit(&((MPIR_Object *) obj)->handle, memory_order_acquire) != handle)
        return NULL;
    return obj;
}
/* Calls fn on every live object (used by finalize to report leaks). */
void MPIR_Pool_foreach(MPIR_Pool *pool, void (*fn)(void *obj, void *arg), void *arg);

/*
 * Leak reports. A pool joins a registry by itself when it first allocates, so the report at the end
 * of MPI_Finalize (MPIR_Report_leaks, src/mpi/misc/leaks.c) sees every pool in use: whatever is
 * still live in a pool then, once every module has released what it holds itself, is a handle the
 * program never freed. Modules that list their own leftovers, with more to say about each, are
 * named in leaks.c and skipped there.
 */
/* Calls fn on every registered pool, in the order they registered. */
void MPIR_Pool_foreach_registered(void (*fn)(MPIR_Pool *pool, void *arg), void *arg);
/* Prints to stderr one line per live object of pool ("Loom MPI: <name> 0x... was never freed"), at
 * most a screenful, then how many more; returns the number of live objects. */
long MPIR_Pool_report(MPIR_Pool *pool);
/* Whether the user asked for leak reports: LOOM_REPORT_LEAKS set, not empty and not "0". */
bool MPIR_Leak_report_wanted(void);
/* The last step of MPI_Finalize: if wanted, lists the handles left in the registered pools. */
void MPIR_Report_leaks(void);

static inline void MPIR_Object_add_ref(void *obj)
{
    atomic_fetch_add_explicit(&((MPIR_Object *) obj)->ref_count, 1, memory_order_relaxed);
}

/* Returns the new count: 0 means the caller must destroy the object. */
static inline int MPIR_Object_release_ref(void *obj)
{
    return atomic_fetch_sub_explicit(&((MPIR_Object *) obj)->ref_count, 1, memory_order_acq_rel) - 1;
}

static inline int MPIR_Object_handle(const void *obj)
{
    return atomic_load_explicit(&((MPIR_Object *) obj)->handle, memory_order_relaxed);
}

#endif
