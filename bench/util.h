/* util.h: what the benchmark programs (ddtbench's driver and plugins, pingpong) share that needs
 * no MPI, so the driver, which has no mpi.h, uses the same code. */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <stddef.h>

/* len bytes at 64 bytes into fresh pages of their own (see util.c), and their release */
void *bench_pages(size_t len);
void bench_pages_free(void *p);

/* The median of n values (sorts them in place). */
double bench_median(double *v, int n);
/* Whether a pattern name contains one of the n filter words (every name when there are none). */
int bench_selected(const char *name, char **filters, int n);

#endif
