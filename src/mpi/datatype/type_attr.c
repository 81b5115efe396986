/*
 * Datatype attributes (MPI_Type_create_keyval ... MPI_Type_delete_attr) on top of the generic cache
 * in src/mpi/attr/attr.c, and the predefined callbacks MPI_TYPE_DUP_FN & co.
 *
 * Predefined datatypes carry attributes too (their static records have a list like any other).
 * MPI_Type_dup copies attributes and MPI_Type_free deletes them (see dt_object.c and the dup
 * constructor), so the callbacks always receive a handle the user may still use.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"

/* The attribute list of a datatype the binding has already validated (NULL if it was freed since). */
static MPIR_Attribute **type_attributes(MPI_Datatype type)
{
    MPID_Datatype *dt = MPID_Datatype_lookup(type);
    return dt ? &dt->attributes : NULL;
}

static int invalid_type(MPI_Datatype type)
{
    return MPIR_Err(MPI_ERR_TYPE, "invalid datatype %#x", (unsigned) type);
}

int MPIR_Type_create_keyval_impl(MPI_Type_copy_attr_function *type_copy_attr_fn,
                                 MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval,
                                 void *extra_state)
{
    /* NULL callbacks are stored as NULL, which the cache treats as the null callbacks */
    return MPIR_Keyval_create(MPIR_ATTR_TYPE, type_copy_attr_fn, type_delete_attr_fn, extra_state,
                              type_keyval);
}

int MPIR_Type_free_keyval_impl(int *type_keyval)
{
    return MPIR_Keyval_free(MPIR_ATTR_TYPE, type_keyval);   /* sets *type_keyval = MPI_KEYVAL_INVALID */
}

int MPIR_Type_set_attr_impl(MPI_Datatype datatype, int type_keyval, void *attribute_val)
{
    MPIR_Attribute **list = type_attributes(datatype);
    return list ? MPIR_Attr_set(list, MPIR_ATTR_TYPE, datatype, type_keyval, attribute_val)
                : invalid_type(datatype);
}

/* attribute_val is really a void **: it receives the stored pointer when *flag is set. */
int MPIR_Type_get_attr_impl(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag)
{
    MPIR_Attribute **list = type_attributes(datatype);
    return list ? MPIR_Attr_get(list, MPIR_ATTR_TYPE, type_keyval, (void **) attribute_val, flag)
                : invalid_type(datatype);
}

int MPIR_Type_delete_attr_impl(MPI_Datatype datatype, int type_keyval)
{
    MPIR_Attribute **list = type_attributes(datatype);
    return list ? MPIR_Attr_delete(list, MPIR_ATTR_TYPE, datatype, type_keyval) : invalid_type(datatype);
}

/* ---- predefined callbacks: MPI_TYPE_NULL_COPY_FN, MPI_TYPE_DUP_FN, ... and the comm twins ---- */

int LOOM_type_null_copy_fn(MPI_Datatype oldtype, int type_keyval, void *extra_state, void *attribute_val_in,
                           void *attribute_val_out, int *flag)
{
    *flag = 0;
    return MPI_SUCCESS;
}

int LOOM_type_dup_fn(MPI_Datatype oldtype, int type_keyval, void *extra_state, void *attribute_val_in,
                     void *attribute_val_out, int *flag)
{
    *(void **) attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

int LOOM_type_null_delete_fn(MPI_Datatype datatype, int type_keyval, void *attribute_val, void *extra_state)
{
    return MPI_SUCCESS;
}

int LOOM_comm_null_copy_fn(MPI_Comm oldcomm, int comm_keyval, void *extra_state, void *attribute_val_in,
                           void *attribute_val_out, int *flag)
{
    *flag = 0;
    return MPI_SUCCESS;
}

int LOOM_comm_dup_fn(MPI_Comm oldcomm, int comm_keyval, void *extra_state, void *attribute_val_in,
                     void *attribute_val_out, int *flag)
{
    *(void **) attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

int LOOM_comm_null_delete_fn(MPI_Comm comm, int comm_keyval, void *attribute_val, void *extra_state)
{
    return MPI_SUCCESS;
}
