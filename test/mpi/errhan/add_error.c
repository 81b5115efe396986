/* User error classes, codes and strings (MPI 4.1, 9.5): MPI_Add_error_class and MPI_Add_error_code
 * give new values above MPI_ERR_LASTCODE here, MPI_Error_class maps a code to its class,
 * MPI_Error_string gives the string set by MPI_Add_error_string ("" before one is set, the latest
 * after a second call), MPI_LASTUSEDCODE is always >= MPI_ERR_LASTCODE and grows to each new value,
 * and an error handler called with a user code receives that very code. Errors: a string for a
 * predefined code, a string of MPI_MAX_ERROR_STRING characters, a code for a class that does not
 * exist (all MPI_ERR_ARG). Every rank does the same: the values are each process's own. */
#include "mtest.h"

static int handled = -1;

static void handler(MPI_Comm *comm, int *code, ...)
{
    (void) comm;
    handled = *code;
}

static int lastused(void)
{
    int *v = NULL, flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &v, &flag));
    CHECK(flag, "MPI_LASTUSEDCODE is not set");
    return flag ? *v : -1;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int last0 = lastused();
    CHECK(last0 >= MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE %d < MPI_ERR_LASTCODE %d", last0, MPI_ERR_LASTCODE);

    int cls1, cls2, code1a, code1b, code_arg, got;
    CHECK_MPI(MPI_Add_error_class(&cls1));
    CHECK(cls1 > MPI_ERR_LASTCODE, "new class %d", cls1);
    CHECK_EQ(lastused(), cls1);
    CHECK_MPI(MPI_Add_error_code(cls1, &code1a));
    CHECK_MPI(MPI_Add_error_class(&cls2));
    CHECK_MPI(MPI_Add_error_code(cls1, &code1b));
    CHECK_MPI(MPI_Add_error_code(MPI_ERR_ARG, &code_arg));
    CHECK_EQ(lastused(), code_arg);
    int all[5] = { cls1, cls2, code1a, code1b, code_arg };
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < i; j++)
            CHECK(all[i] != all[j], "values %d and %d are both %d", i, j, all[i]);

    CHECK_MPI(MPI_Error_class(cls1, &got));
    CHECK_EQ(got, cls1);
    CHECK_MPI(MPI_Error_class(cls2, &got));
    CHECK_EQ(got, cls2);
    CHECK_MPI(MPI_Error_class(code1a, &got));
    CHECK_EQ(got, cls1);
    CHECK_MPI(MPI_Error_class(code1b, &got));
    CHECK_EQ(got, cls1);
    CHECK_MPI(MPI_Error_class(code_arg, &got));
    CHECK_EQ(got, MPI_ERR_ARG);

    char s[MPI_MAX_ERROR_STRING];
    int len = -1;
    CHECK_MPI(MPI_Error_string(code1a, s, &len));
    CHECK(len == 0 && s[0] == '\0', "no string set, got \"%s\" (%d)", s, len);
    CHECK_MPI(MPI_Add_error_string(cls1, "the first class"));
    CHECK_MPI(MPI_Add_error_string(code1a, "first try"));
    CHECK_MPI(MPI_Add_error_string(code1a, "a code of the first class"));
    CHECK_MPI(MPI_Error_string(code1a, s, &len));
    CHECK(strcmp(s, "a code of the first class") == 0 && len == 25, "\"%s\" (%d)", s, len);
    CHECK_MPI(MPI_Error_string(cls1, s, &len));
    CHECK(strcmp(s, "the first class") == 0 && len == 15, "\"%s\" (%d)", s, len);

    /* errors */
    char longstr[MPI_MAX_ERROR_STRING + 1];
    memset(longstr, 'x', MPI_MAX_ERROR_STRING);
    longstr[MPI_MAX_ERROR_STRING] = '\0';
    CHECK_ERR(MPI_Add_error_string(code1b, longstr), MPI_ERR_ARG);
    longstr[MPI_MAX_ERROR_STRING - 1] = '\0';       /* the longest allowed */
    CHECK_MPI(MPI_Add_error_string(code1b, longstr));
    CHECK_MPI(MPI_Error_string(code1b, s, &len));
    CHECK_EQ(len, MPI_MAX_ERROR_STRING - 1);
    CHECK_ERR(MPI_Add_error_string(MPI_ERR_TYPE, "mine"), MPI_ERR_ARG);
    CHECK_ERR(MPI_Add_error_code(code1a, &got), MPI_ERR_ARG);      /* a code, not a class */
    CHECK_ERR(MPI_Add_error_code(lastused() + 1, &got), MPI_ERR_ARG);
    CHECK_MPI(MPI_Error_string(MPI_ERR_TYPE, s, &len));
    CHECK(strcmp(s, "mine") != 0, "the predefined string changed");

    /* an error handler sees the user's code unchanged */
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Comm_create_errhandler(handler, &eh));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh));
    CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_SELF, code1a));
    CHECK_EQ(handled, code1a);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Errhandler_free(&eh));
    return MTest_Finalize();
}
