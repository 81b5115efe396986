/*
 * Error codes and messages.
 *
 * A failing internal function calls MPIR_Err(class, "reason") and returns the class; the reason
 * waits in a per-thread buffer. The binding that called down then calls MPIR_Err_return with a
 * description of the call, which joins both into "MPI_Fn(args): reason", keeps that message in a
 * small ring of recent messages, and makes an error code that points at its ring slot:
 *
 *     code = class | slot << 7 | seq << 17      (class 7 bits, slot 10 bits, seq 13 bits)
 *
 * MPI_Error_class is then a mask, and MPI_Error_string returns the message as long as the slot
 * still holds this exact code (seq tells a reused slot apart). seq is never 0, so a bare class is
 * never mistaken for a stored code. Only the ring is shared between threads, behind one mutex;
 * errors are rare, so the lock costs nothing that matters.
 *
 * User error classes and codes (MPI_Add_error_class, MPI_Add_error_code) are numbered in one
 * sequence above MPI_ERR_LASTCODE, so they never look like one of the library's codes; a table gives
 * each its class and the string MPI_Add_error_string attached to it. MPI_LASTUSEDCODE is the last
 * of them (MPI_ERR_LASTCODE while there are none). A user code raised through an error handler
 * (returned by a callback, MPI_Comm_call_errhandler) reaches the handler unchanged.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"
#include <stdarg.h>
#include <stdio.h>

#define RING_SLOTS 128          /* must fit in the 10 slot bits */
#define SLOT_SHIFT 7
#define SEQ_SHIFT 17
#define SEQ_LIMIT (1 << 13)     /* seq runs 1 .. SEQ_LIMIT-1 */

/* The reason recorded by MPIR_Err, waiting for the binding on the same thread. */
static _Thread_local char pending_reason[MPI_MAX_ERROR_STRING];
static _Thread_local bool have_pending_reason;

static struct {
    pthread_mutex_t lock;
    unsigned long next;         /* errors raised so far: gives the slot and the seq */
    int code[RING_SLOTS];
    char message[RING_SLOTS][MPI_MAX_ERROR_STRING];
} ring = { .lock = PTHREAD_MUTEX_INITIALIZER };

int MPIR_Err(int errclass, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pending_reason, sizeof pending_reason, fmt, ap);
    va_end(ap);
    have_pending_reason = true;
    return errclass;
}

int MPIR_Err_not_initialized(void)
{
    if (atomic_load(&MPIR_Process.state) == MPIR_STATE_FINALIZED)
        return MPIR_Err(MPI_ERR_OTHER, "called after MPI_Finalize");
    return MPIR_Err(MPI_ERR_OTHER, "MPI is not initialized");
}

/* ---- user classes and codes ---- */

#define USER_FIRST (MPI_ERR_LASTCODE + 1)

static struct {
    pthread_mutex_t lock;
    int n, cap;                 /* values USER_FIRST .. USER_FIRST + n - 1 are in use */
    struct user_code {
        int cls;                /* its class (itself, for a class) */
        char *string;           /* MPI_Add_error_string, or NULL */
    } *entry;
} user = { .lock = PTHREAD_MUTEX_INITIALIZER };

static bool is_user_code(int code)
{
    if (code < USER_FIRST)
        return false;
    pthread_mutex_lock(&user.lock);
    bool yes = code - USER_FIRST < user.n;
    pthread_mutex_unlock(&user.lock);
    return yes;
}

/* The class of a user code. */
static int user_class(int code)
{
    pthread_mutex_lock(&user.lock);
    int cls = user.entry[code - USER_FIRST].cls;
    pthread_mutex_unlock(&user.lock);
    return cls;
}

/* The string of a user code ("" if none was set; MPI 4.1, MPI_ADD_ERROR_STRING). */
static void user_string(int code, char *buf, size_t len)
{
    pthread_mutex_lock(&user.lock);
    const char *s = user.entry[code - USER_FIRST].string;
    snprintf(buf, len, "%s", s ? s : "");
    pthread_mutex_unlock(&user.lock);
}

/* A new user value of class cls (-1: a new class, its own). */
static int user_add(int cls, int *value)
{
    pthread_mutex_lock(&user.lock);
    int err = MPI_SUCCESS;
    if (user.n == INT_MAX - USER_FIRST) {
        err = MPIR_Err(MPI_ERR_OTHER, "no error codes left: %d user classes and codes exist", user.n);
    } else if (user.n == user.cap) {
        int cap = user.cap ? 2 * user.cap : 16;
        struct user_code *e = realloc(user.entry, (size_t) cap * sizeof *e);
        if (e == NULL) {
            err = MPIR_Err(MPI_ERR_NO_MEM, "out of memory for a new error code");
        } else {
            user.entry = e;
            user.cap = cap;
        }
    }
    if (err == MPI_SUCCESS) {
        *value = USER_FIRST + user.n;
        user.entry[user.n++] = (struct user_code) { cls < 0 ? *value : cls, NULL };
    }
    pthread_mutex_unlock(&user.lock);
    return err;
}

int MPIR_Err_last_used_code(void)
{
    pthread_mutex_lock(&user.lock);
    int last = USER_FIRST - 1 + user.n;
    pthread_mutex_unlock(&user.lock);
    return last;
}

/* A code of the library: a class, or a class with a ring reference. */
static bool code_is_valid(int code)
{
    return code >= 0 && code <= MPI_ERR_LASTCODE && (code & MPIR_ERR_CLASS_MASK) <= MPIR_ERR_LASTCLASS;
}

bool MPIR_Err_code_is_valid(int code)
{
    return code_is_valid(code) || is_user_code(code);
}

/* Copies the stored message of code into buf if the ring still holds it. Caller holds the lock. */
static bool ring_lookup_locked(int code, char *buf, size_t len)
{
    int slot = (code >> SLOT_SHIFT) & ((1 << (SEQ_SHIFT - SLOT_SHIFT)) - 1);
    if (code <= MPIR_ERR_CLASS_MASK || slot >= RING_SLOTS || ring.code[slot] != code)
        return false;
    snprintf(buf, len, "%s", ring.message[slot]);
    return true;
}

/* out = "call: reason", cut to MPI_MAX_ERROR_STRING - 1 characters. */
static void join(char *out, const char *call, const char *reason)
{
    size_t n = strlen(call) < MPI_MAX_ERROR_STRING - 1 ? strlen(call) : MPI_MAX_ERROR_STRING - 1;
    memcpy(out, call, n);
    for (const char *p = ": "; *p && n < MPI_MAX_ERROR_STRING - 1; p++)
        out[n++] = *p;
    for (const char *p = reason; *p && n < MPI_MAX_ERROR_STRING - 1; p++)
        out[n++] = *p;
    out[n] = '\0';
}

/* Stores message under a new code of class cls. Caller holds the lock. */
static int ring_store_locked(int cls, const char *call, const char *reason)
{
    int slot = (int) (ring.next % RING_SLOTS);
    int seq = (int) (ring.next / RING_SLOTS % (SEQ_LIMIT - 1)) + 1;
    ring.next++;
    int code = cls | slot << SLOT_SHIFT | seq << SEQ_SHIFT;
    ring.code[slot] = code;
    if (call)
        join(ring.message[slot], call, reason);
    else
        snprintf(ring.message[slot], sizeof ring.message[slot], "%s", reason);
    return code;
}

int MPIR_Err_code(int errclass, const char *fmt, ...)
{
    char reason[MPI_MAX_ERROR_STRING];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&ring.lock);
    int code = ring_store_locked(errclass & MPIR_ERR_CLASS_MASK, NULL, reason);
    pthread_mutex_unlock(&ring.lock);
    return code;
}

int MPIR_Err_keep(int errclass)
{
    if (errclass == MPI_SUCCESS)
        return MPI_SUCCESS;
    bool had = have_pending_reason;
    have_pending_reason = false;
    return MPIR_Err_code(errclass, "%s", had ? pending_reason : MPIR_Err_class_string(errclass & MPIR_ERR_CLASS_MASK));
}

int MPIR_Err_from_code(int code)
{
    if (code == MPI_SUCCESS)
        return MPI_SUCCESS;
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0, cls = MPI_ERR_OTHER;
    PMPI_Error_class(code, &cls);
    if (PMPI_Error_string(code, msg, &len) != MPI_SUCCESS)
        snprintf(msg, sizeof msg, "error code %d", code);
    return MPIR_Err(cls, "%s", msg);
}

int MPIR_Err_return(MPI_Comm comm, int errclass, const char *call_fmt, ...)
{
    if (errclass == MPI_SUCCESS)
        return MPI_SUCCESS;

    char call[MPI_MAX_ERROR_STRING];
    va_list ap;
    va_start(ap, call_fmt);
    vsnprintf(call, sizeof call, call_fmt, ap);
    va_end(ap);

    if (is_user_code(errclass)) {       /* the user's own code: passed on as it is */
        char text[MPI_MAX_ERROR_STRING], message[MPI_MAX_ERROR_STRING];
        user_string(errclass, text, sizeof text);
        join(message, call, text[0] ? text : "a user-defined error");
        have_pending_reason = false;
        return MPIR_Errhandler_invoke(comm, errclass, message);
    }

    /* The reason: what MPIR_Err recorded on this thread; else, when a full code is passed on
     * (from a nested call or a user callback), its stored message; else the class text. */
    char reason[MPI_MAX_ERROR_STRING];
    int cls;
    pthread_mutex_lock(&ring.lock);
    if (!code_is_valid(errclass)) {
        cls = MPI_ERR_OTHER;
        if (have_pending_reason)
            snprintf(reason, sizeof reason, "%s", pending_reason);
        else
            snprintf(reason, sizeof reason, "error code %d is not a valid MPI error code", errclass);
    } else {
        cls = errclass & MPIR_ERR_CLASS_MASK;
        if (have_pending_reason)
            snprintf(reason, sizeof reason, "%s", pending_reason);
        else if (!ring_lookup_locked(errclass, reason, sizeof reason))
            snprintf(reason, sizeof reason, "%s", MPIR_Err_class_string(cls));
    }
    have_pending_reason = false;

    int code = ring_store_locked(cls, call, reason);
    char message[MPI_MAX_ERROR_STRING];
    ring_lookup_locked(code, message, sizeof message);
    pthread_mutex_unlock(&ring.lock);

    return MPIR_Errhandler_invoke(comm, code, message);
}

const char *MPIR_Err_class_string(int errclass)
{
    static const char *const text[MPIR_ERR_LASTCLASS + 1] = {
        [MPI_SUCCESS] = "no error",
        [MPI_ERR_BUFFER] = "invalid buffer pointer",
        [MPI_ERR_COUNT] = "invalid count argument",
        [MPI_ERR_TYPE] = "invalid datatype",
        [MPI_ERR_TAG] = "invalid tag argument",
        [MPI_ERR_COMM] = "invalid communicator",
        [MPI_ERR_RANK] = "invalid rank",
        [MPI_ERR_ROOT] = "invalid root",
        [MPI_ERR_GROUP] = "invalid group",
        [MPI_ERR_OP] = "invalid reduce operation",
        [MPI_ERR_TOPOLOGY] = "invalid topology",
        [MPI_ERR_DIMS] = "invalid dimension argument",
        [MPI_ERR_ARG] = "invalid argument of some other kind",
        [MPI_ERR_UNKNOWN] = "unknown error",
        [MPI_ERR_TRUNCATE] = "message truncated on receive",
        [MPI_ERR_OTHER] = "known error not in this list",
        [MPI_ERR_INTERN] = "internal MPI (implementation) error",
        [MPI_ERR_IN_STATUS] = "error code is in status",
        [MPI_ERR_PENDING] = "pending request",
        [MPI_ERR_REQUEST] = "invalid request (handle)",
        [MPI_ERR_ACCESS] = "permission denied",
        [MPI_ERR_AMODE] = "error related to the amode passed to MPI_File_open",
        [MPI_ERR_BAD_FILE] = "invalid file name",
        [MPI_ERR_CONVERSION] = "an error occurred in a user supplied data conversion function",
        [MPI_ERR_DUP_DATAREP] = "conversion functions could not be registered because a data "
                                "representation identifier that was already defined was passed",
        [MPI_ERR_FILE_EXISTS] = "file exists",
        [MPI_ERR_FILE_IN_USE] = "file operation could not be completed, as the file is currently "
                                "open by some process",
        [MPI_ERR_FILE] = "invalid file handle",
        [MPI_ERR_INFO] = "invalid info argument",
        [MPI_ERR_INFO_KEY] = "key longer than MPI_MAX_INFO_KEY",
        [MPI_ERR_INFO_VALUE] = "value longer than MPI_MAX_INFO_VAL",
        [MPI_ERR_INFO_NOKEY] = "invalid key passed to MPI_Info_delete",
        [MPI_ERR_IO] = "other I/O error",
        [MPI_ERR_NAME] = "invalid service name passed to MPI_Lookup_name",
        [MPI_ERR_NO_MEM] = "out of memory",
        [MPI_ERR_NOT_SAME] = "collective argument not identical on all processes, or collective "
                             "routines called in a different order by different processes",
        [MPI_ERR_NO_SPACE] = "not enough space",
        [MPI_ERR_NO_SUCH_FILE] = "file does not exist",
        [MPI_ERR_PORT] = "invalid port name passed to MPI_Comm_connect",
        [MPI_ERR_QUOTA] = "quota exceeded",
        [MPI_ERR_READ_ONLY] = "read-only file or file system",
        [MPI_ERR_SERVICE] = "invalid service name passed to MPI_Unpublish_name",
        [MPI_ERR_SPAWN] = "error in spawning processes",
        [MPI_ERR_UNSUPPORTED_DATAREP] = "unsupported data representation passed to MPI_File_set_view",
        [MPI_ERR_UNSUPPORTED_OPERATION] = "unsupported operation, such as seeking on a file which "
                                          "supports sequential access only",
        [MPI_ERR_WIN] = "invalid window argument",
        [MPI_ERR_BASE] = "invalid base passed to MPI_Free_mem",
        [MPI_ERR_LOCKTYPE] = "invalid locktype argument",
        [MPI_ERR_KEYVAL] = "invalid keyval",
        [MPI_ERR_RMA_CONFLICT] = "conflicting accesses to window",
        [MPI_ERR_RMA_SYNC] = "invalid synchronization of RMA calls",
        [MPI_ERR_SIZE] = "invalid size argument",
        [MPI_ERR_DISP] = "invalid disp argument",
        [MPI_ERR_ASSERT] = "invalid assert argument",
        [MPI_ERR_RMA_RANGE] = "target memory is not part of the window",
        [MPI_ERR_RMA_ATTACH] = "memory cannot be attached",
        [MPI_ERR_RMA_SHARED] = "memory cannot be shared",
        [MPI_ERR_RMA_FLAVOR] = "passed window has the wrong flavor for the called function",
        [MPI_ERR_PROC_ABORTED] = "operation failed because a peer process has aborted",
        [MPI_ERR_VALUE_TOO_LARGE] = "value is too large to store",
        [MPI_ERR_SESSION] = "invalid session argument",
        [MPI_ERR_ERRHANDLER] = "invalid errhandler argument",
        [MPI_T_ERR_MEMORY] = "out of memory (MPI tool information interface)",
    };
    if (errclass < 0 || errclass > MPIR_ERR_LASTCLASS || !text[errclass])
        return "invalid error class";
    return text[errclass];
}

const char *MPIR_Datatype_str(MPI_Datatype type, char *buf)
{
    const char *name = MPID_Builtin_name(type);
    if (name)
        snprintf(buf, MPIR_HANDLE_STR_MAX, "%s", name);
    else if (type == MPI_DATATYPE_NULL)
        snprintf(buf, MPIR_HANDLE_STR_MAX, "MPI_DATATYPE_NULL");
    else
        snprintf(buf, MPIR_HANDLE_STR_MAX, "datatype 0x%08x", (unsigned) type);
    return buf;
}

const char *MPIR_Comm_str(MPI_Comm comm, char *buf)
{
    if (comm == MPI_COMM_WORLD)
        snprintf(buf, MPIR_HANDLE_STR_MAX, "MPI_COMM_WORLD");
    else if (comm == MPI_COMM_SELF)
        snprintf(buf, MPIR_HANDLE_STR_MAX, "MPI_COMM_SELF");
    else if (comm == MPI_COMM_NULL)
        snprintf(buf, MPIR_HANDLE_STR_MAX, "MPI_COMM_NULL");
    else
        snprintf(buf, MPIR_HANDLE_STR_MAX, "comm 0x%08x", (unsigned) comm);
    return buf;
}

int MPIR_Error_class_impl(int errorcode, int *errorclass)
{
    if (is_user_code(errorcode)) {
        *errorclass = user_class(errorcode);
        return MPI_SUCCESS;
    }
    if (!code_is_valid(errorcode))
        return MPIR_Err(MPI_ERR_ARG, "invalid error code %d", errorcode);
    *errorclass = errorcode & MPIR_ERR_CLASS_MASK;
    return MPI_SUCCESS;
}

int MPIR_Error_string_impl(int errorcode, char *string, int *resultlen)
{
    if (is_user_code(errorcode)) {
        user_string(errorcode, string, MPI_MAX_ERROR_STRING);
        *resultlen = (int) strlen(string);
        return MPI_SUCCESS;
    }
    if (!code_is_valid(errorcode))
        return MPIR_Err(MPI_ERR_ARG, "invalid error code %d", errorcode);
    pthread_mutex_lock(&ring.lock);
    bool found = ring_lookup_locked(errorcode, string, MPI_MAX_ERROR_STRING);
    pthread_mutex_unlock(&ring.lock);
    if (!found)
        snprintf(string, MPI_MAX_ERROR_STRING, "%s", MPIR_Err_class_string(errorcode & MPIR_ERR_CLASS_MASK));
    *resultlen = (int) strlen(string);
    return MPI_SUCCESS;
}

/* ---- MPI_Add_error_class, MPI_Add_error_code, MPI_Add_error_string ---- */

int MPIR_Add_error_class_impl(int *errorclass)
{
    return user_add(-1, errorclass);
}

int MPIR_Add_error_code_impl(int errorclass, int *errorcode)
{
    bool predefined = errorclass >= 0 && errorclass <= MPIR_ERR_LASTCLASS;
    if (!predefined && !(is_user_code(errorclass) && user_class(errorclass) == errorclass))
        return MPIR_Err(MPI_ERR_ARG, "errorclass %d is neither a predefined error class nor one made by "
                        "MPI_Add_error_class", errorclass);
    return user_add(errorclass, errorcode);
}

int MPIR_Add_error_string_impl(int errorcode, const char *string)
{
    if (!is_user_code(errorcode))
        return MPIR_Err(MPI_ERR_ARG, "errorcode %d was not made by MPI_Add_error_class or MPI_Add_error_code "
                        "(the strings of predefined codes cannot be changed)", errorcode);
    size_t len = strlen(string);
    if (len >= MPI_MAX_ERROR_STRING)
        return MPIR_Err(MPI_ERR_ARG, "the string is %zu characters long, at most %d are allowed", len,
                        MPI_MAX_ERROR_STRING - 1);
    char *copy = malloc(len + 1);
    MPIR_CHKMEM(copy);
    memcpy(copy, string, len + 1);
    pthread_mutex_lock(&user.lock);
    struct user_code *e = &user.entry[errorcode - USER_FIRST];
    free(e->string);        /* a second call replaces the string (MPI 4.1) */
    e->string = copy;
    pthread_mutex_unlock(&user.lock);
    return MPI_SUCCESS;
}
