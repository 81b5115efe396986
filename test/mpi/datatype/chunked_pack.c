/*
 * The segment processor's range contract (mpid_dataloop.h), driven directly on random types
 * (randtype.h) and checked against the reference model (reftype.h):
 *   - pack of a range [first, *last) with random chunk sizes, chunk after chunk (forward), then the
 *     same chunks in reverse and in random order, on the same segment and on a fresh one; each
 *     chunk goes to its own buffer, exactly as long as the range asked for and fenced by guard
 *     bytes, so a byte written past *last or before the buffer is caught;
 *   - *last is exactly the largest basic-element boundary at or below the asked end (and the end
 *     of the stream); a range shorter than the next element returns *last == first;
 *   - seeks: ranges starting at random element boundaries, and at the end of the stream;
 *     a start inside a basic element gives MPI_ERR_ARG;
 *   - unpack of the model's stream, chunked the same three ways, each chunk read from a buffer
 *     exactly as long as the range (an over-read is caught by the sanitizers), compared with the
 *     model's unpack over the whole allocation (gap and guard bytes included);
 *   - MPID_Segment_to_iov: the runs of a range, with and without a limit on their number, against
 *     the model's entries merged where they touch, and MPID_Segment_count_blocks, their number; MPID_Segment_for_each_run: every basic element's
 *     address, type and size in stream order; MPID_Segment_count_elements on random prefixes.
 * 2000 random types by default (typecheck.h: REFTYPE_ITERS, REFTYPE_SEED, REFTYPE_VERBOSE).
 */
#include <stdlib.h>
#include "mtest.h"
#include "randtype.h"
#include "reftype.h"
#include "typecheck.h"
/* The internal segment API, exported by the library; the header sits beside the engine. */
#include "../../../src/mpid/datatype/mpid_dataloop.h"

#define FENCE 32            /* guard bytes on each side of a chunk buffer */

static void *xmalloc(size_t n)
{
    void *p = malloc(n + 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

/* ---- what one type is tested with ---- */

typedef struct {
    MPI_Datatype type;
    int count;
    ref_map map;
    MPI_Count total;
    ref_buf in;                 /* the typed data packed from */
    unsigned char *stream;      /* the model's packed stream of in */
    rt_rng *r;
} Case;

/* A chunk buffer: n usable bytes between two fences, all filled from a seed. */
typedef struct {
    unsigned char *mem, *p;
    size_t n;
    unsigned char fill;
} Chunk;

static void chunk_new(Chunk *c, size_t n, unsigned char fill)
{
    c->mem = xmalloc(n + 2 * FENCE);
    c->p = c->mem + FENCE;
    c->n = n;
    c->fill = fill;
    memset(c->mem, fill, n + 2 * FENCE);
}

/* Bytes from used to the end of the buffer, and the fences, must still hold the fill. */
static void chunk_check(Chunk *c, size_t used, const char *what, MPI_Count first)
{
    for (size_t k = 0; k < c->n + 2 * FENCE; k++) {
        if (k >= FENCE && k < FENCE + used)
            continue;
        if (c->mem[k] != c->fill) {
            TFAIL("%s [%lld, ...): byte %ld of the chunk buffer (%zu used of %zu) was overwritten",
                  what, (long long) first, (long) k - FENCE, used, c->n);
            return;
        }
    }
}

static void chunk_free(Chunk *c)
{
    free(c->mem);
}

/* ---- pack ---- */

/* Packs [first, ask) into a chunk buffer of ask - first bytes; checks *last, the bytes and the
 * fences. Returns the *last the engine gave (or -1 on error). */
static MPI_Count pack_range(Case *c, MPID_Segment *seg, MPI_Count first, MPI_Count ask,
                            const char *what)
{
    MPI_Count last = ask, want_last = ref_floor_boundary(&c->map, ask < c->total ? ask : c->total);
    Chunk ch;
    chunk_new(&ch, (size_t) (ask - first), (unsigned char) rt_next(c->r));
    int rc = MPID_Segment_pack(seg, first, &last, ch.p);
    if (rc != MPI_SUCCESS) {
        TFAIL("%s: MPID_Segment_pack(first=%lld, last=%lld) returned %d", what, (long long) first,
              (long long) ask, rc);
        chunk_free(&ch);
        return -1;
    }
    if (last != want_last) {
        TFAIL("%s: MPID_Segment_pack(first=%lld, last=%lld) gave *last %lld, expected %lld "
              "(stream of %lld bytes)", what, (long long) first, (long long) ask, (long long) last,
              (long long) want_last, (long long) c->total);
    } else {
        char w[96];
        snprintf(w, sizeof w, "%s [%lld, %lld)", what, (long long) first, (long long) last);
        if (ref_cmp_stream(&c->map, first, last - first, c->stream + first, ch.p, w))
            TFAIL("%s: packed bytes differ from the model", w);
    }
    chunk_check(&ch, last >= first && last <= ask ? (size_t) (last - first) : 0, what, first);
    chunk_free(&ch);
    return last;
}

/* Forward chunks of random sizes up to maxchunk: fills bounds (the chunk starts, then the end)
 * and returns the number of chunks. Short ranges that hold no whole element are tried too. */
static int pack_forward(Case *c, MPID_Segment *seg, MPI_Count maxchunk, MPI_Count *bounds)
{
    int n = 0;
    MPI_Count pos = 0;
    bounds[0] = 0;
    while (pos < c->total) {
        MPI_Count ask = pos + rt_range(c->r, 1, maxchunk);
        MPI_Count last = pack_range(c, seg, pos, ask, "forward pack");
        if (last < 0 || (last == pos && ask >= c->total))
            return -1;
        if (last == pos) {      /* too short for the next element: ask for at least one */
            int off;
            long e = ref_entry_at(&c->map, pos, &off);
            ask = pos + c->map.e[e].size + rt_range(c->r, 0, maxchunk);
            last = pack_range(c, seg, pos, ask, "forward pack after a short range");
            if (last <= pos)
                return -1;
        }
        bounds[++n] = pos = last;
    }
    return n;
}

/* The chunks [bounds[k], bounds[k + 1]) in the order given. */
static void pack_chunks(Case *c, MPID_Segment *seg, const MPI_Count *bounds, const int *order,
                        int n, const char *what)
{
    for (int i = 0; i < n && !tc.type_failed; i++)
        pack_range(c, seg, bounds[order[i]], bounds[order[i] + 1], what);
}

static void shuffle(rt_rng *r, int *order, int n)
{
    for (int k = n - 1; k > 0; k--) {
        int j = (int) rt_range(r, 0, k), t = order[k];
        order[k] = order[j];
        order[j] = t;
    }
}

static MPI_Count pick_maxchunk(Case *c)
{
    static const int small[] = { 1, 3, 8, 17, 64 };
    switch (rt_range(c->r, 0, 6)) {
    case 5: return c->total / 4 + 1;
    case 6: return c->total + 8;
    default: return small[rt_range(c->r, 0, 4)];
    }
}

static int segment_init(Case *c, MPID_Segment *seg, void *buf)
{
    int rc = MPID_Segment_init(seg, buf, c->count, c->type);
    if (rc != MPI_SUCCESS)
        TFAIL("MPID_Segment_init(count=%d) returned %d", c->count, rc);
    return rc;
}

static void check_pack(Case *c)
{
    MPID_Segment seg;
    if (segment_init(c, &seg, c->in.base))
        return;
    pack_range(c, &seg, 0, c->total, "one-shot pack");
    pack_range(c, &seg, c->total, c->total + 8, "pack at the end of the stream");

    MPI_Count *bounds = xmalloc(((size_t) c->total + 2) * sizeof *bounds);
    int *order = xmalloc(((size_t) c->total + 1) * sizeof *order);
    int n = pack_forward(c, &seg, pick_maxchunk(c), bounds);
    if (n >= 0) {
        for (int k = 0; k < n; k++)
            order[k] = n - 1 - k;
        pack_chunks(c, &seg, bounds, order, n, "reverse pack");
        shuffle(c->r, order, n);
        pack_chunks(c, &seg, bounds, order, n, "random-order pack");
        MPID_Segment fresh;         /* a segment whose first call is a seek */
        if (!segment_init(c, &fresh, c->in.base)) {
            shuffle(c->r, order, n);
            pack_chunks(c, &fresh, bounds, order, n, "random-order pack on a fresh segment");
            MPID_Segment_free(&fresh);
        }
    }

    /* seeks to random element boundaries, and to a start inside an element */
    for (int k = 0; k < 8 && c->total > 0; k++) {
        MPI_Count first = ref_floor_boundary(&c->map, rt_range(c->r, 0, c->total));
        pack_range(c, &seg, first, first + rt_range(c->r, 1, pick_maxchunk(c)), "seek and pack");
    }
    for (int k = 0; k < 4 && c->total > 0; k++) {
        int off;
        MPI_Count pos = rt_range(c->r, 0, c->total - 1), last = c->total;
        ref_entry_at(&c->map, pos, &off);
        if (off == 0)
            continue;
        unsigned char *dest = xmalloc((size_t) c->total);
        int rc = MPID_Segment_pack(&seg, pos, &last, dest);
        if (rc != MPI_ERR_ARG)
            TFAIL("MPID_Segment_pack(first=%lld) inside an element returned %d, expected "
                  "MPI_ERR_ARG (%d)", (long long) pos, rc, MPI_ERR_ARG);
        free(dest);
    }
    free(bounds);
    free(order);
    MPID_Segment_free(&seg);
}

/* ---- unpack ---- */

/* Unpacks stream bytes [first, ask) from a buffer of exactly ask - first bytes; checks *last. */
static MPI_Count unpack_range(Case *c, MPID_Segment *seg, const unsigned char *src, MPI_Count first,
                              MPI_Count ask, const char *what)
{
    MPI_Count last = ask, want_last = ref_floor_boundary(&c->map, ask < c->total ? ask : c->total);
    size_t n = (size_t) (ask - first);
    unsigned char *in = xmalloc(n);
    memcpy(in, src + first, (size_t) ((ask < c->total ? ask : c->total) - first));
    int rc = MPID_Segment_unpack(seg, first, &last, in);
    free(in);
    if (rc != MPI_SUCCESS) {
        TFAIL("%s: MPID_Segment_unpack(first=%lld, last=%lld) returned %d", what,
              (long long) first, (long long) ask, rc);
        return -1;
    }
    if (last != want_last)
        TFAIL("%s: MPID_Segment_unpack(first=%lld, last=%lld) gave *last %lld, expected %lld",
              what, (long long) first, (long long) ask, (long long) last, (long long) want_last);
    return last;
}

static void check_unpack(Case *c)
{
    ref_buf want, got;
    unsigned char *src = xmalloc((size_t) c->total);
    ref_fill(src, (size_t) c->total, rt_next(c->r));
    if (ref_buf_alloc(&want, &c->map, rt_next(c->r)))
        exit(1);
    unsigned char *writes = ref_buf_writes(&c->map, &want);
    unsigned char *initial = xmalloc(want.len);
    memcpy(initial, want.mem, want.len);
    ref_unpack(&c->map, src, want.base);
    if (ref_buf_clone(&got, &want) || !writes)
        exit(1);

    MPI_Count *bounds = xmalloc(((size_t) c->total + 2) * sizeof *bounds);
    int *order = xmalloc(((size_t) c->total + 1) * sizeof *order);
    int n = 0;
    for (int pass = 0; pass < 3 && !tc.type_failed; pass++) {
        static const char *names[] = { "forward unpack", "reverse unpack", "random-order unpack" };
        MPID_Segment seg;
        memcpy(got.mem, initial, got.len);
        if (segment_init(c, &seg, got.base))
            break;
        if (pass == 0) {        /* forward, recording the chunks */
            MPI_Count pos = 0, maxchunk = pick_maxchunk(c);
            bounds[0] = 0;
            while (pos < c->total) {
                MPI_Count ask = pos + rt_range(c->r, 1, maxchunk);
                MPI_Count last = unpack_range(c, &seg, src, pos, ask, names[0]);
                if (last == pos && ask < c->total) {    /* too short: ask for one element more */
                    int off;
                    long e = ref_entry_at(&c->map, pos, &off);
                    ask = pos + c->map.e[e].size + rt_range(c->r, 0, maxchunk);
                    last = unpack_range(c, &seg, src, pos, ask, "forward unpack after a short range");
                }
                if (last <= pos || last > c->total)
                    break;
                bounds[++n] = pos = last;
            }
        } else {
            for (int k = 0; k < n; k++)
                order[k] = pass == 1 ? n - 1 - k : k;
            if (pass == 2)
                shuffle(c->r, order, n);
            for (int k = 0; k < n && !tc.type_failed; k++)
                unpack_range(c, &seg, src, bounds[order[k]], bounds[order[k] + 1], names[pass]);
        }
        MPID_Segment_free(&seg);
        if (!tc.type_failed && ref_cmp_buf(&c->map, &want, &got, writes, names[pass]))
            TFAIL("%s (%d chunks): the buffer differs from the model's", names[pass], n);
    }
    free(bounds);
    free(order);
    free(src);
    free(initial);
    free(writes);
    ref_buf_free(&want);
    ref_buf_free(&got);
}

/* ---- iov, runs, element counts ---- */

/* The model's runs of the stream range [first, last) (element boundaries): entries merged where
 * one ends at the address the next starts. Fills disp/len (if not NULL) and returns the number;
 * ends[k] (if not NULL) is the stream position after run k. */
static MPI_Count model_runs(const ref_map *m, MPI_Count first, MPI_Count last, MPI_Aint *disp,
                            MPI_Aint *len, MPI_Count *ends)
{
    MPI_Count pos = 0, n = 0;
    MPI_Aint run_end = 0;
    for (size_t k = 0; k < m->n && pos < last; pos += m->e[k].size, k++) {
        if (pos < first)
            continue;
        if (n > 0 && m->e[k].disp == run_end) {
            if (len)
                len[n - 1] += m->e[k].size;
        } else {
            if (disp)
                disp[n] = m->e[k].disp, len[n] = m->e[k].size;
            n++;
        }
        run_end = m->e[k].disp + m->e[k].size;
        if (ends)
            ends[n - 1] = pos + m->e[k].size;
    }
    return n;
}

static void check_iov(Case *c, MPID_Segment *seg, MPI_Count first, MPI_Count ask, MPI_Count max_iov)
{
    MPI_Count want_last = ref_floor_boundary(&c->map, ask < c->total ? ask : c->total);
    MPI_Count nruns = model_runs(&c->map, first, want_last, NULL, NULL, NULL);
    MPI_Aint *disp = xmalloc(((size_t) nruns + 1) * sizeof *disp);
    MPI_Aint *len = xmalloc(((size_t) nruns + 1) * sizeof *len);
    MPI_Count *ends = xmalloc(((size_t) nruns + 1) * sizeof *ends);
    model_runs(&c->map, first, want_last, disp, len, ends);
    /* the count of the range's runs, without a limit */
    MPI_Count count_last = ask, n_blocks = -1;
    int rc = MPID_Segment_count_blocks(seg, first, &count_last, &n_blocks);
    if (rc != MPI_SUCCESS || n_blocks != nruns || count_last != want_last)
        TFAIL("MPID_Segment_count_blocks(first=%lld, last=%lld) returned %d: %lld runs to %lld, model %lld "
              "to %lld", (long long) first, (long long) ask, rc, (long long) n_blocks, (long long) count_last,
              (long long) nruns, (long long) want_last);
    MPID_Iov *iov = xmalloc(((size_t) max_iov + 1) * sizeof *iov);
    MPI_Count last = ask, n_iov = -1;
    rc = MPID_Segment_to_iov(seg, first, &last, iov, max_iov, &n_iov);
    MPI_Count want_n = nruns < max_iov ? nruns : max_iov;
    if (want_n < nruns)
        want_last = want_n > 0 ? ends[want_n - 1] : first;
    if (rc != MPI_SUCCESS) {
        TFAIL("MPID_Segment_to_iov(first=%lld, last=%lld, max_iov=%lld) returned %d",
              (long long) first, (long long) ask, (long long) max_iov, rc);
    } else if (n_iov != want_n || last != want_last) {
        TFAIL("MPID_Segment_to_iov(first=%lld, last=%lld, max_iov=%lld): %lld runs to %lld, "
              "model %lld runs to %lld", (long long) first, (long long) ask, (long long) max_iov,
              (long long) n_iov, (long long) last, (long long) want_n, (long long) want_last);
    } else {
        for (MPI_Count k = 0; k < n_iov; k++) {
            char *want_base = c->in.base + disp[k];
            if ((char *) iov[k].base != want_base || iov[k].len != len[k]) {
                TFAIL("MPID_Segment_to_iov(first=%lld, last=%lld): run %lld at displacement "
                      "%ld, %ld bytes; model: displacement %ld, %ld bytes", (long long) first,
                      (long long) ask, (long long) k, (long) ((char *) iov[k].base - c->in.base),
                      (long) iov[k].len, (long) disp[k], (long) len[k]);
                break;
            }
        }
    }
    free(iov);
    free(disp);
    free(len);
    free(ends);
}

typedef struct {
    Case *c;
    size_t next;        /* the model entry the next element must match */
    int bad;
} RunCheck;

/* An f90 type (a predefined type of its own) may be reported as the predefined Fortran type of
 * its class and size, the one MPI_Type_match_size names. */
static int same_basic_type(MPI_Datatype got, MPI_Datatype model)
{
    MPI_Count ni, na, nc, nd;
    int comb = MPI_COMBINER_NAMED, size = 0, cls;
    MPI_Datatype match = MPI_DATATYPE_NULL;
    if (got == model)
        return 1;
    MPI_Type_get_envelope_c(model, &ni, &na, &nc, &nd, &comb);
    if (comb == MPI_COMBINER_F90_REAL)
        cls = MPI_TYPECLASS_REAL;
    else if (comb == MPI_COMBINER_F90_COMPLEX)
        cls = MPI_TYPECLASS_COMPLEX;
    else if (comb == MPI_COMBINER_F90_INTEGER)
        cls = MPI_TYPECLASS_INTEGER;
    else
        return 0;
    MPI_Type_size(model, &size);
    return MPI_Type_match_size(cls, size, &match) == MPI_SUCCESS && match == got;
}

static int run_cb(void *state, char *addr, MPI_Datatype el_type, MPI_Count n_elements)
{
    RunCheck *rc = state;
    const ref_map *m = &rc->c->map;
    for (MPI_Count k = 0; k < n_elements && !rc->bad; k++, rc->next++) {
        if (rc->next >= m->n) {
            TFAIL("MPID_Segment_for_each_run: more elements than the model's %zu", m->n);
            rc->bad = 1;
            break;
        }
        const ref_entry *e = &m->e[rc->next];
        char *want = rc->c->in.base + e->disp;
        if (!same_basic_type(el_type, e->type) || addr + k * e->size != want) {
            char got_name[MPI_MAX_OBJECT_NAME];
            snprintf(got_name, sizeof got_name, "%s", ref_type_name(el_type));
            TFAIL("MPID_Segment_for_each_run: element %zu is %s at displacement %ld; model: %s at "
                  "%ld", rc->next, got_name, (long) (addr + k * e->size - rc->c->in.base),
                  ref_type_name(e->type), (long) e->disp);
            rc->bad = 1;
        }
    }
    return MPI_SUCCESS;
}

static void check_walks(Case *c)
{
    MPID_Segment seg;
    if (segment_init(c, &seg, c->in.base))
        return;
    /* the whole stream in one run list, then ranges from random boundaries */
    check_iov(c, &seg, 0, c->total, c->total + 1);
    for (int k = 0; k < 6 && c->total > 0 && !tc.type_failed; k++) {
        MPI_Count first = ref_floor_boundary(&c->map, rt_range(c->r, 0, c->total));
        MPI_Count ask = first + rt_range(c->r, 0, c->total - first + 8);
        check_iov(c, &seg, first, ask, rt_range(c->r, 1, 6));
    }

    RunCheck rc = { c, 0, 0 };
    MPI_Count last = c->total;
    if (MPID_Segment_for_each_run(&seg, 0, &last, run_cb, &rc) != MPI_SUCCESS)
        TFAIL("MPID_Segment_for_each_run failed");
    else if (!rc.bad && (rc.next != c->map.n || last != c->total))
        TFAIL("MPID_Segment_for_each_run: %zu elements to %lld; model %zu to %lld", rc.next,
              (long long) last, c->map.n, (long long) c->total);

    for (int k = 0; k < 6; k++) {
        MPI_Count nbytes = k == 0 ? c->total : rt_range(c->r, 0, c->total);
        MPI_Count got = MPID_Segment_count_elements(&seg, nbytes), want = ref_elements(&c->map, nbytes);
        if (got != want)
            TFAIL("MPID_Segment_count_elements(%lld) = %lld, model %lld", (long long) nbytes,
                  (long long) got, (long long) want);
    }
    MPID_Segment_free(&seg);
}

static void check_type(unsigned long long seed)
{
    rt_rng r;
    Case c = { 0 };
    rt_seed(&r, seed);
    c.r = &r;
    c.type = rt_random_type(&r, &tc_limits);
    tc_begin(c.type, seed);
    if (c.type == MPI_DATATYPE_NULL) {
        TFAIL("the generator could not build the type");
        return;
    }
    CHECK_MPI(MPI_Type_commit(&c.type));
    c.count = (int) rt_range(&r, 1, 3);
    if (ref_map_build(c.type, c.count, &c.map)) {
        TFAIL("the model could not expand the type");
        MPI_Type_free(&c.type);
        return;
    }
    c.total = c.map.size;
    if (ref_buf_alloc(&c.in, &c.map, rt_next(&r)))
        exit(1);
    c.stream = xmalloc((size_t) c.total);
    ref_pack(&c.map, c.in.base, c.stream);

    check_pack(&c);
    if (!tc.type_failed)
        check_unpack(&c);
    if (!tc.type_failed)
        check_walks(&c);

    free(c.stream);
    ref_buf_free(&c.in);
    ref_map_free(&c.map);
    MPI_Type_free(&c.type);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    tc_each_seed(2000, check_type);
    tc_end();
    return MTest_Finalize();
}
