/*
 * Object names (seed 001, "Naming objects"), shared by datatypes, communicators and windows.
 *
 * A name lives in its object's record, MPI_MAX_OBJECT_NAME bytes. Too long a name is truncated,
 * not an error; trailing blanks are not significant (leading ones are), so a stored name never
 * ends in a blank. One lock, so a reader never sees half of a name being set by another thread.
 */
#include "mpiimpl.h"

static pthread_mutex_t name_lock = PTHREAD_MUTEX_INITIALIZER;

void MPIR_Name_set(char *stored, const char *name)
{
    /* strnlen: the user's string may be longer than what we keep, and need not be read further */
    size_t len = strnlen(name, MPI_MAX_OBJECT_NAME - 1);
    while (len > 0 && name[len - 1] == ' ')
        len--;
    pthread_mutex_lock(&name_lock);
    memcpy(stored, name, len);
    stored[len] = '\0';
    pthread_mutex_unlock(&name_lock);
}

int MPIR_Name_get(const char *stored, char *out)
{
    pthread_mutex_lock(&name_lock);
    size_t len = strnlen(stored, MPI_MAX_OBJECT_NAME - 1);
    memcpy(out, stored, len);
    pthread_mutex_unlock(&name_lock);
    out[len] = '\0';
    return (int) len;
}
