/*
 * Info errors: key and value lengths (a key has at most MPI_MAX_INFO_KEY - 1 characters, so it
 * fits the char[MPI_MAX_INFO_KEY] the standard lets applications declare; likewise values and
 * MPI_MAX_INFO_VAL), missing keys, invalid and freed handles, out-of-range key numbers, and the
 * read-only MPI_INFO_ENV.
 */
#include "mtest.h"
#include <stdlib.h>

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    MPI_Info info, freed;
    char value[MPI_MAX_INFO_VAL + 2], key[MPI_MAX_INFO_KEY + 2];
    int flag = -1, n = -1, buflen;
    CHECK_MPI(MPI_Info_create(&info));

    /* ---- key lengths ---- */
    memset(key, 'k', sizeof key);
    key[MPI_MAX_INFO_KEY - 1] = '\0';                       /* the longest key: 254 characters */
    CHECK_MPI(MPI_Info_set(info, key, "longest key"));
    CHECK_MPI(MPI_Info_get_nkeys(info, &n));
    CHECK_EQ(n, 1);
    char got[MPI_MAX_INFO_KEY];
    CHECK_MPI(MPI_Info_get_nthkey(info, 0, got));
    CHECK(strcmp(got, key) == 0, "the longest key came back as %zu characters", strlen(got));
    key[MPI_MAX_INFO_KEY - 1] = 'k';
    key[MPI_MAX_INFO_KEY] = '\0';                           /* 255 characters: too long */
    CHECK_ERR(MPI_Info_set(info, key, "x"), MPI_ERR_INFO_KEY);
    CHECK_ERR(MPI_Info_get(info, key, 10, value, &flag), MPI_ERR_INFO_KEY);
    CHECK_ERR(MPI_Info_get_valuelen(info, key, &n, &flag), MPI_ERR_INFO_KEY);
    buflen = sizeof value;
    CHECK_ERR(MPI_Info_get_string(info, key, &buflen, value, &flag), MPI_ERR_INFO_KEY);
    CHECK_ERR(MPI_Info_delete(info, key), MPI_ERR_INFO_KEY);
    CHECK_ERR(MPI_Info_set(info, "", "x"), MPI_ERR_INFO_KEY);
    CHECK_ERR(MPI_Info_get(info, "", 10, value, &flag), MPI_ERR_INFO_KEY);

    /* ---- value lengths ---- */
    memset(value, 'v', sizeof value);
    value[MPI_MAX_INFO_VAL - 1] = '\0';                     /* the longest value: 1023 characters */
    CHECK_MPI(MPI_Info_set(info, "long", value));
    CHECK_MPI(MPI_Info_get_valuelen(info, "long", &n, &flag));
    CHECK(flag == 1 && n == MPI_MAX_INFO_VAL - 1, "flag %d, valuelen %d", flag, n);
    value[MPI_MAX_INFO_VAL - 1] = 'v';
    value[MPI_MAX_INFO_VAL] = '\0';                         /* 1024: too long */
    CHECK_ERR(MPI_Info_set(info, "long", value), MPI_ERR_INFO_VALUE);
    CHECK_MPI(MPI_Info_get_valuelen(info, "long", &n, &flag));   /* the failed set changed nothing */
    CHECK(flag == 1 && n == MPI_MAX_INFO_VAL - 1, "after the failed set: flag %d, valuelen %d", flag, n);

    /* ---- missing keys, bad numbers and lengths ---- */
    CHECK_ERR(MPI_Info_delete(info, "never set"), MPI_ERR_INFO_NOKEY);
    CHECK_MPI(MPI_Info_get_nkeys(info, &n));
    CHECK_EQ(n, 2);
    CHECK_ERR(MPI_Info_get_nthkey(info, 2, got), MPI_ERR_ARG);
    CHECK_ERR(MPI_Info_get_nthkey(info, -1, got), MPI_ERR_ARG);
    CHECK_ERR(MPI_Info_get(info, "long", -1, value, &flag), MPI_ERR_ARG);
    buflen = -1;
    CHECK_ERR(MPI_Info_get_string(info, "long", &buflen, value, &flag), MPI_ERR_ARG);
    CHECK_ERR(MPI_Info_get(info, "long", 10, value, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Info_set(info, NULL, "x"), MPI_ERR_ARG);
    CHECK_ERR(MPI_Info_set(info, "x", NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Info_create(NULL), MPI_ERR_ARG);

    /* ---- invalid handles ---- */
    CHECK_MPI(MPI_Info_create(&freed));
    MPI_Info stale = freed;
    CHECK_MPI(MPI_Info_free(&freed));
    CHECK_ERR(MPI_Info_set(stale, "a", "b"), MPI_ERR_INFO);
    CHECK_ERR(MPI_Info_get_nkeys(stale, &n), MPI_ERR_INFO);
    CHECK_ERR(MPI_Info_dup(stale, &freed), MPI_ERR_INFO);
    CHECK_ERR(MPI_Info_free(&stale), MPI_ERR_INFO);
    CHECK_ERR(MPI_Info_get_nkeys(MPI_INFO_NULL, &n), MPI_ERR_INFO);
    MPI_Info null = MPI_INFO_NULL;
    CHECK_ERR(MPI_Info_free(&null), MPI_ERR_INFO);
    CHECK_ERR(MPI_Info_get_nkeys((MPI_Info) MPI_COMM_WORLD, &n), MPI_ERR_INFO);   /* another kind */
    CHECK_ERR(MPI_Info_get_nkeys((MPI_Info) 0x58000002, &n), MPI_ERR_INFO);       /* no such builtin */

    /* the message names the call and says what was wrong */
    int rc = MPI_Info_set(MPI_INFO_NULL, "a", "b"), len;
    char msg[MPI_MAX_ERROR_STRING];
    MPI_Error_string(rc, msg, &len);
    CHECK(strstr(msg, "MPI_Info_set") && strstr(msg, "MPI_INFO_NULL"), "message: %s", msg);

    /* ---- MPI_INFO_ENV is predefined and read-only ---- */
    MPI_Info env = MPI_INFO_ENV;
    CHECK_ERR(MPI_Info_free(&env), MPI_ERR_INFO);
    CHECK(env == MPI_INFO_ENV, "failed free changed the handle to %#x", (unsigned) env);
    CHECK_ERR(MPI_Info_set(MPI_INFO_ENV, "command", "x"), MPI_ERR_INFO);
    CHECK_ERR(MPI_Info_delete(MPI_INFO_ENV, "command"), MPI_ERR_INFO);
    CHECK_MPI(MPI_Info_get_nkeys(MPI_INFO_ENV, &n));        /* still usable */

    CHECK_MPI(MPI_Info_free(&info));
    return MTest_Finalize();
}
