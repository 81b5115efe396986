/* util.c: what the benchmark programs share that needs no MPI (declared in util.h). */
#include "util.h"

#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double bench_median(double *v, int n)
{
    qsort(v, n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int bench_selected(const char *name, char **filters, int n)
{
    if (n == 0)
        return 1;
    for (int i = 0; i < n; i++)
        if (strstr(name, filters[i]))
            return 1;
    return 0;
}
