/*
 * MPI_Type_get_envelope / MPI_Type_get_contents and their _c twins: thin shells over the device's
 * decoder (dt_contents.c), which owns the layout table.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"

int MPIR_Type_get_envelope_impl(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                                int *num_datatypes, int *combiner)
{
    MPI_Count ni, na, nc, nd;
    int err = MPID_Datatype_get_envelope(MPID_Datatype_get(datatype), false, &ni, &na, &nc, &nd, combiner);
    if (err)
        return err;
    *num_integers = (int) ni;   /* bounded by the stored argument count, an int */
    *num_addresses = (int) na;
    *num_datatypes = (int) nd;
    return MPI_SUCCESS;
}

int MPIR_Type_get_envelope_c_impl(MPI_Datatype datatype, MPI_Count *num_integers, MPI_Count *num_addresses,
                                  MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner)
{
    return MPID_Datatype_get_envelope(MPID_Datatype_get(datatype), true, num_integers, num_addresses,
                                      num_large_counts, num_datatypes, combiner);
}

int MPIR_Type_get_contents_impl(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
                                int *array_of_integers, MPI_Aint *array_of_addresses,
                                MPI_Datatype *array_of_datatypes)
{
    if (max_integers < 0 || max_addresses < 0 || max_datatypes < 0)
        return MPIR_Err(MPI_ERR_ARG, "max_integers, max_addresses and max_datatypes must be non-negative");
    return MPID_Datatype_get_contents(MPID_Datatype_get(datatype), false, max_integers, max_addresses, 0,
                                      max_datatypes, array_of_integers, array_of_addresses, NULL,
                                      array_of_datatypes);
}

int MPIR_Type_get_contents_c_impl(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                                  MPI_Count max_large_counts, MPI_Count max_datatypes, int *array_of_integers,
                                  MPI_Aint *array_of_addresses, MPI_Count *array_of_large_counts,
                                  MPI_Datatype *array_of_datatypes)
{
    if (max_integers < 0 || max_addresses < 0 || max_large_counts < 0 || max_datatypes < 0)
        return MPIR_Err(MPI_ERR_ARG, "the max_* arguments must be non-negative");
    return MPID_Datatype_get_contents(MPID_Datatype_get(datatype), true, max_integers, max_addresses,
                                      max_large_counts, max_datatypes, array_of_integers, array_of_addresses,
                                      array_of_large_counts, array_of_datatypes);
}
