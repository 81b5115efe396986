/*
 * Window attributes (MPI_Win_create_keyval ... MPI_Win_delete_attr) on the generic cache of
 * src/mpi/attr/attr.c, and the predefined window attributes.
 *
 * The predefined keyvals MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR and
 * MPI_WIN_MODEL are answered from the window record itself, never stored in its list. As the
 * standard says, MPI_WIN_BASE yields the base address itself and the others a pointer to the value
 * (MPI_Aint for the size, int for the rest), which lives as long as the window.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"

static const char *predefined_name(int keyval)
{
    switch (keyval) {
    case MPI_WIN_BASE: return "MPI_WIN_BASE";
    case MPI_WIN_SIZE: return "MPI_WIN_SIZE";
    case MPI_WIN_DISP_UNIT: return "MPI_WIN_DISP_UNIT";
    case MPI_WIN_CREATE_FLAVOR: return "MPI_WIN_CREATE_FLAVOR";
    case MPI_WIN_MODEL: return "MPI_WIN_MODEL";
    default: return NULL;
    }
}

static int freed_window(void)
{
    return MPIR_Err(MPI_ERR_WIN, "the window was freed");
}

static int read_only(int keyval, const char *what)
{
    return MPIR_Err(MPI_ERR_KEYVAL, "%s is a predefined attribute: it cannot be %s", predefined_name(keyval), what);
}

int MPIR_Win_create_keyval_impl(MPI_Win_copy_attr_function *win_copy_attr_fn,
                                MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval,
                                void *extra_state)
{
    /* Windows are never duplicated, so the copy callback is kept only for symmetry. */
    return MPIR_Keyval_create(MPIR_ATTR_WIN, win_copy_attr_fn, win_delete_attr_fn, extra_state, win_keyval);
}

int MPIR_Win_free_keyval_impl(int *win_keyval)
{
    if (predefined_name(*win_keyval))
        return read_only(*win_keyval, "freed");
    return MPIR_Keyval_free(MPIR_ATTR_WIN, win_keyval);    /* sets *win_keyval = MPI_KEYVAL_INVALID */
}

int MPIR_Win_set_attr_impl(MPI_Win win, int win_keyval, void *attribute_val)
{
    if (predefined_name(win_keyval))
        return read_only(win_keyval, "set");
    MPIR_Win *w = MPIR_Win_lookup(win);
    return w ? MPIR_Attr_set(&w->attributes, MPIR_ATTR_WIN, win, win_keyval, attribute_val) : freed_window();
}

/* attribute_val is really a void **: it receives the stored pointer when *flag is set. */
int MPIR_Win_get_attr_impl(MPI_Win win, int win_keyval, void *attribute_val, int *flag)
{
    MPIR_Win *w = MPIR_Win_lookup(win);
    if (w == NULL)
        return freed_window();
    void *value;
    switch (win_keyval) {
    case MPI_WIN_BASE: value = w->base; break;
    case MPI_WIN_SIZE: value = &w->size; break;
    case MPI_WIN_DISP_UNIT: value = &w->disp_unit; break;
    case MPI_WIN_CREATE_FLAVOR: value = &w->flavor; break;
    case MPI_WIN_MODEL: value = &w->model; break;
    default: return MPIR_Attr_get(&w->attributes, MPIR_ATTR_WIN, win_keyval, (void **) attribute_val, flag);
    }
    *(void **) attribute_val = value;
    *flag = 1;
    return MPI_SUCCESS;
}

int MPIR_Win_delete_attr_impl(MPI_Win win, int win_keyval)
{
    if (predefined_name(win_keyval))
        return read_only(win_keyval, "deleted");
    MPIR_Win *w = MPIR_Win_lookup(win);
    return w ? MPIR_Attr_delete(&w->attributes, MPIR_ATTR_WIN, win, win_keyval) : freed_window();
}
