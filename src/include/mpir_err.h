/*
 * Errors.
 *
 * Internal functions return an MPI error class (or MPI_SUCCESS). Where an error is found, MPIR_Err
 * records why, in a per-thread buffer, and returns the class. The binding that called down then
 * turns it into an error code that carries the whole message ("MPI_Type_vector(count=-1, ...):
 * invalid count, must be non-negative") and hands it to the error handler.
 *
 * An error code is class | slot << 7 | sequence << 17; the slot indexes a ring of recent messages,
 * so MPI_Error_string can return the message and MPI_Error_class is a mask.
 */
#ifndef MPIR_ERR_H_INCLUDED
#define MPIR_ERR_H_INCLUDED

#include <stdbool.h>
#include "mpi.h"

#define MPIR_ERR_CLASS_MASK 0x7f
#define MPIR_ERR_LASTCLASS MPI_T_ERR_MEMORY

/* Records a reason (printf format) for the error about to be returned; returns errclass. */
int MPIR_Err(int errclass, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The error for any call made before MPI_Init or after MPI_Finalize. */
int MPIR_Err_not_initialized(void);
/* Builds the error code for a failed call (the call is described by a printf format), then invokes
 * the error handler of comm (MPI_COMM_NULL: the handler for errors tied to no object). Returns the
 * code the call must return; does not return at all when the handler aborts. */
int MPIR_Err_return(MPI_Comm comm, int errclass, const char *call_fmt, ...) __attribute__((format(printf, 3, 4)));
/* An error code carrying a message (printf format), without invoking any error handler: for errors
 * found while an operation progresses, stored in its status until it is completed. */
int MPIR_Err_code(int errclass, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The reason MPIR_Err recorded for errclass, made a code as MPIR_Err_code does: for an error kept
 * while other calls may record reasons of their own. */
int MPIR_Err_keep(int errclass);
/* The class of a code MPIR_Err_code or MPIR_Err_keep made, its message recorded again as the reason
 * (for an error kept, returned by a later call). */
int MPIR_Err_from_code(int code);
/* Standard text of an error class. */
const char *MPIR_Err_class_string(int errclass);
/* Whether code is an error code or class MPI_Error_class accepts (the library's or the user's). */
bool MPIR_Err_code_is_valid(int code);
/* The largest error code or class in use: the value of the MPI_LASTUSEDCODE attribute. */
int MPIR_Err_last_used_code(void);

/* The reason for a datatype argument that is not a usable handle (index >= 0: an array element). */
static inline int MPIR_Err_datatype(const char *arg, MPI_Datatype type, long long index)
{
    const char *why = type == MPI_DATATYPE_NULL ? "is MPI_DATATYPE_NULL"
                                                : "is not a valid datatype (never created, or already freed)";
    return index < 0 ? MPIR_Err(MPI_ERR_TYPE, "%s %s", arg, why)
                     : MPIR_Err(MPI_ERR_TYPE, "%s[%lld] %s", arg, index, why);
}

#define MPIR_HANDLE_STR_MAX 48
/* Printable names of handles for error messages: "MPI_INT", "datatype 0x8c000003", ... */
const char *MPIR_Datatype_str(MPI_Datatype type, char *buf);
const char *MPIR_Comm_str(MPI_Comm comm, char *buf);

#define MPIR_CHKMEM(ptr_) do { if ((ptr_) == NULL) return MPIR_Err(MPI_ERR_NO_MEM, "out of memory"); } while (0)

#endif
