/*
 * libFuzzer target for the datatype engine: the input as a program of datatype calls, and the
 * entry point (build and run: test/fuzz/build.sh, test/fuzz/run.sh; layout: test/fuzz/seeds.py).
 *
 * The input is a tiny program: a list of operations (every constructor in its int, _c and MPI-1
 * forms, dup, resized, free, commit, decoding, f90 and pair types), then the choice of one result
 * and a few numbers that drive the checks. Bad arguments are part of the fuzzing: a negative
 * count, an overflowing displacement, MPI_DATATYPE_NULL or a freed handle must give an error,
 * never a crash, a leak or a hang; a constructor that accepts a handle it must refuse, or fails
 * to free what it made, is reported.
 *
 * Each type made gets a reference model (fuzz_model.c); the chosen one is committed and its
 * packed stream checked against the model and across the engine's paths (fuzz_checks.c).
 * Leaks: LeakSanitizer sees lost heap blocks; datatype records live in a pool that LSan cannot
 * judge, so the number of live records is compared before and after each input (the build wraps
 * MPIR_Pool_alloc to learn where the datatype pool is). Any failed check calls abort(), so that
 * libFuzzer saves the input.
 */
#include <stddef.h>
#include "fuzz.h"

bool fuzz_trace;

int fuzz_err_class(int rc)
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

/* ---- values from the input ---- */

/* A count: mostly tiny, sometimes larger, sometimes hostile. */
static int64_t count_val(Input *in)
{
    static const int64_t special[8] = { -1, -7, INT_MAX, INT_MIN, 1 << 20, 1 << 30, (int64_t) 1 << 40, INT64_MAX };
    uint8_t b = fuzz_u8(in);
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
    uint8_t b = fuzz_u8(in);
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
    fuzz_trace = env && *env && *env != '0';
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

/* ---- tracing: FUZZ_TRACE=1 prints the program as the calls it makes ---- */

static const Prog *traced;     /* the program whose types tname() knows */

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
    int s = P->nslots < MAX_SLOTS ? P->nslots++ : (int) (fuzz_u8(&P->in) % MAX_SLOTS);
    P->slots[s].h = h;
    P->slots[s].owner = owner;
}

/* A type argument; *valid tells whether the library must accept it. */
static MPI_Datatype pick_type(Prog *P, bool *valid)
{
    uint8_t b = fuzz_u8(&P->in);
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
    bl[1] = fuzz_u8(in) % 4;
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
    int n = fuzz_u8(in) % 5, count = fuzz_u8(in) % 6, bl = fuzz_u8(in) % 4;
    int stride = (int) (fuzz_u8(in) % 13) - 6;
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
    uint8_t b = fuzz_u8(in);
    if (b >= 232)
        return special[b & 7];
    return hi < lo ? lo : lo + b % (hi - lo + 1);
}

static int order_val(Input *in)
{
    uint8_t b = fuzz_u8(in);
    return b == 255 ? 77 : (b & 1) ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
}

static void op_subarray(Prog *P, int variant)
{
    Input *in = &P->in;
    bool valid = true;
    MPI_Datatype t = MPI_DATATYPE_NULL;
    uint8_t nb = fuzz_u8(in);
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
    uint8_t sb = fuzz_u8(in);
    int size = sb >= 250 ? (sb == 255 ? -1 : 0) : 1 + sb % 6;
    uint8_t rb = fuzz_u8(in);
    int rank = rb == 255 ? size : rb == 254 ? -1 : (size > 0 ? rb % size : 0);
    uint8_t nb = fuzz_u8(in);
    int ndims = nb >= 250 ? 0 : 1 + nb % 3;
    int gs[3] = { 1, 1, 1 }, dist[3], darg[3], ps[3] = { 1, 1, 1 };
    MPI_Count cgs[3] = { 1, 1, 1 };
    bool free_psizes = fuzz_u8(in) >= 240;   /* usually a valid process grid */
    int left = size > 0 ? size : 1;
    for (int d = 0; d < ndims; d++) {
        cgs[d] = dim_val(in, 1, 9);
        gs[d] = clamp_int(cgs[d]);
        dist[d] = distribs[fuzz_u8(in) & 7];
        darg[d] = dargs[fuzz_u8(in) & 7];
        if (free_psizes) {
            ps[d] = (int) (fuzz_u8(in) % 5) - 1;
        } else if (d == ndims - 1) {
            ps[d] = left;
        } else {
            int f = 1 + fuzz_u8(in) % left;
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
    Model m = { .kind = M_DARRAY, .n = ndims, .rank = rank, .order = order, .types = { old } };
    for (int d = 0; d < ndims && d < 3; d++) {
        m.sizes[d] = variant == 1 ? cgs[d] : gs[d];
        m.distribs[d] = dist[d];
        m.dargs[d] = darg[d];
        m.psizes[d] = ps[d];
    }
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
    int s = fuzz_u8(&P->in) % P->nslots;
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
    int s = fuzz_u8(&P->in) % P->nslots;
    MPI_Datatype h = P->slots[s].h;
    TRACE("MPI_Type_commit(%s)\n", tname(h));
    int rc = MPI_Type_commit(&h);
    if (slot_valid(P, s))
        CHECK(rc == MPI_SUCCESS, "MPI_Type_commit of a valid type failed (class %d)", fuzz_err_class(rc));
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
    int s = fuzz_u8(&P->in) % P->nslots;
    bool large = fuzz_u8(&P->in) & 1;
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
    uint8_t b = fuzz_u8(&P->in);
    int rc;
    if (b & 1) {
        rc = MPI_Type_get_value_index(vt, it, &pair);
    } else {
        static const int classes[] = { MPI_TYPECLASS_REAL, MPI_TYPECLASS_INTEGER, MPI_TYPECLASS_COMPLEX, 0 };
        rc = MPI_Type_match_size(classes[(b >> 1) & 3], (int) (fuzz_u8(&P->in) % 34), &pair);
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
    uint8_t b = fuzz_u8(&P->in);
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
    uint8_t op = fuzz_u8(&P->in) % NOPS;
    int variant = fuzz_u8(&P->in) & 3;
    switch (op) {
    case OP_CONTIG: case OP_VECTOR: case OP_HVECTOR: op_simple(P, op, variant); break;
    case OP_INDEXED: case OP_HINDEXED: case OP_INDEXED_BLOCK: case OP_HINDEXED_BLOCK:
        op_indexed(P, op, variant);
        break;
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
    init_mpi();
    int live_before = live_types();
    Prog *P = calloc(1, sizeof *P);
    traced = P;
    P->in.p = data;
    P->in.n = len;

    int nops = fuzz_u8(&P->in) % (MAX_OPS + 1);
    for (int i = 0; i < nops; i++)
        run_op(P);

    /* the type under test: a slot (by default the newest), or a predefined type */
    uint8_t pick = fuzz_u8(&P->in);
    MPI_Datatype type = predefined[pick % NPRE].h;
    bool valid = true;
    if (P->nslots > 0) {
        int s = pick < 128 ? P->nslots - 1 : pick % P->nslots;
        type = P->slots[s].h;
        valid = slot_valid(P, s);
    }
    MPI_Count count = 1 + fuzz_u8(&P->in) % 3;
    TRACE("target %s, count %lld: MPI_Type_commit\n", tname(type), (long long) count);
    int rc = MPI_Type_commit(&type);
    if (!valid) {
        CHECK(rc != MPI_SUCCESS, "MPI_Type_commit accepted an invalid handle");
    } else {
        CHECK(rc == MPI_SUCCESS, "MPI_Type_commit failed on a valid type (class %d)", fuzz_err_class(rc));
        MPI_Count size;
        MPI_Type_size_x(type, &size);
        if (size <= MAX_STREAM)
            check_stream(P, type, count, &P->in);
        else
            check_big(type, count + 1);
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
