/*
 * The message of an error code (MPI_Error_string) names the function with its arguments and then
 * says which argument was bad, e.g.
 *   MPI_Type_vector(count=-1, blocklength=2, stride=4, oldtype=MPI_INT, ...): invalid count ...
 * and MPI_Error_class still gives the class.
 */
#include "mtest.h"

#define INTS(...) ((int[]) { __VA_ARGS__ })
#define AINTS(...) ((MPI_Aint[]) { __VA_ARGS__ })
#define TYPES(...) ((MPI_Datatype[]) { __VA_ARGS__ })

/* Whether text contains one of the '|'-separated words. */
static int contains_any(const char *text, const char *words)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", words);
    for (char *w = strtok(buf, "|"); w; w = strtok(NULL, "|"))
        if (strstr(text, w))
            return 1;
    return 0;
}

/* rc must be of class cls, its message must contain call, and the reason after the argument
 * list must contain one of the '|'-separated words of reason. */
static void check_message(int line, int rc, int cls, const char *call, const char *reason)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = -1, got_cls = -1;

    if (rc == MPI_SUCCESS) {
        MTEST_FAIL("line %d: the call succeeded, expected an error mentioning \"%s\"", line, call);
        return;
    }
    CHECK_MPI(MPI_Error_class(rc, &got_cls));
    CHECK(got_cls == cls, "line %d: class %d, expected %d", line, got_cls, cls);
    memset(msg, 'x', sizeof msg);
    CHECK_MPI(MPI_Error_string(rc, msg, &len));
    CHECK(len > 0 && len < MPI_MAX_ERROR_STRING && msg[len] == '\0' && (int) strlen(msg) == len,
          "line %d: resultlen %d does not match the message", line, len);
    msg[MPI_MAX_ERROR_STRING - 1] = '\0';
    const char *where = strstr(msg, call);
    CHECK(where != NULL, "line %d: message \"%s\" lacks \"%s\"", line, msg, call);
    const char *after = where ? strstr(where, "): ") : NULL;
    CHECK(after && contains_any(after, reason),
          "line %d: message \"%s\" gives no reason mentioning \"%s\"", line, msg, reason);
}

#define EXPECT(call_expr, cls, call, reason) check_message(__LINE__, (call_expr), cls, call, reason)

int main(int argc, char **argv)
{
    MPI_Datatype t, v;
    int size, ni, na, nd, ints[8];
    MPI_Aint addrs[8];
    MPI_Datatype types[8];

    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    EXPECT(MPI_Type_vector(-1, 2, 4, MPI_INT, &t), MPI_ERR_COUNT,
           "MPI_Type_vector(count=-1, blocklength=2, stride=4, oldtype=MPI_INT", "count");
    EXPECT(MPI_Type_vector(3, -2, 4, MPI_INT, &t), MPI_ERR_COUNT,
           "MPI_Type_vector(count=3, blocklength=-2, stride=4, oldtype=MPI_INT", "blocklength");
    EXPECT(MPI_Type_contiguous_c(-7, MPI_DOUBLE, &t), MPI_ERR_COUNT,
           "MPI_Type_contiguous_c(count=-7, oldtype=MPI_DOUBLE", "count");
    EXPECT(MPI_Type_indexed(3, INTS(1, -1, 2), INTS(0, 4, 8), MPI_INT, &t), MPI_ERR_COUNT,
           "MPI_Type_indexed(count=3", "array_of_blocklengths[1]");
    EXPECT(MPI_Type_create_struct(2, INTS(1, 1), AINTS(0, 8), TYPES(MPI_INT, (MPI_Datatype) 12345),
                                  &t), MPI_ERR_TYPE, "MPI_Type_create_struct(count=2", "array_of_types[1]");
    EXPECT(MPI_Type_contiguous(2, MPI_INT, NULL), MPI_ERR_ARG,
           "MPI_Type_contiguous(count=2, oldtype=MPI_INT", "newtype");
    EXPECT(MPI_Type_size((MPI_Datatype) 12345, &size), MPI_ERR_TYPE, "MPI_Type_size(datatype=",
           "datatype");
    EXPECT(MPI_Type_dup(MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE, "MPI_Type_dup(oldtype=", "oldtype");
    EXPECT(MPI_Type_get_envelope(MPI_INT, &ni, &na, &nd, NULL), MPI_ERR_ARG,
           "MPI_Type_get_envelope(datatype=MPI_INT", "combiner");

    /* free on a predefined type says so */
    t = MPI_INT;
    EXPECT(MPI_Type_free(&t), MPI_ERR_TYPE, "MPI_Type_free(datatype=", "predefined|MPI_INT");

    /* decoding errors say what was wrong */
    EXPECT(MPI_Type_get_contents(MPI_INT, 8, 8, 8, ints, addrs, types), MPI_ERR_TYPE,
           "MPI_Type_get_contents(datatype=MPI_INT", "named|predefined");
    CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_INT, &v));
    EXPECT(MPI_Type_get_contents(v, 2, 0, 1, ints, addrs, types), MPI_ERR_ARG,
           "MPI_Type_get_contents(", "max_integers|integers");
    EXPECT(MPI_Type_get_contents(v, 3, 0, 0, ints, addrs, types), MPI_ERR_ARG,
           "MPI_Type_get_contents(", "max_datatypes|datatypes");

    /* a freed handle */
    MPI_Datatype stale = v;
    CHECK_MPI(MPI_Type_free(&v));
    EXPECT(MPI_Type_commit(&stale), MPI_ERR_TYPE, "MPI_Type_commit(", "datatype");

    /* subarray and darray name the offending argument */
    EXPECT(MPI_Type_create_subarray(0, INTS(4), INTS(2), INTS(0), MPI_ORDER_C, MPI_INT, &t),
           MPI_ERR_DIMS, "MPI_Type_create_subarray(ndims=0", "ndims");
    EXPECT(MPI_Type_create_subarray(2, INTS(4, 5), INTS(2, 6), INTS(0, 0), MPI_ORDER_C, MPI_INT, &t),
           MPI_ERR_ARG, "MPI_Type_create_subarray(ndims=2", "subsizes");
    EXPECT(MPI_Type_create_darray(4, 5, 1, INTS(8), INTS(MPI_DISTRIBUTE_BLOCK),
                                  INTS(MPI_DISTRIBUTE_DFLT_DARG), INTS(4), MPI_ORDER_C, MPI_INT, &t),
           MPI_ERR_RANK, "MPI_Type_create_darray(size=4, rank=5", "rank");

    return MTest_Finalize();
}
