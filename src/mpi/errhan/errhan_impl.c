/*
 * Error handlers.
 *
 * The three predefined handlers are static records with builtin handles; user handlers come from a
 * pool. A communicator holds a reference on a user handler while it is attached, and
 * MPI_Comm_get_errhandler hands the caller one more (the standard makes the caller free what get
 * returns), so a handler lives until both the user and every communicator have let go of it.
 *
 * Predefined handlers are never destroyed, but get still counts the references it hands out on
 * them: the common pattern "get the old handler, install mine, restore the old one, free it" must
 * work when the old one was MPI_ERRORS_ARE_FATAL (MPICH and Open MPI accept it too). Freeing a
 * predefined handle that did not come from get is an error (MPI_ERR_ARG), so a stray
 * MPI_Errhandler_free(&MPI_ERRORS_RETURN-copy) is still caught.
 *
 * One mutex orders attaching, fetching and invoking: invoke takes its own reference under the lock,
 * so a concurrent MPI_Comm_set_errhandler cannot free the handler while it runs. Errors and
 * handler changes are rare; nothing fast goes through here.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"
#include <stdio.h>

#define N_PREDEFINED 3

/* Indexed by MPIR_BUILTIN_INDEX of MPI_ERRORS_ARE_FATAL, _RETURN, _ABORT. */
static MPIR_Errhandler predefined[N_PREDEFINED] = {
    { .obj = { .handle = MPI_ERRORS_ARE_FATAL, .ref_count = 1 } },
    { .obj = { .handle = MPI_ERRORS_RETURN, .ref_count = 1 } },
    { .obj = { .handle = MPI_ERRORS_ABORT, .ref_count = 1 } },
};

static MPIR_Pool errhandler_pool = MPIR_POOL_INITIALIZER(MPIR_CLASS_ERRHANDLER, MPIR_Errhandler, "errhandler", NULL);
static pthread_mutex_t errhandler_lock = PTHREAD_MUTEX_INITIALIZER;

static bool is_predefined(MPI_Errhandler h)
{
    return MPIR_HANDLE_KIND(h) == MPIR_KIND_BUILTIN;
}

MPIR_Errhandler *MPIR_Errhandler_lookup(MPI_Errhandler errhandler)
{
    if (MPIR_HANDLE_CLASS(errhandler) != MPIR_CLASS_ERRHANDLER)
        return NULL;
    if (is_predefined(errhandler)) {
        int i = MPIR_BUILTIN_INDEX(errhandler);
        return i < N_PREDEFINED && predefined[i].obj.handle == errhandler ? &predefined[i] : NULL;
    }
    return MPIR_Pool_lookup(&errhandler_pool, errhandler);
}

static void add_ref(MPIR_Errhandler *e)
{
    if (!is_predefined(MPIR_Object_handle(e)))
        MPIR_Object_add_ref(e);
}

static void release(MPIR_Errhandler *e)
{
    if (!is_predefined(MPIR_Object_handle(e)) && MPIR_Object_release_ref(e) == 0)
        MPIR_Pool_free(&errhandler_pool, e);
}

/*
 * Which communicator an error belongs to. Errors tied to no object (MPI_COMM_NULL, or a handle
 * that is not a communicator at all) go to MPI_COMM_SELF if the user set a handler on it, since
 * MPI-4 raises such errors on MPI_COMM_SELF; otherwise to MPI_COMM_WORLD, where programs written
 * for MPI-3 and earlier set their handler.
 */
static MPIR_Comm *error_comm_locked(MPI_Comm comm)
{
    MPIR_Comm *c = comm == MPI_COMM_NULL ? NULL : MPIR_Comm_lookup(comm);
    if (c)
        return c;
    MPIR_Comm *self = MPIR_Comm_lookup(MPI_COMM_SELF);
    return self->errhandler_set_by_user ? self : MPIR_Comm_lookup(MPI_COMM_WORLD);
}

void MPIR_Abort_process(int errorcode, const char *message)
{
    if (message) {
        fprintf(stderr, "%s\n", message);
        fflush(stderr);
    }
    /* exit(), not _exit(): the user's buffered output up to the error is worth keeping. */
    exit(errorcode);
}

/* Where the handler of object (a communicator or a window handle) is kept, and the handle it is
 * called with: a live window's own slot, else the communicator error_comm_locked chooses. */
static _Atomic int *handler_slot_locked(int object, int *raised_on)
{
    MPIR_Win *w = MPIR_HANDLE_CLASS(object) == MPIR_CLASS_WIN ? MPIR_Win_lookup(object) : NULL;
    if (w) {
        *raised_on = object;
        return &w->errhandler;
    }
    MPIR_Comm *c = error_comm_locked(MPIR_HANDLE_CLASS(object) == MPIR_CLASS_WIN ? MPI_COMM_NULL : object);
    *raised_on = MPIR_Object_handle(c);
    return &c->errhandler;
}

int MPIR_Errhandler_invoke(int object, int code, const char *message)
{
    pthread_mutex_lock(&errhandler_lock);
    int raised_on;
    _Atomic int *slot = handler_slot_locked(object, &raised_on);
    MPIR_Errhandler *e = MPIR_Errhandler_lookup(atomic_load(slot));
    if (e == NULL)      /* cannot happen: the communicator holds a reference */
        e = &predefined[0];
    add_ref(e);
    pthread_mutex_unlock(&errhandler_lock);

    MPI_Errhandler h = MPIR_Object_handle(e);
    if (h == MPI_ERRORS_ARE_FATAL || h == MPI_ERRORS_ABORT) {
        /* Exit status 1, not the error code: codes exceed 255 and the shell keeps only the low
         * 8 bits, so a code could turn into 0 and a failed run would look successful. */
        char line[MPI_MAX_ERROR_STRING + 32];
        snprintf(line, sizeof line, "Loom MPI fatal error: %s", message);
        MPIR_Abort_process(1, line);
    }
    if (e->fn) {
        int code_arg = code;
        e->fn(&raised_on, &code_arg);
    }
    pthread_mutex_lock(&errhandler_lock);
    release(e);
    pthread_mutex_unlock(&errhandler_lock);
    return code;
}

/* Attaches errhandler to the object whose slot this is (lock held). */
static int set_locked(_Atomic int *slot, MPI_Errhandler errhandler)
{
    /* Looked up again under the lock: another thread may have freed it since the binding's check. */
    MPIR_Errhandler *e = MPIR_Errhandler_lookup(errhandler);
    if (e == NULL)
        return MPIR_Err(MPI_ERR_ERRHANDLER, "the error handler was freed");
    add_ref(e);
    MPIR_Errhandler *old = MPIR_Errhandler_lookup(atomic_exchange(slot, errhandler));
    if (old)
        release(old);
    return MPI_SUCCESS;
}

/* The handler in slot, with one more reference for the caller (lock held). */
static MPI_Errhandler get_locked(_Atomic int *slot)
{
    MPIR_Errhandler *e = MPIR_Errhandler_lookup(atomic_load(slot));
    MPIR_Object_add_ref(e);     /* the caller's reference, released by MPI_Errhandler_free */
    return MPIR_Object_handle(e);
}

int MPIR_Comm_set_errhandler_impl(MPI_Comm comm, MPI_Errhandler errhandler)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    pthread_mutex_lock(&errhandler_lock);
    int err = set_locked(&c->errhandler, errhandler);
    if (err == MPI_SUCCESS)
        c->errhandler_set_by_user = 1;
    pthread_mutex_unlock(&errhandler_lock);
    return err;
}

int MPIR_Comm_get_errhandler_impl(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    pthread_mutex_lock(&errhandler_lock);
    *errhandler = get_locked(&c->errhandler);
    pthread_mutex_unlock(&errhandler_lock);
    return MPI_SUCCESS;
}

int MPIR_Win_set_errhandler_impl(MPI_Win win, MPI_Errhandler errhandler)
{
    MPIR_Win *w = MPIR_Win_lookup(win);
    pthread_mutex_lock(&errhandler_lock);
    int err = set_locked(&w->errhandler, errhandler);
    pthread_mutex_unlock(&errhandler_lock);
    return err;
}

int MPIR_Win_get_errhandler_impl(MPI_Win win, MPI_Errhandler *errhandler)
{
    MPIR_Win *w = MPIR_Win_lookup(win);
    pthread_mutex_lock(&errhandler_lock);
    *errhandler = get_locked(&w->errhandler);
    pthread_mutex_unlock(&errhandler_lock);
    return MPI_SUCCESS;
}

void MPIR_Win_release_errhandler(MPIR_Win *w)
{
    pthread_mutex_lock(&errhandler_lock);
    MPIR_Errhandler *e = MPIR_Errhandler_lookup(atomic_exchange(&w->errhandler, MPI_ERRORS_ARE_FATAL));
    if (e)
        release(e);
    pthread_mutex_unlock(&errhandler_lock);
}

int MPIR_Comm_create_errhandler_impl(MPI_Comm_errhandler_function *comm_errhandler_fn,
                                     MPI_Errhandler *errhandler)
{
    if (comm_errhandler_fn == NULL)
        return MPIR_Err(MPI_ERR_ARG, "the error handler function is NULL");
    MPIR_Errhandler *e = MPIR_Pool_alloc(&errhandler_pool);
    if (e == NULL)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory or of error handler handles");
    e->fn = comm_errhandler_fn;
    *errhandler = MPIR_Object_handle(e);
    return MPI_SUCCESS;
}

/* A window's handler is called as a communicator's is: with a pointer to the handle (both ints). */
int MPIR_Win_create_errhandler_impl(MPI_Win_errhandler_function *win_errhandler_fn, MPI_Errhandler *errhandler)
{
    return MPIR_Comm_create_errhandler_impl((MPI_Comm_errhandler_function *) win_errhandler_fn, errhandler);
}

/* MPI_Comm_call_errhandler and MPI_Win_call_errhandler: call names the call and its object. */
static int call_errhandler(int object, int errorcode, const char *call)
{
    /* What a fatal handler prints: the call, then what the code says if it is one of ours. */
    char text[MPI_MAX_ERROR_STRING], message[MPI_MAX_ERROR_STRING];
    int len;
    if (MPIR_Err_code_is_valid(errorcode))
        MPIR_Error_string_impl(errorcode, text, &len);
    else
        snprintf(text, sizeof text, "error code %d", errorcode);
    snprintf(message, sizeof message, "%s, errorcode=%d): %.*s", call, errorcode, MPI_MAX_ERROR_STRING / 2, text);
    MPIR_Errhandler_invoke(object, errorcode, message);
    /* The handler was called and returned: that is success for this call (MPI 4.1, 9.3.6). */
    return MPI_SUCCESS;
}

int MPIR_Comm_call_errhandler_impl(MPI_Comm comm, int errorcode)
{
    char what[MPIR_HANDLE_STR_MAX], call[64 + MPIR_HANDLE_STR_MAX];
    snprintf(call, sizeof call, "MPI_Comm_call_errhandler(comm=%s", MPIR_Comm_str(comm, what));
    return call_errhandler(comm, errorcode, call);
}

int MPIR_Win_call_errhandler_impl(MPI_Win win, int errorcode)
{
    char call[64];
    snprintf(call, sizeof call, "MPI_Win_call_errhandler(win=0x%08x", (unsigned) win);
    return call_errhandler(win, errorcode, call);
}

int MPIR_Errhandler_free_impl(MPI_Errhandler *errhandler)
{
    pthread_mutex_lock(&errhandler_lock);
    MPIR_Errhandler *e = MPIR_Errhandler_lookup(*errhandler);
    if (e == NULL) {
        pthread_mutex_unlock(&errhandler_lock);
        return MPIR_Err(MPI_ERR_ERRHANDLER, "the error handler was already freed");
    }
    if (is_predefined(*errhandler)) {
        /* ref_count is 1 plus the handles MPI_Comm_get_errhandler gave out on it. */
        if (atomic_load(&e->obj.ref_count) <= 1) {
            pthread_mutex_unlock(&errhandler_lock);
            return MPIR_Err(MPI_ERR_ARG, "predefined error handlers cannot be freed (except handles "
                                         "returned by MPI_Comm_get_errhandler)");
        }
        MPIR_Object_release_ref(e);
    } else {
        release(e);
    }
    pthread_mutex_unlock(&errhandler_lock);
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}
