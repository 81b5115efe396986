/* MPI_Get_processor_name: the host name, which names the machine the process runs on. */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"
#include <errno.h>
#include <unistd.h>

/* name must hold MPI_MAX_PROCESSOR_NAME characters; a longer host name is truncated to
 * MPI_MAX_PROCESSOR_NAME - 1 characters and the NUL. */
int MPIR_Get_processor_name_impl(char *name, int *resultlen)
{
    char host[1024];
    if (gethostname(host, sizeof host) != 0)
        return MPIR_Err(MPI_ERR_OTHER, "gethostname failed: %s", strerror(errno));
    host[sizeof host - 1] = '\0';
    size_t len = strnlen(host, MPI_MAX_PROCESSOR_NAME - 1);
    memcpy(name, host, len);
    name[len] = '\0';
    *resultlen = (int) len;
    return MPI_SUCCESS;
}
