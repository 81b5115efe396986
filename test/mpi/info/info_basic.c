/*
 * Info objects (MPI 4.1, chapter 11): set, get in its three forms, the key count and numbering,
 * delete, dup and free. Keys are numbered in the order they were first set: a new value keeps the
 * key's place, a delete closes the gap (MPICH and Open MPI number them the same way).
 */
#include "mtest.h"

/* The n-th key of info must be want. */
#define CHECK_NTH(info, n, want) do { \
        char k_[MPI_MAX_INFO_KEY]; \
        memset(k_, 'x', sizeof k_); \
        CHECK_MPI(MPI_Info_get_nthkey(info, n, k_)); \
        CHECK(strcmp(k_, want) == 0, "key %d is \"%.40s\", expected \"%s\"", n, k_, want); \
    } while (0)

static int nkeys(MPI_Info info)
{
    int n = -1;
    CHECK_MPI(MPI_Info_get_nkeys(info, &n));
    return n;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Info info = MPI_INFO_NULL, copy = MPI_INFO_NULL;
    char value[64];
    int flag = -1, len = -1;

    CHECK_MPI(MPI_Info_create(&info));
    CHECK(info != MPI_INFO_NULL, "MPI_Info_create gave MPI_INFO_NULL");
    CHECK_EQ(nkeys(info), 0);
    CHECK_MPI(MPI_Info_get(info, "absent", sizeof value - 1, value, &flag));
    CHECK_EQ(flag, 0);

    /* ---- set, and the order of keys ---- */
    CHECK_MPI(MPI_Info_set(info, "alpha", "1"));
    CHECK_MPI(MPI_Info_set(info, "beta", "twenty-two"));
    CHECK_MPI(MPI_Info_set(info, "gamma", ""));             /* an empty value is a value */
    CHECK_EQ(nkeys(info), 3);
    CHECK_NTH(info, 0, "alpha");
    CHECK_NTH(info, 1, "beta");
    CHECK_NTH(info, 2, "gamma");
    CHECK_MPI(MPI_Info_set(info, "alpha", "one hundred"));  /* a new value: same place, no new key */
    CHECK_EQ(nkeys(info), 3);
    CHECK_NTH(info, 0, "alpha");
    CHECK_MPI(MPI_Info_set(info, "Beta", "case matters"));  /* keys are case sensitive */
    CHECK_EQ(nkeys(info), 4);
    CHECK_NTH(info, 3, "Beta");

    /* ---- MPI_Info_get: valuelen characters at most, plus the NUL ---- */
    memset(value, '#', sizeof value);
    CHECK_MPI(MPI_Info_get(info, "alpha", sizeof value - 1, value, &flag));
    CHECK_EQ(flag, 1);
    CHECK(strcmp(value, "one hundred") == 0, "alpha = \"%s\"", value);
    memset(value, '#', sizeof value);
    CHECK_MPI(MPI_Info_get(info, "beta", 6, value, &flag));
    CHECK_EQ(flag, 1);
    CHECK(memcmp(value, "twenty\0#", 8) == 0, "truncated beta = \"%s\"", value);
    memset(value, '#', sizeof value);
    CHECK_MPI(MPI_Info_get(info, "beta", 0, value, &flag));
    CHECK(flag == 1 && value[0] == '\0' && value[1] == '#', "valuelen 0 gave \"%.8s\"", value);
    CHECK_MPI(MPI_Info_get(info, "gamma", sizeof value - 1, value, &flag));
    CHECK(flag == 1 && value[0] == '\0', "gamma: flag %d, \"%s\"", flag, value);
    /* a missing key leaves value alone */
    strcpy(value, "untouched");
    CHECK_MPI(MPI_Info_get(info, "delta", sizeof value - 1, value, &flag));
    CHECK(flag == 0 && strcmp(value, "untouched") == 0, "missing key: flag %d, \"%s\"", flag, value);

    /* ---- MPI_Info_get_valuelen: the length without the NUL ---- */
    CHECK_MPI(MPI_Info_get_valuelen(info, "beta", &len, &flag));
    CHECK(flag == 1 && len == 10, "beta: flag %d, valuelen %d", flag, len);
    CHECK_MPI(MPI_Info_get_valuelen(info, "gamma", &len, &flag));
    CHECK(flag == 1 && len == 0, "gamma: flag %d, valuelen %d", flag, len);
    len = 77;
    CHECK_MPI(MPI_Info_get_valuelen(info, "delta", &len, &flag));
    CHECK_EQ(flag, 0);

    /* ---- MPI_Info_get_string: buflen counts the NUL, and returns the size needed ---- */
    int buflen = sizeof value;
    CHECK_MPI(MPI_Info_get_string(info, "alpha", &buflen, value, &flag));
    CHECK(flag == 1 && buflen == 12 && strcmp(value, "one hundred") == 0, "alpha: flag %d, buflen %d, \"%s\"",
          flag, buflen, value);
    buflen = 4;
    memset(value, '#', sizeof value);
    CHECK_MPI(MPI_Info_get_string(info, "alpha", &buflen, value, &flag));
    CHECK(flag == 1 && buflen == 12 && memcmp(value, "one\0#", 5) == 0, "truncated: flag %d, buflen %d, \"%s\"",
          flag, buflen, value);
    buflen = 0;     /* a size query: value may be NULL */
    CHECK_MPI(MPI_Info_get_string(info, "beta", &buflen, NULL, &flag));
    CHECK(flag == 1 && buflen == 11, "query: flag %d, buflen %d", flag, buflen);
    buflen = 1;
    value[0] = '#';
    CHECK_MPI(MPI_Info_get_string(info, "beta", &buflen, value, &flag));
    CHECK(flag == 1 && buflen == 11 && value[0] == '\0', "buflen 1: flag %d, buflen %d", flag, buflen);
    buflen = 9;
    strcpy(value, "untouched");
    CHECK_MPI(MPI_Info_get_string(info, "delta", &buflen, value, &flag));
    CHECK(flag == 0 && strcmp(value, "untouched") == 0, "missing key: flag %d, \"%s\"", flag, value);

    /* ---- dup: an independent copy, in the same order ---- */
    CHECK_MPI(MPI_Info_dup(info, &copy));
    CHECK(copy != info && copy != MPI_INFO_NULL, "dup gave %#x", (unsigned) copy);
    CHECK_EQ(nkeys(copy), 4);
    CHECK_NTH(copy, 0, "alpha");
    CHECK_NTH(copy, 1, "beta");
    CHECK_NTH(copy, 2, "gamma");
    CHECK_NTH(copy, 3, "Beta");
    CHECK_MPI(MPI_Info_set(copy, "alpha", "changed in the copy"));
    CHECK_MPI(MPI_Info_set(copy, "epsilon", "only in the copy"));
    CHECK_MPI(MPI_Info_get(info, "alpha", sizeof value - 1, value, &flag));
    CHECK(flag == 1 && strcmp(value, "one hundred") == 0, "original alpha = \"%s\"", value);
    CHECK_MPI(MPI_Info_get(info, "epsilon", sizeof value - 1, value, &flag));
    CHECK_EQ(flag, 0);

    /* ---- delete: the later keys move down ---- */
    CHECK_MPI(MPI_Info_delete(info, "beta"));
    CHECK_EQ(nkeys(info), 3);
    CHECK_NTH(info, 0, "alpha");
    CHECK_NTH(info, 1, "gamma");
    CHECK_NTH(info, 2, "Beta");
    CHECK_MPI(MPI_Info_get(info, "beta", sizeof value - 1, value, &flag));
    CHECK_EQ(flag, 0);
    CHECK_MPI(MPI_Info_get(copy, "beta", sizeof value - 1, value, &flag));    /* the copy still has it */
    CHECK(flag == 1 && strcmp(value, "twenty-two") == 0, "copy's beta: flag %d, \"%s\"", flag, value);
    CHECK_MPI(MPI_Info_set(info, "beta", "back"));       /* set again: now the last key */
    CHECK_NTH(info, 3, "beta");

    /* ---- dup of an empty object, free ---- */
    MPI_Info empty, empty_copy;
    CHECK_MPI(MPI_Info_create(&empty));
    CHECK_MPI(MPI_Info_dup(empty, &empty_copy));
    CHECK_EQ(nkeys(empty_copy), 0);
    CHECK_MPI(MPI_Info_free(&empty));
    CHECK_MPI(MPI_Info_free(&empty_copy));
    CHECK_MPI(MPI_Info_free(&info));
    CHECK(info == MPI_INFO_NULL, "free left %#x", (unsigned) info);
    CHECK_EQ(nkeys(copy), 5);       /* freeing the original leaves the copy */
    CHECK_MPI(MPI_Info_free(&copy));

    /* many keys: the list grows */
    CHECK_MPI(MPI_Info_create(&info));
    for (int i = 0; i < 300; i++) {
        char k[32], v[32];
        snprintf(k, sizeof k, "key%d", i);
        snprintf(v, sizeof v, "%d", i * i);
        CHECK_MPI(MPI_Info_set(info, k, v));
    }
    CHECK_EQ(nkeys(info), 300);
    CHECK_NTH(info, 299, "key299");
    CHECK_MPI(MPI_Info_get(info, "key123", sizeof value - 1, value, &flag));
    CHECK(flag == 1 && strcmp(value, "15129") == 0, "key123 = \"%s\"", value);
    CHECK_MPI(MPI_Info_free(&info));

    return MTest_Finalize();
}
