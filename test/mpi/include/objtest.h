/*
 * Checks shared by the tests of object names and attributes (MPI 4.1, "Naming Objects" and
 * "Caching"), which work alike on communicators, windows and datatypes: a macro takes the object
 * kind's get function, and the log of delete-callback calls keeps an object's handle as a long long.
 */
#ifndef OBJTEST_H_INCLUDED
#define OBJTEST_H_INCLUDED

#include "mtest.h"

/* CHECK_NAME_OF(MPI_Win_get_name, win, "name"): the object's name is want, and so is the length. */
#define CHECK_NAME_OF(get_name, obj, want) do { \
        char n_[MPI_MAX_OBJECT_NAME]; int len_ = -1; \
        memset(n_, '#', sizeof n_); \
        CHECK_MPI(get_name((obj), n_, &len_)); \
        CHECK(strcmp(n_, (want)) == 0, "name \"%s\", expected \"%s\"", n_, (want)); \
        CHECK_EQ(len_, (int) strlen(want)); \
    } while (0)

/* A name too long for any object (letters a-z over and over), and the MPI_MAX_OBJECT_NAME - 1
 * characters of it that an object keeps. */
static inline void objtest_long_name(char name[3 * MPI_MAX_OBJECT_NAME], char kept[MPI_MAX_OBJECT_NAME])
{
    for (int i = 0; i < 3 * MPI_MAX_OBJECT_NAME - 1; i++)
        name[i] = (char) ('a' + i % 26);
    name[3 * MPI_MAX_OBJECT_NAME - 1] = '\0';
    memcpy(kept, name, MPI_MAX_OBJECT_NAME - 1);
    kept[MPI_MAX_OBJECT_NAME - 1] = '\0';
}

/* CHECK_ATTR_OF(MPI_Type_get_attr, type, key, want): the object holds the value want under key
 * (want NULL: holds nothing). */
#define CHECK_ATTR_OF(get_attr, obj, key, want) do { \
        void *got_ = (void *) &mtest_errs; int flag_ = -1; \
        CHECK_MPI(get_attr((obj), (key), &got_, &flag_)); \
        if ((want) == NULL) CHECK_EQ(flag_, 0); \
        else { CHECK_EQ(flag_, 1); CHECK(got_ == (void *) (want), "got %p, expected %p", got_, (void *) (want)); } \
    } while (0)

/* ---- a log of the calls of a delete callback ---- */

#define ATTR_MAXLOG 16

typedef struct {
    long long obj;          /* the object's handle */
    int keyval;
    void *value;
    void *extra;
} Attr_call;

static Attr_call attr_calls[ATTR_MAXLOG];
static int attr_ncalls;     /* all the calls, also those past ATTR_MAXLOG */

/* For the delete callback of a test to log its arguments with; returns MPI_SUCCESS. */
static inline int attr_log_call(long long obj, int keyval, void *value, void *extra_state)
{
    if (attr_ncalls < ATTR_MAXLOG)
        attr_calls[attr_ncalls] = (Attr_call) { obj, keyval, value, extra_state };
    attr_ncalls++;
    return MPI_SUCCESS;
}

/* Checks that call i was (obj, keyval, value, extra). */
#define CHECK_CALL(i, o, k, v, x) do { \
        CHECK_EQ(attr_calls[i].obj, (o)); \
        CHECK_EQ(attr_calls[i].keyval, (k)); \
        CHECK(attr_calls[i].value == (void *) (v), "value %p, expected %p", attr_calls[i].value, (void *) (v)); \
        CHECK(attr_calls[i].extra == (void *) (x), "extra %p, expected %p", attr_calls[i].extra, (void *) (x)); \
    } while (0)

/* The first call on (obj, keyval, value) among calls [from, attr_ncalls), or -1. */
static inline int attr_find_call(int from, long long obj, int keyval, void *value)
{
    for (int i = from; i < attr_ncalls && i < ATTR_MAXLOG; i++)
        if (attr_calls[i].obj == obj && attr_calls[i].keyval == keyval && attr_calls[i].value == value)
            return i;
    return -1;
}

#endif
