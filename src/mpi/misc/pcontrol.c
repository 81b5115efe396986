/* MPI_Pcontrol: the library has no profiling of its own to control, so every level is accepted
 * and changes nothing; a profiling library that defines MPI_Pcontrol gets the calls instead. */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"

int MPIR_Pcontrol_impl(int level)
{
    (void) level;
    return MPI_SUCCESS;
}
