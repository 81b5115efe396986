/*
 * Attribute caching: keyvals and the attribute lists of datatypes, communicators and windows.
 *
 * Locking. One mutex guards every attribute list, and every keyval's reference count and
 * freed_by_user flag, so a lookup never races with MPI_*_free_keyval. User callbacks run with the
 * mutex released, since they may call MPI, even on the same object. To run a delete callback, the
 * attribute is first unlinked from its list; if the callback fails, the attribute is linked back, so
 * a failed delete leaves the attribute in place and the call that caused it fails.
 *
 * Keyval lifetime. A keyval starts with one reference, the user's handle; each attribute that uses
 * it holds another. MPI_*_free_keyval marks it freed_by_user and drops the user's reference; the
 * last attribute to go returns it to the pool. A freed keyval can no longer be set or freed
 * (MPI_ERR_KEYVAL), but while attributes still use it, MPI_*_delete_attr and MPI_*_get_attr reach
 * them: MPI 4.1 (MPI_COMM_FREE_KEYVAL) says those references "need to be explicitly freed by the
 * program, either via calls to MPI_COMM_DELETE_ATTR ... or by calls to MPI_COMM_FREE".
 */
#include "mpiimpl.h"
#include <stdio.h>

static MPIR_Pool keyval_pool = MPIR_POOL_INITIALIZER(MPIR_CLASS_KEYVAL, MPIR_Keyval, "keyval", NULL);
static pthread_mutex_t attr_lock = PTHREAD_MUTEX_INITIALIZER;

static void lock(void)
{
    pthread_mutex_lock(&attr_lock);
}

static void unlock(void)
{
    pthread_mutex_unlock(&attr_lock);
}

static const char *kind_name(MPIR_Attr_kind kind)
{
    return kind == MPIR_ATTR_TYPE ? "datatype" : kind == MPIR_ATTR_COMM ? "communicator" : "window";
}

/* ---- keyvals (all of these are called with the lock held) ---- */

/* The keyval behind a handle for objects of this kind; one the user has freed only if in_use_ok
 * (it is alive as long as attributes use it). */
static int keyval_lookup_locked(MPIR_Attr_kind kind, int handle, bool in_use_ok, MPIR_Keyval **kvp)
{
    MPIR_Keyval *kv = MPIR_Pool_lookup(&keyval_pool, handle);
    if (kv == NULL)
        return MPIR_Err(MPI_ERR_KEYVAL, "invalid keyval %#x", (unsigned) handle);
    if (kv->freed_by_user && !in_use_ok)
        return MPIR_Err(MPI_ERR_KEYVAL, "keyval %#x has been freed", (unsigned) handle);
    if (kv->kind != kind)
        return MPIR_Err(MPI_ERR_KEYVAL, "keyval %#x was created for a %s, not a %s", (unsigned) handle,
                        kind_name(kv->kind), kind_name(kind));
    *kvp = kv;
    return MPI_SUCCESS;
}

static void keyval_release_locked(MPIR_Keyval *kv)
{
    if (MPIR_Object_release_ref(kv) == 0)
        MPIR_Pool_free(&keyval_pool, kv);
}

/* A valid keyval with one more reference, for a new attribute. */
static int keyval_acquire(MPIR_Attr_kind kind, int handle, MPIR_Keyval **kvp)
{
    lock();
    int err = keyval_lookup_locked(kind, handle, false, kvp);
    if (err == MPI_SUCCESS)
        MPIR_Object_add_ref(*kvp);
    unlock();
    return err;
}

static void keyval_release(MPIR_Keyval *kv)
{
    lock();
    keyval_release_locked(kv);
    unlock();
}

int MPIR_Keyval_create(MPIR_Attr_kind kind, MPIR_Attr_copy_fn *copy_fn, MPIR_Attr_delete_fn *delete_fn,
                       void *extra_state, int *keyval)
{
    MPIR_Keyval *kv = MPIR_Pool_alloc(&keyval_pool);
    if (kv == NULL)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory or of keyval handles");
    lock();     /* lookups read these fields under the lock */
    kv->kind = kind;
    kv->copy_fn = copy_fn;
    kv->delete_fn = delete_fn;
    kv->extra_state = extra_state;
    kv->freed_by_user = 0;
    unlock();
    *keyval = MPIR_Object_handle(kv);
    return MPI_SUCCESS;
}

int MPIR_Keyval_free(MPIR_Attr_kind kind, int *keyval)
{
    MPIR_Keyval *kv;
    lock();
    int err = keyval_lookup_locked(kind, *keyval, false, &kv);
    if (err == MPI_SUCCESS) {
        kv->freed_by_user = 1;
        keyval_release_locked(kv);
    }
    unlock();
    if (err == MPI_SUCCESS)
        *keyval = MPI_KEYVAL_INVALID;
    return err;
}

/* ---- attributes ---- */

/* A callback's non-zero return as the error of the MPI call that ran it: an error class gets a
 * reason recorded; a full error code (from an MPI call made inside the callback) is passed on with
 * its own message; anything else becomes MPI_ERR_OTHER. */
static int callback_error(int rc, const char *which, const MPIR_Keyval *kv)
{
    unsigned handle = (unsigned) MPIR_Object_handle(kv);
    if (rc > MPI_SUCCESS && rc <= MPIR_ERR_LASTCLASS)
        return MPIR_Err(rc, "the %s callback of keyval %#x returned error class %d", which, handle, rc);
    int cls = rc & MPIR_ERR_CLASS_MASK;
    if (rc > MPIR_ERR_CLASS_MASK && rc <= MPI_ERR_LASTCODE && (rc >> 17) != 0 && cls > MPI_SUCCESS
        && cls <= MPIR_ERR_LASTCLASS)
        return rc;
    return MPIR_Err(MPI_ERR_OTHER, "the %s callback of keyval %#x returned %d, not an MPI error code", which,
                    handle, rc);
}

static MPIR_Attribute *find_locked(MPIR_Attribute *list, const MPIR_Keyval *kv)
{
    while (list && list->keyval != kv)
        list = list->next;
    return list;
}

/* Removes the attribute of kv from *list and returns it (NULL if there is none). */
static MPIR_Attribute *unlink_locked(MPIR_Attribute **list, const MPIR_Keyval *kv)
{
    for (MPIR_Attribute **p = list; *p; p = &(*p)->next) {
        MPIR_Attribute *a = *p;
        if (a->keyval == kv) {
            *p = a->next;
            a->next = NULL;
            return a;
        }
    }
    return NULL;
}

/* Frees an unlinked attribute and its reference on the keyval. */
static void attr_destroy(MPIR_Attribute *a)
{
    keyval_release(a->keyval);
    free(a);
}

/* Puts back an attribute whose delete callback failed. Only a set racing on the same object and key
 * can have stored a new value meanwhile; that newer value then wins and this one is dropped. */
static void relink(MPIR_Attribute **list, MPIR_Attribute *a)
{
    lock();
    bool taken = find_locked(*list, a->keyval) != NULL;
    if (!taken) {
        a->next = *list;
        *list = a;
    }
    unlock();
    if (taken)
        attr_destroy(a);
}

/* Runs the delete callback of an unlinked attribute: on success the attribute is freed, on failure
 * it goes back on the list. The attribute's reference keeps the keyval alive meanwhile. */
static int run_delete(MPIR_Attribute **list, int obj, MPIR_Attribute *a)
{
    MPIR_Keyval *kv = a->keyval;
    int rc = kv->delete_fn ? kv->delete_fn(obj, MPIR_Object_handle(kv), a->value, kv->extra_state)
                           : MPI_SUCCESS;
    if (rc != MPI_SUCCESS) {
        int err = callback_error(rc, "delete", kv);
        relink(list, a);
        return err;
    }
    attr_destroy(a);
    return MPI_SUCCESS;
}

int MPIR_Attr_set(MPIR_Attribute **list, MPIR_Attr_kind kind, int obj, int keyval, void *value)
{
    MPIR_Attribute *node = malloc(sizeof *node);
    MPIR_CHKMEM(node);
    int err = keyval_acquire(kind, keyval, &node->keyval);
    if (err != MPI_SUCCESS) {
        free(node);
        return err;
    }
    node->value = value;
    /* As if the old value were deleted first (its callback may fail the call), then the new one
     * stored. The loop turns once per old value; a second turn needs a racing set on this key. */
    for (;;) {
        lock();
        MPIR_Attribute *old = unlink_locked(list, node->keyval);
        if (old == NULL) {
            node->next = *list;     /* newest first: MPI_COMM_SELF's callbacks run in reverse order */
            *list = node;
            unlock();
            return MPI_SUCCESS;
        }
        unlock();
        err = run_delete(list, obj, old);
        if (err != MPI_SUCCESS) {
            attr_destroy(node);
            return err;
        }
    }
}

int MPIR_Attr_get(MPIR_Attribute *const *list, MPIR_Attr_kind kind, int keyval, void **value, int *flag)
{
    MPIR_Keyval *kv;
    lock();
    int err = keyval_lookup_locked(kind, keyval, true, &kv);
    if (err == MPI_SUCCESS) {
        MPIR_Attribute *a = find_locked(*list, kv);
        *flag = a != NULL;
        if (a)
            *value = a->value;
    }
    unlock();
    return err;
}

int MPIR_Attr_delete(MPIR_Attribute **list, MPIR_Attr_kind kind, int obj, int keyval)
{
    MPIR_Keyval *kv;
    MPIR_Attribute *a = NULL;
    lock();
    int err = keyval_lookup_locked(kind, keyval, true, &kv);
    if (err == MPI_SUCCESS)
        a = unlink_locked(list, kv);
    unlock();
    if (err != MPI_SUCCESS || a == NULL)
        return err;     /* deleting a key that is not set does nothing, as in MPICH */
    return run_delete(list, obj, a);
}

int MPIR_Attr_copy_all(MPIR_Attribute *const *src, int oldobj, MPIR_Attribute **dst)
{
    /* 1. Snapshot the source, with a reference on each keyval, so the callbacks can run unlocked
     *    while the source list changes. */
    lock();
    size_t n = 0;
    for (MPIR_Attribute *a = *src; a; a = a->next)
        n++;
    MPIR_Attribute *snap = malloc((n ? n : 1) * sizeof *snap);
    if (snap == NULL) {
        unlock();
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory");
    }
    n = 0;
    for (MPIR_Attribute *a = *src; a; a = a->next) {
        snap[n++] = *a;
        MPIR_Object_add_ref(a->keyval);
    }
    unlock();

    /* 2. Run the copy callbacks in list order; a kept copy takes over its snapshot entry's keyval
     *    reference (the entry's keyval becomes NULL). */
    MPIR_Attribute *copied = NULL, **tail = &copied;
    int err = MPI_SUCCESS;
    for (size_t i = 0; i < n && err == MPI_SUCCESS; i++) {
        MPIR_Keyval *kv = snap[i].keyval;
        if (kv->copy_fn == NULL)
            continue;
        void *out = NULL;
        int flag = 0;
        int rc = kv->copy_fn(oldobj, MPIR_Object_handle(kv), kv->extra_state, snap[i].value, &out, &flag);
        if (rc != MPI_SUCCESS) {
            err = callback_error(rc, "copy", kv);
        } else if (flag) {
            MPIR_Attribute *c = malloc(sizeof *c);
            if (c == NULL) {
                err = MPIR_Err(MPI_ERR_NO_MEM, "out of memory");
                break;
            }
            *c = (MPIR_Attribute) { .keyval = kv, .value = out, .next = NULL };
            snap[i].keyval = NULL;
            *tail = c;
            tail = &c->next;
        }
    }

    /* 3. On failure, drop the copies. Their delete callbacks are not run: the new object never
     *    reached the user and has no handle to give them. */
    lock();
    for (size_t i = 0; i < n; i++)
        if (snap[i].keyval)
            keyval_release_locked(snap[i].keyval);
    if (err == MPI_SUCCESS) {
        *tail = *dst;
        *dst = copied;
        copied = NULL;
    }
    unlock();
    free(snap);
    while (copied) {
        MPIR_Attribute *next = copied->next;
        attr_destroy(copied);
        copied = next;
    }
    return err;
}

int MPIR_Attr_delete_all(MPIR_Attribute **list, int obj)
{
    /* One at a time from the head, newest first; a callback may even add attributes meanwhile. */
    for (;;) {
        lock();
        MPIR_Attribute *a = *list;
        if (a)
            *list = a->next;
        unlock();
        if (a == NULL)
            return MPI_SUCCESS;
        a->next = NULL;
        int err = run_delete(list, obj, a);
        if (err != MPI_SUCCESS)
            return err;
    }
}

/* ---- finalize ---- */

/* Frees a list without running callbacks. */
static void drop_list(MPIR_Attribute **list)
{
    lock();
    MPIR_Attribute *a = *list;
    *list = NULL;
    unlock();
    while (a) {
        MPIR_Attribute *next = a->next;
        attr_destroy(a);
        a = next;
    }
}

void MPIR_Attr_drop_all(MPIR_Attribute **list)
{
    drop_list(list);
}

static void drop_user_ref(void *obj, void *arg)
{
    MPIR_Keyval *kv = obj;
    lock();
    if (!kv->freed_by_user) {
        if (*(const bool *) arg)    /* LOOM_REPORT_LEAKS */
            fprintf(stderr, "Loom MPI: %s keyval 0x%08x was never freed\n", kind_name(kv->kind),
                    (unsigned) MPIR_Object_handle(kv));
        kv->freed_by_user = 1;
        keyval_release_locked(kv);  /* MPIR_Pool_foreach holds no lock, so freeing here is safe */
    }
    unlock();
}

void MPIR_Attr_finalize(void)
{
    /* 1. MPI_Finalize begins as if MPI_COMM_SELF were freed: its delete callbacks run, newest first
     *    (MPI 4.1, "Allowing User Functions at Process Termination"). A failing callback cannot
     *    fail MPI_Finalize; the attributes left are dropped. */
    MPIR_Comm *self = MPIR_Comm_lookup(MPI_COMM_SELF), *world = MPIR_Comm_lookup(MPI_COMM_WORLD);
    if (self) {
        (void) MPIR_Attr_delete_all(&self->attributes, MPI_COMM_SELF);
        drop_list(&self->attributes);
    }
    /* 2. Objects that are never freed drop their attributes silently: the standard runs no other
     *    callbacks at finalize. Derived objects the user leaked keep theirs, and so their keyvals. */
    if (world)
        drop_list(&world->attributes);
    for (int i = 0; i < MPID_BUILTIN_TYPE_MAX; i++)
        drop_list(&MPID_Builtin_types[i].attributes);
    /* 3. Keyvals the user never freed (listed if asked: they are gone by MPIR_Report_leaks). */
    bool report = MPIR_Leak_report_wanted();
    MPIR_Pool_foreach(&keyval_pool, drop_user_ref, &report);
}
