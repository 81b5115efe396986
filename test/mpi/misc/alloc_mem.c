/*
 * MPI_Alloc_mem and MPI_Free_mem: usable, distinct memory for every size including 0, aligned to at
 * least 64 bytes (more when the MPI 4.1 info key "mpi_minimum_memory_alignment" asks), and the
 * errors: negative size (MPI_ERR_ARG), a size no machine has (MPI_ERR_NO_MEM), a bad info handle.
 */
#include "mtest.h"
#include <stdint.h>

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    /* every size gives memory that can be written whole */
    MPI_Aint sizes[] = { 0, 1, 7, 4096, 1 << 20 };
    void *p[5] = { NULL };
    for (int i = 0; i < 5; i++) {
        CHECK_MPI(MPI_Alloc_mem(sizes[i], MPI_INFO_NULL, &p[i]));
        CHECK(p[i] != NULL, "size %ld gave NULL", (long) sizes[i]);
        CHECK((uintptr_t) p[i] % 64 == 0, "size %ld gave %p, not 64-byte aligned", (long) sizes[i], p[i]);
        memset(p[i], 0xa5, (size_t) sizes[i]);
    }
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < i; j++)
            CHECK(p[i] != p[j], "sizes %ld and %ld share %p", (long) sizes[i], (long) sizes[j], p[i]);
    CHECK(((unsigned char *) p[4])[(1 << 20) - 1] == 0xa5, "the last byte did not keep its value");
    for (int i = 0; i < 5; i++)
        CHECK_MPI(MPI_Free_mem(p[i]));

    /* the alignment hint, and hints it does not understand */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_minimum_memory_alignment", "4096");
    MPI_Info_set(info, "some_other_hint", "true");
    void *q = NULL;
    CHECK_MPI(MPI_Alloc_mem(100, info, &q));
    CHECK(q && (uintptr_t) q % 4096 == 0, "alignment 4096 requested, got %p", q);
    CHECK_MPI(MPI_Free_mem(q));
    MPI_Info_set(info, "mpi_minimum_memory_alignment", "48");      /* not a power of two: ignored */
    CHECK_MPI(MPI_Alloc_mem(100, info, &q));
    CHECK(q && (uintptr_t) q % 64 == 0, "got %p", q);
    CHECK_MPI(MPI_Free_mem(q));

    /* errors; a failed call leaves baseptr alone */
    q = &info;
    CHECK_ERR(MPI_Alloc_mem(-1, MPI_INFO_NULL, &q), MPI_ERR_ARG);
    CHECK_ERR(MPI_Alloc_mem((MPI_Aint) 1 << 60, MPI_INFO_NULL, &q), MPI_ERR_NO_MEM);
    CHECK(q == (void *) &info, "a failed call changed baseptr to %p", q);
    CHECK_ERR(MPI_Alloc_mem(8, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
    MPI_Info stale = info;
    MPI_Info_free(&info);
    CHECK_ERR(MPI_Alloc_mem(8, stale, &q), MPI_ERR_INFO);
    CHECK_MPI(MPI_Free_mem(NULL));  /* like free(NULL) */

    return MTest_Finalize();
}
