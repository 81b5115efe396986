/* ddtlib: one MPI library's side of the pack benchmark, built as a plugin (ddtlib.c + patterns.c,
 * compiled with that library's mpicc) that the driver (ddtbench.c) loads next to the other
 * libraries' plugins in one process. Nothing of MPI crosses this interface, so the driver needs no
 * mpi.h and each plugin keeps its library's handles to itself.
 *
 * The driver owns the memory the types cover: a plugin's pattern asks alloc for its arrays in a
 * fixed order, and the driver hands every library the same buffers, so all of them copy the same
 * physical pages (see ddtbench.c).
 */
#ifndef BENCH_DDTLIB_H
#define BENCH_DDTLIB_H

#include <stddef.h>

typedef struct {
    int abi;                    /* DDTLIB_ABI */
    /* MPI_Init with errors returned; the library's version string (first line) into version */
    int (*init)(void *(*alloc)(size_t), void (*release)(void *), char *version, int len);
    void (*finalize)(void);
    int (*npatterns)(void);
    const char *(*name)(int i);
    int (*large)(int i);        /* far beyond the last-level cache: --quick skips it */
    /* Builds pattern i; NULL on success, else why not. *bytes: its packed size. */
    const char *(*build)(int i, size_t *bytes);
    /* MPI_Pack and MPI_Unpack against the hand loops (see ddtlib.c); NULL when they agree */
    const char *(*verify)(char *packed, char *ref, size_t guard);
    int (*pack)(char *packed);  /* MPI_Pack / MPI_Unpack of the built pattern: MPI error code */
    int (*unpack)(const char *packed);
    void (*hand_pack)(char *packed);
    void (*hand_unpack)(const char *packed);
    void (*free_pattern)(void);
    /* Create + commit of a type of about a million blocks (which: 0 indexed, 1 struct), reps
     * times: per block the median create and commit time (ns) and the heap bytes the first one
     * holds once created and committed. NULL on success. */
    const char *(*commit)(int which, int reps, int *blocks, double *create_ns, double *commit_ns,
                          double *held_bytes);
} ddtlib;

#define DDTLIB_ABI 1
#define DDTLIB_COMMIT_TESTS 2
extern const ddtlib ddtlib_plugin;

#endif
