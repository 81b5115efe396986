/*
 * libFuzzer target for the datatype engine (build and run: test/fuzz/build.sh, test/fuzz/run.sh).
 *
 * The input is a tiny program: a list of datatype operations (every constructor, dup, resized,
 * free, commit, decoding), then the choice of one result and a few numbers that drive the checks.
 * Bad arguments are part of the fuzzing: a constructor given a negative count, an overflowing
 * displacement or a freed handle must return an error, never crash, leak or hang.
 *
 * The chosen type is committed and its packed stream of `count` instances is checked with cheap
 * cross-checks between independent paths of the engine:
 *   - the runs that MPID_Segment_for_each_run reports give the element boundaries, the covered
 *     bytes and the true bounds; a one-shot segment pack must equal those runs gathered;
 *   - packing in two pieces (split where the first call stopped), in reverse order, in random
 *     chunks, or through MPID_Segment_to_iov with a tiny array gives the same bytes;
 *   - a range start inside a basic element is MPI_ERR_ARG; *last is always the largest element
 *     boundary at or below the requested end;
 *   - unpack(pack(x)) writes back exactly the covered bytes and nothing else;
 *   - MPI_Pack/MPI_Unpack, MPI_Get_elements/MPI_Get_count/MPI_Status_set_elements,
 *     MPIX_Type_iov(_len) and the external32 functions agree with the same runs.
 * Leaks: LeakSanitizer sees lost heap blocks; datatype records live in a pool that LSan cannot
 * judge, so the number of live records is compared before and after each input (the build wraps
 * MPIR_Pool_alloc to learn where the datatype pool is).
 * Any disagreement calls abort() so that libFuzzer saves the input.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpiimpl.h"
#include "mpid_dataloop.h"

#define MAX_OPS 24
#define MAX_SLOTS 16
#define MAX_OWNED 64
#define MAX_ARRAY 24            /* entries of the indexed/struct arrays */
#define MAX_STREAM (1 << 16)    /* packed bytes beyond which the data checks are skipped */
#define MAX_SPAN (1 << 20)      /* typed-buffer bytes beyond which the data checks are skipped */
#define MAX_IOV 4096
#define GUARD 64
#define PATTERN 0xA5

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

static bool trace;      /* FUZZ_TRACE=1: print each call the input makes */

static int err_class(int rc)
{
    int cls = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    return cls;
}

/* ---- the datatype pool, for the leak check ---- */

static MPIR_Pool *datatype_pool;
void *__real_MPIR_Pool_alloc(MPIR_Pool *pool);
void *__wrap_MPIR_Pool_alloc(MPIR_Pool *pool)
{
    if (pool->obj_class == MPIR_CLASS_DATATYPE)
        datatype_pool = pool;
    return __real_MPIR_Pool_alloc(pool);
}

static int live_types(void)
{
    if (!datatype_pool)
        return 0;
    pthread_mutex_lock(&datatype_pool->lock);
    int n = datatype_pool->nlive;
    pthread_mutex_unlock(&datatype_pool->lock);
    return n;
}

static void print_live(void *obj, void *arg)
{
    MPID_Datatype *dt = obj;
    (void) arg;
    if (!dt->is_permanent)
        fprintf(stderr, "  live datatype 0x%08x: size %lld extent %ld user_refs %d ref_count %d\n",
                (unsigned) MPID_Datatype_handle(dt), (long long) dt->size, (long) dt->extent,
                atomic_load(&dt->user_refs), atomic_load(&dt->obj.ref_count));
}

/* ---- reading the input: an exhausted input reads as zeros ---- */

typedef struct {
    const uint8_t *p;
    size_t n;
} Input;

static uint8_t u8(Input *in)
{
    if (in->n == 0)
        return 0;
    in->n--;
    return *in->p++;
}

static uint32_t u32(Input *in)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v = v << 8 | u8(in);
    return v;
}

/* A count: mostly tiny, sometimes larger, sometimes hostile. */
static int64_t count_val(Input *in)
{
    static const int64_t special[8] = { -1, -7, INT_MAX, INT_MIN, 1 << 20, 1 << 30, (int64_t) 1 << 40, INT64_MAX };
    uint8_t b = u8(in);
    switch (b >> 5) {
    case 4: case 5: return b & 15;
    case 6: return (b & 31) * 37;
    case 7: return special[b & 7];
    default: return b & 3;
    }
}

/* A displacement, stride, lb or extent (in elements or bytes): small and signed, sometimes extreme. */
static int64_t disp_val(Input *in)
{
    static const int64_t special[8] = { INT_MIN, INT_MAX, -(1 << 20), 1 << 20, INT64_MIN, INT64_MAX,
                                        (int64_t) 1 << 40, -((int64_t) 1 << 40) };
    uint8_t b = u8(in);
    int64_t small = (int64_t) (b & 31) - 16;
    switch (b >> 5) {
    case 4: case 5: return small * 8;
    case 6: return small * 1000;
    case 7: return special[b & 7];
    default: return small;
    }
}

/* Length of an array argument: the count itself, but never more entries than we allocate. */
static int64_t array_len(Input *in)
{
    int64_t n = count_val(in);
    return n > MAX_ARRAY ? n % (MAX_ARRAY + 1) : n;
}

static int clamp_int(int64_t v)
{
    return v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int) v;
}

/* ---- the type table: predefined types, f90 types, and handles that must be refused ---- */

#define N(t) { t, #t }
static const struct {
    MPI_Datatype h;
    const char *name;
} predefined[] = {
    N(MPI_CHAR), N(MPI_BYTE), N(MPI_SHORT), N(MPI_INT), N(MPI_LONG), N(MPI_UNSIGNED_LONG), N(MPI_FLOAT),
    N(MPI_DOUBLE), N(MPI_LONG_DOUBLE), N(MPI_C_BOOL), N(MPI_WCHAR), N(MPI_INT8_T), N(MPI_UINT16_T),
    N(MPI_INT64_T), N(MPI_C_FLOAT_COMPLEX), N(MPI_C_DOUBLE_COMPLEX), N(MPI_C_LONG_DOUBLE_COMPLEX),
    N(MPI_PACKED), N(MPI_AINT), N(MPI_FLOAT_INT), N(MPI_DOUBLE_INT), N(MPI_LONG_INT), N(MPI_SHORT_INT),
    N(MPI_2INT), N(MPI_LONG_DOUBLE_INT), N(MPI_LB), N(MPI_UB), N(MPI_INTEGER), N(MPI_REAL),
    N(MPI_DOUBLE_COMPLEX), N(MPI_2DOUBLE_PRECISION), N(MPI_DOUBLE), N(MPI_INT), N(MPI_CHAR),
};
#undef N
#define NPRE ((int) (sizeof predefined / sizeof predefined[0]))

static const MPI_Datatype bad_handles[] = {
    MPI_DATATYPE_NULL, (MPI_Datatype) 0, (MPI_Datatype) 0x12345678, (MPI_Datatype) MPI_COMM_WORLD,
    (MPI_Datatype) 0x8c0fffff, (MPI_Datatype) 0x4c0000ff,
};
#define NBAD ((int) (sizeof bad_handles / sizeof bad_handles[0]))

/* The f90 arguments the fuzzer may use; every combination is created at start-up, so that the
 * f90 cache never grows during an input (it would look like a leak). */
static const int f90_p[] = { MPI_UNDEFINED, 1, 6, 7, 15, 16, 33, 1000 };
static const int f90_r[] = { MPI_UNDEFINED, 1, 37, 38, 307, 308, 4931, 100000 };
#define NF90 8
static MPI_Datatype f90_types[3 * NF90 * NF90];
static int nf90;

static void make_f90(int kind, int p, int r, MPI_Datatype *out, int *rc)
{
    *out = MPI_DATATYPE_NULL;
    *rc = kind == 0 ? MPI_Type_create_f90_real(p, r, out)
        : kind == 1 ? MPI_Type_create_f90_complex(p, r, out)
                    : MPI_Type_create_f90_integer(r, out);
}

static void init_mpi(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    const char *env = getenv("FUZZ_TRACE");
    trace = env && *env && *env != '0';
    MPI_Init(NULL, NULL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Datatype t;     /* lets the pool wrapper see the datatype pool */
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_free(&t);
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < NF90; i++)
            for (int j = 0; j < NF90; j++) {
                MPI_Datatype t;
                int rc;
                make_f90(k, f90_p[i], f90_r[j], &t, &rc);
                if (rc == MPI_SUCCESS && t != MPI_DATATYPE_NULL)
                    f90_types[nf90++] = t;
            }
}

/* ---- the program state ---- */

enum { PREDEF = -1, BAD = -2 };

/* The reference model of a type the fuzzer made: its constructor reduced to blocks of copies of
 * children (block k: lens[k] copies of types[k], the first at offs[k] bytes, the next ones one
 * child extent apart), as the standard defines the type map. Expanding it gives the basic elements
 * in type-map order, independently of the engine. */
enum { M_UNKNOWN, M_BLOCKS, M_VECTOR, M_SAME, M_SUBARRAY };

typedef struct {
    int kind;
    int64_t n;                      /* blocks (M_VECTOR: count; M_SUBARRAY: ndims) */
    int64_t len, stride;            /* M_VECTOR: copies per block, bytes between blocks */
    int64_t lens[MAX_ARRAY], offs[MAX_ARRAY];
    MPI_Datatype types[MAX_ARRAY];  /* M_BLOCKS: one child per block; others: types[0] */
    int64_t sizes[3], subsizes[3], starts[3];
    int order;
    bool in_extents;                /* offs / stride count extents of the child, not bytes */
    MPI_Count size, lb, extent;     /* of the type itself, asked when it was made */
} Model;

typedef struct {
    Input in;
    struct {
        MPI_Datatype h;
        int owner;      /* index in owned[], PREDEF or BAD */
    } slots[MAX_SLOTS];
    int nslots;
    struct {
        MPI_Datatype h;
        bool freed;
        Model model;
    } owned[MAX_OWNED];
    int nowned;
} Prog;

/* ---- tracing: FUZZ_TRACE=1 prints the program as the calls it makes ---- */

static const Prog *traced;

#define TRACE(...) \
    do { \
        if (trace) \
            fprintf(stderr, __VA_ARGS__); \
    } while (0)

/* A printable name: tN for the N-th type made, the MPI_ name of a predefined type, else hex. */
static const char *tname(MPI_Datatype h)
{
    static char bufs[8][32];
    static int next;
    char *b = bufs[next++ % 8];
    for (int i = traced ? traced->nowned - 1 : -1; i >= 0; i--)
        if (traced->owned[i].h == h) {
            snprintf(b, 32, "t%d%s", i, traced->owned[i].freed ? "(freed)" : "");
            return b;
        }
    for (int i = 0; i < NPRE; i++)
        if (predefined[i].h == h)
            return predefined[i].name;
    snprintf(b, 32, "0x%08x", (unsigned) h);
    return b;
}

static void trace_counts(const char *name, const MPI_Count *v, int64_t n)
{
    TRACE(" %s={", name);
    for (int64_t i = 0; i < n && i < MAX_ARRAY; i++)
        TRACE("%s%lld", i ? "," : "", (long long) v[i]);
    TRACE("}");
}

static void trace_result(int rc, MPI_Datatype t)
{
    if (rc == MPI_SUCCESS)
        TRACE(" -> %s\n", tname(t));
    else {
        char msg[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, msg, &len);
        TRACE(" -> error: %s\n", msg);
    }
}

static bool slot_valid(const Prog *P, int s)
{
    int o = P->slots[s].owner;
    return o == PREDEF || (o >= 0 && !P->owned[o].freed);
}

static void add_slot(Prog *P, MPI_Datatype h, int owner)
{
    int s = P->nslots < MAX_SLOTS ? P->nslots++ : (int) (u8(&P->in) % MAX_SLOTS);
    P->slots[s].h = h;
    P->slots[s].owner = owner;
}

/* A type argument; *valid tells whether the library must accept it. */
static MPI_Datatype pick_type(Prog *P, bool *valid)
{
    uint8_t b = u8(&P->in);
    if (P->nslots > 0 && b < 144) {
        int s = b % P->nslots;
        *valid = *valid && slot_valid(P, s);
        return P->slots[s].h;
    }
    int k = b % (NPRE + 8 + NBAD);
    if (k < NPRE)
        return predefined[k].h;
    k -= NPRE;
    if (k < 8)
        return nf90 ? f90_types[(k * 7 + b) % nf90] : MPI_INT;
    *valid = false;
    return bad_handles[k - 8];
}

/* Basic sanity of a type the library accepted. */
static void check_queries(MPI_Datatype t)
{
    MPI_Count size, lb, extent, tlb, textent;
    CHECK(MPI_Type_size_x(t, &size) == MPI_SUCCESS, "MPI_Type_size_x failed on 0x%x", (unsigned) t);
    CHECK(MPI_Type_get_extent_x(t, &lb, &extent) == MPI_SUCCESS, "MPI_Type_get_extent_x failed");
    CHECK(MPI_Type_get_true_extent_x(t, &tlb, &textent) == MPI_SUCCESS, "MPI_Type_get_true_extent_x failed");
    CHECK(size >= 0, "negative size %lld", (long long) size);
    CHECK(textent >= 0, "negative true extent %lld", (long long) textent);
    CHECK(size > 0 || textent == 0, "no data but true extent %lld", (long long) textent);
}

/* A constructor returned rc with result t: record it, or check that it had to fail. */
static void constructed(Prog *P, int rc, MPI_Datatype t, bool args_valid, const Model *m, const char *what)
{
    if (rc != MPI_SUCCESS) {
        trace_result(rc, t);
        return;
    }
    if (P->nowned < MAX_OWNED) {
        P->owned[P->nowned].h = t;
        P->owned[P->nowned].freed = false;
        Model *mm = &P->owned[P->nowned].model;
        *mm = *m;
        MPI_Type_size_x(t, &mm->size);
        MPI_Type_get_extent_x(t, &mm->lb, &mm->extent);
        add_slot(P, t, P->nowned++);
    }
    trace_result(rc, t);
    CHECK(args_valid, "%s accepted an invalid datatype handle", what);
    check_queries(t);
    if (P->nowned == MAX_OWNED && P->owned[MAX_OWNED - 1].h != t)
        MPI_Type_free(&t);
}

/* ---- the operations ---- */

enum {
    OP_CONTIG, OP_VECTOR, OP_HVECTOR, OP_INDEXED, OP_HINDEXED, OP_INDEXED_BLOCK, OP_HINDEXED_BLOCK,
    OP_STRUCT, OP_SUBARRAY, OP_DARRAY, OP_RESIZED, OP_DUP, OP_FREE, OP_COMMIT, OP_CONTENTS,
    OP_VALUE_INDEX, OP_F90, OP_STRUCT2, OP_VECTOR2, NOPS
};

static void op_simple(Prog *P, int op, int variant)
{
    Input *in = &P->in;
    bool valid = true;
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int rc = MPI_SUCCESS;
    int64_t count = count_val(in), bl = 0, stride = 0;
    if (op == OP_VECTOR || op == OP_HVECTOR) {
        bl = count_val(in);
        stride = disp_val(in);
    }
    MPI_Datatype old = pick_type(P, &valid);
    if (variant != 1) {     /* what the int binding receives */
        count = clamp_int(count);
        bl = clamp_int(bl);
        if (op == OP_VECTOR)
            stride = clamp_int(stride);
    }
    static const char *names[] = { "MPI_Type_contiguous", "MPI_Type_vector", "MPI_Type_create_hvector" };
    TRACE("%s%s(count=%lld", variant == 2 && op == OP_HVECTOR ? "MPI_Type_hvector" : names[op],
          variant == 1 ? "_c" : "", (long long) count);
    if (op != OP_CONTIG)
        TRACE(", blocklength=%lld, stride=%lld", (long long) bl, (long long) stride);
    TRACE(", %s)", tname(old));
    switch (op) {
    case OP_CONTIG:
        rc = variant == 1 ? MPI_Type_contiguous_c(count, old, &t) : MPI_Type_contiguous(clamp_int(count), old, &t);
        break;
    case OP_VECTOR:
        rc = variant == 1 ? MPI_Type_vector_c(count, bl, stride, old, &t)
                          : MPI_Type_vector(clamp_int(count), clamp_int(bl), clamp_int(stride), old, &t);
        break;
    case OP_HVECTOR:
        rc = variant == 1 ? MPI_Type_create_hvector_c(count, bl, stride, old, &t)
           : variant == 2 ? MPI_Type_hvector(clamp_int(count), clamp_int(bl), stride, old, &t)
                          : MPI_Type_create_hvector(clamp_int(count), clamp_int(bl), stride, old, &t);
        break;
    }
    Model m = { .kind = M_VECTOR, .n = op == OP_CONTIG ? 1 : count, .len = op == OP_CONTIG ? count : bl,
                .stride = stride, .in_extents = op == OP_VECTOR, .types = { old } };
    constructed(P, rc, t, valid, &m, "a vector constructor");
}

static void op_indexed(Prog *P, int op, int variant)
{
    Input *in = &P->in;
    bool valid = true;
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int rc = MPI_SUCCESS;
    int64_t n = array_len(in), bl = op == OP_INDEXED || op == OP_HINDEXED ? 0 : count_val(in);
    int ibl[MAX_ARRAY], idisp[MAX_ARRAY];
    MPI_Count cbl[MAX_ARRAY], cdisp[MAX_ARRAY];
    MPI_Aint adisp[MAX_ARRAY];
    bool per_block = op == OP_INDEXED || op == OP_HINDEXED;   /* block lengths per block */
    for (int i = 0; i < MAX_ARRAY; i++) {
        cbl[i] = i < n && per_block ? count_val(in) : 0;
        cdisp[i] = i < n ? disp_val(in) : 0;
        ibl[i] = clamp_int(cbl[i]);
        idisp[i] = clamp_int(cdisp[i]);
        adisp[i] = cdisp[i];
        if (variant != 1) {     /* for the trace: what the int binding receives */
            cbl[i] = ibl[i];
            if (op == OP_INDEXED || op == OP_INDEXED_BLOCK)
                cdisp[i] = idisp[i];
        }
    }
    if (variant != 1)
        bl = clamp_int(bl);
    MPI_Datatype old = pick_type(P, &valid);
    bool c = variant == 1;
    int in_ = clamp_int(n), ibl1 = clamp_int(bl);
    static const char *names[] = { "MPI_Type_indexed", "MPI_Type_create_hindexed", "MPI_Type_create_indexed_block",
                                   "MPI_Type_create_hindexed_block" };
    TRACE("%s%s(count=%lld", variant == 2 && op == OP_HINDEXED ? "MPI_Type_hindexed" : names[op - OP_INDEXED],
          c ? "_c" : "", (long long) n);
    if (per_block)
        trace_counts("blocklens", cbl, n);
    else
        TRACE(" blocklength=%lld", (long long) bl);
    trace_counts("disps", cdisp, n);
    TRACE(", %s)", tname(old));
    switch (op) {
    case OP_INDEXED:
        rc = c ? MPI_Type_indexed_c(n, cbl, cdisp, old, &t) : MPI_Type_indexed(in_, ibl, idisp, old, &t);
        break;
    case OP_HINDEXED:
        rc = c ? MPI_Type_create_hindexed_c(n, cbl, cdisp, old, &t)
           : variant == 2 ? MPI_Type_hindexed(in_, ibl, adisp, old, &t)
                          : MPI_Type_create_hindexed(in_, ibl, adisp, old, &t);
        break;
    case OP_INDEXED_BLOCK:
        rc = c ? MPI_Type_create_indexed_block_c(n, bl, cdisp, old, &t)
               : MPI_Type_create_indexed_block(in_, ibl1, idisp, old, &t);
        break;
    case OP_HINDEXED_BLOCK:
        rc = c ? MPI_Type_create_hindexed_block_c(n, bl, cdisp, old, &t)
               : MPI_Type_create_hindexed_block(in_, ibl1, adisp, old, &t);
        break;
    }
    Model m = { .kind = M_BLOCKS, .n = n, .in_extents = op == OP_INDEXED || op == OP_INDEXED_BLOCK };
    for (int i = 0; i < MAX_ARRAY; i++) {
        m.lens[i] = per_block ? cbl[i] : bl;
        m.offs[i] = cdisp[i];
        m.types[i] = old;
    }
    constructed(P, rc, t, valid, &m, "an indexed constructor");
}

static void op_struct(Prog *P, int variant)
{
    Input *in = &P->in;
    bool valid = true;
    MPI_Datatype t = MPI_DATATYPE_NULL, types[MAX_ARRAY];
    int64_t n = array_len(in);
    int ibl[MAX_ARRAY];
    MPI_Count cbl[MAX_ARRAY], cdisp[MAX_ARRAY];
    MPI_Aint adisp[MAX_ARRAY];
    for (int i = 0; i < MAX_ARRAY; i++) {
        bool v = true;
        cbl[i] = i < n ? count_val(in) : 0;
        cdisp[i] = i < n ? disp_val(in) : 0;
        types[i] = i < n ? pick_type(P, &v) : MPI_INT;
        if (i < n)
            valid = valid && v;
        ibl[i] = clamp_int(cbl[i]);
        adisp[i] = cdisp[i];
        if (variant != 1)
            cbl[i] = ibl[i];
    }
    TRACE("%s(count=%lld", variant == 1 ? "MPI_Type_create_struct_c" : variant == 2 ? "MPI_Type_struct"
          : "MPI_Type_create_struct", (long long) n);
    trace_counts("blocklens", cbl, n);
    trace_counts("disps", cdisp, n);
    TRACE(" types={");
    for (int64_t i = 0; i < n && i < MAX_ARRAY; i++)
        TRACE("%s%s", i ? "," : "", tname(types[i]));
    TRACE("})");
    int rc = variant == 1 ? MPI_Type_create_struct_c(n, cbl, cdisp, types, &t)
           : variant == 2 ? MPI_Type_struct(clamp_int(n), ibl, adisp, types, &t)
                          : MPI_Type_create_struct(clamp_int(n), ibl, adisp, types, &t);
    Model m = { .kind = M_BLOCKS, .n = n };
    memcpy(m.lens, cbl, sizeof cbl);
    memcpy(m.offs, cdisp, sizeof cdisp);
    memcpy(m.types, types, sizeof types);
    constructed(P, rc, t, valid || n <= 0, &m, "a struct constructor");
}

/* A struct of a few well-placed blocks with explicit MPI_LB/MPI_UB markers around a child. */
static void op_struct_markers(Prog *P)
{
    Input *in = &P->in;
    bool valid = true;
    MPI_Datatype t = MPI_DATATYPE_NULL;
    MPI_Datatype types[3] = { MPI_LB, MPI_DATATYPE_NULL, MPI_UB };
    int bl[3] = { 1, 0, 1 };
    MPI_Aint d[3];
    types[1] = pick_type(P, &valid);    /* one statement each: the input is read in order */
    bl[1] = u8(in) % 4;
    for (int i = 0; i < 3; i++)
        d[i] = disp_val(in);
    TRACE("MPI_Type_struct(3, blocklens={1,%d,1} disps={%ld,%ld,%ld} types={MPI_LB,%s,MPI_UB})", bl[1],
          (long) d[0], (long) d[1], (long) d[2], tname(types[1]));
    int rc = MPI_Type_struct(3, bl, d, types, &t);
    Model m = { .kind = M_BLOCKS, .n = 3 };
    for (int i = 0; i < 3; i++) {
        m.lens[i] = bl[i];
        m.offs[i] = d[i];
        m.types[i] = types[i];
    }
    constructed(P, rc, t, valid, &m, "a struct with markers");
}

/* A vector of a small contiguous child: the shape the normaliser likes to merge. */
static void op_vector_of_contig(Prog *P)
{
    Input *in = &P->in;
    bool valid = true;
    MPI_Datatype inner = MPI_DATATYPE_NULL, t = MPI_DATATYPE_NULL;
    MPI_Datatype old = pick_type(P, &valid);
    int n = u8(in) % 5, count = u8(in) % 6, bl = u8(in) % 4;
    int stride = (int) (u8(in) % 13) - 6;
    TRACE("inner = MPI_Type_contiguous(%d, %s); MPI_Type_vector(%d, %d, %d, inner); MPI_Type_free(inner)", n,
          tname(old), count, bl, stride);
    if (MPI_Type_contiguous(n, old, &inner) != MPI_SUCCESS) {
        TRACE(" -> contiguous failed\n");    /* an invalid type, or a size that overflows */
        return;
    }
    int rc = MPI_Type_vector(count, bl, stride, inner, &t);
    if (P->nowned < MAX_OWNED) {    /* the model of the parent needs the inner type's */
        Model *mi = &P->owned[P->nowned].model;
        *mi = (Model) { .kind = M_VECTOR, .n = 1, .len = n, .types = { old } };
        MPI_Type_size_x(inner, &mi->size);
        MPI_Type_get_extent_x(inner, &mi->lb, &mi->extent);
        P->owned[P->nowned].h = inner;
        P->owned[P->nowned++].freed = true;
    }
    MPI_Datatype inner_handle = inner;
    CHECK(MPI_Type_free(&inner) == MPI_SUCCESS && inner == MPI_DATATYPE_NULL, "MPI_Type_free failed");
    CHECK(valid, "MPI_Type_contiguous accepted an invalid type");
    Model m = { .kind = M_VECTOR, .n = count, .len = bl, .stride = stride, .in_extents = true,
                .types = { inner_handle } };
    constructed(P, rc, t, true, &m, "a vector of contiguous");
}

static int64_t dim_val(Input *in, int64_t lo, int64_t hi)
{
    static const int64_t special[8] = { 0, -1, INT_MAX, INT_MIN, 1 << 20, (int64_t) 1 << 40, -5, 100 };
    uint8_t b = u8(in);
    if (b >= 232)
        return special[b & 7];
    return hi < lo ? lo : lo + b % (hi - lo + 1);
}

static int order_val(Input *in)
{
    uint8_t b = u8(in);
    return b == 255 ? 77 : (b & 1) ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
}

static void op_subarray(Prog *P, int variant)
{
    Input *in = &P->in;
    bool valid = true;
    MPI_Datatype t = MPI_DATATYPE_NULL;
    uint8_t nb = u8(in);
    int ndims = nb >= 250 ? (nb == 255 ? -1 : 0) : 1 + nb % 3;
    int isz[3] = { 1, 1, 1 }, isub[3] = { 1, 1, 1 }, ist[3] = { 0, 0, 0 };
    MPI_Count csz[3] = { 1, 1, 1 }, csub[3] = { 1, 1, 1 }, cst[3] = { 0, 0, 0 };
    for (int d = 0; d < ndims && d < 3; d++) {
        csz[d] = dim_val(in, 1, 6);
        csub[d] = dim_val(in, 1, csz[d]);
        cst[d] = dim_val(in, 0, csz[d] - csub[d]);
        isz[d] = clamp_int(csz[d]);
        isub[d] = clamp_int(csub[d]);
        ist[d] = clamp_int(cst[d]);
    }
    int order = order_val(in);
    MPI_Datatype old = pick_type(P, &valid);
    TRACE("MPI_Type_create_subarray%s(ndims=%d", variant == 1 ? "_c" : "", ndims);
    trace_counts("sizes", csz, ndims);
    trace_counts("subsizes", csub, ndims);
    trace_counts("starts", cst, ndims);
    TRACE(" order=%d, %s)", order, tname(old));
    int rc = variant == 1 ? MPI_Type_create_subarray_c(ndims, csz, csub, cst, order, old, &t)
                          : MPI_Type_create_subarray(ndims, isz, isub, ist, order, old, &t);
    Model m = { .kind = M_SUBARRAY, .n = ndims, .order = order, .types = { old } };
    for (int d = 0; d < 3; d++) {
        m.sizes[d] = variant == 1 ? csz[d] : isz[d];
        m.subsizes[d] = variant == 1 ? csub[d] : isub[d];
        m.starts[d] = variant == 1 ? cst[d] : ist[d];
    }
    constructed(P, rc, t, valid, &m, "MPI_Type_create_subarray");
}

static void op_darray(Prog *P, int variant)
{
    static const int distribs[] = { MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE,
                                    MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE, 999, -1 };
    static const int dargs[] = { MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG, 1, 2, 3, 5, 0, -2 };
    Input *in = &P->in;
    bool valid = true;
    MPI_Datatype t = MPI_DATATYPE_NULL;
    uint8_t sb = u8(in);
    int size = sb >= 250 ? (sb == 255 ? -1 : 0) : 1 + sb % 6;
    uint8_t rb = u8(in);
    int rank = rb == 255 ? size : rb == 254 ? -1 : (size > 0 ? rb % size : 0);
    uint8_t nb = u8(in);
    int ndims = nb >= 250 ? 0 : 1 + nb % 3;
    int gs[3] = { 1, 1, 1 }, dist[3], darg[3], ps[3] = { 1, 1, 1 };
    MPI_Count cgs[3] = { 1, 1, 1 };
    bool free_psizes = u8(in) >= 240;   /* usually a valid process grid */
    int left = size > 0 ? size : 1;
    for (int d = 0; d < ndims; d++) {
        cgs[d] = dim_val(in, 1, 9);
        gs[d] = clamp_int(cgs[d]);
        dist[d] = distribs[u8(in) & 7];
        darg[d] = dargs[u8(in) & 7];
        if (free_psizes) {
            ps[d] = (int) (u8(in) % 5) - 1;
        } else if (d == ndims - 1) {
            ps[d] = left;
        } else {
            int f = 1 + u8(in) % left;
            while (left % f)
                f--;
            ps[d] = f;
            left /= f;
        }
    }
    int order = order_val(in);
    MPI_Datatype old = pick_type(P, &valid);
    TRACE("MPI_Type_create_darray%s(size=%d, rank=%d, ndims=%d", variant == 1 ? "_c" : "", size, rank, ndims);
    trace_counts("gsizes", cgs, ndims);
    for (int d = 0; d < ndims && d < 3; d++)
        TRACE(" [distrib=%d darg=%d psize=%d]", dist[d], darg[d], ps[d]);
    TRACE(" order=%d, %s)", order, tname(old));
    int rc = variant == 1 ? MPI_Type_create_darray_c(size, rank, ndims, cgs, dist, darg, ps, order, old, &t)
                          : MPI_Type_create_darray(size, rank, ndims, gs, dist, darg, ps, order, old, &t);
    Model m = { .kind = M_UNKNOWN };     /* darray's map is not modelled */
    constructed(P, rc, t, valid, &m, "MPI_Type_create_darray");
}

static void op_resized(Prog *P, int variant)
{
    Input *in = &P->in;
    bool valid = true;
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int64_t lb = disp_val(in), extent = disp_val(in);
    MPI_Datatype old = pick_type(P, &valid);
    TRACE("MPI_Type_create_resized%s(%s, lb=%lld, extent=%lld)", variant == 1 ? "_c" : "", tname(old),
          (long long) lb, (long long) extent);
    int rc = variant == 1 ? MPI_Type_create_resized_c(old, lb, extent, &t)
                          : MPI_Type_create_resized(old, lb, extent, &t);
    Model m = { .kind = M_SAME, .types = { old } };
    constructed(P, rc, t, valid, &m, "MPI_Type_create_resized");
}

static void op_dup(Prog *P)
{
    bool valid = true;
    MPI_Datatype t = MPI_DATATYPE_NULL;
    MPI_Datatype old = pick_type(P, &valid);
    TRACE("MPI_Type_dup(%s)", tname(old));
    int rc = MPI_Type_dup(old, &t);
    Model m = { .kind = M_SAME, .types = { old } };
    constructed(P, rc, t, valid, &m, "MPI_Type_dup");
}

static void op_free(Prog *P)
{
    if (P->nslots == 0)
        return;
    int s = u8(&P->in) % P->nslots;
    int o = P->slots[s].owner;
    MPI_Datatype h = P->slots[s].h;
    TRACE("MPI_Type_free(%s)\n", tname(h));
    int rc = MPI_Type_free(&h);
    if (o >= 0 && !P->owned[o].freed) {
        CHECK(rc == MPI_SUCCESS && h == MPI_DATATYPE_NULL, "MPI_Type_free of a live type failed (%d)", rc);
        P->owned[o].freed = true;   /* the slot keeps the stale handle: later uses must fail */
    } else {
        CHECK(rc != MPI_SUCCESS, "MPI_Type_free accepted %s handle 0x%x",
              o >= 0 ? "a freed" : "a predefined or invalid", (unsigned) P->slots[s].h);
    }
}

static void op_commit(Prog *P)
{
    if (P->nslots == 0)
        return;
    int s = u8(&P->in) % P->nslots;
    MPI_Datatype h = P->slots[s].h;
    TRACE("MPI_Type_commit(%s)\n", tname(h));
    int rc = MPI_Type_commit(&h);
    if (slot_valid(P, s))
        CHECK(rc == MPI_SUCCESS, "MPI_Type_commit of a valid type failed (class %d)", err_class(rc));
    else
        CHECK(rc != MPI_SUCCESS, "MPI_Type_commit accepted an invalid handle 0x%x", (unsigned) h);
}

/* Frees what MPI_Type_get_contents handed out (derived types only: predefined and f90 are not). */
static void free_returned(MPI_Datatype *types, MPI_Count n)
{
    for (MPI_Count i = 0; i < n; i++) {
        MPI_Count ni, na, nc, nd;
        int comb;
        CHECK(MPI_Type_get_envelope_c(types[i], &ni, &na, &nc, &nd, &comb) == MPI_SUCCESS,
              "MPI_Type_get_contents returned an unusable handle 0x%x", (unsigned) types[i]);
        if (comb != MPI_COMBINER_NAMED && comb != MPI_COMBINER_F90_REAL && comb != MPI_COMBINER_F90_COMPLEX
            && comb != MPI_COMBINER_F90_INTEGER)
            CHECK(MPI_Type_free(&types[i]) == MPI_SUCCESS, "freeing a type from get_contents failed");
    }
}

static void op_contents(Prog *P)
{
    if (P->nslots == 0)
        return;
    int s = u8(&P->in) % P->nslots;
    bool large = u8(&P->in) & 1;
    MPI_Datatype h = P->slots[s].h;
    TRACE("MPI_Type_get_envelope%s/get_contents(%s)\n", large ? "_c" : "", tname(h));
    if (!large) {
        int ni, na, nd, comb;
        int rc = MPI_Type_get_envelope(h, &ni, &na, &nd, &comb);
        if (!slot_valid(P, s)) {
            CHECK(rc != MPI_SUCCESS, "MPI_Type_get_envelope accepted an invalid handle");
            return;
        }
        if (rc != MPI_SUCCESS)
            return;     /* a _c type whose arguments do not fit an int */
        CHECK(ni >= 0 && na >= 0 && nd >= 0, "negative envelope counts");
        int *ints = malloc(sizeof(int) * (ni + 1));
        MPI_Aint *addrs = malloc(sizeof(MPI_Aint) * (na + 1));
        MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (nd + 1));
        rc = MPI_Type_get_contents(h, ni, na, nd, ints, addrs, types);
        if (comb == MPI_COMBINER_NAMED)
            CHECK(rc != MPI_SUCCESS, "MPI_Type_get_contents accepted a named type");
        else {
            CHECK(rc == MPI_SUCCESS, "MPI_Type_get_contents failed after a good envelope");
            free_returned(types, nd);
        }
        free(ints);
        free(addrs);
        free(types);
    } else {
        MPI_Count ni, na, nc, nd;
        int comb;
        int rc = MPI_Type_get_envelope_c(h, &ni, &na, &nc, &nd, &comb);
        if (!slot_valid(P, s)) {
            CHECK(rc != MPI_SUCCESS, "MPI_Type_get_envelope_c accepted an invalid handle");
            return;
        }
        CHECK(rc == MPI_SUCCESS, "MPI_Type_get_envelope_c failed on a valid type");
        CHECK(ni >= 0 && na >= 0 && nc >= 0 && nd >= 0, "negative envelope counts");
        int *ints = malloc(sizeof(int) * (ni + 1));
        MPI_Aint *addrs = malloc(sizeof(MPI_Aint) * (na + 1));
        MPI_Count *counts = malloc(sizeof(MPI_Count) * (nc + 1));
        MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (nd + 1));
        rc = MPI_Type_get_contents_c(h, ni, na, nc, nd, ints, addrs, counts, types);
        if (comb == MPI_COMBINER_NAMED)
            CHECK(rc != MPI_SUCCESS, "MPI_Type_get_contents_c accepted a named type");
        else {
            CHECK(rc == MPI_SUCCESS, "MPI_Type_get_contents_c failed after a good envelope");
            free_returned(types, nd);
        }
        free(ints);
        free(addrs);
        free(counts);
        free(types);
    }
}

static void op_value_index(Prog *P)
{
    bool valid = true;
    MPI_Datatype vt = pick_type(P, &valid), it = pick_type(P, &valid), pair = MPI_DATATYPE_NULL;
    uint8_t b = u8(&P->in);
    int rc;
    if (b & 1) {
        rc = MPI_Type_get_value_index(vt, it, &pair);
    } else {
        static const int classes[] = { MPI_TYPECLASS_REAL, MPI_TYPECLASS_INTEGER, MPI_TYPECLASS_COMPLEX, 0 };
        rc = MPI_Type_match_size(classes[(b >> 1) & 3], (int) (u8(&P->in) % 34), &pair);
        valid = true;
    }
    TRACE("MPI_Type_get_value_index/match_size(%s, %s) -> %s\n", tname(vt), tname(it),
          rc == MPI_SUCCESS ? tname(pair) : "error");
    if (rc == MPI_SUCCESS) {
        CHECK(valid, "MPI_Type_get_value_index accepted an invalid handle");
        if (pair != MPI_DATATYPE_NULL) {
            check_queries(pair);
            add_slot(P, pair, PREDEF);
        }
    }
}

static void op_f90(Prog *P)
{
    uint8_t b = u8(&P->in);
    MPI_Datatype t;
    int rc;
    make_f90(b % 3, f90_p[(b >> 2) & 7], f90_r[(b >> 5) & 7], &t, &rc);
    TRACE("MPI_Type_create_f90_%s(p=%d, r=%d) -> %s\n", b % 3 == 0 ? "real" : b % 3 == 1 ? "complex" : "integer",
          f90_p[(b >> 2) & 7], f90_r[(b >> 5) & 7], rc == MPI_SUCCESS ? tname(t) : "error");
    if (rc == MPI_SUCCESS) {
        check_queries(t);
        add_slot(P, t, PREDEF);
    }
}

static void run_op(Prog *P)
{
    uint8_t op = u8(&P->in) % NOPS;
    int variant = u8(&P->in) & 3;
    switch (op) {
    case OP_CONTIG: case OP_VECTOR: case OP_HVECTOR: op_simple(P, op, variant); break;
    case OP_INDEXED: case OP_HINDEXED: case OP_INDEXED_BLOCK: case OP_HINDEXED_BLOCK: op_indexed(P, op, variant); break;
    case OP_STRUCT: op_struct(P, variant); break;
    case OP_STRUCT2: op_struct_markers(P); break;
    case OP_VECTOR2: op_vector_of_contig(P); break;
    case OP_SUBARRAY: op_subarray(P, variant); break;
    case OP_DARRAY: op_darray(P, variant); break;
    case OP_RESIZED: op_resized(P, variant); break;
    case OP_DUP: op_dup(P); break;
    case OP_FREE: op_free(P); break;
    case OP_COMMIT: op_commit(P); break;
    case OP_CONTENTS: op_contents(P); break;
    case OP_VALUE_INDEX: op_value_index(P); break;
    case OP_F90: op_f90(P); break;
    }
}

/* ---- expanding the model: basic elements (offset, size) in type-map order ---- */

typedef struct {
    int64_t *off;
    int32_t *size;
    int64_t n, cap;
} Elems;

static bool push_el(Elems *e, int64_t off, int32_t size)
{
    if (e->n == e->cap)
        return false;
    e->off[e->n] = off;
    e->size[e->n++] = size;
    return true;
}

static const Model *model_of(const Prog *P, MPI_Datatype h)
{
    for (int i = P->nowned - 1; i >= 0; i--)
        if (P->owned[i].h == h)
            return &P->owned[i].model;
    return NULL;
}

/* Size and extent of a child: from its model, or asked (predefined and f90 types live forever). */
static bool child_info(const Prog *P, MPI_Datatype h, MPI_Count *size, MPI_Count *extent)
{
    const Model *m = model_of(P, h);
    MPI_Count lb;
    if (m) {
        *size = m->size;
        *extent = m->extent;
        return true;
    }
    return MPI_Type_size_x(h, size) == MPI_SUCCESS && MPI_Type_get_extent_x(h, &lb, extent) == MPI_SUCCESS;
}

/* The members of the pair types, from the C layout the standard gives them. */
#define PAIR(t, V, I) { t, sizeof(V), offsetof(struct { V v; I i; }, i), sizeof(I) }
static const struct {
    MPI_Datatype type;
    int vsize, ioff, isize;
} pairs[] = {
    PAIR(MPI_FLOAT_INT, float, int), PAIR(MPI_DOUBLE_INT, double, int), PAIR(MPI_LONG_INT, long, int),
    PAIR(MPI_SHORT_INT, short, int), PAIR(MPI_2INT, int, int), PAIR(MPI_LONG_DOUBLE_INT, long double, int),
    PAIR(MPI_2DOUBLE_PRECISION, double, double),
};
#undef PAIR

static bool expand(const Prog *P, MPI_Datatype h, int64_t base, Elems *e);

/* n copies of child, extent apart, from byte off. */
static bool expand_copies(const Prog *P, MPI_Datatype child, int64_t base, int64_t off, int64_t n, Elems *e)
{
    MPI_Count size, extent;
    int64_t at, step;
    if (!child_info(P, child, &size, &extent))
        return false;
    if (n <= 0 || size == 0)
        return n >= 0;
    if (n > e->cap)     /* more elements than the stream holds */
        return false;
    for (int64_t i = 0; i < n; i++)
        if (__builtin_mul_overflow(i, extent, &step) || __builtin_add_overflow(base, off, &at)
            || __builtin_add_overflow(at, step, &at) || !expand(P, child, at, e))
            return false;
    return true;
}

static bool expand_subarray(const Prog *P, const Model *m, int64_t base, Elems *e)
{
    int nd = (int) m->n;
    MPI_Count size, extent;
    int64_t total = 1;
    if (nd < 1 || nd > 3 || !child_info(P, m->types[0], &size, &extent))
        return false;
    for (int d = 0; d < nd; d++)
        if (__builtin_mul_overflow(total, m->subsizes[d], &total) || total > e->cap)
            return false;
    for (int64_t c = 0; c < total; c++) {
        /* the c-th element of the box, in type-map order: the last dimension varies fastest in C
         * order, the first in Fortran order */
        int64_t x[3], rest = c, linear = 0;
        for (int k = 0; k < nd; k++) {
            int d = m->order == MPI_ORDER_C ? nd - 1 - k : k;
            x[d] = m->starts[d] + rest % m->subsizes[d];
            rest /= m->subsizes[d];
        }
        for (int k = 0; k < nd; k++) {
            int d = m->order == MPI_ORDER_C ? k : nd - 1 - k;
            linear = linear * m->sizes[d] + x[d];
        }
        if (__builtin_mul_overflow(linear, extent, &linear) || !expand_copies(P, m->types[0], base, linear, 1, e))
            return false;
    }
    return true;
}

static bool expand(const Prog *P, MPI_Datatype h, int64_t base, Elems *e)
{
    const Model *m = model_of(P, h);
    if (!m) {
        MPID_Datatype *dt = MPID_Datatype_get(h);
        if (!dt || !(MPID_Datatype_is_builtin(h) || dt->is_permanent))
            return false;
        if (dt->n_elements == 1)
            return push_el(e, base, (int32_t) dt->size);
        for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
            if (pairs[i].type == h)
                return push_el(e, base, pairs[i].vsize) && push_el(e, base + pairs[i].ioff, pairs[i].isize);
        return dt->n_elements == 0;     /* MPI_LB, MPI_UB; other pairs are not modelled */
    }
    MPI_Count size, extent;
    int64_t off;
    switch (m->kind) {
    case M_SAME:
        return expand(P, m->types[0], base, e);
    case M_VECTOR:
        if (!child_info(P, m->types[0], &size, &extent))
            return false;
        if (m->len == 0 || size == 0)
            return true;
        if (m->n > e->cap)
            return false;
        for (int64_t j = 0; j < m->n; j++)
            if (__builtin_mul_overflow(j, m->stride, &off) || (m->in_extents && __builtin_mul_overflow(off, extent, &off))
                || !expand_copies(P, m->types[0], base, off, m->len, e))
                return false;
        return true;
    case M_BLOCKS:
        for (int64_t k = 0; k < m->n && k < MAX_ARRAY; k++) {
            if (m->lens[k] == 0)
                continue;
            off = m->offs[k];
            if (m->in_extents && (!child_info(P, m->types[k], &size, &extent)
                                  || __builtin_mul_overflow(off, extent, &off)))
                return false;
            if (!expand_copies(P, m->types[k], base, off, m->lens[k], e))
                return false;
        }
        return m->n <= MAX_ARRAY;
    case M_SUBARRAY:
        return expand_subarray(P, m, base, e);
    default:
        return false;
    }
}

/* ---- the data checks on a committed type ---- */

typedef struct {
    MPI_Aint off;           /* from buf */
    MPI_Count len;
    MPI_Datatype el_type;
} Run;

typedef struct {
    char *buf;              /* the typed buffer's origin (its allocation starts at buf + lo) */
    MPI_Aint lo, hi;        /* the bytes every instance may touch */
    MPI_Count S;            /* packed bytes of the stream */
    Run *runs;
    MPI_Count nruns, cap;
    unsigned char *bound;   /* bound[p]: stream offset p is a basic-element boundary */
    MPI_Count ext32;        /* external32 bytes, from the runs */
    bool lossless;          /* every element survives external32 both ways bit for bit */
    bool has_long;          /* MPI_LONG-like elements: packing may fail with MPI_ERR_CONVERSION */
} Stream;

static bool is_lossless(MPI_Datatype t)
{
    static const MPI_Datatype ok[] = {
        MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_BYTE, MPI_PACKED, MPI_SHORT, MPI_UNSIGNED_SHORT,
        MPI_INT, MPI_UNSIGNED, MPI_LONG_LONG, MPI_UNSIGNED_LONG_LONG, MPI_FLOAT, MPI_DOUBLE, MPI_INT8_T,
        MPI_INT16_T, MPI_INT32_T, MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T, MPI_UINT32_T, MPI_UINT64_T,
        MPI_AINT, MPI_COUNT, MPI_OFFSET, MPI_WCHAR, MPI_C_BOOL, MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX,
        MPI_INTEGER, MPI_REAL, MPI_DOUBLE_PRECISION, MPI_COMPLEX, MPI_DOUBLE_COMPLEX, MPI_INTEGER1,
        MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8, MPI_REAL4, MPI_REAL8, MPI_COMPLEX8, MPI_COMPLEX16,
        MPI_LOGICAL, MPI_CHARACTER,
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (ok[i] == t)
            return true;
    return false;
}

static int collect_run(void *state, char *addr, MPI_Datatype el_type, MPI_Count n)
{
    Stream *st = state;
    if (st->nruns == st->cap) {
        st->cap = st->cap ? 2 * st->cap : 64;
        st->runs = realloc(st->runs, (size_t) st->cap * sizeof *st->runs);
        CHECK(st->runs, "out of memory in the fuzzer");
    }
    MPI_Count el = MPID_Datatype_get(el_type)->size;
    CHECK(n > 0 && el > 0, "a run of %lld elements of size %lld", (long long) n, (long long) el);
    st->runs[st->nruns].off = addr - st->buf;
    st->runs[st->nruns].len = n * el;
    st->runs[st->nruns].el_type = el_type;
    st->nruns++;
    bool is_long = el_type == MPI_LONG || el_type == MPI_UNSIGNED_LONG;
    st->ext32 += n * (is_long ? 4 : el);
    st->has_long |= is_long;
    st->lossless &= is_lossless(el_type);
    return MPI_SUCCESS;
}

static void fill_random(unsigned char *p, size_t n, uint64_t *seed)
{
    for (size_t i = 0; i < n; i++) {
        *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
        p[i] = (unsigned char) (*seed >> 56);
    }
}

/* A destination with guard bytes on both sides. */
static unsigned char *guarded(MPI_Count n)
{
    unsigned char *p = malloc((size_t) n + 2 * GUARD);
    CHECK(p, "out of memory in the fuzzer");
    memset(p, PATTERN, (size_t) n + 2 * GUARD);
    return p + GUARD;
}

static void check_guards(const unsigned char *p, MPI_Count n, const char *what)
{
    for (int i = 0; i < GUARD; i++) {
        CHECK(p[-1 - i] == PATTERN, "%s wrote before its buffer", what);
        CHECK(p[n + i] == PATTERN, "%s wrote past its buffer (%lld bytes)", what, (long long) n);
    }
}

static void unguard(unsigned char *p) { free(p - GUARD); }

static bool untouched(const unsigned char *p, MPI_Count n)
{
    for (MPI_Count i = 0; i < n; i++)
        if (p[i] != PATTERN)
            return false;
    return true;
}

/* The largest element boundary at or below pos (pos in [0, S]). */
static MPI_Count floor_bound(const Stream *st, MPI_Count pos)
{
    while (pos > 0 && !st->bound[pos])
        pos--;
    return pos;
}

/* Basic elements that end at or before nbytes. */
static MPI_Count elements_before(const Stream *st, MPI_Count nbytes)
{
    MPI_Count n = 0;
    for (MPI_Count p = 1; p <= nbytes && p <= st->S; p++)
        n += st->bound[p];
    return n;
}

/* One segment call; checks the contract on *last and returns the error class. */
static int seg_call(const Stream *st, MPID_Segment *seg, bool pack, MPI_Count first, MPI_Count *last, void *data)
{
    MPI_Count want = *last, cursor = seg->pos;
    int rc = pack ? MPID_Segment_pack(seg, first, last, data) : MPID_Segment_unpack(seg, first, last, data);
    if (first < 0 || first > st->S) {
        CHECK(rc == MPI_ERR_ARG, "segment first=%lld outside [0, %lld] gave %d", (long long) first,
              (long long) st->S, rc);
        return rc;
    }
    if (!st->bound[first] && first != cursor) {
        /* only when the segment did not just stop there: then it is a cursor, not a seek */
        CHECK(rc == MPI_ERR_ARG, "segment first=%lld inside a basic element gave %d", (long long) first, rc);
        return rc;
    }
    CHECK(rc == MPI_SUCCESS, "segment %s [%lld, %lld) failed with %d", pack ? "pack" : "unpack",
          (long long) first, (long long) want, rc);
    MPI_Count expect = want <= first ? first : floor_bound(st, want > st->S ? st->S : want);
    if (expect < first)
        expect = first;
    CHECK(*last == expect, "segment [%lld, %lld) of %lld stopped at %lld, expected %lld", (long long) first,
          (long long) want, (long long) st->S, (long long) *last, (long long) expect);
    return rc;
}

static void pack_range(const Stream *st, MPID_Segment *seg, MPI_Count first, MPI_Count *last,
                       const unsigned char *ref)
{
    MPI_Count want = *last;
    bool inside = first >= 0 && first <= st->S;
    MPI_Count room = inside && want > first ? (want > st->S ? st->S : want) - first : 0;
    unsigned char *out = guarded(room);
    if (seg_call(st, seg, true, first, last, out) == MPI_SUCCESS)
        CHECK(memcmp(out, ref + first, (size_t) (*last - first)) == 0,
              "segment pack [%lld, %lld) differs from the one-shot pack", (long long) first, (long long) *last);
    check_guards(out, room, "segment pack");
    unguard(out);
}

static void data_checks(const Prog *P, MPI_Datatype type, MPI_Count count, Input *in)
{
    MPI_Count size, lb, extent, tlb, textent, S, span, a, b;
    MPI_Type_size_x(type, &size);
    MPI_Type_get_extent_x(type, &lb, &extent);
    MPI_Type_get_true_extent_x(type, &tlb, &textent);
    uint64_t seed = u32(in);
    MPI_Count split = u32(in), rfirst = (int32_t) u32(in), rlast = (int32_t) u32(in);
    uint8_t knobs = u8(in);
    TRACE("size %lld, lb %lld, extent %lld, true lb %lld, true extent %lld\n", (long long) size, (long long) lb,
          (long long) extent, (long long) tlb, (long long) textent);

    /* the bytes count instances touch; skip what does not fit comfortably */
    MPI_Count tub = tlb + textent;
    if (__builtin_mul_overflow(count, size, &S) || S > MAX_STREAM
        || __builtin_mul_overflow(count - 1, extent, &a) || __builtin_add_overflow(tlb, a, &b))
        return;
    MPI_Aint lo = tlb < b ? tlb : b;
    MPI_Aint hi;
    if (__builtin_add_overflow(tub, a, &hi) || __builtin_sub_overflow((hi > tub ? hi : tub), lo, &span)
        || span > MAX_SPAN)
        return;
    hi = hi > tub ? hi : tub;
    if (size == 0) {
        lo = hi = 0;
        span = 0;
    }

    Stream st = { .S = S, .lossless = true };
    unsigned char *mem = malloc((size_t) span + 1);
    CHECK(mem, "out of memory in the fuzzer");
    fill_random(mem, (size_t) span + 1, &seed);
    st.buf = (char *) mem - lo;
    st.lo = lo;
    st.hi = hi;
    st.bound = calloc((size_t) S + 1, 1);
    CHECK(st.bound, "out of memory in the fuzzer");

    /* 1. the runs: boundaries, bounds, sizes */
    MPID_Segment seg;
    CHECK(MPID_Segment_init(&seg, st.buf, count, type) == MPI_SUCCESS, "MPID_Segment_init failed");
    CHECK(seg.size == S, "segment size %lld, expected %lld", (long long) seg.size, (long long) S);
    MPI_Count last = S;
    CHECK(MPID_Segment_for_each_run(&seg, 0, &last, collect_run, &st) == MPI_SUCCESS && last == S,
          "MPID_Segment_for_each_run stopped at %lld of %lld", (long long) last, (long long) S);
    MPID_Segment_free(&seg);
    MPI_Count pos = 0, run_lo = INT64_MAX, run_hi = INT64_MIN;
    st.bound[0] = 1;
    for (MPI_Count r = 0; r < st.nruns; r++) {
        Run *R = &st.runs[r];
        MPI_Count el = MPID_Datatype_get(R->el_type)->size;
        CHECK(R->off >= lo && R->off + R->len <= hi,
              "run [%ld, %ld) lies outside the true bounds [%ld, %ld) of %lld instances", (long) R->off,
              (long) (R->off + R->len), (long) lo, (long) hi, (long long) count);
        for (MPI_Count e = el; e <= R->len; e += el)
            st.bound[pos + e] = 1;
        pos += R->len;
        if (R->off < run_lo)
            run_lo = R->off;
        if (R->off + R->len > run_hi)
            run_hi = R->off + R->len;
    }
    CHECK(pos == S, "the runs hold %lld bytes, the stream %lld", (long long) pos, (long long) S);
    if (count == 1 && S > 0)
        CHECK(run_lo == tlb && run_hi == tub, "the data lies in [%lld, %lld) but the true bounds say [%lld, %lld)",
              (long long) run_lo, (long long) run_hi, (long long) tlb, (long long) tub);

    /* 1b. the runs hold the elements of the reference model, in its order */
    Elems model = { malloc(sizeof(int64_t) * (size_t) (S + 1)), malloc(sizeof(int32_t) * (size_t) (S + 1)), 0, S + 1 };
    CHECK(model.off && model.size, "out of memory in the fuzzer");
    bool known = true;
    for (MPI_Count i = 0; i < count && known; i++)
        known = expand(P, type, i * extent, &model);
    TRACE("reference model: %s\n", known ? "compared" : "not modelled (darray, or too big)");
    if (known) {
        MPI_Count k = 0;
        for (MPI_Count r = 0; r < st.nruns; r++) {
            int32_t el = (int32_t) MPID_Datatype_get(st.runs[r].el_type)->size;
            for (MPI_Count b = 0; b < st.runs[r].len; b += el, k++)
                CHECK(k < model.n && model.off[k] == st.runs[r].off + b && model.size[k] == el,
                      "element %lld: the engine has (offset %lld, %d bytes), the type map (offset %lld, %d bytes)",
                      (long long) k, (long long) (st.runs[r].off + b), el,
                      (long long) (k < model.n ? model.off[k] : -1), k < model.n ? model.size[k] : -1);
        }
        CHECK(k == model.n, "the engine has %lld elements, the type map %lld", (long long) k, (long long) model.n);
    }
    free(model.off);
    free(model.size);

    /* 2. one-shot pack equals the runs gathered */
    unsigned char *ref = guarded(S);
    CHECK(MPID_Segment_init(&seg, st.buf, count, type) == MPI_SUCCESS, "MPID_Segment_init failed");
    last = S + (knobs & 1);     /* asking past the end must clamp */
    seg_call(&st, &seg, true, 0, &last, ref);
    MPID_Segment_free(&seg);
    check_guards(ref, S, "one-shot segment pack");
    pos = 0;
    for (MPI_Count r = 0; r < st.nruns; r++) {
        CHECK(memcmp(ref + pos, st.buf + st.runs[r].off, (size_t) st.runs[r].len) == 0,
              "the packed bytes of run %lld differ from the typed buffer", (long long) r);
        pos += st.runs[r].len;
    }

    /* 3. two pieces, split where the first call stops; then the same in reverse order */
    split = S ? split % (S + 1) : 0;
    CHECK(MPID_Segment_init(&seg, st.buf, count, type) == MPI_SUCCESS, "MPID_Segment_init failed");
    MPI_Count l1 = split, l2 = S;
    pack_range(&st, &seg, 0, &l1, ref);
    pack_range(&st, &seg, l1, &l2, ref);
    CHECK(l2 == S, "the second piece stopped at %lld of %lld", (long long) l2, (long long) S);
    MPID_Segment_free(&seg);
    CHECK(MPID_Segment_init(&seg, st.buf, count, type) == MPI_SUCCESS, "MPID_Segment_init failed");
    l2 = S;
    pack_range(&st, &seg, l1, &l2, ref);
    MPI_Count l0 = l1;
    pack_range(&st, &seg, 0, &l0, ref);
    MPID_Segment_free(&seg);

    /* 4. arbitrary starts (inside elements, outside the stream) and ends on a fresh segment (at 0:
     * anything else is a seek) */
    CHECK(MPID_Segment_init(&seg, st.buf, count, type) == MPI_SUCCESS, "MPID_Segment_init failed");
    if (knobs & 2) {
        rfirst = S ? (rfirst < 0 ? -rfirst : rfirst) % (S + 1) : 0;
        rlast = S ? (rlast < 0 ? -rlast : rlast) % (S + 2) : 0;
    }
    MPI_Count lr = rlast;
    pack_range(&st, &seg, rfirst, &lr, ref);
    /* a second random start on the same segment, then continuing from where it stopped */
    MPI_Count f2 = S ? (MPI_Count) (seed % (uint64_t) (S + 1)) : 0;
    if (f2 != seg.pos) {
        MPI_Count l3 = f2 + (MPI_Count) (knobs >> 2);
        pack_range(&st, &seg, f2, &l3, ref);
        if (st.bound[f2]) {
            MPI_Count l4 = S;
            pack_range(&st, &seg, l3, &l4, ref);
        }
    }
    MPID_Segment_free(&seg);

    /* 5. random chunks, forward */
    CHECK(MPID_Segment_init(&seg, st.buf, count, type) == MPI_SUCCESS, "MPID_Segment_init failed");
    for (MPI_Count p = 0, k = 1 + (seed >> 8) % 7; p < S;) {
        MPI_Count l = p + k;
        pack_range(&st, &seg, p, &l, ref);
        if (l == p) {
            k *= 2;
            continue;
        }
        p = l;
        k = 1 + (MPI_Count) ((seed = seed * 6364136223846793005ULL + 1) >> 59);
    }
    MPID_Segment_free(&seg);

    /* 6. the iov builder with a tiny array */
    CHECK(MPID_Segment_init(&seg, st.buf, count, type) == MPI_SUCCESS, "MPID_Segment_init failed");
    MPI_Count max_iov = 1 + (knobs >> 5) % 4;
    for (MPI_Count p = 0; p < S;) {
        MPID_Iov iov[4];
        MPI_Count l = S, n = 0;
        CHECK(MPID_Segment_to_iov(&seg, p, &l, iov, max_iov, &n) == MPI_SUCCESS, "MPID_Segment_to_iov failed");
        CHECK(l > p && n > 0 && n <= max_iov, "MPID_Segment_to_iov made no progress at %lld (n=%lld, last=%lld)",
              (long long) p, (long long) n, (long long) l);
        CHECK(st.bound[l], "MPID_Segment_to_iov stopped inside an element at %lld", (long long) l);
        MPI_Count q = p;
        for (MPI_Count i = 0; i < n; i++) {
            CHECK(iov[i].len > 0 && q + iov[i].len <= l, "bad iov entry %lld", (long long) i);
            CHECK(memcmp(iov[i].base, ref + q, (size_t) iov[i].len) == 0,
                  "iov entry %lld does not hold stream bytes [%lld, ...)", (long long) i, (long long) q);
            q += iov[i].len;
        }
        CHECK(q == l, "the iov holds %lld bytes, the range %lld", (long long) (q - p), (long long) (l - p));
        p = l;
    }
    MPID_Segment_free(&seg);

    /* 7. unpack writes back exactly the covered bytes */
    unsigned char *expect = malloc((size_t) span + 1), *back = malloc((size_t) span + 1);
    CHECK(expect && back, "out of memory in the fuzzer");
    memset(expect, PATTERN, (size_t) span + 1);
    for (MPI_Count r = 0; r < st.nruns; r++)
        memcpy(expect + (st.runs[r].off - lo), st.buf + st.runs[r].off, (size_t) st.runs[r].len);
    memset(back, PATTERN, (size_t) span + 1);
    CHECK(MPID_Segment_init(&seg, (char *) back - lo, count, type) == MPI_SUCCESS, "MPID_Segment_init failed");
    l1 = split;
    l2 = S;
    seg_call(&st, &seg, false, 0, &l1, ref);
    seg_call(&st, &seg, false, l1, &l2, ref + l1);
    MPID_Segment_free(&seg);
    CHECK(memcmp(back, expect, (size_t) span + 1) == 0, "unpack(pack(x)) differs from x on the covered bytes "
          "or wrote elsewhere");

    /* 8. MPI_Pack / MPI_Unpack, including a buffer one byte short */
    if (S <= INT_MAX && count <= INT_MAX) {
        unsigned char *out = guarded(S);
        int position = 0;
        CHECK(MPI_Pack(st.buf, (int) count, type, out, (int) S, &position, MPI_COMM_WORLD) == MPI_SUCCESS
              && position == S, "MPI_Pack failed or moved position to %d of %lld", position, (long long) S);
        CHECK(memcmp(out, ref, (size_t) S) == 0, "MPI_Pack differs from the segment pack");
        check_guards(out, S, "MPI_Pack");
        memset(back, PATTERN, (size_t) span + 1);
        position = 0;
        CHECK(MPI_Unpack(out, (int) S, &position, (char *) back - lo, (int) count, type, MPI_COMM_WORLD)
              == MPI_SUCCESS && position == S, "MPI_Unpack failed");
        CHECK(memcmp(back, expect, (size_t) span + 1) == 0, "MPI_Unpack(MPI_Pack(x)) differs from x");
        unguard(out);
        if (S > 0) {
            out = guarded(S);
            position = 0;
            int rc = MPI_Pack(st.buf, (int) count, type, out, (int) S - 1, &position, MPI_COMM_WORLD);
            CHECK(err_class(rc) == MPI_ERR_TRUNCATE && position == 0, "MPI_Pack into a short buffer gave class %d",
                  err_class(rc));
            CHECK(untouched(out, S), "MPI_Pack into a short buffer wrote to it");
            check_guards(out, S, "MPI_Pack (short)");
            unguard(out);
        }
        MPI_Count psize = -1;
        CHECK(MPI_Pack_size_c(count, type, MPI_COMM_WORLD, &psize) == MPI_SUCCESS && psize >= S,
              "MPI_Pack_size_c says %lld for %lld bytes", (long long) psize, (long long) S);
    }

    /* 9. element counts */
    MPI_Count total = elements_before(&st, S);
    CHECK(MPID_Segment_init(&seg, st.buf, count, type) == MPI_SUCCESS, "MPID_Segment_init failed");
    for (int i = 0; i < 3; i++) {
        MPI_Count nb = S ? (MPI_Count) ((seed >> (8 * i)) % (uint64_t) (S + 1)) : 0;
        MPI_Count n = MPID_Segment_count_elements(&seg, nb), want = elements_before(&st, nb);
        CHECK(n == want, "MPID_Segment_count_elements(%lld) = %lld, expected %lld", (long long) nb, (long long) n,
              (long long) want);
        MPI_Status status;
        MPI_Count got = -1;
        CHECK(MPI_Status_set_elements_x(&status, MPI_BYTE, nb) == MPI_SUCCESS, "set_elements(MPI_BYTE) failed");
        CHECK(MPI_Get_elements_x(&status, type, &got) == MPI_SUCCESS, "MPI_Get_elements_x failed");
        want = st.bound[nb] ? want : MPI_UNDEFINED;
        if (size == 0)
            want = nb == 0 ? 0 : MPI_UNDEFINED;
        CHECK(got == want, "MPI_Get_elements_x of %lld bytes = %lld, expected %lld", (long long) nb, (long long) got,
              (long long) want);
        CHECK(MPI_Get_count_c(&status, type, &got) == MPI_SUCCESS, "MPI_Get_count_c failed");
        want = size == 0 ? (nb == 0 ? 0 : MPI_UNDEFINED) : nb % size == 0 ? nb / size : MPI_UNDEFINED;
        CHECK(got == want, "MPI_Get_count_c of %lld bytes = %lld, expected %lld", (long long) nb, (long long) got,
              (long long) want);
        /* and back: k elements are the bytes up to the k-th boundary */
        MPI_Count k = total ? (MPI_Count) ((seed >> (8 * i + 4)) % (uint64_t) (total + 1)) : 0;
        int rc = MPI_Status_set_elements_x(&status, type, k);
        CHECK(rc == MPI_SUCCESS, "MPI_Status_set_elements_x(%lld) failed", (long long) k);
        CHECK(MPI_Get_elements_x(&status, MPI_BYTE, &got) == MPI_SUCCESS, "MPI_Get_elements_x(MPI_BYTE) failed");
        MPI_Count p = 0;
        for (MPI_Count m = k; m > 0;)
            m -= st.bound[++p];
        CHECK(got == p, "MPI_Status_set_elements_x(%lld elements) set %lld bytes, expected %lld", (long long) k,
              (long long) got, (long long) p);
        CHECK(MPI_Get_elements_x(&status, type, &got) == MPI_SUCCESS && got == k,
              "set_elements(%lld) then get_elements gave %lld", (long long) k, (long long) got);
    }
    MPID_Segment_free(&seg);

    /* 10. MPIX_Type_iov(_len): the pieces of one instance */
    MPI_Count niov = -1, iov_bytes = -1;
    CHECK(MPIX_Type_iov_len(type, INT64_MAX, &niov, &iov_bytes) == MPI_SUCCESS, "MPIX_Type_iov_len failed");
    CHECK(iov_bytes == size, "MPIX_Type_iov_len covers %lld bytes of %lld", (long long) iov_bytes, (long long) size);
    if (niov <= MAX_IOV) {
        MPIX_Iov *iov = malloc(sizeof *iov * (size_t) (niov + 1));
        MPI_Count got = -1;
        CHECK(iov && MPIX_Type_iov(type, 0, iov, niov, &got) == MPI_SUCCESS && got == niov,
              "MPIX_Type_iov returned %lld pieces of %lld", (long long) got, (long long) niov);
        MPI_Count q = 0;
        for (MPI_Count i = 0; i < niov; i++) {
            MPI_Aint off = (MPI_Aint) (intptr_t) iov[i].iov_base;
            CHECK(iov[i].iov_len > 0, "empty iov piece");
            CHECK(i == 0 || (MPI_Aint) (intptr_t) iov[i - 1].iov_base + (MPI_Aint) iov[i - 1].iov_len != off,
                  "iov pieces %lld and %lld touch but were not merged", (long long) i - 1, (long long) i);
            CHECK(off >= lo && off + (MPI_Aint) iov[i].iov_len <= hi, "iov piece outside the true bounds");
            CHECK(memcmp(st.buf + off, ref + q, iov[i].iov_len) == 0, "iov piece %lld differs from the pack",
                  (long long) i);
            q += (MPI_Count) iov[i].iov_len;
        }
        CHECK(q == size, "the iov pieces hold %lld bytes of %lld", (long long) q, (long long) size);
        /* a window of the list, and a byte limit */
        MPI_Count off = niov ? (MPI_Count) (seed % (uint64_t) (niov + 1)) : 0, max = 1 + (knobs & 3);
        MPIX_Iov win[4];
        CHECK(MPIX_Type_iov(type, off, win, max, &got) == MPI_SUCCESS, "MPIX_Type_iov(offset) failed");
        MPI_Count expect_n = niov - off < max ? niov - off : max;
        CHECK(got == expect_n, "MPIX_Type_iov(offset %lld, max %lld) gave %lld pieces", (long long) off,
              (long long) max, (long long) got);
        for (MPI_Count i = 0; i < got; i++)
            CHECK(win[i].iov_base == iov[off + i].iov_base && win[i].iov_len == iov[off + i].iov_len,
                  "MPIX_Type_iov(offset %lld) piece %lld differs", (long long) off, (long long) i);
        MPI_Count limit = size ? (MPI_Count) ((seed >> 16) % (uint64_t) (size + 1)) : 0, n = 0, bytes = 0;
        while (n < niov && bytes + (MPI_Count) iov[n].iov_len <= limit)
            bytes += (MPI_Count) iov[n++].iov_len;
        CHECK(MPIX_Type_iov_len(type, limit, &niov, &iov_bytes) == MPI_SUCCESS && niov == n && iov_bytes == bytes,
              "MPIX_Type_iov_len(%lld) = (%lld, %lld), expected (%lld, %lld)", (long long) limit, (long long) niov,
              (long long) iov_bytes, (long long) n, (long long) bytes);
        free(iov);
    }

    /* 11. external32 */
    MPI_Aint esize = -1;
    CHECK(MPI_Pack_external_size("external32", (int) count, type, &esize) == MPI_SUCCESS && esize == st.ext32,
          "MPI_Pack_external_size = %ld, the runs say %lld", (long) esize, (long long) st.ext32);
    unsigned char *ext = guarded(esize);
    MPI_Aint position = 0;
    int rc = MPI_Pack_external("external32", st.buf, (int) count, type, ext, esize, &position);
    check_guards(ext, esize, "MPI_Pack_external");
    if (rc == MPI_SUCCESS) {
        CHECK(position == esize, "MPI_Pack_external stopped at %ld of %ld", (long) position, (long) esize);
        memset(back, PATTERN, (size_t) span + 1);
        position = 0;
        CHECK(MPI_Unpack_external("external32", ext, esize, &position, (char *) back - lo, (int) count, type)
              == MPI_SUCCESS && position == esize, "MPI_Unpack_external failed");
        if (st.lossless)
            CHECK(memcmp(back, expect, (size_t) span + 1) == 0, "external32 round trip changed the data");
    } else {
        CHECK(st.has_long && err_class(rc) == MPI_ERR_CONVERSION, "MPI_Pack_external failed with class %d",
              err_class(rc));
    }
    position = 0;
    rc = MPI_Pack_external("external64", st.buf, (int) count, type, ext, esize, &position);
    CHECK(err_class(rc) == MPI_ERR_UNSUPPORTED_DATAREP, "an unknown datarep gave class %d", err_class(rc));
    unguard(ext);

    free(expect);
    free(back);
    unguard(ref);
    free(st.runs);
    free(st.bound);
    free(mem);
}

/* Types too big for the data checks: the functions must refuse small buffers without reading. */
static void big_checks(MPI_Datatype type, MPI_Count count)
{
    MPI_Count size;
    MPI_Type_size_x(type, &size);
    unsigned char in[16], out[16];
    memset(in, 0, sizeof in);
    MPI_Count ps = -1;
    int rc = MPI_Pack_size_c(count, type, MPI_COMM_WORLD, &ps);
    MPI_Count S;
    if (__builtin_mul_overflow(count, size, &S))
        CHECK(rc != MPI_SUCCESS, "MPI_Pack_size_c of an overflowing stream succeeded (%lld)", (long long) ps);
    else
        CHECK(rc == MPI_SUCCESS && ps >= S, "MPI_Pack_size_c = %lld for %lld bytes", (long long) ps, (long long) S);
    if (S > (MPI_Count) sizeof out || rc != MPI_SUCCESS) {
        MPI_Count position = 0;
        memset(out, PATTERN, sizeof out);
        rc = MPI_Pack_c(in, count, type, out, sizeof out, &position, MPI_COMM_WORLD);
        CHECK(rc != MPI_SUCCESS && position == 0 && untouched(out, sizeof out),
              "MPI_Pack_c of a huge stream into 16 bytes did not fail cleanly");
    }
    MPI_Status status;
    MPI_Count got;
    MPI_Status_set_elements_x(&status, MPI_BYTE, 1000);
    MPI_Get_elements_x(&status, type, &got);
    if (MPI_Status_set_elements_x(&status, type, 3) == MPI_SUCCESS)
        MPI_Get_elements_x(&status, type, &got);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
    init_mpi();
    int live_before = live_types();
    Prog *P = calloc(1, sizeof *P);
    traced = P;
    P->in.p = data;
    P->in.n = len;

    int nops = u8(&P->in) % (MAX_OPS + 1);
    for (int i = 0; i < nops; i++)
        run_op(P);

    /* the type under test: a slot (by default the newest), or a predefined type */
    uint8_t pick = u8(&P->in);
    MPI_Datatype type = predefined[pick % NPRE].h;
    bool valid = true;
    if (P->nslots > 0) {
        int s = pick < 128 ? P->nslots - 1 : pick % P->nslots;
        type = P->slots[s].h;
        valid = slot_valid(P, s);
    }
    MPI_Count count = 1 + u8(&P->in) % 3;
    TRACE("target %s, count %lld: MPI_Type_commit\n", tname(type), (long long) count);
    int rc = MPI_Type_commit(&type);
    if (!valid) {
        CHECK(rc != MPI_SUCCESS, "MPI_Type_commit accepted an invalid handle");
    } else {
        CHECK(rc == MPI_SUCCESS, "MPI_Type_commit failed on a valid type (class %d)", err_class(rc));
        MPI_Count size;
        MPI_Type_size_x(type, &size);
        if (size <= MAX_STREAM)
            data_checks(P, type, count, &P->in);
        else
            big_checks(type, count + 1);
    }

    for (int i = 0; i < P->nowned; i++)
        if (!P->owned[i].freed)
            CHECK(MPI_Type_free(&P->owned[i].h) == MPI_SUCCESS, "MPI_Type_free failed at the end");
    free(P);
    traced = NULL;

    int live_after = live_types();
    if (live_after != live_before) {
        fprintf(stderr, "fuzz_datatype: %d datatype records were live before this input, %d after\n",
                live_before, live_after);
        MPIR_Pool_foreach(datatype_pool, print_live, NULL);
        FAIL("datatype records leaked");
    }
    return 0;
}
