/*
 * The info functions may be called before MPI_Init and after MPI_Finalize (MPI 4.1, "MPI
 * Functionality that is Always Available"). MPI_INFO_ENV and MPI_Info_create_env hold the same keys
 * before MPI_Init, while MPI is initialized and after MPI_Finalize (info_env_preinit.c checks the
 * values).
 */
#include "mtest.h"

static int has_key(MPI_Info info, const char *key)
{
    int flag = -1, len;
    CHECK_MPI(MPI_Info_get_valuelen(info, key, &len, &flag));
    return flag;
}

static int exercise(void)
{
    int errs = mtest_errs;
    MPI_Info info, copy;
    char value[16], key[MPI_MAX_INFO_KEY];
    int flag, n, buflen = sizeof value;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "k1", "v1"));
    CHECK_MPI(MPI_Info_set(info, "k2", "v2"));
    CHECK_MPI(MPI_Info_get_string(info, "k2", &buflen, value, &flag));
    CHECK(flag == 1 && buflen == 3 && strcmp(value, "v2") == 0, "flag %d, buflen %d, \"%s\"", flag, buflen, value);
    CHECK_MPI(MPI_Info_dup(info, &copy));
    CHECK_MPI(MPI_Info_delete(copy, "k1"));
    CHECK_MPI(MPI_Info_get_nkeys(copy, &n));
    CHECK_EQ(n, 1);
    CHECK_MPI(MPI_Info_get_nthkey(copy, 0, key));
    CHECK(strcmp(key, "k2") == 0, "key 0 is \"%s\"", key);
    CHECK_MPI(MPI_Info_free(&copy));
    CHECK_MPI(MPI_Info_free(&info));
    CHECK(info == MPI_INFO_NULL, "free left %#x", (unsigned) info);
    CHECK_MPI(MPI_Info_create_env(0, NULL, &info));
    CHECK(has_key(info, "command"), "create_env gave no command");
    CHECK_MPI(MPI_Info_free(&info));
    return mtest_errs == errs;
}

int main(int argc, char **argv)
{
    int flag;
    MPI_Initialized(&flag);
    CHECK_EQ(flag, 0);
    CHECK(exercise(), "before MPI_Init");
    CHECK(has_key(MPI_INFO_ENV, "command"), "MPI_INFO_ENV has no command before MPI_Init");
    CHECK(has_key(MPI_INFO_ENV, "maxprocs"), "MPI_INFO_ENV has no maxprocs before MPI_Init");
    CHECK(has_key(MPI_INFO_ENV, "thread_level"), "MPI_INFO_ENV has no thread_level before MPI_Init");
    MPI_Info early;
    CHECK_MPI(MPI_Info_create(&early));     /* created before MPI_Init, used and freed after */
    CHECK_MPI(MPI_Info_set(early, "when", "before"));

    MPI_Init(&argc, &argv);
    CHECK(exercise(), "while initialized");
    CHECK(has_key(MPI_INFO_ENV, "maxprocs"), "MPI_INFO_ENV has no maxprocs after MPI_Init");
    CHECK(has_key(MPI_INFO_ENV, "thread_level"), "MPI_INFO_ENV has no thread_level after MPI_Init");
    CHECK(has_key(early, "when"), "the early object lost its key");
    CHECK_MPI(MPI_Info_free(&early));
    MPI_Info late;
    CHECK_MPI(MPI_Info_create(&late));      /* created now, freed after MPI_Finalize */
    MPI_Finalize();

    CHECK(exercise(), "after MPI_Finalize");
    CHECK(has_key(MPI_INFO_ENV, "maxprocs"), "MPI_INFO_ENV lost maxprocs at MPI_Finalize");
    CHECK_MPI(MPI_Info_free(&late));
    /* one process: no reduction is possible (or needed) after MPI_Finalize */
    if (mtest_errs == 0)
        printf(" No Errors\n");
    else
        printf(" Found %d errors\n", mtest_errs);
    return mtest_errs != 0;
}
