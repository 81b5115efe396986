/*
 * MPI_THREAD_MULTIPLE: threads pack and unpack the same committed random types (randtype.h) at
 * once, each into buffers of its own, while another thread creates, commits and frees types, so
 * that lookups of the shared handles race with the handle table's growth. The engine's state for a
 * committed type (its dataloop) is shared and read-only, and every scratch buffer must be the
 * calling thread's: each result is compared with the reference model (reftype.h), computed by
 * main before the threads start.
 *   - MPI_Pack and MPI_Unpack of count 1-3 instances, against the model's stream and buffer;
 *   - MPI_Pack_external of the same (types with a long or a long double only when their values
 *     make sense in external32, so: all but those), against a single-threaded pack done first;
 *   - MPI_Get_elements_x of the whole message, against the model's element count.
 */
#include <pthread.h>
#include <stdlib.h>
#include "mtest.h"
#include "randtype.h"
#include "reftype.h"

#define NTYPES 48
#define NPACKERS 4
#define ITERS 3000

typedef struct {
    MPI_Datatype t;
    int count;
    ref_map m;
    ref_buf in;                 /* the data to pack */
    unsigned char *stream;      /* the model's stream of in */
    ref_buf before, after;      /* a buffer, and it after unpacking stream (the model's) */
    unsigned char *writes;      /* bytes written more than once: skipped */
    unsigned char *ext;         /* MPI_Pack_external of in, single-threaded; NULL if it failed */
    MPI_Aint ext_size;
} shared_type;

static shared_type types[NTYPES];
static volatile int packers_done;

typedef mtest_worker worker;

static void check_one(worker *w, shared_type *s, rt_rng *r)
{
    int size = (int) s->m.size, pos = 0;
    unsigned char *out = malloc((size_t) size + 1);
    ref_buf got;
    if (!out || ref_buf_clone(&got, &s->before)) {
        MTEST_WORKER_FAIL(w, "out of memory");
        exit(1);
    }
    if (MPI_Pack(s->in.base, s->count, s->t, out, size, &pos, MPI_COMM_SELF) != MPI_SUCCESS || pos != size
        || memcmp(out, s->stream, (size_t) size) != 0)
        MTEST_WORKER_FAIL(w, "MPI_Pack of type %ld differs from the model", (long) (s - types));
    pos = 0;
    if (MPI_Unpack(s->stream, size, &pos, got.base, s->count, s->t, MPI_COMM_SELF) != MPI_SUCCESS || pos != size)
        MTEST_WORKER_FAIL(w, "MPI_Unpack of type %ld failed", (long) (s - types));
    for (size_t k = 0; k < got.len; k++)
        if (got.mem[k] != s->after.mem[k] && s->writes[k] <= 1) {
            MTEST_WORKER_FAIL(w, "MPI_Unpack of type %ld: byte %zu of the buffer differs from the model",
                              (long) (s - types), k);
            break;
        }
    if (s->ext && rt_chance(r, 50)) {
        unsigned char *e = malloc((size_t) s->ext_size + 1);
        MPI_Aint epos = 0;
        if (!e)
            exit(1);
        if (MPI_Pack_external("external32", s->in.base, s->count, s->t, e, s->ext_size, &epos) != MPI_SUCCESS
            || epos != s->ext_size || memcmp(e, s->ext, (size_t) s->ext_size) != 0)
            MTEST_WORKER_FAIL(w, "MPI_Pack_external of type %ld differs from the single-threaded one",
                              (long) (s - types));
        free(e);
    }
    MPI_Status st;
    MPI_Count elements = -1;
    MPI_Status_set_elements_x(&st, MPI_BYTE, s->m.size);
    if (MPI_Get_elements_x(&st, s->t, &elements) != MPI_SUCCESS || elements != ref_elements(&s->m, s->m.size))
        MTEST_WORKER_FAIL(w, "MPI_Get_elements_x of type %ld = %lld, model %lld", (long) (s - types),
                          (long long) elements, (long long) ref_elements(&s->m, s->m.size));
    free(out);
    ref_buf_free(&got);
}

static void *pack_work(void *arg)
{
    worker *w = arg;
    rt_rng r;
    rt_seed(&r, 1000 + (uint64_t) w->id);
    for (int it = 0; it < ITERS; it++)
        check_one(w, &types[rt_range(&r, 0, NTYPES - 1)], &r);
    return NULL;
}

/* Creates, commits and frees random types until the packers are done. */
static void *churn_work(void *arg)
{
    worker *w = arg;
    static const rt_limits lim = { 4, 512, 4096 };
    rt_rng r;
    rt_seed(&r, 77);
    MPI_Datatype live[64];
    int n = 0;
    while (!__atomic_load_n(&packers_done, __ATOMIC_ACQUIRE)) {
        MPI_Datatype t = rt_random_type(&r, &lim);
        if (t == MPI_DATATYPE_NULL || MPI_Type_commit(&t) != MPI_SUCCESS) {
            MTEST_WORKER_FAIL(w, "the generator's type could not be made or committed");
            break;
        }
        live[n++] = t;
        if (n == 64)   /* keep up to 64 alive, so the table grows and shrinks */
            while (n > 0)
                MPI_Type_free(&live[--n]);
    }
    while (n > 0)
        MPI_Type_free(&live[--n]);
    return NULL;
}

/* Types whose random values external32 cannot hold (a long beyond 32 bits, a wchar_t beyond 16)
 * or not exactly (long double) */
static int has_form_trouble(const ref_map *m)
{
    for (size_t k = 0; k < m->n; k++)
        if (m->e[k].type == MPI_LONG || m->e[k].type == MPI_WCHAR || m->e[k].type == MPI_LONG_DOUBLE)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    int provided = -1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK_EQ(provided, MPI_THREAD_MULTIPLE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    static const rt_limits lim = { 6, 4096, 32768 };
    for (int i = 0; i < NTYPES; i++) {
        shared_type *s = &types[i];
        rt_rng r;
        rt_seed(&r, 500 + (uint64_t) i);
        s->t = rt_random_type(&r, &lim);
        s->count = 1 + i % 3;
        if (s->t == MPI_DATATYPE_NULL || MPI_Type_commit(&s->t) != MPI_SUCCESS
            || ref_map_build(s->t, s->count, &s->m) || ref_buf_alloc(&s->in, &s->m, rt_next(&r))
            || ref_buf_alloc(&s->before, &s->m, rt_next(&r)) || ref_buf_clone(&s->after, &s->before)
            || !(s->stream = malloc((size_t) s->m.size + 1)) || !(s->writes = ref_buf_writes(&s->m, &s->before))) {
            MTEST_FAIL("type %d (seed %d) could not be set up", i, 500 + i);
            return MTest_Finalize();
        }
        ref_pack(&s->m, s->in.base, s->stream);
        ref_unpack(&s->m, s->stream, s->after.base);
        MPI_Aint epos = 0;
        if (!has_form_trouble(&s->m)
            && MPI_Pack_external_size("external32", s->count, s->t, &s->ext_size) == MPI_SUCCESS
            && (s->ext = malloc((size_t) s->ext_size + 1))
            && MPI_Pack_external("external32", s->in.base, s->count, s->t, s->ext, s->ext_size, &epos) != MPI_SUCCESS) {
            MTEST_FAIL("MPI_Pack_external of type %d failed single-threaded", i);
            free(s->ext);
            s->ext = NULL;
        }
    }

    pthread_t threads[NPACKERS + 1];
    worker workers[NPACKERS + 1];
    for (int k = 0; k <= NPACKERS; k++) {
        workers[k] = (worker) { .id = k, .errs = 0 };
        if (pthread_create(&threads[k], NULL, k < NPACKERS ? pack_work : churn_work, &workers[k]) != 0) {
            MTEST_FAIL("pthread_create failed");
            return MTest_Finalize();
        }
    }
    for (int k = 0; k < NPACKERS; k++)
        pthread_join(threads[k], NULL);
    __atomic_store_n(&packers_done, 1, __ATOMIC_RELEASE);
    pthread_join(threads[NPACKERS], NULL);
    for (int k = 0; k <= NPACKERS; k++)
        mtest_errs += workers[k].errs;

    for (int i = 0; i < NTYPES; i++) {
        shared_type *s = &types[i];
        MPI_Type_free(&s->t);
        ref_map_free(&s->m);
        ref_buf_free(&s->in);
        ref_buf_free(&s->before);
        ref_buf_free(&s->after);
        free(s->stream);
        free(s->writes);
        free(s->ext);
    }
    return MTest_Finalize();
}
