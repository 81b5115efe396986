/*
 * Window names: MPI_Win_set_name and MPI_Win_get_name.
 *
 * A window has no name until the user gives it one: MPI_Win_get_name then returns the empty string
 * (MPI 4.1, "Naming Objects"). Names follow the datatype names' rules: truncated to
 * MPI_MAX_OBJECT_NAME - 1 characters, trailing blanks dropped.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"

/* Keeps a reader from seeing half of a name another thread is writing (a user race, but it must
 * not give garbage). */
static int freed_window(void)
{
    return MPIR_Err(MPI_ERR_WIN, "the window was freed");
}

int MPIR_Win_set_name_impl(MPI_Win win, const char *win_name)
{
    MPIR_Win *w = MPIR_Win_lookup(win);
    if (w == NULL)
        return freed_window();
    MPIR_Name_set(w->name, win_name);
    return MPI_SUCCESS;
}

int MPIR_Win_get_name_impl(MPI_Win win, char *win_name, int *resultlen)
{
    MPIR_Win *w = MPIR_Win_lookup(win);
    if (w == NULL)
        return freed_window();
    *resultlen = MPIR_Name_get(w->name, win_name);
    return MPI_SUCCESS;
}
