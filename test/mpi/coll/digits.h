/*
 * A non-commutative operation for the collective tests: an element (val, len) stands for a string
 * of len decimal digits, and a op b is the string of a followed by that of b, so a result shows in
 * which order the ranks' contributions were combined. An element is sent as contiguous(2,
 * MPI_LONG_LONG).
 */
#ifndef DIGITS_H_INCLUDED
#define DIGITS_H_INCLUDED

#include <mpi.h>

typedef struct {
    long long val, len;
} digits;

/* The MPI_User_function: inout = in "followed by" inout, for *len contiguous elements. */
static void digits_concat_fn(void *in_, void *inout_, int *len, MPI_Datatype *type)
{
    (void) type;
    digits *in = in_, *inout = inout_;
    for (int i = 0; i < *len; i++) {
        long long p = 1;
        for (long long k = 0; k < inout[i].len; k++)
            p *= 10;
        inout[i].val = in[i].val * p + inout[i].val;
        inout[i].len += in[i].len;
    }
}

#endif
