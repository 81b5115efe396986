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

/* A code that MPI_Error_class accepts: a class, or a class with a ring reference. */
static bool code_is_valid(int code)
{
    return code >= 0 && code <= MPI_ERR_LASTCODE && (code & MPIR_ERR_CLASS_MASK) <= MPIR_ERR_LASTCLASS;
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

int MPIR_Err_return(MPI_Comm comm, int errclass, const char *call_fmt, ...)
{
    if (errclass == MPI_SUCCESS)
        return MPI_SUCCESS;

    char call[MPI_MAX_ERROR_STRING];
    va_list ap;
    va_start(ap, call_fmt);
    vsnprintf(call, sizeof call, call_fmt, ap);
    va_end(ap);

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
    if (!code_is_valid(errorcode))
        return MPIR_Err(MPI_ERR_ARG, "invalid error code %d", errorcode);
    *errorclass = errorcode & MPIR_ERR_CLASS_MASK;
    return MPI_SUCCESS;
}

int MPIR_Error_string_impl(int errorcode, char *string, int *resultlen)
{
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
