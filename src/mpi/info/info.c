/*
 * Info objects: MPI_Info_create/set/get/get_string/get_valuelen/delete/get_nkeys/get_nthkey/dup/free.
 *
 * An info object is a small array of (key, value) entries kept in the order the keys were first
 * set, which is the order MPI_Info_get_nthkey numbers them in; lists are short (a few hints), so a
 * linear search is the right tool. One mutex guards every list: info calls are rare, may come from
 * any thread, and a single lock also covers the filling of MPI_INFO_ENV on first use.
 *
 * The standard lets info functions run before MPI_Init and after MPI_Finalize (MPI 4.1, "MPI
 * Functionality that is Always Available"), so nothing here depends on the rest of the library.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"
#include "info_internal.h"

static MPIR_Pool info_pool = MPIR_POOL_INITIALIZER(MPIR_CLASS_INFO, MPIR_Info, "info", NULL);
static pthread_mutex_t info_lock = PTHREAD_MUTEX_INITIALIZER;

void MPIR_Info_lock(void)
{
    pthread_mutex_lock(&info_lock);
}

void MPIR_Info_unlock(void)
{
    pthread_mutex_unlock(&info_lock);
}

MPIR_Info *MPIR_Info_find_locked(MPI_Info info)
{
    if (info == MPI_INFO_ENV)
        return MPIR_Info_env_locked();
    return MPIR_Pool_lookup(&info_pool, info);
}

MPIR_Info *MPIR_Info_lookup(MPI_Info info)
{
    MPIR_Info_lock();
    MPIR_Info *p = MPIR_Info_find_locked(info);
    MPIR_Info_unlock();
    return p;
}

/* ---- entries (the lock is held) ---- */

static int find_key(const MPIR_Info *info, const char *key)
{
    for (int i = 0; i < info->nkeys; i++)
        if (strcmp(info->entries[i].key, key) == 0)
            return i;
    return -1;
}

int MPIR_Info_set_locked(MPIR_Info *info, const char *key, const char *value)
{
    size_t klen = strlen(key), vlen = strlen(value);
    char *kv = malloc(klen + vlen + 2);
    MPIR_CHKMEM(kv);
    memcpy(kv, key, klen + 1);
    memcpy(kv + klen + 1, value, vlen + 1);
    MPIR_Info_entry entry = { .key = kv, .value = kv + klen + 1 };

    int i = find_key(info, key);
    if (i >= 0) {                       /* a new value for a key keeps the key's place */
        free(info->entries[i].key);
        info->entries[i] = entry;
        return MPI_SUCCESS;
    }
    if (info->nkeys == info->capacity) {
        int cap = info->capacity ? 2 * info->capacity : 8;
        MPIR_Info_entry *e = realloc(info->entries, (size_t) cap * sizeof *e);
        if (e == NULL) {
            free(kv);
            return MPIR_Err(MPI_ERR_NO_MEM, "out of memory");
        }
        info->entries = e;
        info->capacity = cap;
    }
    info->entries[info->nkeys++] = entry;
    return MPI_SUCCESS;
}

void MPIR_Info_clear_locked(MPIR_Info *info)
{
    for (int i = 0; i < info->nkeys; i++)
        free(info->entries[i].key);
    free(info->entries);
    info->entries = NULL;
    info->nkeys = info->capacity = 0;
}

/* A new, empty, pooled info object. */
static int info_new(MPIR_Info **out)
{
    MPIR_Info *info = MPIR_Pool_alloc(&info_pool);
    if (info == NULL)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory or of info handles");
    *out = info;    /* the pool hands it out zeroed: no entries */
    return MPI_SUCCESS;
}

static void info_destroy(MPIR_Info *info)
{
    MPIR_Info_clear_locked(info);
    MPIR_Pool_free(&info_pool, info);
}

int MPIR_Info_copy_new(const MPIR_Info *src, MPI_Info *newinfo)
{
    MPIR_Info *dst = NULL;
    int err = info_new(&dst);
    for (int i = 0; err == MPI_SUCCESS && i < src->nkeys; i++)
        err = MPIR_Info_set_locked(dst, src->entries[i].key, src->entries[i].value);
    if (err != MPI_SUCCESS) {
        if (dst)
            info_destroy(dst);
        return err;
    }
    *newinfo = MPIR_Object_handle(dst);
    return MPI_SUCCESS;
}

/* ---- argument checks the binding cannot make ---- */

/* A key the standard allows: not empty, and short enough to fit a char[MPI_MAX_INFO_KEY]. */
static int check_key(const char *key)
{
    size_t len = strnlen(key, MPI_MAX_INFO_KEY);
    if (len == 0)
        return MPIR_Err(MPI_ERR_INFO_KEY, "the key is empty");
    if (len >= MPI_MAX_INFO_KEY)
        return MPIR_Err(MPI_ERR_INFO_KEY, "the key is longer than MPI_MAX_INFO_KEY - 1 = %d characters",
                        MPI_MAX_INFO_KEY - 1);
    return MPI_SUCCESS;
}

static int check_value(const char *value)
{
    if (strnlen(value, MPI_MAX_INFO_VAL) >= MPI_MAX_INFO_VAL)
        return MPIR_Err(MPI_ERR_INFO_VALUE, "the value is longer than MPI_MAX_INFO_VAL - 1 = %d characters",
                        MPI_MAX_INFO_VAL - 1);
    return MPI_SUCCESS;
}

/* The object behind a handle the binding validated; another thread may have freed it since. */
static int get_locked(MPI_Info handle, MPIR_Info **info)
{
    *info = MPIR_Info_find_locked(handle);
    if (*info == NULL)
        return MPIR_Err(MPI_ERR_INFO, "the info object was freed");
    return MPI_SUCCESS;
}

static int read_only(void)
{
    return MPIR_Err(MPI_ERR_INFO, "MPI_INFO_ENV is read-only");
}

/* ---- the MPI functions ---- */

int MPIR_Info_create_impl(MPI_Info *info)
{
    MPIR_Info *p;
    int err = info_new(&p);
    if (err == MPI_SUCCESS)
        *info = MPIR_Object_handle(p);
    return err;
}

int MPIR_Info_free_impl(MPI_Info *info)
{
    if (*info == MPI_INFO_ENV)
        return MPIR_Err(MPI_ERR_INFO, "MPI_INFO_ENV is predefined and cannot be freed");
    MPIR_Info_lock();
    MPIR_Info *p;
    int err = get_locked(*info, &p);
    if (err == MPI_SUCCESS)
        info_destroy(p);
    MPIR_Info_unlock();
    if (err == MPI_SUCCESS)
        *info = MPI_INFO_NULL;
    return err;
}

int MPIR_Info_dup_impl(MPI_Info info, MPI_Info *newinfo)
{
    MPIR_Info_lock();
    MPIR_Info *p;
    int err = get_locked(info, &p);
    if (err == MPI_SUCCESS)
        err = MPIR_Info_copy_new(p, newinfo);
    MPIR_Info_unlock();
    return err;
}

/* Removes key (its entry's place closes up). */
static int delete_locked(MPIR_Info *info, const char *key)
{
    int i = find_key(info, key);
    if (i < 0)
        return MPIR_Err(MPI_ERR_INFO_NOKEY, "the key \"%s\" is not set", key);
    free(info->entries[i].key);
    memmove(&info->entries[i], &info->entries[i + 1], (size_t) (info->nkeys - i - 1) * sizeof *info->entries);
    info->nkeys--;
    return MPI_SUCCESS;
}

/* MPI_Info_set (value) and MPI_Info_delete (value NULL; the binding rejects a NULL value): the
 * checks, in the order their errors are reported, then the change with the lock held. */
static int change(MPI_Info info, const char *key, const char *value)
{
    int err = check_key(key);
    if (err == MPI_SUCCESS && value)
        err = check_value(value);
    if (err == MPI_SUCCESS && info == MPI_INFO_ENV)
        err = read_only();
    if (err != MPI_SUCCESS)
        return err;
    MPIR_Info_lock();
    MPIR_Info *p;
    err = get_locked(info, &p);
    if (err == MPI_SUCCESS)
        err = value ? MPIR_Info_set_locked(p, key, value) : delete_locked(p, key);
    MPIR_Info_unlock();
    return err;
}

int MPIR_Info_set_impl(MPI_Info info, const char *key, const char *value)
{
    return change(info, key, value);
}

int MPIR_Info_delete_impl(MPI_Info info, const char *key)
{
    return change(info, key, NULL);
}

/* Looks key up (after checking it) and calls fn on its value with the lock held; *flag says
 * whether the key was there. */
static int with_value(MPI_Info info, const char *key, int *flag, void (*fn)(const char *value, void *arg),
                      void *arg)
{
    int err = check_key(key);
    if (err != MPI_SUCCESS)
        return err;
    MPIR_Info_lock();
    MPIR_Info *p;
    err = get_locked(info, &p);
    if (err == MPI_SUCCESS) {
        int i = find_key(p, key);
        *flag = i >= 0;
        if (i >= 0)
            fn(p->entries[i].value, arg);
    }
    MPIR_Info_unlock();
    return err;
}

/* Copies at most max characters of value and a terminating NUL into buf. */
static void copy_truncated(char *buf, const char *value, size_t max)
{
    size_t len = strnlen(value, max);
    memcpy(buf, value, len);
    buf[len] = '\0';
}

struct get_args {
    char *buf;
    int max;        /* characters, not counting the NUL */
    int *len;       /* MPI_Info_get_string and _valuelen: the value's length */
};

static void get_fn(const char *value, void *arg)
{
    struct get_args *a = arg;
    if (a->buf)
        copy_truncated(a->buf, value, (size_t) a->max);
    if (a->len)
        *a->len = (int) strlen(value);
}

/* The MPI-1/2 form, deprecated by MPI 4.0: valuelen counts the characters value can hold, not
 * counting the NUL (value must have room for valuelen + 1). */
int MPIR_Info_get_impl(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    if (valuelen < 0)
        return MPIR_Err(MPI_ERR_ARG, "valuelen is %d, must be non-negative", valuelen);
    struct get_args a = { .buf = value, .max = valuelen, .len = NULL };
    return with_value(info, key, flag, get_fn, &a);
}

/* MPI 4.0: *buflen is the size of value, NUL included; it returns the size the whole value needs.
 * With *buflen == 0 only the size is returned (value may be NULL). */
int MPIR_Info_get_string_impl(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    if (*buflen < 0)
        return MPIR_Err(MPI_ERR_ARG, "*buflen is %d, must be non-negative", *buflen);
    if (*buflen > 0 && value == NULL)
        return MPIR_Err(MPI_ERR_ARG, "value is NULL but *buflen is %d", *buflen);
    int len = 0;
    struct get_args a = { .buf = *buflen > 0 ? value : NULL, .max = *buflen - 1, .len = &len };
    int err = with_value(info, key, flag, get_fn, &a);
    if (err == MPI_SUCCESS && *flag)
        *buflen = len + 1;      /* a missing key leaves *buflen as it was, like value */
    return err;
}

int MPIR_Info_get_valuelen_impl(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    struct get_args a = { .buf = NULL, .max = 0, .len = valuelen };
    return with_value(info, key, flag, get_fn, &a);
}

int MPIR_Info_get_nkeys_impl(MPI_Info info, int *nkeys)
{
    MPIR_Info_lock();
    MPIR_Info *p;
    int err = get_locked(info, &p);
    if (err == MPI_SUCCESS)
        *nkeys = p->nkeys;
    MPIR_Info_unlock();
    return err;
}

/* key must hold MPI_MAX_INFO_KEY characters: every stored key fits, NUL included. */
int MPIR_Info_get_nthkey_impl(MPI_Info info, int n, char *key)
{
    MPIR_Info_lock();
    MPIR_Info *p;
    int err = get_locked(info, &p);
    if (err == MPI_SUCCESS) {
        if (n < 0 || n >= p->nkeys)
            err = MPIR_Err(MPI_ERR_ARG, "n is %d, the info object has %d keys (valid n: 0 to nkeys - 1)", n,
                           p->nkeys);
        else
            copy_truncated(key, p->entries[n].key, MPI_MAX_INFO_KEY - 1);
    }
    MPIR_Info_unlock();
    return err;
}

bool MPIR_Info_get_value(MPI_Info info, const char *key, char *value, size_t size)
{
    if (info == MPI_INFO_NULL || size == 0)
        return false;
    MPIR_Info_lock();
    MPIR_Info *p = MPIR_Info_find_locked(info);
    int i = p ? find_key(p, key) : -1;
    if (i >= 0)
        copy_truncated(value, p->entries[i].value, size - 1);
    MPIR_Info_unlock();
    return i >= 0;
}
