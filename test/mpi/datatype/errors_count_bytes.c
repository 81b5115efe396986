/*
 * Valid types in counts that no buffer can hold, and statuses MPI never set:
 *   - a count whose bytes overflow MPI_Count: MPI_ERR_COUNT from every call that takes a
 *     (buffer, count, datatype): pack, unpack, their sizes, external32, send and receive in each
 *     mode, blocking or not, persistent (at init), send-receive (either half), and the collectives
 *     (on one rank, where they move nothing);
 *   - a count whose instances span more than the address space (a type of extent 2^62 + 8, three
 *     times): MPI_ERR_ARG, from the same calls;
 *   - a status whose hidden byte count is negative (all bits set, as garbage might be): MPI_ERR_ARG
 *     from MPI_Get_count and MPI_Get_elements, never a count computed from it;
 * Nothing is sent or received: every call must fail before it starts, so none can block.
 */
#include "mtest.h"

#define P62 ((MPI_Count) 1 << 62)

/* Every call that takes (buf, count, type), with the error class it must give. */
static void check_counts(MPI_Count count, MPI_Datatype type, int errclass)
{
    char buf[64] = { 0 };
    MPI_Count size = 0, pos = 0;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Comm self = MPI_COMM_SELF;

    if (errclass == MPI_ERR_COUNT) {   /* the size of a far-reaching type is fine */
        CHECK_ERR(MPI_Pack_size_c(count, type, self, &size), errclass);
        CHECK_ERR(MPI_Pack_external_size_c("external32", count, type, &size), errclass);
    }
    CHECK_ERR(MPI_Pack_c(buf, count, type, buf, sizeof buf, &pos, self), errclass);
    CHECK_ERR(MPI_Unpack_c(buf, sizeof buf, &pos, buf, count, type, self), errclass);
    CHECK_EQ(pos, 0);
    CHECK_ERR(MPI_Pack_external_c("external32", buf, count, type, buf, sizeof buf, &pos), errclass);
    CHECK_ERR(MPI_Unpack_external_c("external32", buf, sizeof buf, &pos, buf, count, type), errclass);
    CHECK_EQ(pos, 0);

    CHECK_ERR(MPI_Send_c(buf, count, type, 0, 0, self), errclass);
    CHECK_ERR(MPI_Ssend_c(buf, count, type, 0, 0, self), errclass);
    CHECK_ERR(MPI_Rsend_c(buf, count, type, 0, 0, self), errclass);
    CHECK_ERR(MPI_Isend_c(buf, count, type, 0, 0, self, &req), errclass);
    CHECK_ERR(MPI_Issend_c(buf, count, type, 0, 0, self, &req), errclass);
    CHECK_ERR(MPI_Irsend_c(buf, count, type, 0, 0, self, &req), errclass);
    /* buffered: refused before anything is copied into the (automatic) buffer */
    CHECK_ERR(MPI_Bsend_c(buf, count, type, 0, 0, self), errclass);
    CHECK_ERR(MPI_Ibsend_c(buf, count, type, 0, 0, self, &req), errclass);
    CHECK_ERR(MPI_Send_init_c(buf, count, type, 0, 0, self, &req), errclass);
    CHECK_ERR(MPI_Recv_init_c(buf, count, type, 0, 0, self, &req), errclass);
    CHECK_ERR(MPI_Recv_c(buf, count, type, 0, 0, self, MPI_STATUS_IGNORE), errclass);
    /* either half of a send-receive; with the receive already posted when the send fails, the
     * receive must be withdrawn (it would wait for ever) */
    CHECK_ERR(MPI_Sendrecv_c(buf, count, type, 0, 0, buf + 32, 1, MPI_INT, 0, 0, self, MPI_STATUS_IGNORE), errclass);
    CHECK_ERR(MPI_Sendrecv_c(buf, 1, MPI_INT, 0, 0, buf + 32, count, type, 0, 0, self, MPI_STATUS_IGNORE), errclass);
    CHECK_ERR(MPI_Sendrecv_replace_c(buf, count, type, 0, 0, 0, 0, self, MPI_STATUS_IGNORE), errclass);
    CHECK_ERR(MPI_Irecv_c(buf, count, type, 0, 0, self, &req), errclass);
    CHECK(req == MPI_REQUEST_NULL, "a failed call made a request");
    CHECK_ERR(MPI_Bcast_c(buf, count, type, 0, self), errclass);
    CHECK_ERR(MPI_Ibcast_c(buf, count, type, 0, self, &req), errclass);
    CHECK_ERR(MPI_Gather_c(buf, count, type, buf, count, type, 0, self), errclass);
    CHECK_ERR(MPI_Allgather_c(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, count, type, self), errclass);
    CHECK_ERR(MPI_Alltoall_c(buf, count, type, buf + 32, count, type, self), errclass);
    CHECK_ERR(MPI_Scatter_c(buf, count, type, buf + 32, count, type, 0, self), errclass);
    /* the v forms: the count is one rank's entry of an array */
    MPI_Count counts[1] = { count }, one[1] = { 1 };
    MPI_Aint displs[1] = { 0 };
    MPI_Datatype types[1] = { type }, ints[1] = { MPI_INT };
    CHECK_ERR(MPI_Gatherv_c(buf, 1, MPI_INT, buf + 32, counts, displs, type, 0, self), errclass);
    CHECK_ERR(MPI_Scatterv_c(buf, counts, displs, type, buf + 32, 1, MPI_INT, 0, self), errclass);
    CHECK_ERR(MPI_Allgatherv_c(buf, 1, MPI_INT, buf + 32, counts, displs, type, self), errclass);
    CHECK_ERR(MPI_Alltoallv_c(buf, counts, displs, type, buf + 32, one, displs, MPI_INT, self), errclass);
    CHECK_ERR(MPI_Alltoallw_c(buf, one, displs, ints, buf + 32, counts, displs, types, self), errclass);
    if (type == MPI_DOUBLE) {   /* reductions: a predefined type, so that the op applies */
        CHECK_ERR(MPI_Reduce_c(buf, buf + 32, count, type, MPI_SUM, 0, self), errclass);
        CHECK_ERR(MPI_Allreduce_c(buf, buf + 32, count, type, MPI_SUM, self), errclass);
        CHECK_ERR(MPI_Scan_c(buf, buf + 32, count, type, MPI_SUM, self), errclass);
        CHECK_ERR(MPI_Iallreduce_c(buf, buf + 32, count, type, MPI_SUM, self, &req), errclass);
    }
    CHECK(req == MPI_REQUEST_NULL, "a failed call made a request");
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    /* an attached buffer, so that a buffered send gets as far as its packing */
    static char attached[4096];
    CHECK_MPI(MPI_Buffer_attach(attached, sizeof attached));

    /* 2^62 doubles are 2^65 bytes */
    check_counts(P62, MPI_DOUBLE, MPI_ERR_COUNT);

    /* doubles at 0 and 2^62: 16 bytes, but three instances reach past 2^63 */
    MPI_Datatype far;
    CHECK_MPI(MPI_Type_create_hindexed_c(2, (MPI_Count[]) { 1, 1 }, (MPI_Count[]) { 0, P62 }, MPI_DOUBLE, &far));
    CHECK_MPI(MPI_Type_commit(&far));
    MPI_Count size = 0;
    CHECK_MPI(MPI_Pack_size_c(3, far, MPI_COMM_SELF, &size));
    CHECK_EQ(size, 48);
    check_counts(3, far, MPI_ERR_ARG);
    MPI_Type_free(&far);
    void *was;
    int was_size;
    CHECK_MPI(MPI_Buffer_detach(&was, &was_size));
    CHECK(was == attached && was_size == (int) sizeof attached, "the attached buffer came back changed");

    /* a status with every bit set */
    MPI_Status garbage;
    int count = 12345;
    MPI_Count ccount = 12345;
    memset(&garbage, 0xff, sizeof garbage);
    CHECK_ERR(MPI_Get_count(&garbage, MPI_INT, &count), MPI_ERR_ARG);
    CHECK_ERR(MPI_Get_elements(&garbage, MPI_INT, &count), MPI_ERR_ARG);
    CHECK_ERR(MPI_Get_elements_x(&garbage, MPI_INT, &ccount), MPI_ERR_ARG);
    CHECK_ERR(MPI_Get_count_c(&garbage, MPI_INT, &ccount), MPI_ERR_ARG);
    CHECK(count == 12345 && ccount == 12345, "a failed count query wrote its result");

    return MTest_Finalize();
}
