/* The patterns: DDTBench's application datatypes (../shared/ddtbench-patterns.md gives their
 * constructors and problem classes) and synthetic shapes (vectors with small, medium and large
 * blocks, irregular indexed, a padded mixed-type struct, 3-D subarray faces).
 *
 * Each build function makes the type exactly as the application builds it, allocates the arrays
 * it covers (filled with random bytes) and sets the hand loops: straightforward C for the same
 * layout, the loop an application would write instead of calling MPI_Pack.
 */
#include "patterns.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A failing MPI call fails the build of this pattern only (errors return, see ddtbench.c). */
#define T(call) do { if ((call) != MPI_SUCCESS) return -1; } while (0)

static unsigned long long rng_state = 88172645463325252ULL;

void bench_srand(unsigned long long seed) { rng_state = seed ? seed : 1; }

unsigned long long bench_rand(void)
{
    /* xorshift64*: good enough for index lists, fast enough to fill a GiB. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

/* Buffers come from bench_pages (util.c), or from the pack benchmark's driver, which shares
 * them among the libraries (bench_set_allocator). */
static void *(*alloc_hook)(size_t);
static void (*release_hook)(void *);

void bench_set_allocator(void *(*alloc)(size_t), void (*release)(void *))
{
    alloc_hook = alloc;
    release_hook = release;
}

void *bench_alloc(size_t len)
{
    return alloc_hook ? alloc_hook(len) : bench_pages(len);
}

void bench_free(void *p)
{
    if (release_hook)
        release_hook(p);
    else
        bench_pages_free(p);
}

/* A new array of len bytes, cache-line aligned, filled with random bytes, owned by p. */
static void *region(pattern *p, size_t len)
{
    if (p->nreg == PAT_MAXREG)
        return NULL;
    size_t n = (len + 63) / 64 * 64;
    unsigned long long *a = bench_alloc(n);
    if (!a)
        return NULL;
    for (size_t i = 0; i < n / 8; i++)
        a[i] = bench_rand();
    p->reg[p->nreg].p = (char *)a;
    p->reg[p->nreg].len = len;
    p->nreg++;
    return a;
}

/* The first k entries of a random permutation of 0..n-1 (DDTBench's
 * utilities_random_array_shuffle, 0-based), times mult. */
static int *shuffled_prefix(int k, int n, int mult)
{
    int *perm = malloc(sizeof(int) * n);
    if (!perm)
        return NULL;
    for (int i = 0; i < n; i++)
        perm[i] = i;
    for (int i = 0; i < k; i++) {
        int j = i + (int)(bench_rand() % (unsigned long long)(n - i));
        int t = perm[i]; perm[i] = perm[j]; perm[j] = t;
    }
    for (int i = 0; i < k; i++)
        perm[i] *= mult;
    return perm;
}

/* The displacement of `at` from the pattern's first array, which becomes the origin of
 * MPI_Pack. Applications pass absolute addresses with MPI_BOTTOM here, but MPICH 4.0.2's MPI_Pack
 * rejects MPI_BOTTOM as a null inbuf; relative displacements describe the same layout. */
static int displacement(pattern *p, const void *at, MPI_Aint *d)
{
    MPI_Aint base, addr;
    T(MPI_Get_address(p->reg[0].p, &base));
    T(MPI_Get_address(at, &addr));
    *d = MPI_Aint_diff(addr, base);
    p->origin = p->reg[0].p;
    return 0;
}

static int commit(pattern *p, MPI_Datatype t, int count)
{
    T(MPI_Type_commit(&t));
    p->type = t;
    p->count = count;
    int size;
    T(MPI_Type_size(t, &size));
    p->bytes = (size_t)size * count;
    return 0;
}

void pattern_free(pattern *p)
{
    if (p->type != MPI_DATATYPE_NULL)
        MPI_Type_free(&p->type);
    for (int i = 0; i < p->nreg; i++)
        bench_free(p->reg[i].p);
    free(p->idx[0]);
    free(p->idx[1]);
    memset(p, 0, sizeof(*p));
    p->type = MPI_DATATYPE_NULL;
}

/* ---- contiguous doubles: NAS LU x face, z face of a 3-D array ---- */

static void contig_d_pack(const pattern *p, char *out)
{
    memcpy(out, p->origin, p->n[0] * sizeof(double));
}

static void contig_d_unpack(const pattern *p, const char *in)
{
    memcpy(p->origin, in, p->n[0] * sizeof(double));
}

/* NAS_LU_x: contiguous(5*DIM2, DOUBLE). */
static int build_lu_x(pattern *p, const long *a)
{
    long d2 = a[0];
    p->n[0] = 5 * d2;
    if (!(p->origin = region(p, 5 * d2 * sizeof(double))))
        return -1;
    MPI_Datatype t;
    T(MPI_Type_contiguous(5 * d2, MPI_DOUBLE, &t));
    p->hand_pack = contig_d_pack;
    p->hand_unpack = contig_d_unpack;
    return commit(p, t, 1);
}

/* ---- NAS_LU_y: vector(DIM3, 1, DIM2+2, contiguous(5, DOUBLE)) ---- */

static void lu_y_pack(const pattern *p, char *out)
{
    const double *a = p->origin;
    double *o = (double *)out;
    long n = p->n[0], stride = p->n[1] * 5;
    for (long k = 0; k < n; k++)
        for (int c = 0; c < 5; c++)
            o[5 * k + c] = a[k * stride + c];
}

static void lu_y_unpack(const pattern *p, const char *in)
{
    double *a = p->origin;
    const double *s = (const double *)in;
    long n = p->n[0], stride = p->n[1] * 5;
    for (long k = 0; k < n; k++)
        for (int c = 0; c < 5; c++)
            a[k * stride + c] = s[5 * k + c];
}

static int build_lu_y(pattern *p, const long *a)
{
    long d2 = a[0], d3 = a[0];
    p->n[0] = d3;
    p->n[1] = d2 + 2;
    if (!(p->origin = region(p, ((d3 - 1) * (d2 + 2) + 1) * 5 * sizeof(double))))
        return -1;
    MPI_Datatype c5, t;
    T(MPI_Type_contiguous(5, MPI_DOUBLE, &c5));
    T(MPI_Type_vector(d3, 1, d2 + 2, c5, &t));
    T(MPI_Type_free(&c5));
    p->hand_pack = lu_y_pack;
    p->hand_unpack = lu_y_unpack;
    return commit(p, t, 1);
}

/* ---- NAS MG faces of a DIM1 x DIM2 x DIM3 array (DIM1 fastest), from its first interior point ---- */

static double *mg_array(pattern *p, long d1, long d2, long d3)
{
    double *u = region(p, d1 * d2 * d3 * sizeof(double));
    if (!u)
        return NULL;
    p->n[0] = d1; p->n[1] = d2; p->n[2] = d3;
    p->origin = u + d1 * d2 + d1 + 1;
    return u;
}

/* MG_x: hvector(DIM3-2, 1, DIM1*DIM2*8, vector(DIM2-2, 1, DIM1, DOUBLE)): single doubles. */
static void mg_x_pack(const pattern *p, char *out)
{
    const double *a = p->origin;
    double *o = (double *)out;
    long d1 = p->n[0], d2 = p->n[1], d3 = p->n[2];
    for (long k = 0; k < d3 - 2; k++)
        for (long j = 0; j < d2 - 2; j++)
            *o++ = a[k * d1 * d2 + j * d1];
}

static void mg_x_unpack(const pattern *p, const char *in)
{
    double *a = p->origin;
    const double *s = (const double *)in;
    long d1 = p->n[0], d2 = p->n[1], d3 = p->n[2];
    for (long k = 0; k < d3 - 2; k++)
        for (long j = 0; j < d2 - 2; j++)
            a[k * d1 * d2 + j * d1] = *s++;
}

static int build_mg_x(pattern *p, const long *a)
{
    long d1 = a[0], d2 = a[1], d3 = a[2];
    if (!mg_array(p, d1, d2, d3))
        return -1;
    MPI_Datatype v, t;
    T(MPI_Type_vector(d2 - 2, 1, d1, MPI_DOUBLE, &v));
    T(MPI_Type_create_hvector(d3 - 2, 1, d1 * d2 * 8, v, &t));
    T(MPI_Type_free(&v));
    p->hand_pack = mg_x_pack;
    p->hand_unpack = mg_x_unpack;
    return commit(p, t, 1);
}

/* MG_y: vector(DIM3-2, DIM1-2, DIM1*DIM2, DOUBLE) and MG_z: vector(DIM2-2, DIM1-2, DIM1, DOUBLE):
 * rows of DIM1-2 doubles; n[3] = rows, n[4] = stride in doubles. */
static void rows_d_pack(const pattern *p, char *out)
{
    const double *a = p->origin;
    long rows = p->n[3], stride = p->n[4], len = p->n[5] * sizeof(double);
    for (long k = 0; k < rows; k++, out += len)
        memcpy(out, a + k * stride, len);
}

static void rows_d_unpack(const pattern *p, const char *in)
{
    double *a = p->origin;
    long rows = p->n[3], stride = p->n[4], len = p->n[5] * sizeof(double);
    for (long k = 0; k < rows; k++, in += len)
        memcpy(a + k * stride, in, len);
}

static int build_mg_yz(pattern *p, const long *a, int z)
{
    long d1 = a[0], d2 = a[1], d3 = a[2];
    if (!mg_array(p, d1, d2, d3))
        return -1;
    p->n[3] = z ? d2 - 2 : d3 - 2;
    p->n[4] = z ? d1 : d1 * d2;
    p->n[5] = d1 - 2;
    MPI_Datatype t;
    T(MPI_Type_vector(p->n[3], d1 - 2, p->n[4], MPI_DOUBLE, &t));
    p->hand_pack = rows_d_pack;
    p->hand_unpack = rows_d_unpack;
    return commit(p, t, 1);
}

static int build_mg_y(pattern *p, const long *a) { return build_mg_yz(p, a, 0); }
static int build_mg_z(pattern *p, const long *a) { return build_mg_yz(p, a, 1); }

/* ---- FFT2D send type: resized(vector(N/P, N/P, N, complex), 0, N/P*16), count P ---- */

static void fft_pack(const pattern *p, char *out)
{
    const double *a = p->origin;
    long n = p->n[0], b = p->n[0] / p->n[1], np = p->n[1];
    for (long q = 0; q < np; q++)
        for (long r = 0; r < b; r++, out += 16 * b)
            memcpy(out, a + 2 * (r * n + q * b), 16 * b);
}

static void fft_unpack(const pattern *p, const char *in)
{
    double *a = p->origin;
    long n = p->n[0], b = p->n[0] / p->n[1], np = p->n[1];
    for (long q = 0; q < np; q++)
        for (long r = 0; r < b; r++, in += 16 * b)
            memcpy(a + 2 * (r * n + q * b), in, 16 * b);
}

static int build_fft(pattern *p, const long *a)
{
    long n = a[0], np = a[1], b = n / np;
    p->n[0] = n;
    p->n[1] = np;
    if (!(p->origin = region(p, b * n * 16)))
        return -1;
    MPI_Datatype cplx, v, t;
    T(MPI_Type_contiguous(2, MPI_DOUBLE, &cplx));
    T(MPI_Type_vector(b, b, n, cplx, &v));
    T(MPI_Type_create_resized(v, 0, b * 16, &t));
    T(MPI_Type_free(&cplx));
    T(MPI_Type_free(&v));
    p->hand_pack = fft_pack;
    p->hand_unpack = fft_unpack;
    return commit(p, t, np);
}

/* ---- LAMMPS: struct over x (3 doubles per atom) and 5 (full) or 3 (atomic) per-atom arrays,
 * each through indexed_block with the same list of ic atoms ---- */

static void lammps_pack(const pattern *p, char *out)
{
    const int *l = p->idx[0];
    long ic = p->n[0], narr = p->n[1];
    double *o = (double *)out;
    const double *x = (const double *)p->reg[0].p;
    for (long i = 0; i < ic; i++) {
        const double *xi = x + 3 * (long)l[i];
        *o++ = xi[0];
        *o++ = xi[1];
        *o++ = xi[2];
    }
    for (long r = 1; r <= narr; r++) {
        const double *v = (const double *)p->reg[r].p;
        for (long i = 0; i < ic; i++)
            *o++ = v[l[i]];
    }
}

static void lammps_unpack(const pattern *p, const char *in)
{
    const int *l = p->idx[0];
    long ic = p->n[0], narr = p->n[1];
    const double *s = (const double *)in;
    double *x = (double *)p->reg[0].p;
    for (long i = 0; i < ic; i++) {
        double *xi = x + 3 * (long)l[i];
        xi[0] = *s++;
        xi[1] = *s++;
        xi[2] = *s++;
    }
    for (long r = 1; r <= narr; r++) {
        double *v = (double *)p->reg[r].p;
        for (long i = 0; i < ic; i++)
            v[l[i]] = *s++;
    }
}

/* args: ic, N, number of per-atom arrays besides x (5 full, 3 atomic) */
static int build_lammps(pattern *p, const long *a)
{
    int ic = a[0], n = a[1], narr = a[2];
    p->n[0] = ic;
    p->n[1] = narr;
    int *l = p->idx[0] = shuffled_prefix(ic, n, 1);
    int *l3 = p->idx[1] = malloc(sizeof(int) * ic);
    if (!l || !l3)
        return -1;
    for (int i = 0; i < ic; i++)
        l3[i] = 3 * l[i];
    MPI_Datatype types[6];
    MPI_Aint displs[6];
    int blens[6];
    for (int r = 0; r <= narr; r++) {
        void *arr = region(p, (r == 0 ? 3 : 1) * (size_t)n * sizeof(double));
        if (!arr)
            return -1;
        blens[r] = 1;
        T(displacement(p, arr, &displs[r]));
        T(MPI_Type_create_indexed_block(ic, r == 0 ? 3 : 1, r == 0 ? l3 : l, MPI_DOUBLE,
                                        &types[r]));
    }
    MPI_Datatype t;
    T(MPI_Type_create_struct(narr + 1, blens, displs, types, &t));
    for (int r = 0; r <= narr; r++)
        T(MPI_Type_free(&types[r]));
    p->hand_pack = lammps_pack;
    p->hand_unpack = lammps_unpack;
    return commit(p, t, 1);
}

/* ---- MILC su3_zd: hvector(2, 1, 24*V/2, vector(Lt, Lx*Ly/2, Lx*Ly*Lz/2, contiguous(6, FLOAT))) ---- */

static void milc_pack(const pattern *p, char *out)
{
    const float *a = p->origin;
    long half = p->n[0], lt = p->n[1], len = 24 * p->n[2], stride = p->n[3];
    for (long h = 0; h < 2; h++)
        for (long t = 0; t < lt; t++, out += len)
            memcpy(out, a + 6 * (h * half + t * stride), len);
}

static void milc_unpack(const pattern *p, const char *in)
{
    float *a = p->origin;
    long half = p->n[0], lt = p->n[1], len = 24 * p->n[2], stride = p->n[3];
    for (long h = 0; h < 2; h++)
        for (long t = 0; t < lt; t++, in += len)
            memcpy(a + 6 * (h * half + t * stride), in, len);
}

static int build_milc(pattern *p, const long *a)
{
    long lx = a[0], ly = a[1], lz = a[2], lt = a[3], v = lx * ly * lz * lt;
    p->n[0] = v / 2;
    p->n[1] = lt;
    p->n[2] = lx * ly / 2;
    p->n[3] = lx * ly * lz / 2;
    if (!(p->origin = region(p, v * 24)))
        return -1;
    MPI_Datatype c6, vec, t;
    T(MPI_Type_contiguous(6, MPI_FLOAT, &c6));
    T(MPI_Type_vector(lt, lx * ly / 2, lx * ly * lz / 2, c6, &vec));
    T(MPI_Type_create_hvector(2, 1, 24 * v / 2, vec, &t));
    T(MPI_Type_free(&c6));
    T(MPI_Type_free(&vec));
    p->hand_pack = milc_pack;
    p->hand_unpack = milc_unpack;
    return commit(p, t, 1);
}

/* ---- WRF halo exchange: a struct over 4 2-D, 3 3-D and 2 4-D float arrays (absolute
 * addresses in WRF, relative ones here: see displacement()), each sending the same sd3 x sd2 x sd1 box (sd2 = dim2 = 65) of a
 * [dim3][dim2][dim1] field; 4-D arrays hold 2 species and send species 1.
 * args: dim1, dim3, sd1, sd3, subarray (0: vector/hvector, 1: create_subarray) ---- */

#define WRF_DIM2 65
#define WRF_N2D 4
#define WRF_N3D 3
#define WRF_N4D 2

/* n[0..3] = dim1, dim3, sd1, sd3; n[4], n[5] = box start in dim1 and dim3. */
static const float *wrf_box(const pattern *p, int r)
{
    long d1 = p->n[0], d3 = p->n[1], s1 = p->n[4], s3 = p->n[5];
    const float *a = (const float *)p->reg[r].p;
    if (r < WRF_N2D)
        return a + s3 * d1 + s1;
    a += s3 * WRF_DIM2 * d1 + s1;
    return r < WRF_N2D + WRF_N3D ? a : a + d3 * WRF_DIM2 * d1;
}

static void wrf_pack(const pattern *p, char *out)
{
    long d1 = p->n[0], sd1 = p->n[2], sd3 = p->n[3];
    float *o = (float *)out;
    for (int r = 0; r < p->nreg; r++) {
        const float *a = wrf_box(p, r);
        long rows = r < WRF_N2D ? sd3 : sd3 * WRF_DIM2;     /* a 3-D box is sd3*dim2 rows of dim1 */
        for (long k = 0; k < rows; k++)
            for (long i = 0; i < sd1; i++)
                *o++ = a[k * d1 + i];
    }
}

static void wrf_unpack(const pattern *p, const char *in)
{
    long d1 = p->n[0], sd1 = p->n[2], sd3 = p->n[3];
    const float *s = (const float *)in;
    for (int r = 0; r < p->nreg; r++) {
        float *a = (float *)wrf_box(p, r);
        long rows = r < WRF_N2D ? sd3 : sd3 * WRF_DIM2;
        for (long k = 0; k < rows; k++)
            for (long i = 0; i < sd1; i++)
                a[k * d1 + i] = *s++;
    }
}

static int build_wrf(pattern *p, const long *a)
{
    int d1 = a[0], d3 = a[1], sd1 = a[2], sd3 = a[3], sa = a[4], d2 = WRF_DIM2, sd2 = WRF_DIM2;
    int s1 = (d1 - sd1) / 2, s3 = (d3 - sd3) / 2;
    p->n[0] = d1; p->n[1] = d3; p->n[2] = sd1; p->n[3] = sd3; p->n[4] = s1; p->n[5] = s3;

    MPI_Datatype t2, t3, t4;
    if (sa) {
        int sz2[2] = {d3, d1}, sub2[2] = {sd3, sd1}, st2[2] = {s3, s1};
        int sz3[3] = {d3, d2, d1}, sub3[3] = {sd3, sd2, sd1}, st3[3] = {s3, 0, s1};
        int sz4[4] = {2, d3, d2, d1}, sub4[4] = {1, sd3, sd2, sd1}, st4[4] = {1, s3, 0, s1};
        T(MPI_Type_create_subarray(2, sz2, sub2, st2, MPI_ORDER_C, MPI_FLOAT, &t2));
        T(MPI_Type_create_subarray(3, sz3, sub3, st3, MPI_ORDER_C, MPI_FLOAT, &t3));
        T(MPI_Type_create_subarray(4, sz4, sub4, st4, MPI_ORDER_C, MPI_FLOAT, &t4));
    } else {
        MPI_Datatype plane;
        T(MPI_Type_vector(sd3, sd1, d1, MPI_FLOAT, &t2));
        T(MPI_Type_vector(sd2, sd1, d1, MPI_FLOAT, &plane));
        T(MPI_Type_create_hvector(sd3, 1, (MPI_Aint)d1 * d2 * 4, plane, &t3));
        T(MPI_Type_create_hvector(1, 1, (MPI_Aint)d1 * d2 * d3 * 4, t3, &t4));
        T(MPI_Type_free(&plane));
    }
    int nr = WRF_N2D + WRF_N3D + WRF_N4D, blens[WRF_N2D + WRF_N3D + WRF_N4D];
    MPI_Aint displs[WRF_N2D + WRF_N3D + WRF_N4D];
    MPI_Datatype types[WRF_N2D + WRF_N3D + WRF_N4D];
    for (int r = 0; r < nr; r++) {
        size_t len = r < WRF_N2D ? (size_t)d3 * d1
                   : r < WRF_N2D + WRF_N3D ? (size_t)d3 * d2 * d1 : (size_t)2 * d3 * d2 * d1;
        if (!region(p, len * sizeof(float)))
            return -1;
        /* The vector types start at the box, the subarrays at the array. */
        const void *at = sa ? (const void *)p->reg[r].p : (const void *)wrf_box(p, r);
        T(displacement(p, at, &displs[r]));
        blens[r] = 1;
        types[r] = r < WRF_N2D ? t2 : r < WRF_N2D + WRF_N3D ? t3 : t4;
    }
    MPI_Datatype t;
    T(MPI_Type_create_struct(nr, blens, displs, types, &t));
    T(MPI_Type_free(&t2));
    T(MPI_Type_free(&t3));
    T(MPI_Type_free(&t4));
    p->hand_pack = wrf_pack;
    p->hand_unpack = wrf_unpack;
    return commit(p, t, 1);
}

/* ---- SPECFEM3D ---- */

/* oc: indexed_block(icount, 1, list, FLOAT) */
static void gather_f_pack(const pattern *p, char *out)
{
    const float *a = p->origin;
    const int *l = p->idx[0];
    float *o = (float *)out;
    for (long i = 0; i < p->n[0]; i++)
        o[i] = a[l[i]];
}

static void gather_f_unpack(const pattern *p, const char *in)
{
    float *a = p->origin;
    const int *l = p->idx[0];
    const float *s = (const float *)in;
    for (long i = 0; i < p->n[0]; i++)
        a[l[i]] = s[i];
}

static int build_specfem_oc(pattern *p, const long *a)
{
    int ic = a[0], n = a[1];
    p->n[0] = ic;
    if (!(p->idx[0] = shuffled_prefix(ic, n, 1)) || !(p->origin = region(p, n * sizeof(float))))
        return -1;
    MPI_Datatype t;
    T(MPI_Type_create_indexed_block(ic, 1, p->idx[0], MPI_FLOAT, &t));
    p->hand_pack = gather_f_pack;
    p->hand_unpack = gather_f_unpack;
    return commit(p, t, 1);
}

/* cm: struct(2: indexed_block(icm, 3, 3*list_cm, FLOAT), indexed_block(iic, 3, 3*list_ic, FLOAT)) */
static void specfem_cm_pack(const pattern *p, char *out)
{
    float *o = (float *)out;
    for (int r = 0; r < 2; r++) {
        const float *a = (const float *)p->reg[r].p;
        const int *l = p->idx[r];
        for (long i = 0; i < p->n[r]; i++) {
            const float *v = a + l[i];
            *o++ = v[0];
            *o++ = v[1];
            *o++ = v[2];
        }
    }
}

static void specfem_cm_unpack(const pattern *p, const char *in)
{
    const float *s = (const float *)in;
    for (int r = 0; r < 2; r++) {
        float *a = (float *)p->reg[r].p;
        const int *l = p->idx[r];
        for (long i = 0; i < p->n[r]; i++) {
            float *v = a + l[i];
            v[0] = *s++;
            v[1] = *s++;
            v[2] = *s++;
        }
    }
}

static int build_specfem_cm(pattern *p, const long *a)
{
    MPI_Datatype types[2];
    MPI_Aint displs[2];
    int blens[2] = {1, 1};
    for (int r = 0; r < 2; r++) {
        int ic = a[r], n = a[2 + r];
        void *arr;
        p->n[r] = ic;
        if (!(p->idx[r] = shuffled_prefix(ic, n, 3)) || !(arr = region(p, 3 * (size_t)n * sizeof(float))))
            return -1;
        T(displacement(p, arr, &displs[r]));
        T(MPI_Type_create_indexed_block(ic, 3, p->idx[r], MPI_FLOAT, &types[r]));
    }
    MPI_Datatype t;
    T(MPI_Type_create_struct(2, blens, displs, types, &t));
    T(MPI_Type_free(&types[0]));
    T(MPI_Type_free(&types[1]));
    p->hand_pack = specfem_cm_pack;
    p->hand_unpack = specfem_cm_unpack;
    return commit(p, t, 1);
}

/* mt: vector(DIM3, 1, 2, contiguous(3, FLOAT)) */
static void specfem_mt_pack(const pattern *p, char *out)
{
    const float *a = p->origin;
    float *o = (float *)out;
    for (long k = 0; k < p->n[0]; k++) {
        *o++ = a[6 * k];
        *o++ = a[6 * k + 1];
        *o++ = a[6 * k + 2];
    }
}

static void specfem_mt_unpack(const pattern *p, const char *in)
{
    float *a = p->origin;
    const float *s = (const float *)in;
    for (long k = 0; k < p->n[0]; k++) {
        a[6 * k] = *s++;
        a[6 * k + 1] = *s++;
        a[6 * k + 2] = *s++;
    }
}

static int build_specfem_mt(pattern *p, const long *a)
{
    long d3 = a[0];
    p->n[0] = d3;
    if (!(p->origin = region(p, (2 * d3 - 1) * 3 * sizeof(float))))
        return -1;
    MPI_Datatype c3, t;
    T(MPI_Type_contiguous(3, MPI_FLOAT, &c3));
    T(MPI_Type_vector(d3, 1, 2, c3, &t));
    T(MPI_Type_free(&c3));
    p->hand_pack = specfem_mt_pack;
    p->hand_unpack = specfem_mt_unpack;
    return commit(p, t, 1);
}

/* ---- synthetic: vector(n, blen, 2*blen, DOUBLE), blen = 1, 5, 128 doubles (8 B, 40 B, 1 KiB);
 * args: packed bytes, blen ---- */

static void vec1_pack(const pattern *p, char *out)
{
    const double *a = p->origin;
    double *o = (double *)out;
    for (long k = 0; k < p->n[0]; k++)
        o[k] = a[2 * k];
}

static void vec1_unpack(const pattern *p, const char *in)
{
    double *a = p->origin;
    const double *s = (const double *)in;
    for (long k = 0; k < p->n[0]; k++)
        a[2 * k] = s[k];
}

static void vec5_pack(const pattern *p, char *out)
{
    const double *a = p->origin;
    double *o = (double *)out;
    for (long k = 0; k < p->n[0]; k++)
        for (int c = 0; c < 5; c++)
            o[5 * k + c] = a[10 * k + c];
}

static void vec5_unpack(const pattern *p, const char *in)
{
    double *a = p->origin;
    const double *s = (const double *)in;
    for (long k = 0; k < p->n[0]; k++)
        for (int c = 0; c < 5; c++)
            a[10 * k + c] = s[5 * k + c];
}

static void vec128_pack(const pattern *p, char *out)
{
    const double *a = p->origin;
    for (long k = 0; k < p->n[0]; k++)
        memcpy(out + 1024 * k, a + 256 * k, 1024);
}

static void vec128_unpack(const pattern *p, const char *in)
{
    double *a = p->origin;
    for (long k = 0; k < p->n[0]; k++)
        memcpy(a + 256 * k, in + 1024 * k, 1024);
}

static int build_vec(pattern *p, const long *a)
{
    long blen = a[1], n = a[0] / (blen * 8);
    p->n[0] = n;
    if (!(p->origin = region(p, ((n - 1) * 2 * blen + blen) * sizeof(double))))
        return -1;
    MPI_Datatype t;
    T(MPI_Type_vector(n, blen, 2 * blen, MPI_DOUBLE, &t));
    p->hand_pack = blen == 1 ? vec1_pack : blen == 5 ? vec5_pack : vec128_pack;
    p->hand_unpack = blen == 1 ? vec1_unpack : blen == 5 ? vec5_unpack : vec128_unpack;
    return commit(p, t, 1);
}

/* ---- synthetic: subarray({n + 2}, {n}, {1}, DOUBLE): a row without its ghost cells; args: packed
 * bytes. One run of bytes 8 past the row's start, so that the packed stream and the row lie at
 * different offsets within their cache lines (copy_kernels.h: copy_skewed). ---- */

static void row_inner_pack(const pattern *p, char *out)
{
    const double *a = p->origin;
    double *o = (double *)out;
    for (long i = 0; i < p->n[0]; i++)
        o[i] = a[1 + i];
}

static void row_inner_unpack(const pattern *p, const char *in)
{
    double *a = p->origin;
    const double *s = (const double *)in;
    for (long i = 0; i < p->n[0]; i++)
        a[1 + i] = s[i];
}

static int build_row_inner(pattern *p, const long *a)
{
    int n = (int)(a[0] / 8), size = n + 2, start = 1;
    p->n[0] = n;
    if (!(p->origin = region(p, (size_t)size * sizeof(double))))
        return -1;
    MPI_Datatype t;
    T(MPI_Type_create_subarray(1, &size, &n, &start, MPI_ORDER_C, MPI_DOUBLE, &t));
    p->hand_pack = row_inner_pack;
    p->hand_unpack = row_inner_unpack;
    return commit(p, t, 1);
}

/* ---- synthetic: indexed(nb, random lengths 1..32, random gaps 1..32, DOUBLE); args: packed bytes ---- */

static void irregular_pack(const pattern *p, char *out)
{
    const double *a = p->origin;
    const int *len = p->idx[0], *disp = p->idx[1];
    double *o = (double *)out;
    for (long b = 0; b < p->n[0]; b++) {
        const double *s = a + disp[b];
        for (int j = 0; j < len[b]; j++)
            *o++ = s[j];
    }
}

static void irregular_unpack(const pattern *p, const char *in)
{
    double *a = p->origin;
    const int *len = p->idx[0], *disp = p->idx[1];
    const double *s = (const double *)in;
    for (long b = 0; b < p->n[0]; b++) {
        double *d = a + disp[b];
        for (int j = 0; j < len[b]; j++)
            d[j] = *s++;
    }
}

static int build_irregular(pattern *p, const long *a)
{
    long target = a[0] / 8, nb = 0, total = 0, span = 0;
    /* Draw blocks until they hold the target number of doubles. */
    int cap = target / 8 + 16;
    int *len = p->idx[0] = malloc(sizeof(int) * cap);
    int *disp = p->idx[1] = malloc(sizeof(int) * cap);
    if (!len || !disp)
        return -1;
    while (total < target && nb < cap) {
        len[nb] = 1 + bench_rand() % 32;
        if (total + len[nb] > target)
            len[nb] = target - total;
        disp[nb] = span;
        span += len[nb] + 1 + bench_rand() % 32;
        total += len[nb++];
    }
    p->n[0] = nb;
    if (!(p->origin = region(p, span * sizeof(double))))
        return -1;
    MPI_Datatype t;
    T(MPI_Type_indexed(nb, len, disp, MPI_DOUBLE, &t));
    p->hand_pack = irregular_pack;
    p->hand_unpack = irregular_unpack;
    return commit(p, t, 1);
}

/* ---- synthetic: the padded struct {double; int; char[3]} (15 bytes of data, extent 16), count n,
 * and vector(n, 1, 2, it); args: packed bytes, stride in elements (1 or 2) ---- */

typedef struct { double d; int i; char c[3]; } padded;

static void padded_pack(const pattern *p, char *out)
{
    const padded *a = p->origin;
    long step = p->n[1];
    for (long k = 0; k < p->n[0]; k++) {
        const padded *e = a + k * step;
        memcpy(out, &e->d, 8);
        memcpy(out + 8, &e->i, 4);
        memcpy(out + 12, e->c, 3);
        out += 15;
    }
}

static void padded_unpack(const pattern *p, const char *in)
{
    padded *a = p->origin;
    long step = p->n[1];
    for (long k = 0; k < p->n[0]; k++) {
        padded *e = a + k * step;
        memcpy(&e->d, in, 8);
        memcpy(&e->i, in + 8, 4);
        memcpy(e->c, in + 12, 3);
        in += 15;
    }
}

static int build_padded(pattern *p, const long *a)
{
    long n = a[0] / 15, step = a[1];
    p->n[0] = n;
    p->n[1] = step;
    if (!(p->origin = region(p, ((n - 1) * step + 1) * sizeof(padded))))
        return -1;
    int blens[3] = {1, 1, 3};
    MPI_Aint displs[3] = {offsetof(padded, d), offsetof(padded, i), offsetof(padded, c)};
    MPI_Datatype types[3] = {MPI_DOUBLE, MPI_INT, MPI_CHAR}, s, rs, t;
    T(MPI_Type_create_struct(3, blens, displs, types, &s));
    /* The extent the C compiler gives the struct, as portable code sets it. */
    T(MPI_Type_create_resized(s, 0, sizeof(padded), &rs));
    T(MPI_Type_free(&s));
    p->hand_pack = padded_pack;
    p->hand_unpack = padded_unpack;
    if (step == 1)
        return commit(p, rs, n);
    T(MPI_Type_vector(n, 1, step, rs, &t));
    T(MPI_Type_free(&rs));
    return commit(p, t, 1);
}

/* ---- synthetic: the faces of an N^3 double array a[z][y][x] through create_subarray, at
 * index 1 of the normal dimension; args: N, normal dimension (0 = x, 1 = y, 2 = z) ---- */

static void face_x_pack(const pattern *p, char *out)
{
    const double *a = p->origin;
    double *o = (double *)out;
    long n = p->n[0];
    for (long z = 0; z < n; z++)
        for (long y = 0; y < n; y++)
            *o++ = a[(z * n + y) * n + 1];
}

static void face_x_unpack(const pattern *p, const char *in)
{
    double *a = p->origin;
    const double *s = (const double *)in;
    long n = p->n[0];
    for (long z = 0; z < n; z++)
        for (long y = 0; y < n; y++)
            a[(z * n + y) * n + 1] = *s++;
}

static void face_y_pack(const pattern *p, char *out)
{
    const double *a = p->origin;
    double *o = (double *)out;
    long n = p->n[0];
    for (long z = 0; z < n; z++)
        for (long x = 0; x < n; x++)
            *o++ = a[(z * n + 1) * n + x];
}

static void face_y_unpack(const pattern *p, const char *in)
{
    double *a = p->origin;
    const double *s = (const double *)in;
    long n = p->n[0];
    for (long z = 0; z < n; z++)
        for (long x = 0; x < n; x++)
            a[(z * n + 1) * n + x] = *s++;
}

static void face_z_pack(const pattern *p, char *out)
{
    memcpy(out, (const double *)p->origin + p->n[0] * p->n[0], p->n[0] * p->n[0] * sizeof(double));
}

static void face_z_unpack(const pattern *p, const char *in)
{
    memcpy((double *)p->origin + p->n[0] * p->n[0], in, p->n[0] * p->n[0] * sizeof(double));
}

static int build_face(pattern *p, const long *a)
{
    int n = a[0], dim = a[1];
    p->n[0] = n;
    if (!(p->origin = region(p, (size_t)n * n * n * sizeof(double))))
        return -1;
    int sizes[3] = {n, n, n}, sub[3] = {n, n, n}, start[3] = {0, 0, 0};
    sub[2 - dim] = 1;           /* C order: index 2 is x */
    start[2 - dim] = 1;
    MPI_Datatype t;
    T(MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &t));
    p->hand_pack = dim == 0 ? face_x_pack : dim == 1 ? face_y_pack : face_z_pack;
    p->hand_unpack = dim == 0 ? face_x_unpack : dim == 1 ? face_y_unpack : face_z_unpack;
    return commit(p, t, 1);
}

/* ---- the list ---- */

/* Synthetic sizes: "L2" packs 128 KiB (with its source, well inside a 1 MiB L2); "mem" packs
 * 64 MiB from at least as much again, far beyond a 32 MiB L3. */
#define L2B (128L << 10)
#define MEMB (64L << 20)

const pattern_spec pattern_specs[] = {
    /* DDTBench: a mid-size problem class and the largest one (where the two differ). */
    {"nas_lu_x/C",        build_lu_x,        {162}, 0},
    {"nas_lu_x/E",        build_lu_x,        {1020}, 0},
    {"nas_lu_y/C",        build_lu_y,        {162}, 0},
    {"nas_lu_y/E",        build_lu_y,        {1020}, 0},
    {"nas_mg_x/B",        build_mg_x,        {130, 66, 66}, 0},
    {"nas_mg_x/D",        build_mg_x,        {514, 258, 258}, 0},
    {"nas_mg_y/B",        build_mg_y,        {130, 66, 66}, 0},
    {"nas_mg_y/D",        build_mg_y,        {514, 258, 258}, 0},
    {"nas_mg_z/B",        build_mg_z,        {130, 66, 66}, 0},
    {"nas_mg_z/D",        build_mg_z,        {514, 258, 258}, 0},
    {"fft2d/N512,P4",     build_fft,         {512, 4}, 0},
    {"fft2d/N1536,P4",    build_fft,         {1536, 4}, 0},
    {"lammps_full/3062",  build_lammps,      {3062, 3534, 5}, 0},
    {"lammps_atomic/243", build_lammps,      {243, 4084, 3}, 0},
    {"milc_su3_zd/16^4",  build_milc,        {16, 16, 16, 16}, 0},
    {"wrf_x_vec/32x52",   build_wrf,         {32, 52, 3, 44, 0}, 0},
    {"wrf_y_vec/32x52",   build_wrf,         {32, 52, 23, 3, 0}, 0},
    {"wrf_x_sa/32x52",    build_wrf,         {32, 52, 3, 44, 1}, 0},
    {"wrf_y_sa/32x52",    build_wrf,         {32, 52, 23, 3, 1}, 0},
    {"specfem_oc/3225",   build_specfem_oc,  {3225, 88881}, 0},
    {"specfem_cm/11797",  build_specfem_cm,  {11797, 3009, 834917, 51153}, 0},
    {"specfem_mt/7600",   build_specfem_mt,  {7600}, 0},
    /* synthetic, in L2 and far beyond the last-level cache */
    {"vec_8B/L2",         build_vec,         {L2B, 1}, 0},
    {"vec_8B/mem",        build_vec,         {MEMB, 1}, 1},
    {"vec_40B/L2",        build_vec,         {L2B, 5}, 0},
    {"vec_40B/mem",       build_vec,         {MEMB, 5}, 1},
    {"vec_1KiB/L2",       build_vec,         {L2B, 128}, 0},
    {"vec_1KiB/mem",      build_vec,         {MEMB, 128}, 1},
    {"row_inner/L2",      build_row_inner,   {L2B}, 0},
    {"row_inner/mem",     build_row_inner,   {MEMB}, 1},
    {"indexed_rand/L2",   build_irregular,   {L2B}, 0},
    {"indexed_rand/mem",  build_irregular,   {MEMB}, 1},
    {"struct_pad/L2",     build_padded,      {L2B, 1}, 0},
    {"struct_pad/mem",    build_padded,      {MEMB, 1}, 1},
    {"vec_struct_pad/L2", build_padded,      {L2B, 2}, 0},
    {"vec_struct_pad/mem", build_padded,     {MEMB, 2}, 1},
    {"face_x/64^3",       build_face,        {64, 0}, 0},
    {"face_x/512^3",      build_face,        {512, 0}, 1},
    {"face_y/64^3",       build_face,        {64, 1}, 0},
    {"face_y/512^3",      build_face,        {512, 1}, 1},
    {"face_z/64^3",       build_face,        {64, 2}, 0},
    {"face_z/512^3",      build_face,        {512, 2}, 1},
};

const int pattern_nspecs = sizeof(pattern_specs) / sizeof(pattern_specs[0]);
