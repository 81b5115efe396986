/* util.c: what the benchmark programs share that needs no MPI (declared in util.h). */
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Buffers get pages of their own and start 64 bytes into the first one, whatever was allocated
 * before: where malloc would put them depends on that, and the distance between the packed and
 * the typed buffer modulo 4 KiB (4K aliasing of loads and stores) moves some throughputs by a
 * third. The 64 bytes before the buffer hold the mapping's length. */
void *bench_pages(size_t len)
{
    size_t total = len + 64;
    char *m = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    memcpy(m, &total, sizeof total);
    return m + 64;
}

void bench_pages_free(void *p)
{
    if (!p)
        return;
    size_t total;
    memcpy(&total, (char *)p - 64, sizeof total);
    munmap((char *)p - 64, total);
}

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
