/* A program's own globals may have the names the library uses inside (shm, MPIR_Process,
 * MPID_Kernels, ...): the library exports only the MPI interface, so neither side sees the
 * other's objects. Were the library's objects exported, its references would bind to these
 * arrays, and the ring below would fail or scribble over them. */
#include "mtest.h"

#define FILL 0x5a
unsigned char shm[4096], MPIR_Process[4096], MPID_Kernels[4096], MPID_Builtin_types[4096],
    MPID_Datatype_pool[4096], MPID_Copy_chunk[4096], MPID_Progress_hook[4096];
static unsigned char *const mine[] = { shm, MPIR_Process, MPID_Kernels, MPID_Builtin_types,
                                       MPID_Datatype_pool, MPID_Copy_chunk, MPID_Progress_hook };
static const char *const names[] = { "shm", "MPIR_Process", "MPID_Kernels", "MPID_Builtin_types",
                                     "MPID_Datatype_pool", "MPID_Copy_chunk", "MPID_Progress_hook" };
enum { N_MINE = sizeof mine / sizeof mine[0] };

int main(int argc, char **argv)
{
    for (int k = 0; k < N_MINE; k++)
        memset(mine[k], FILL, sizeof shm);
    MTest_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* a ring of strided messages: datatypes, packing and the device all at work */
    double column[64], got[64];
    for (int i = 0; i < 64; i++)
        column[i] = rank * 100 + i;
    MPI_Datatype every_other;
    CHECK_MPI(MPI_Type_vector(32, 1, 2, MPI_DOUBLE, &every_other));
    CHECK_MPI(MPI_Type_commit(&every_other));
    for (int i = 0; i < 64; i++)
        got[i] = -1;
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    CHECK_MPI(MPI_Sendrecv(column, 1, every_other, right, 0, got, 1, every_other, left, 0,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int i = 0; i < 64; i++)
        CHECK(got[i] == (i % 2 ? -1 : left * 100 + i), "got[%d] = %g", i, got[i]);
    MPI_Type_free(&every_other);

    for (int k = 0; k < N_MINE; k++) {
        int changed = 0;
        for (size_t i = 0; i < sizeof shm; i++)
            changed += mine[k][i] != FILL;
        CHECK(changed == 0, "the program's %s: %d bytes changed by the library", names[k], changed);
    }
    return MTest_Finalize();
}
