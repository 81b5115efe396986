/*
 * Questions about communicators: MPI_Comm_compare, _test_inter, _remote_size, _group,
 * _remote_group.
 */
#include "comm.h"

int MPIR_Comm_compare_impl(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    MPIR_Comm *a = MPIR_Comm_lookup(comm1), *b = MPIR_Comm_lookup(comm2);
    if (a == b) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    if (a->is_inter != b->is_inter) {
        *result = MPI_UNEQUAL;
        return MPI_SUCCESS;
    }
    /* Different contexts, so at best congruent (same members, same order) or similar (same
     * members); for intercommunicators both groups must qualify. */
    int local = MPIR_Group_compare_groups(a->local_group, b->local_group);
    int remote = a->is_inter ? MPIR_Group_compare_groups(a->remote_group, b->remote_group) : MPI_IDENT;
    int worst = local > remote ? local : remote;
    *result = worst == MPI_IDENT ? MPI_CONGRUENT : worst;
    return MPI_SUCCESS;
}

int MPIR_Comm_test_inter_impl(MPI_Comm comm, int *flag)
{
    *flag = MPIR_Comm_lookup(comm)->is_inter;
    return MPI_SUCCESS;
}

int MPIR_Comm_remote_size_impl(MPI_Comm comm, int *size)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    if (!c->is_inter)
        return MPIR_Err(MPI_ERR_COMM, "comm must be an intercommunicator");
    *size = c->remote_size;
    return MPI_SUCCESS;
}

int MPIR_Comm_group_impl(MPI_Comm comm, MPI_Group *group)
{
    return MPIR_Group_new_handle(MPIR_Comm_lookup(comm)->local_group, group);
}

int MPIR_Comm_remote_group_impl(MPI_Comm comm, MPI_Group *group)
{
    MPIR_Comm *c = MPIR_Comm_lookup(comm);
    if (!c->is_inter)
        return MPIR_Err(MPI_ERR_COMM, "comm must be an intercommunicator");
    return MPIR_Group_new_handle(c->remote_group, group);
}
