/*
 * MPI_Type_set_name / MPI_Type_get_name (MPI 4.1, "Naming Objects"):
 *  - a derived type has no name ("" and resultlen 0) until one is set; set replaces the old name;
 *  - the library keeps a copy (the caller may reuse its string at once);
 *  - leading blanks are significant, trailing blanks are not;
 *  - a name longer than MPI_MAX_OBJECT_NAME-1 characters is truncated, not refused;
 *  - predefined types may be renamed;
 *  - names are not copied by MPI_Type_dup;
 *  - errors: NULL name (MPI_ERR_ARG), freed or null type for set (MPI_ERR_TYPE).
 */
#include "mtest.h"

/* Checks that type is named want (with its length), and that the answer is NUL-terminated. */
#define CHECK_NAME(type, want) do { \
        char got_[MPI_MAX_OBJECT_NAME]; int len_ = -1; \
        memset(got_, '#', sizeof got_); \
        CHECK_MPI(MPI_Type_get_name((type), got_, &len_)); \
        if (len_ < 0 || len_ >= MPI_MAX_OBJECT_NAME || got_[len_] != '\0') \
            MTEST_FAIL("resultlen %d, or no NUL at that position", len_); \
        else if (strcmp(got_, (want)) != 0) \
            MTEST_FAIL("got \"%s\", expected \"%s\"", got_, (want)); \
        CHECK_EQ(len_, (int) strlen(want)); \
    } while (0)

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    MPI_Datatype vec, dup;
    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &vec));

    /* unnamed derived type */
    CHECK_NAME(vec, "");

    /* set, then set again: the last name wins */
    CHECK_MPI(MPI_Type_set_name(vec, "column"));
    CHECK_NAME(vec, "column");
    CHECK_MPI(MPI_Type_set_name(vec, "stride-2 ints"));
    CHECK_NAME(vec, "stride-2 ints");

    /* the name is copied: overwriting the caller's buffer changes nothing */
    char buf[32];
    strcpy(buf, "from a buffer");
    CHECK_MPI(MPI_Type_set_name(vec, buf));
    memset(buf, 'z', sizeof buf - 1);
    CHECK_NAME(vec, "from a buffer");

    /* blanks: leading ones are kept, trailing ones dropped */
    CHECK_MPI(MPI_Type_set_name(vec, "  lead"));
    CHECK_NAME(vec, "  lead");
    CHECK_MPI(MPI_Type_set_name(vec, "trail   "));
    CHECK_NAME(vec, "trail");
    CHECK_MPI(MPI_Type_set_name(vec, " in side "));
    CHECK_NAME(vec, " in side");
    CHECK_MPI(MPI_Type_set_name(vec, "    "));
    CHECK_NAME(vec, "");
    CHECK_MPI(MPI_Type_set_name(vec, ""));
    CHECK_NAME(vec, "");

    /* truncation to MPI_MAX_OBJECT_NAME-1 = 127 characters */
    char longname[300], want[MPI_MAX_OBJECT_NAME];
    for (int i = 0; i < 299; i++)
        longname[i] = (char) ('a' + i % 26);
    longname[299] = '\0';
    memcpy(want, longname, 127);
    want[127] = '\0';
    CHECK_MPI(MPI_Type_set_name(vec, longname));
    CHECK_NAME(vec, want);
    longname[127] = '\0';       /* exactly 127: kept whole */
    CHECK_MPI(MPI_Type_set_name(vec, longname));
    CHECK_NAME(vec, want);
    longname[126] = '\0';       /* 126 */
    CHECK_MPI(MPI_Type_set_name(vec, longname));
    CHECK_NAME(vec, longname);

    /* dup does not copy the name; the original keeps its own */
    CHECK_MPI(MPI_Type_set_name(vec, "original"));
    CHECK_MPI(MPI_Type_dup(vec, &dup));
    CHECK_NAME(dup, "");
    CHECK_NAME(vec, "original");
    CHECK_MPI(MPI_Type_set_name(dup, "copy"));
    CHECK_NAME(dup, "copy");
    CHECK_NAME(vec, "original");
    CHECK_MPI(MPI_Type_free(&dup));

    /* a dup of a predefined type is a derived type without a name */
    CHECK_MPI(MPI_Type_dup(MPI_DOUBLE, &dup));
    CHECK_NAME(dup, "");
    CHECK_MPI(MPI_Type_free(&dup));

    /* predefined types may be renamed; the new name is seen through every use of the handle */
    CHECK_NAME(MPI_FLOAT, "MPI_FLOAT");
    CHECK_MPI(MPI_Type_set_name(MPI_FLOAT, "single precision"));
    CHECK_NAME(MPI_FLOAT, "single precision");
    CHECK_NAME(MPI_DOUBLE, "MPI_DOUBLE");
    CHECK_MPI(MPI_Type_set_name(MPI_FLOAT, "MPI_FLOAT"));
    CHECK_NAME(MPI_FLOAT, "MPI_FLOAT");

    /* errors */
    CHECK_ERR(MPI_Type_set_name(vec, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_set_name(MPI_DATATYPE_NULL, "x"), MPI_ERR_TYPE);
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    CHECK_ERR(MPI_Type_get_name(vec, NULL, &len), MPI_ERR_ARG);
    CHECK_ERR(MPI_Type_get_name(vec, name, NULL), MPI_ERR_ARG);
    CHECK_NAME(vec, "original");        /* failed calls changed nothing */

    MPI_Datatype stale = vec;
    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_ERR(MPI_Type_set_name(stale, "x"), MPI_ERR_TYPE);
    CHECK_ERR(MPI_Type_get_name(stale, name, &len), MPI_ERR_TYPE);

    return MTest_Finalize();
}
