/*
 * The Fortran handle conversions of the other objects (datatypes: datatype/type_c2f.c):
 * MPI_X_f2c(MPI_X_c2f(h)) is h for communicators, groups, error handlers, operations, info
 * objects, requests, messages and windows, predefined and created, and the converted handle
 * works: a communicator answers its size, a group compares equal, a pending request completes
 * through it, a matched message is received through it. The null handles convert back to
 * themselves, and distinct objects get distinct Fortran handles.
 */
#include "mtest.h"

#define ROUND_TRIP(X, h) CHECK(MPI_##X##_f2c(MPI_##X##_c2f(h)) == (h), "MPI_" #X "_f2c(MPI_" #X "_c2f(" #h ")) differs")

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);

    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    ROUND_TRIP(Comm, MPI_COMM_WORLD);
    ROUND_TRIP(Comm, MPI_COMM_SELF);
    ROUND_TRIP(Comm, MPI_COMM_NULL);
    ROUND_TRIP(Comm, dup);
    CHECK(MPI_Comm_c2f(dup) != MPI_Comm_c2f(MPI_COMM_WORLD), "a duplicate shares its Fortran handle");
    int size = -1, wsize = -2;
    CHECK_MPI(MPI_Comm_size(MPI_Comm_f2c(MPI_Comm_c2f(dup)), &size));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &wsize));
    CHECK_EQ(size, wsize);

    MPI_Group group;
    CHECK_MPI(MPI_Comm_group(dup, &group));
    ROUND_TRIP(Group, group);
    ROUND_TRIP(Group, MPI_GROUP_EMPTY);
    ROUND_TRIP(Group, MPI_GROUP_NULL);
    int cmp = -1;
    CHECK_MPI(MPI_Group_compare(MPI_Group_f2c(MPI_Group_c2f(group)), group, &cmp));
    CHECK_EQ(cmp, MPI_IDENT);
    CHECK_MPI(MPI_Group_free(&group));

    ROUND_TRIP(Errhandler, MPI_ERRORS_ARE_FATAL);
    ROUND_TRIP(Errhandler, MPI_ERRORS_RETURN);
    ROUND_TRIP(Errhandler, MPI_ERRHANDLER_NULL);
    CHECK(MPI_Errhandler_c2f(MPI_ERRORS_RETURN) != MPI_Errhandler_c2f(MPI_ERRORS_ARE_FATAL),
          "two error handlers share a Fortran handle");
    CHECK_MPI(MPI_Comm_set_errhandler(dup, MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRORS_RETURN))));
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Comm_get_errhandler(dup, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "the converted error handler is another one");
    CHECK_MPI(MPI_Errhandler_free(&eh));

    ROUND_TRIP(Op, MPI_SUM);
    ROUND_TRIP(Op, MPI_MAXLOC);
    ROUND_TRIP(Op, MPI_OP_NULL);
    CHECK(MPI_Op_c2f(MPI_SUM) != MPI_Op_c2f(MPI_PROD), "two operations share a Fortran handle");

    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    ROUND_TRIP(Info, info);
    ROUND_TRIP(Info, MPI_INFO_NULL);
    CHECK_MPI(MPI_Info_free(&info));

    /* a message to myself: its receive request and its matched message go through Fortran */
    int rank, sent = 42, got = 0;
    CHECK_MPI(MPI_Comm_rank(dup, &rank));
    MPI_Request req;
    CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, rank, 7, dup, &req));
    ROUND_TRIP(Request, req);
    ROUND_TRIP(Request, MPI_REQUEST_NULL);
    MPI_Request via = MPI_Request_f2c(MPI_Request_c2f(req));
    CHECK_MPI(MPI_Send(&sent, 1, MPI_INT, rank, 7, dup));
    CHECK_MPI(MPI_Wait(&via, MPI_STATUS_IGNORE));
    CHECK_EQ(got, 42);

    MPI_Message msg;
    CHECK_MPI(MPI_Isend(&sent, 1, MPI_INT, rank, 8, dup, &req));
    CHECK_MPI(MPI_Mprobe(rank, 8, dup, &msg, MPI_STATUS_IGNORE));
    ROUND_TRIP(Message, msg);
    ROUND_TRIP(Message, MPI_MESSAGE_NULL);
    MPI_Message mvia = MPI_Message_f2c(MPI_Message_c2f(msg));
    got = 0;
    CHECK_MPI(MPI_Mrecv(&got, 1, MPI_INT, &mvia, MPI_STATUS_IGNORE));
    CHECK_EQ(got, 42);
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));

    MPI_Win win;
    CHECK_MPI(MPI_Win_create(&got, sizeof got, 1, MPI_INFO_NULL, dup, &win));
    ROUND_TRIP(Win, win);
    ROUND_TRIP(Win, MPI_WIN_NULL);
    CHECK_MPI(MPI_Win_free(&win));

    CHECK_MPI(MPI_Comm_free(&dup));
    return MTest_Finalize();
}
