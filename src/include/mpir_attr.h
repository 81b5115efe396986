/*
 * Attribute caching, shared by datatypes, communicators and windows.
 *
 * A keyval is a pooled object (class MPIR_CLASS_KEYVAL) holding the copy and delete callbacks. Each
 * object keeps its attributes in a short list. A keyval freed by the user stays alive while
 * attributes still use it (reference counted), as the standard requires.
 * All list operations take one global lock, so threads may cache on shared objects.
 */
#ifndef MPIR_ATTR_H_INCLUDED
#define MPIR_ATTR_H_INCLUDED

#include "mpi.h"
#include "mpir_object.h"

typedef enum { MPIR_ATTR_TYPE, MPIR_ATTR_COMM, MPIR_ATTR_WIN } MPIR_Attr_kind;

/* Callbacks of the three kinds share these shapes, since every handle is an int. */
typedef int MPIR_Attr_copy_fn(int oldobj, int keyval, void *extra_state, void *attribute_val_in,
                              void *attribute_val_out, int *flag);
typedef int MPIR_Attr_delete_fn(int obj, int keyval, void *attribute_val, void *extra_state);

typedef struct MPIR_Keyval {
    MPIR_Object obj;
    MPIR_Attr_kind kind;
    MPIR_Attr_copy_fn *copy_fn;         /* NULL: never copied */
    MPIR_Attr_delete_fn *delete_fn;     /* NULL: nothing to call */
    void *extra_state;
    int freed_by_user;
} MPIR_Keyval;

typedef struct MPIR_Attribute {
    MPIR_Keyval *keyval;
    void *value;
    struct MPIR_Attribute *next;
} MPIR_Attribute;

int MPIR_Keyval_create(MPIR_Attr_kind kind, MPIR_Attr_copy_fn *copy_fn, MPIR_Attr_delete_fn *delete_fn,
                       void *extra_state, int *keyval);
int MPIR_Keyval_free(MPIR_Attr_kind kind, int *keyval);

/* Each returns MPI_SUCCESS or an error class with a reason recorded (MPI_ERR_KEYVAL for a keyval
 * that is invalid or of the wrong kind; a callback's own non-zero return is passed on). */
int MPIR_Attr_set(MPIR_Attribute **list, MPIR_Attr_kind kind, int obj, int keyval, void *value);
int MPIR_Attr_get(MPIR_Attribute *const *list, MPIR_Attr_kind kind, int keyval, void **value, int *flag);
int MPIR_Attr_delete(MPIR_Attribute **list, MPIR_Attr_kind kind, int obj, int keyval);
/* On dup: runs each copy callback and builds the new object's list. */
int MPIR_Attr_copy_all(MPIR_Attribute *const *src, int oldobj, MPIR_Attribute **dst);
/* On free: runs each delete callback and empties the list (stops at the first failing callback). */
int MPIR_Attr_delete_all(MPIR_Attribute **list, int obj);
/* At finalize, for objects the user never freed: empties the list without running callbacks. */
void MPIR_Attr_drop_all(MPIR_Attribute **list);

#endif
