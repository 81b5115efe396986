/* Every predefined type goes from rank 0 to rank 1 and back, in a message of a few elements and in
 * one large enough for the device's pipelined protocol; the data that returns is compared with the
 * data sent through MPI_Pack (padding inside pair types such as MPI_LONG_DOUBLE_INT is not data).
 * The receiver checks the status: source, tag and MPI_Get_count. */
#include "mtest.h"
#include <stdlib.h>

static const struct { MPI_Datatype type; const char *name; } types[] = {
    { MPI_CHAR, "MPI_CHAR" }, { MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR" }, { MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR" },
    { MPI_BYTE, "MPI_BYTE" }, { MPI_WCHAR, "MPI_WCHAR" }, { MPI_SHORT, "MPI_SHORT" },
    { MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT" }, { MPI_INT, "MPI_INT" }, { MPI_UNSIGNED, "MPI_UNSIGNED" },
    { MPI_LONG, "MPI_LONG" }, { MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG" }, { MPI_LONG_LONG, "MPI_LONG_LONG" },
    { MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG" }, { MPI_FLOAT, "MPI_FLOAT" }, { MPI_DOUBLE, "MPI_DOUBLE" },
    { MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE" }, { MPI_C_BOOL, "MPI_C_BOOL" }, { MPI_INT8_T, "MPI_INT8_T" },
    { MPI_INT16_T, "MPI_INT16_T" }, { MPI_INT32_T, "MPI_INT32_T" }, { MPI_INT64_T, "MPI_INT64_T" },
    { MPI_UINT8_T, "MPI_UINT8_T" }, { MPI_UINT16_T, "MPI_UINT16_T" }, { MPI_UINT32_T, "MPI_UINT32_T" },
    { MPI_UINT64_T, "MPI_UINT64_T" }, { MPI_AINT, "MPI_AINT" }, { MPI_COUNT, "MPI_COUNT" },
    { MPI_OFFSET, "MPI_OFFSET" }, { MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX" },
    { MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX" }, { MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX" },
    { MPI_FLOAT_INT, "MPI_FLOAT_INT" }, { MPI_DOUBLE_INT, "MPI_DOUBLE_INT" }, { MPI_LONG_INT, "MPI_LONG_INT" },
    { MPI_2INT, "MPI_2INT" }, { MPI_SHORT_INT, "MPI_SHORT_INT" }, { MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT" },
    { MPI_CXX_BOOL, "MPI_CXX_BOOL" }, { MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX" },
    { MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX" },
    { MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX" }, { MPI_PACKED, "MPI_PACKED" },
    { MPI_CHARACTER, "MPI_CHARACTER" }, { MPI_LOGICAL, "MPI_LOGICAL" }, { MPI_INTEGER, "MPI_INTEGER" },
    { MPI_REAL, "MPI_REAL" }, { MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION" }, { MPI_COMPLEX, "MPI_COMPLEX" },
    { MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX" }, { MPI_INTEGER1, "MPI_INTEGER1" },
    { MPI_INTEGER2, "MPI_INTEGER2" }, { MPI_INTEGER4, "MPI_INTEGER4" }, { MPI_INTEGER8, "MPI_INTEGER8" },
    { MPI_INTEGER16, "MPI_INTEGER16" }, { MPI_REAL2, "MPI_REAL2" }, { MPI_REAL4, "MPI_REAL4" },
    { MPI_REAL8, "MPI_REAL8" }, { MPI_REAL16, "MPI_REAL16" }, { MPI_COMPLEX4, "MPI_COMPLEX4" },
    { MPI_COMPLEX8, "MPI_COMPLEX8" }, { MPI_COMPLEX16, "MPI_COMPLEX16" }, { MPI_COMPLEX32, "MPI_COMPLEX32" },
    { MPI_2REAL, "MPI_2REAL" }, { MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION" },
    { MPI_2INTEGER, "MPI_2INTEGER" },
};
#define NTYPES ((int) (sizeof types / sizeof types[0]))

/* The packed bytes of (buf, n, type): what a message of it carries. */
static char *packed(const void *buf, int n, MPI_Datatype type, int *size)
{
    MPI_Pack_size(n, type, MPI_COMM_WORLD, size);
    char *out = malloc((size_t) *size + 1);
    int pos = 0;
    CHECK_MPI(MPI_Pack(buf, n, type, out, *size, &pos, MPI_COMM_WORLD));
    CHECK_EQ(pos, *size);
    return out;
}

static void pingpong(int rank, int t, int n)
{
    MPI_Datatype type = types[t].type;
    MPI_Aint lb, extent;
    MPI_Type_get_extent(type, &lb, &extent);
    size_t bytes = (size_t) extent * (size_t) n;
    unsigned char *buf = malloc(bytes), *back = malloc(bytes);
    for (size_t i = 0; i < bytes; i++) {
        buf[i] = (unsigned char) (i * 7 + t * 13 + 1);
        back[i] = 0xee;
    }
    int tag = 100 + t;
    MPI_Status status;
    if (rank == 0) {
        CHECK_MPI(MPI_Send(buf, n, type, 1, tag, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(back, n, type, 1, tag, MPI_COMM_WORLD, &status));
        int count = -1;
        CHECK_MPI(MPI_Get_count(&status, type, &count));
        CHECK(count == n && status.MPI_SOURCE == 1 && status.MPI_TAG == tag,
              "%s x %d: returned count %d source %d tag %d", types[t].name, n, count, status.MPI_SOURCE,
              status.MPI_TAG);
        int s1, s2;
        char *p1 = packed(buf, n, type, &s1), *p2 = packed(back, n, type, &s2);
        CHECK(s1 == s2 && memcmp(p1, p2, (size_t) s1) == 0, "%s x %d: the data came back changed", types[t].name, n);
        free(p1);
        free(p2);
    } else if (rank == 1) {
        CHECK_MPI(MPI_Recv(back, n, type, 0, tag, MPI_COMM_WORLD, &status));
        int count = -1;
        CHECK_MPI(MPI_Get_count(&status, type, &count));
        CHECK(count == n && status.MPI_SOURCE == 0 && status.MPI_TAG == tag,
              "%s x %d: received count %d source %d tag %d", types[t].name, n, count, status.MPI_SOURCE,
              status.MPI_TAG);
        CHECK_MPI(MPI_Send(back, n, type, 0, tag, MPI_COMM_WORLD));
    }
    free(buf);
    free(back);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int t = 0; t < NTYPES; t++) {
        pingpong(rank, t, 3);
        pingpong(rank, t, 100000);  /* hundreds of KB: beyond any eager cell */
    }
    return MTest_Finalize();
}
