/*
 * Communicator attributes: MPI_Comm_create_keyval ... MPI_Comm_delete_attr, their deprecated
 * MPI-1 forms (MPI_Keyval_create, MPI_Attr_put ...), and the predefined attributes.
 *
 * User attributes live in the generic cache (src/mpi/attr/attr.c): MPI_Comm_dup copies them with
 * the copy callbacks, MPI_Comm_free runs the delete callbacks (comm_create.c).
 *
 * The predefined keyvals (MPI_TAG_UB ... MPI_APPNUM) are builtin handles the cache does not know.
 * They describe the environment, so every communicator answers them, not only MPI_COMM_WORLD
 * (libraries ask for MPI_TAG_UB on their own communicators; MPICH and Open MPI answer too). As the
 * standard says for C, the value is a pointer to an int. They are read-only: setting or deleting
 * one is MPI_ERR_KEYVAL.
 */
#include "comm.h"

static bool is_predefined(int keyval)
{
    return keyval >= MPI_TAG_UB && keyval <= MPI_APPNUM;
}

/* The values of the predefined attributes, indexed by keyval - MPI_TAG_UB; set once by MPI_Init,
 * read-only afterwards (get hands out pointers into this table). */
static int predefined_value[MPI_APPNUM - MPI_TAG_UB + 1];

void MPIR_Comm_attr_init(void)
{
    predefined_value[MPI_TAG_UB - MPI_TAG_UB] = MPIR_TAG_UB;
    predefined_value[MPI_HOST - MPI_TAG_UB] = MPI_PROC_NULL;          /* no process is a distinguished host */
    predefined_value[MPI_IO - MPI_TAG_UB] = MPI_ANY_SOURCE;           /* every process can do I/O */
    predefined_value[MPI_WTIME_IS_GLOBAL - MPI_TAG_UB] = 0;           /* each process's clock is its own */
    predefined_value[MPI_UNIVERSE_SIZE - MPI_TAG_UB] = MPIR_Process.world_size;   /* nothing is spawned */
    predefined_value[MPI_LASTUSEDCODE - MPI_TAG_UB] = MPI_ERR_LASTCODE;     /* updated by get */
    predefined_value[MPI_APPNUM - MPI_TAG_UB] = 0;                    /* one executable per job */
}

static int read_only(int keyval)
{
    return MPIR_Err(MPI_ERR_KEYVAL, "keyval %#x is a predefined attribute and cannot be set or deleted",
                    (unsigned) keyval);
}

int MPIR_Comm_create_keyval_impl(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                                 MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                                 void *extra_state)
{
    /* NULL callbacks are stored as NULL, which the cache treats as the null callbacks */
    return MPIR_Keyval_create(MPIR_ATTR_COMM, comm_copy_attr_fn, comm_delete_attr_fn, extra_state, comm_keyval);
}

int MPIR_Comm_free_keyval_impl(int *comm_keyval)
{
    if (is_predefined(*comm_keyval))
        return MPIR_Err(MPI_ERR_KEYVAL, "keyval %#x is predefined and cannot be freed", (unsigned) *comm_keyval);
    return MPIR_Keyval_free(MPIR_ATTR_COMM, comm_keyval);
}

int MPIR_Comm_set_attr_impl(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    if (is_predefined(comm_keyval))
        return read_only(comm_keyval);
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    return MPIR_Attr_set(&c->attributes, MPIR_ATTR_COMM, comm, comm_keyval, attribute_val);
}

/* attribute_val is really a void **: it receives the stored pointer when *flag is set. */
int MPIR_Comm_get_attr_impl(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    if (is_predefined(comm_keyval)) {
        if (comm_keyval == MPI_LASTUSEDCODE)    /* grows with MPI_Add_error_class/code */
            predefined_value[MPI_LASTUSEDCODE - MPI_TAG_UB] = MPIR_Err_last_used_code();
        *(void **) attribute_val = &predefined_value[comm_keyval - MPI_TAG_UB];
        *flag = 1;
        return MPI_SUCCESS;
    }
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    return MPIR_Attr_get(&c->attributes, MPIR_ATTR_COMM, comm_keyval, (void **) attribute_val, flag);
}

int MPIR_Comm_delete_attr_impl(MPI_Comm comm, int comm_keyval)
{
    if (is_predefined(comm_keyval))
        return read_only(comm_keyval);
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    return MPIR_Attr_delete(&c->attributes, MPIR_ATTR_COMM, comm, comm_keyval);
}

/* ---- the MPI-1 forms (deprecated, still in MPI 4.1): the same functions under older names ---- */

int MPIR_Keyval_create_impl(MPI_Comm_copy_attr_function *copy_fn, MPI_Comm_delete_attr_function *delete_fn,
                            int *keyval, void *extra_state)
{
    return MPIR_Comm_create_keyval_impl(copy_fn, delete_fn, keyval, extra_state);
}

int MPIR_Keyval_free_impl(int *keyval)
{
    return MPIR_Comm_free_keyval_impl(keyval);
}

int MPIR_Attr_put_impl(MPI_Comm comm, int keyval, void *attribute_val)
{
    return MPIR_Comm_set_attr_impl(comm, keyval, attribute_val);
}

int MPIR_Attr_get_impl(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    return MPIR_Comm_get_attr_impl(comm, keyval, attribute_val, flag);
}

int MPIR_Attr_delete_impl(MPI_Comm comm, int keyval)
{
    return MPIR_Comm_delete_attr_impl(comm, keyval);
}
