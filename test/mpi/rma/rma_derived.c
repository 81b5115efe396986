/*
 * MPI_Put and MPI_Get (and the _c twins) with random nested derived datatypes on both sides
 * (MPI 4.1, 12.3: the transfer is as if the origin sent with its datatype and the target received
 * with the target datatype, or the reverse for a get; only the type signatures must match). The
 * types come from the generator of the datatype tests (../datatype/randtype.h: every constructor,
 * markers, pair types, negative displacements, overlapping copies), the expected result from
 * their reference model (../datatype/reftype.h), which expands a type into its explicit type map
 * and knows nothing of the library's datatype engine.
 *
 * For random type T (count 1 to 3) and S, a struct of T's basic elements in REVERSE order with a
 * hole after each element (same signature, another layout), every rank, in fence epochs:
 *   - puts T from its buffer into S at its next neighbour's window;
 *   - gets T from its previous neighbour's window into S;
 *   and, when T's type map has no overlapping entries (only then may it describe a target of a
 *   put or an origin buffer of a get):
 *   - puts S into T, gets S into T, and puts and gets T into T.
 * Each window is filled from a seed beforehand; afterwards every byte of it is compared with the
 * model's result (the origin's data packed by the origin map, unpacked by the target map over the
 * initial bytes), so holes, bytes between entries and bytes around the type map must keep their
 * values; gets compare every byte of the origin allocation, and leave the target window as it
 * was. Target types start at a displacement chosen so that their true lower bound (negative in
 * many types) stays inside the window.
 *
 * REFTYPE_ITERS (default 300) sets the number of types, REFTYPE_SEED (default 1) the first seed;
 * a failure names the seed and describes the type. Run with 2 and 3 processes.
 */
#include "mtest.h"
#include "../datatype/randtype.h"
#include "../datatype/reftype.h"

static const rt_limits limits = { 5, 2048, 16384 };

#define NAREAS 6             /* one window area per transfer of an epoch */
#define AREA (128 * 1024)
#define WIN_BYTES (NAREAS * AREA)
#define WIN_FILL 0x3c           /* the window bytes beyond the part filled from the seed */

static int rank, size, prev, next;
static unsigned char *win_mem;  /* this rank's window */
static unsigned char *expect;   /* the model's result for it */
static MPI_Win win;
static unsigned long long cur_seed;
static int cur_failed, failed_types;
static char desc[2048];
static MPI_Datatype cur_type;

/* One side of a transfer: the datatype, its count and the model's map of that many instances. */
typedef struct {
    const char *name;
    MPI_Datatype type;
    MPI_Count count;
    ref_map map;
} side;

#define MAX_REPORTED 10     /* failing types described in full; later ones are only counted */

/* A check about the current type failed: the first one introduces the type; returns whether the
 * details are still printed. */
static int type_failed(void)
{
    if (!cur_failed) {
        cur_failed = 1;
        failed_types++;
        if (failed_types <= MAX_REPORTED)
            fprintf(stderr, "rank %d, seed %llu: %s\n", rank, cur_seed, ref_describe(cur_type, desc, sizeof desc));
    }
    if (failed_types > MAX_REPORTED)
        mtest_errs++;
    return failed_types <= MAX_REPORTED;
}

/* MPICH 4.0.2 answers some constructors with a predefined type, which cannot be freed. */
static void free_type(MPI_Datatype *t)
{
    MPI_Count ni, na, nc, nd;
    int comb = MPI_COMBINER_NAMED;
    MPI_Type_get_envelope_c(*t, &ni, &na, &nc, &nd, &comb);
    if (comb != MPI_COMBINER_NAMED && comb != MPI_COMBINER_F90_REAL && comb != MPI_COMBINER_F90_COMPLEX
        && comb != MPI_COMBINER_F90_INTEGER)
        MPI_Type_free(t);
    *t = MPI_DATATYPE_NULL;
}

/* The struct holding the elements of map in reverse order, element j (stream bytes [b, e)) at
 * byte 2 * (size - e): each element followed by a hole of its own size. */
static MPI_Datatype reversed_with_holes(const ref_map *map)
{
    size_t n = map->n;
    int *lens = malloc((n + 1) * sizeof *lens);
    MPI_Aint *disps = malloc((n + 1) * sizeof *disps);
    MPI_Datatype *types = malloc((n + 1) * sizeof *types), t = MPI_DATATYPE_NULL;
    if (!lens || !disps || !types) {
        MTEST_FAIL("out of memory");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Aint end = 0;
    for (size_t j = 0; j < n; j++) {
        end += map->e[j].size;
        lens[j] = 1;
        disps[j] = 2 * ((MPI_Aint) map->size - end);
        types[j] = map->e[j].type;
    }
    if (n > 0)
        CHECK_MPI(MPI_Type_create_struct((int) n, lens, disps, types, &t));
    else        /* an empty struct is a predefined type in MPICH: an empty contiguous instead */
        CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    free(lens);
    free(disps);
    free(types);
    return t;
}

static int has_overlaps(const ref_map *map)
{
    MPI_Aint lo = map->true_lb, hi = map->true_ub;
    if (hi <= lo)
        return 0;
    unsigned char *w = malloc((size_t) (hi - lo));
    if (!w) {
        MTEST_FAIL("out of memory");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    ref_write_counts(map, lo, hi, w);
    int over = 0;
    for (MPI_Aint k = 0; k < hi - lo && !over; k++)
        over = w[k] > 1;
    free(w);
    return over;
}

/* Where a target map starts in its area of a window (the displacement of its buffer address from
 * the area's start) and how many bytes of the area it covers, guards included. */
static MPI_Aint target_offset(const ref_map *m)
{
    MPI_Aint off = REF_GUARD - m->true_lb;     /* REF_GUARD bytes before the first entry */
    return off < 0 ? 0 : (off + 15) / 16 * 16;
}

static MPI_Aint target_span(const ref_map *m)
{
    return target_offset(m) + m->true_ub + REF_GUARD;
}

/* The initial bytes of area v of rank r's window: its first span bytes from a seed. */
static void area_image(unsigned char *img, int r, int v, MPI_Aint span)
{
    memset(img, WIN_FILL, AREA);
    ref_fill(img, (size_t) span, cur_seed * 7919u + (uint64_t) (v * 64 + r) + 1);
}

static uint64_t origin_seed(int r, int v)
{
    return ~(cur_seed * 104729u + (uint64_t) (v * 64 + r));
}

/* A view of an area as a typed buffer of a map that starts at off. */
static ref_buf view(unsigned char *mem, MPI_Aint off)
{
    ref_buf b = { mem, AREA, (char *) mem + off, -off };
    return b;
}

/* One transfer of an epoch: a put of o from this rank's buffer into t at area v of next's
 * window, or a get of t at area v of prev's window into o in this rank's buffer. */
typedef struct {
    int v, is_put, large;
    const side *o, *t;
    MPI_Aint off;
    ref_buf obuf, want;         /* the origin buffer; for a get, the model's result for it */
    char what[160];
} xfer;

static void oom(void)
{
    MTEST_FAIL("out of memory");
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Fills area v of this rank's window and its expected result; the origin buffer and, for a get,
 * its expected result. */
static void prepare(xfer *x)
{
    const side *o = x->o, *t = x->t;
    MPI_Aint span = target_span(&t->map);
    unsigned char *area = win_mem + (size_t) x->v * AREA, *exp = expect + (size_t) x->v * AREA;
    x->off = target_offset(&t->map);
    snprintf(x->what, sizeof x->what, "%s %s %s %s (origin count %lld, target count %lld)", x->is_put ? "put" : "get",
             o->name, x->is_put ? "->" : "<-", t->name, (long long) o->count, (long long) t->count);
    unsigned char *stream = malloc((size_t) o->map.size + 1);
    if (!stream || ref_buf_alloc(&x->obuf, &o->map, origin_seed(rank, x->v)) || ref_buf_clone(&x->want, &x->obuf))
        oom();
    area_image(area, rank, x->v, span);
    area_image(exp, rank, x->v, span);
    if (x->is_put) {
        /* the model: prev's origin data, packed by the origin map, unpacked by the target map */
        ref_buf theirs;
        if (ref_buf_alloc(&theirs, &o->map, origin_seed(prev, x->v)))
            oom();
        ref_pack(&o->map, theirs.base, stream);
        ref_unpack(&t->map, stream, exp + x->off);
        ref_buf_free(&theirs);
    } else {
        /* the model: prev's area packed by the target map, unpacked by the origin map; the own
         * area stays as it is */
        unsigned char *img = malloc(AREA);
        if (!img)
            oom();
        area_image(img, prev, x->v, span);
        ref_pack(&t->map, img + x->off, stream);
        ref_unpack(&o->map, stream, x->want.base);
        free(img);
    }
    free(stream);
}

static void start(xfer *x)
{
    const side *o = x->o, *t = x->t;
    MPI_Aint disp = (MPI_Aint) x->v * AREA + x->off;
    if (x->is_put && x->large)
        CHECK_MPI(MPI_Put_c(x->obuf.base, o->count, o->type, next, disp, t->count, t->type, win));
    else if (x->is_put)
        CHECK_MPI(MPI_Put(x->obuf.base, (int) o->count, o->type, next, disp, (int) t->count, t->type, win));
    else if (x->large)
        CHECK_MPI(MPI_Get_c(x->obuf.base, o->count, o->type, prev, disp, t->count, t->type, win));
    else
        CHECK_MPI(MPI_Get(x->obuf.base, (int) o->count, o->type, prev, disp, (int) t->count, t->type, win));
}

/* After the epoch: the own area against the model; the origin buffer (unchanged by a put). */
static void check(xfer *x)
{
    unsigned char *area = win_mem + (size_t) x->v * AREA, *exp = expect + (size_t) x->v * AREA;
    if (memcmp(area, exp, AREA) != 0 && type_failed()) {
        ref_buf want = view(exp, x->off), got = view(area, x->off);
        long bad = ref_cmp_buf(&x->t->map, &want, &got, NULL, x->what);
        MTEST_FAIL("seed %llu: %s: %ld bytes of the target window wrong%s", cur_seed, x->what, bad,
                   x->is_put ? "" : " (a get changed it)");
    }
    if (memcmp(x->want.mem, x->obuf.mem, x->obuf.len) != 0 && type_failed()) {
        long bad = ref_cmp_buf(&x->o->map, &x->want, &x->obuf, NULL, x->what);
        MTEST_FAIL("seed %llu: %s: %ld bytes of the origin buffer wrong%s", cur_seed, x->what, bad,
                   x->is_put ? " (a put changed it)" : "");
    }
    ref_buf_free(&x->obuf);
    ref_buf_free(&x->want);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    prev = (rank + size - 1) % size;
    next = (rank + 1) % size;
    long long iters = rt_env("REFTYPE_ITERS", 300);
    unsigned long long seed0 = (unsigned long long) rt_env("REFTYPE_SEED", 1);

    expect = malloc(WIN_BYTES);
    CHECK_MPI(MPI_Win_allocate(WIN_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win_mem, &win));
    if (!expect || !win_mem) {
        MTEST_FAIL("out of memory");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    long long transfers = 0, skipped = 0;

    for (long long i = 0; i < iters; i++) {
        cur_seed = seed0 + (unsigned long long) i;
        cur_failed = 0;
        rt_rng r;
        rt_seed(&r, cur_seed);
        side t = { "T", rt_random_type(&r, &limits), rt_range(&r, 1, 3), {0} };
        cur_type = t.type;
        CHECK_MPI(MPI_Type_commit(&t.type));
        int large = i % 4 == 3;
        /* every rank builds the same type and maps, so all take the same branches below */
        if (ref_map_build(t.type, t.count, &t.map)) {
            MTEST_FAIL("seed %llu: no reference map", cur_seed);
            free_type(&t.type);
            continue;
        }
        if (target_span(&t.map) > AREA) {
            ref_map_free(&t.map);
            t.count = 1;
            if (ref_map_build(t.type, t.count, &t.map)) {
                MTEST_FAIL("seed %llu: no reference map", cur_seed);
                free_type(&t.type);
                continue;
            }
        }
        if (target_span(&t.map) > AREA) {
            skipped++;
            ref_map_free(&t.map);
            free_type(&t.type);
            continue;
        }
        side s = { "S", reversed_with_holes(&t.map), 1, {0} };
        if (ref_map_build(s.type, 1, &s.map)) {
            MTEST_FAIL("seed %llu: no reference map of the reversed struct", cur_seed);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        CHECK(s.map.size == t.map.size, "seed %llu: sizes %lld, %lld", cur_seed, (long long) s.map.size,
              (long long) t.map.size);

        /* all transfers of a type in one epoch, each in an area of its own */
        xfer x[NAREAS] = {
            {.v = 0, .is_put = 1, .large = large, .o = &t, .t = &s},
            {.v = 1, .is_put = 0, .large = large, .o = &s, .t = &t},
            {.v = 2, .is_put = 1, .large = !large, .o = &s, .t = &t},
            {.v = 3, .is_put = 0, .large = !large, .o = &t, .t = &s},
            {.v = 4, .is_put = 1, .large = large, .o = &t, .t = &t},
            {.v = 5, .is_put = 0, .large = !large, .o = &t, .t = &t},
        };
        int n = has_overlaps(&t.map) ? 2 : NAREAS;
        for (int k = 0; k < n; k++)
            prepare(&x[k]);
        CHECK_MPI(MPI_Win_fence(0, win));
        for (int k = 0; k < n; k++)
            start(&x[k]);
        CHECK_MPI(MPI_Win_fence(0, win));
        for (int k = 0; k < n; k++)
            check(&x[k]);
        transfers += n;
        ref_map_free(&s.map);
        ref_map_free(&t.map);
        free_type(&s.type);
        free_type(&t.type);
    }
    if (failed_types > MAX_REPORTED)
        fprintf(stderr, "rank %d: %d failing types in all\n", rank, failed_types);
    if (skipped > iters / 10)
        MTEST_FAIL("%lld of %lld types too large for the window", skipped, iters);
    if (rank == 0 && rt_env("REFTYPE_VERBOSE", 0))
        fprintf(stderr, "%lld transfers, %lld types skipped\n", transfers, skipped);

    CHECK_MPI(MPI_Win_free(&win));
    free(expect);
    return MTest_Finalize();
}
