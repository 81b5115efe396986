/*
 * The constructors' arithmetic: size, bounds, markers, contiguity and element counts of a new type
 * from those of its children. Every constructor reduces to "copies of a child at displacements".
 *
 * Bounds follow the standard's type-map definition (MPI 4.1, 5.1.7):
 *   lb = min over entries of displacement,  ub = max over entries of displacement + size,
 *   except that explicit markers win: if any entry carries a lower-bound marker (MPI_LB, or the lb
 *   of a resized type), lb is the least such marker; likewise for ub.
 *   MPI_Type_create_struct then pads ub so the extent is a multiple of the largest alignment of the
 *   basic types inside (the epsilon of the standard), unless an explicit ub marker fixed it.
 *   Entries whose type map is empty (no data, no markers) place nothing and bound nothing.
 * A child's own lb/ub already include its markers and padding, so copies of a child contribute
 * [offset + child lb, offset + child ub]; its true bounds contribute only where it has data.
 */
#include "mpiimpl.h"

/* ---- signature hashes ---- */

#define SIG_P 0x9e3779b97f4a7c15ull   /* odd, so powers never vanish mod 2^64 */

/* Small exponents and runs of basic elements are what indexed and struct types of a million blocks
 * hash: tables make each block a lookup instead of a chain of dependent multiplies. */
enum { SIG_TABLE = 256 };
static uint64_t sig_powers[SIG_TABLE];      /* SIG_P^e */
static uint64_t sig_sums[SIG_TABLE + 1];    /* 1 + SIG_P + ... + SIG_P^(n-1) */

__attribute__((constructor)) static void sig_tables_init(void)
{
    sig_powers[0] = 1;
    for (int e = 1; e < SIG_TABLE; e++)
        sig_powers[e] = sig_powers[e - 1] * SIG_P;
    for (int n = 1; n <= SIG_TABLE; n++)
        sig_sums[n] = sig_sums[n - 1] + sig_powers[n - 1];
}

static uint64_t sig_pow(uint64_t e)
{
    if (e < SIG_TABLE)
        return sig_powers[e];
    uint64_t r = 1, b = SIG_P;
    for (; e; e >>= 1, b *= b)
        if (e & 1)
            r *= b;
    return r;
}

/* 1 + x + ... + x^(n-1) mod 2^64, by halving */
static uint64_t geometric(uint64_t x, uint64_t n)
{
    uint64_t sum = 0, term = 1;   /* sum of the first terms done, x^done */
    uint64_t block_sum = 1, block_pow = x;   /* 1 + .. + x^(2^k - 1), x^(2^k) */
    for (; n; n >>= 1) {
        if (n & 1) {
            sum += term * block_sum;
            term *= block_pow;
        }
        block_sum += block_sum * block_pow;
        block_pow *= block_pow;
    }
    return sum;
}

uint64_t MPID_Sig_concat(uint64_t first, uint64_t second, MPI_Count second_len)
{
    return first * sig_pow((uint64_t) second_len) + second;
}

uint64_t MPID_Sig_repeat(uint64_t sig, MPI_Count len, MPI_Count n)
{
    if (n <= 0)
        return 0;
    if (len == 1 && n <= SIG_TABLE)
        return sig * sig_sums[n];
    return sig * geometric(sig_pow((uint64_t) len), (uint64_t) n);
}

#define OVERFLOW_ERR() MPIR_Err(MPI_ERR_ARG, "datatype size or displacement overflows 64 bits")

/* External32 sizes may exceed size (a long double of 8 bytes takes 16 there). A record keeps its
 * own saturated at INT64_MAX (too big for MPI_Pack_external_size); a type sums, in 128 bits,
 * counts of copies times those, and the counts of copies with data add up to at most size (below
 * 2^63), so the sum stays below 2^126: no check per entry. With checks, a struct of 100k entries
 * took 18 instructions per entry more to create and commit (callgrind), this way 10 (372 to 382). */
typedef unsigned __int128 Ext32;
static inline MPI_Count ext32_saturated(Ext32 v)
{
    return v >= INT64_MAX ? INT64_MAX : (MPI_Count) v;
}

/* The type map of the type being built, accumulated block by block. */
typedef struct {
    bool any, has_data, sticky_lb, sticky_ub;
    MPI_Aint lb, ub;            /* over every non-empty entry */
    MPI_Aint marker_lb, marker_ub;
    MPI_Aint true_lb, true_ub;  /* over data only */
    MPI_Count size, n_elements;
    Ext32 ext32;                /* external32 bytes */
    uint64_t sig;               /* signature hash of the entries so far */
    MPI_Datatype basic_type;    /* 0 until an element is seen; MPI_DATATYPE_NULL once mixed */
    int align, depth;
    bool in_order;              /* data so far is one run, in type-map order */
    MPI_Aint data_end;          /* where that run ends */
} Span;

static MPI_Aint min_a(MPI_Aint a, MPI_Aint b) { return a < b ? a : b; }
static MPI_Aint max_a(MPI_Aint a, MPI_Aint b) { return a > b ? a : b; }

static void span_init(Span *s)
{
    memset(s, 0, sizeof *s);
    s->in_order = true;
}

/* What some copies of one child t add to a span, before they join it: the least and greatest
 * offset of a copy, their bytes and basic elements, their signature, and whether their data is one
 * run in type-map order (from start to end). */
typedef struct {
    MPI_Aint lo, hi;
    MPI_Count size, elems;
    Ext32 ext32;
    uint64_t sig;
    bool run;
    MPI_Aint start, end;
} Copies;

/* n > 0 copies of t, the k-th at disp + k * step. */
static inline __attribute__((always_inline)) int copies_of(Copies *c, const MPID_Datatype *t, MPI_Count n,
                                                           MPI_Aint disp, MPI_Aint step)
{
    int64_t last, lb, ub;
    if (MPIR_Mul_overflows(n - 1, step, &last) || MPIR_Add_overflows(disp, last, &last)
        || MPIR_Mul_overflows(n, t->n_elements, &c->elems) || MPIR_Mul_overflows(n, t->size, &c->size))
        return OVERFLOW_ERR();
    c->lo = min_a(disp, last);
    c->hi = max_a(disp, last);
    /* here, not only on the hull: with a negative extent, a bound between the hull's may overflow */
    if (MPIR_Add_overflows(c->lo, t->lb, &lb) || MPIR_Add_overflows(c->hi, t->ub, &ub))
        return OVERFLOW_ERR();
    c->sig = MPID_Sig_repeat(t->sig_hash, t->n_elements, n);
    c->ext32 = (Ext32) (uint64_t) n * (uint64_t) t->ext32_size;
    /* contiguity: a contiguous child repeated at its own size */
    c->run = t->is_contig && (n == 1 || step == t->size);
    c->start = c->end = 0;
    if (t->size > 0 && (MPIR_Add_overflows(disp, t->true_lb, &c->start) || MPIR_Add_overflows(c->start, c->size, &c->end)))
        return OVERFLOW_ERR();
    return MPI_SUCCESS;
}

/* Adds copies of t (its record not empty) to the span. */
static inline __attribute__((always_inline)) int span_add_copies(Span *s, const MPID_Datatype *t, const Copies *c)
{
    int64_t lb, ub;
    if (MPIR_Add_overflows(c->lo, t->lb, &lb) || MPIR_Add_overflows(c->hi, t->ub, &ub)
        || MPIR_Add_overflows(s->size, c->size, &s->size)
        || MPIR_Add_overflows(s->n_elements, c->elems, &s->n_elements))
        return OVERFLOW_ERR();
    s->sig = MPID_Sig_concat(s->sig, c->sig, c->elems);
    s->ext32 += c->ext32;

    s->lb = s->any ? min_a(s->lb, lb) : lb;
    s->ub = s->any ? max_a(s->ub, ub) : ub;
    s->any = true;
    if (t->has_sticky_lb) {
        s->marker_lb = s->sticky_lb ? min_a(s->marker_lb, lb) : lb;
        s->sticky_lb = true;
    }
    if (t->has_sticky_ub) {
        s->marker_ub = s->sticky_ub ? max_a(s->marker_ub, ub) : ub;
        s->sticky_ub = true;
    }
    if (t->size > 0) {
        int64_t tlb, tub;
        if (MPIR_Add_overflows(c->lo, t->true_lb, &tlb) || MPIR_Add_overflows(c->hi, t->true_ub, &tub))
            return OVERFLOW_ERR();
        bool run = c->run && (!s->has_data || c->start == s->data_end);
        s->in_order = s->in_order && run;
        s->data_end = c->end;
        s->true_lb = s->has_data ? min_a(s->true_lb, tlb) : tlb;
        s->true_ub = s->has_data ? max_a(s->true_ub, tub) : tub;
        s->has_data = true;
    }
    if (t->n_elements > 0) {
        if (s->basic_type == 0)
            s->basic_type = t->basic_type;
        else if (s->basic_type != t->basic_type)
            s->basic_type = MPI_DATATYPE_NULL;
    }
    if (t->align > s->align)
        s->align = t->align;
    if (t->depth > s->depth)
        s->depth = t->depth;
    return MPI_SUCCESS;
}

/* Adds n copies of t, the k-th at disp + k * step. */
static inline __attribute__((always_inline)) int span_add(Span *s, const MPID_Datatype *t, MPI_Count n, MPI_Aint disp, MPI_Aint step)
{
    if (n == 0 || MPID_Datatype_is_empty(t))
        return MPI_SUCCESS;
    Copies c = { 0 };
    int err = copies_of(&c, t, n, disp, step);
    return err ? err : span_add_copies(s, t, &c);
}

/* Fills a new record from the finished span; MPI_ERR_ARG if its extent or true extent does not
 * fit an MPI_Aint (nothing could address such a buffer). */
static int span_finish(Span *s, bool pad_to_alignment, MPID_Datatype **newp)
{
    MPI_Aint lb = !s->any ? 0 : s->sticky_lb ? s->marker_lb : s->lb;
    MPI_Aint ub = !s->any ? 0 : s->sticky_ub ? s->marker_ub : s->ub;
    int64_t extent, true_extent;
    if (MPIR_Sub_overflows(ub, lb, &extent)
        || (s->has_data && MPIR_Sub_overflows(s->true_ub, s->true_lb, &true_extent)))
        return MPIR_Err(MPI_ERR_ARG, "the extent of the new datatype does not fit an MPI_Aint");
    if (pad_to_alignment && !s->sticky_ub && s->align > 1 && extent > 0) {
        MPI_Aint rem = extent % s->align;
        if (rem && (MPIR_Add_overflows(ub, s->align - rem, &ub) || MPIR_Add_overflows(extent, s->align - rem, &extent)))
            return MPIR_Err(MPI_ERR_ARG, "the padded extent of the new datatype does not fit an MPI_Aint");
    }
    MPID_Datatype *dt = MPID_Datatype_new();
    if (!dt)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory allocating a datatype");
    dt->lb = lb;
    dt->ub = ub;
    dt->extent = extent;
    dt->has_sticky_lb = s->sticky_lb;
    dt->has_sticky_ub = s->sticky_ub;
    dt->true_lb = s->has_data ? s->true_lb : 0;
    dt->true_ub = s->has_data ? s->true_ub : 0;
    dt->size = s->size;
    dt->n_elements = s->n_elements;
    dt->sig_hash = s->sig;
    dt->ext32_size = ext32_saturated(s->ext32);
    dt->basic_type = s->basic_type ? s->basic_type : MPI_DATATYPE_NULL;
    dt->align = s->align;
    dt->depth = s->depth + 1;
    dt->is_contig = s->size == 0 || (s->in_order && dt->extent == s->size);
    *newp = dt;
    return MPI_SUCCESS;
}

int MPID_Type_vector(MPI_Count count, MPI_Count blocklen, MPI_Aint stride_bytes, MPID_Datatype *old,
                     MPID_Datatype **newp)
{
    Span s;
    span_init(&s);
    /* the copies of old: blocklen at old's extent inside each block, count blocks stride apart;
     * the bounds separate per axis, so add the first block, then the first copy of every block */
    if (count > 0 && blocklen > 0) {
        Span block;
        span_init(&block);
        int err = span_add(&block, old, blocklen, 0, old->extent);
        if (err)
            return err;
        /* the block as a pseudo-child: its bounds, size and contiguity */
        MPID_Datatype b = *old;
        b.lb = block.sticky_lb ? block.marker_lb : block.lb;
        b.ub = block.sticky_ub ? block.marker_ub : block.ub;
        b.true_lb = block.true_lb;
        b.true_ub = block.true_ub;
        b.size = block.size;
        b.n_elements = block.n_elements;
        b.sig_hash = block.sig;
        b.ext32_size = ext32_saturated(block.ext32);
        b.is_contig = block.in_order;
        if ((err = span_add(&s, &b, count, 0, stride_bytes)))
            return err;
    } else {
        s.depth = old->depth;
    }
    return span_finish(&s, false, newp);
}

/* The indexed family: every block holds copies of one child, so the blocks join into one set of
 * copies, which joins the span once. The loop keeps only what varies from block to block: the
 * number of copies so far (bytes and elements follow from it once, at the end), the hull, the
 * signature and the run. Joining a Copies per block kept two of them on the stack (1M-block
 * indexed create in a test program: 4.3-4.5 ns per block instead of 6.9-7.2, alternating). */
static int span_add_blocks_of(Span *s, const MPID_Blocks *b)
{
    const MPID_Datatype *t = b->type;
    if (t->depth > s->depth)
        s->depth = t->depth;   /* empty blocks still nest */
    const bool empty = MPID_Datatype_is_empty(t), data = t->size > 0;
    const bool step_run = t->is_contig && t->extent == t->size;   /* n copies make one run */
    const int64_t ext = t->extent, unit = b->disp_unit, elems = t->n_elements, tsig = t->sig_hash;
    __int128 copies = 0;   /* a sum of up to 2^63 counts below 2^63: no overflow */
    int64_t lo = INT64_MAX, hi = INT64_MIN, start = 0, end = 0;
    uint64_t sig = 0;
    bool run = t->is_contig;
    for (MPI_Count i = 0; i < b->count; i++) {
        int64_t n = b->blocklens ? b->blocklens[i] : b->blocklen, disp, last, bound;
        if (MPIR_Mul_overflows(b->disps[i], unit, &disp))
            return OVERFLOW_ERR();
        if (n == 0 || empty)
            continue;
        if (MPIR_Mul_overflows(n - 1, ext, &last) || MPIR_Add_overflows(disp, last, &last))
            return OVERFLOW_ERR();
        int64_t first = min_a(disp, last), final = max_a(disp, last);
        /* per block: with a negative extent, a bound between the hull's may overflow */
        if (MPIR_Add_overflows(first, t->lb, &bound) || MPIR_Add_overflows(final, t->ub, &bound))
            return OVERFLOW_ERR();
        lo = min_a(lo, first);
        hi = max_a(hi, final);
        if (elems == 1 && n < SIG_TABLE)   /* runs of basic elements: two lookups */
            sig = sig * sig_powers[n] + tsig * sig_sums[n];
        else
            sig = sig * sig_pow((uint64_t) n * (uint64_t) elems) + MPID_Sig_repeat(tsig, elems, n);
        if (data) {
            int64_t from, bytes;
            if (MPIR_Add_overflows(disp, t->true_lb, &from) || MPIR_Mul_overflows(n, t->size, &bytes))
                return OVERFLOW_ERR();
            run = run && (n == 1 || step_run) && (copies == 0 || from == end);
            if (copies == 0)
                start = from;
            if (MPIR_Add_overflows(from, bytes, &end))
                return OVERFLOW_ERR();
        }
        copies += n;
    }
    if (copies == 0)
        return MPI_SUCCESS;
    Copies all = { .lo = lo, .hi = hi, .sig = sig, .run = run, .start = start, .end = end };
    /* size and elems are not negative; beyond INT64_MAX copies only a type without data fits */
    if ((t->size && copies > INT64_MAX / t->size) || (elems && copies > INT64_MAX / elems))
        return OVERFLOW_ERR();
    all.size = t->size ? (int64_t) copies * t->size : 0;
    all.elems = elems ? (int64_t) copies * elems : 0;
    all.ext32 = (Ext32) (uint64_t) (t->size ? copies : 0) * (uint64_t) t->ext32_size;
    return span_add_copies(s, t, &all);
}

int MPID_Type_blocks(const MPID_Blocks *b, MPID_Datatype **newp)
{
    Span s;
    span_init(&s);
    int err = MPI_SUCCESS;
    if (!b->types && b->count > 0)
        err = span_add_blocks_of(&s, b);
    for (MPI_Count i = 0; b->types && i < b->count && !err; i++) {
        MPID_Datatype *t = MPID_Datatype_get(b->types[i]);
        MPI_Count n = b->blocklens ? b->blocklens[i] : b->blocklen;
        int64_t disp;
        if (MPIR_Mul_overflows(b->disps[i], b->disp_unit, &disp))
            return OVERFLOW_ERR();
        err = span_add(&s, t, n, disp, t->extent);
        if (t->depth > s.depth)
            s.depth = t->depth;   /* empty blocks still nest */
    }
    return err ? err : span_finish(&s, b->is_struct, newp);
}

/* A new record with src's layout. */
static int new_with_layout(const MPID_Datatype *src, MPID_Datatype **newp)
{
    MPID_Datatype *dt = MPID_Datatype_new();
    if (!dt)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory allocating a datatype");
    dt->size = src->size;
    dt->lb = src->lb;
    dt->ub = src->ub;
    dt->extent = src->extent;
    dt->true_lb = src->true_lb;
    dt->true_ub = src->true_ub;
    dt->n_elements = src->n_elements;
    dt->sig_hash = src->sig_hash;
    dt->ext32_size = src->ext32_size;
    dt->basic_type = src->basic_type;
    dt->align = src->align;
    dt->depth = src->depth + 1;
    dt->is_contig = src->is_contig;
    dt->has_sticky_lb = src->has_sticky_lb;
    dt->has_sticky_ub = src->has_sticky_ub;
    *newp = dt;
    return MPI_SUCCESS;
}

int MPID_Type_alias(MPID_Datatype *impl, MPID_Datatype **newp)
{
    int err = new_with_layout(impl, newp);
    if (err)
        return err;
    MPID_Datatype_add_ref(impl);
    (*newp)->impl_type = impl;
    return MPI_SUCCESS;
}

int MPID_Type_resized(MPID_Datatype *old, MPI_Aint lb, MPI_Aint extent, MPID_Datatype **newp)
{
    int64_t ub;
    if (MPIR_Add_overflows(lb, extent, &ub))
        return OVERFLOW_ERR();
    int err = new_with_layout(old, newp);
    if (err)
        return err;
    /* the resized type map is old's plus explicit markers at lb and lb + extent */
    MPID_Datatype *dt = *newp;
    dt->lb = lb;
    dt->ub = ub;
    dt->extent = extent;
    dt->has_sticky_lb = dt->has_sticky_ub = 1;
    dt->is_contig = old->is_contig && extent == old->size;
    return MPI_SUCCESS;
}

int MPID_Type_dup(MPID_Datatype *old, MPID_Datatype **newp)
{
    int err = MPID_Type_alias(old, newp);
    if (err)
        return err;
    (*newp)->is_committed = old->is_committed;
    return MPI_SUCCESS;
}
