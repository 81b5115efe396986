/*
 * Shared by the three parts of the datatype fuzzer:
 *   fuzz_datatype.c  the input as a program of datatype calls, and the libFuzzer entry point;
 *   fuzz_model.c     the reference model: the type map of a type the program made, by the
 *                    standard's definitions, expanded to basic elements without the engine;
 *   fuzz_checks.c    the checks on the packed stream of a committed type.
 */
#ifndef FUZZ_H_INCLUDED
#define FUZZ_H_INCLUDED

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpiimpl.h"
#include "mpid_dataloop.h"

/* The stream size from which MPI_Pack and MPI_Unpack use streaming stores (copy_kernels.h, whose
 * helpers would clash with the fuzzer's): the checks lower it to take that path too. */
extern size_t MPID_Stream_min;

#define MAX_OPS 24
#define MAX_SLOTS 16
#define MAX_OWNED 64
#define MAX_ARRAY 24            /* entries of the indexed/struct arrays */
#define MAX_STREAM (1 << 16)    /* packed bytes beyond which the data checks are skipped */
#define MAX_SPAN (1 << 20)      /* typed-buffer bytes beyond which the data checks are skipped */

#define FAIL(...) \
    do { \
        fprintf(stderr, "\nfuzz_datatype: invariant failed at %s:%d: ", __FILE__, __LINE__); \
        fprintf(stderr, __VA_ARGS__); \
        fputc('\n', stderr); \
        abort(); \
    } while (0)
#define CHECK(cond, ...) \
    do { \
        if (!(cond)) \
            FAIL(__VA_ARGS__); \
    } while (0)

/* FUZZ_TRACE=1 prints the calls an input makes (to see what a reproducer does). */
extern bool fuzz_trace;
#define TRACE(...) \
    do { \
        if (fuzz_trace) \
            fprintf(stderr, __VA_ARGS__); \
    } while (0)

/* The input; an exhausted input reads as zeros, so every prefix is a valid program. */
typedef struct {
    const uint8_t *p;
    size_t n;
} Input;
static inline uint8_t fuzz_u8(Input *in)
{
    if (in->n == 0)
        return 0;
    in->n--;
    return *in->p++;
}

static inline uint32_t fuzz_u32(Input *in)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v = v << 8 | fuzz_u8(in);
    return v;
}

/* The error class of an MPI return code. */
int fuzz_err_class(int rc);

/* The reference model of a type the program made: its constructor reduced to blocks of copies of
 * children (block k: lens[k] copies of types[k], the first at offs[k], the next ones one child
 * extent apart), or the parameters of a subarray/darray, as the standard defines their maps. */
enum { M_UNKNOWN, M_BLOCKS, M_VECTOR, M_SAME, M_SUBARRAY, M_DARRAY };

typedef struct {
    int kind;
    int64_t n;                      /* blocks (M_VECTOR: count; M_SUBARRAY, M_DARRAY: ndims) */
    int64_t len, stride;            /* M_VECTOR: copies per block, distance between blocks */
    int64_t lens[MAX_ARRAY], offs[MAX_ARRAY];
    MPI_Datatype types[MAX_ARRAY];  /* M_BLOCKS: one child per block; others: types[0] */
    bool in_extents;                /* offs / stride count extents of the child, not bytes */
    int64_t sizes[3], subsizes[3], starts[3];   /* M_SUBARRAY; M_DARRAY: sizes */
    int distribs[3], dargs[3], psizes[3], rank; /* M_DARRAY */
    int order;
    MPI_Count size, lb, extent;     /* of the type itself, asked when it was made */
} Model;

enum { PREDEF = -1, BAD = -2 };

/* The state of one input's program: the types it can pick from (slots) and every type it made. */
typedef struct {
    Input in;
    struct {
        MPI_Datatype h;
        int owner;                  /* index in owned[], PREDEF or BAD */
    } slots[MAX_SLOTS];
    int nslots;
    struct {
        MPI_Datatype h;
        bool freed;
        Model model;
    } owned[MAX_OWNED];
    int nowned;
} Prog;

/* Basic elements (offset, size) in type-map order. */
typedef struct {
    int64_t *off;
    int32_t *size;
    int64_t n, cap;
} Elems;

/* Appends the elements of one instance of h at base; false if h is not modelled or e is full. */
bool model_expand(const Prog *P, MPI_Datatype h, int64_t base, Elems *e);

/* The checks on (buf, count, type) of a committed type of at most MAX_STREAM bytes; the rest of
 * the input chooses ranges and data. */
void check_stream(const Prog *P, MPI_Datatype type, MPI_Count count, Input *in);
/* The checks on a type too big to pack: small buffers are refused without being touched. */
void check_big(MPI_Datatype type, MPI_Count count);

#endif
