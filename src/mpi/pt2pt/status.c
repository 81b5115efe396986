/*
 * The status accessors (MPI_Test_cancelled, MPI_Status_set_cancelled, MPI_Status_get_* and
 * MPI_Status_set_*) and the conversions between the C status and the two Fortran ones. The
 * bindings have already refused NULL and the MPI_STATUS_IGNORE of each language.
 */
#include <stddef.h>
#include <string.h>
#include "pt2pt.h"

int MPIR_Test_cancelled_impl(const MPI_Status *status, int *flag)
{
    *flag = MPIR_Status_get_cancelled(status);
    return MPI_SUCCESS;
}

int MPIR_Status_set_cancelled_impl(MPI_Status *status, int flag)
{
    MPIR_Status_set_cancelled(status, flag != 0);
    return MPI_SUCCESS;
}

/* MPI 4.1 accessors of the public fields, for languages without direct access to the struct. */
#define ACCESSORS(Field, FIELD) \
    int MPIR_Status_get_##Field##_impl(const MPI_Status *status, int *value) \
    { \
        *value = status->FIELD; \
        return MPI_SUCCESS; \
    } \
    int MPIR_Status_set_##Field##_impl(MPI_Status *status, int value) \
    { \
        status->FIELD = value; \
        return MPI_SUCCESS; \
    }
ACCESSORS(source, MPI_SOURCE)
ACCESSORS(tag, MPI_TAG)
ACCESSORS(error, MPI_ERROR)

/* A Fortran status is the C one's six integers in the same order (mpi.h), so every conversion is a
 * copy that keeps the hidden byte count and cancelled flag, as the standard asks. */
_Static_assert(sizeof(MPI_Fint) == sizeof(int) && sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint)
                   && sizeof(MPI_F08_status) == sizeof(MPI_Status),
               "the three forms of a status differ in size");
_Static_assert(offsetof(MPI_Status, MPI_SOURCE) == MPI_F_SOURCE * sizeof(MPI_Fint)
                   && offsetof(MPI_Status, MPI_TAG) == MPI_F_TAG * sizeof(MPI_Fint)
                   && offsetof(MPI_Status, MPI_ERROR) == MPI_F_ERROR * sizeof(MPI_Fint)
                   && offsetof(MPI_F08_status, MPI_SOURCE) == offsetof(MPI_Status, MPI_SOURCE)
                   && offsetof(MPI_F08_status, MPI_TAG) == offsetof(MPI_Status, MPI_TAG)
                   && offsetof(MPI_F08_status, MPI_ERROR) == offsetof(MPI_Status, MPI_ERROR),
               "the public fields of a status are not in the same places");

#define CONVERSION(name, From, To) \
    int MPIR_Status_##name##_impl(const From *from, To *to) \
    { \
        memcpy(to, from, sizeof(MPI_Status)); \
        return MPI_SUCCESS; \
    }
CONVERSION(c2f, MPI_Status, MPI_Fint)
CONVERSION(f2c, MPI_Fint, MPI_Status)
CONVERSION(c2f08, MPI_Status, MPI_F08_status)
CONVERSION(f082c, MPI_F08_status, MPI_Status)
CONVERSION(f2f08, MPI_Fint, MPI_F08_status)
CONVERSION(f082f, MPI_F08_status, MPI_Fint)
