/*
 * The checks on the packed stream of (buf, count, type) for a committed type (fuzz.h). They
 * compare independent paths of the library with each other and with the reference model:
 *   1. the runs MPID_Segment_for_each_run reports give the element boundaries, the covered bytes
 *      and the true bounds, and hold exactly the elements of the reference model;
 *   2. a one-shot segment pack equals those runs gathered (this is the reference stream);
 *   3. two pieces split where the first call stopped, forward and in reverse order;
 *   4. starts anywhere (inside elements: MPI_ERR_ARG; outside the stream: MPI_ERR_ARG) and ends
 *      anywhere (*last is the largest element boundary at or below the end);
 *   5. random chunks, forward;
 *   6. MPID_Segment_to_iov with a tiny array, from the start and after a seek;
 *   7. unpack in two pieces and in reverse chunks writes back exactly the covered bytes;
 *   8. MPI_Pack/MPI_Unpack, also through the streaming stores of streams beyond the last-level
 *      cache, and MPI_ERR_TRUNCATE with nothing written for a short buffer;
 *   9. element counts: MPID_Segment_count_elements, MPI_Get_elements, MPI_Get_count,
 *      MPI_Status_set_elements;
 *  10. MPIX_Type_iov_len/MPIX_Type_iov (merged pieces, windows, byte limits);
 *  11. external32: size, round trip where the conversion is exact, unknown data representation.
 * Every output buffer has guard bytes on both sides.
 */
#include "fuzz.h"

#define GUARD 64
#define PATTERN 0xA5
#define MAX_IOV 4096

typedef struct {
    MPI_Aint off;               /* from buf */
    MPI_Count len;
    MPI_Datatype el_type;
} Run;

typedef struct {
    const Prog *P;
    MPI_Datatype type;
    MPI_Count count, size, extent, tlb, tub;
    uint64_t seed;              /* drives the random choices */
    MPI_Count split, rfirst, rlast;
    uint8_t knobs;
    char *buf;                  /* the typed buffer's origin: its bytes are [buf + lo, buf + hi) */
    MPI_Aint lo, hi, span;
    MPI_Count S;                /* packed bytes of the stream */
    Run *runs;
    MPI_Count nruns, cap;
    unsigned char *bound;       /* bound[p]: stream offset p is a basic-element boundary */
    MPI_Count ext32;            /* external32 bytes, from the runs */
    bool lossless;              /* every element survives external32 both ways bit for bit */
    bool has_narrowed;          /* longs or wchar_ts: packing may fail with MPI_ERR_CONVERSION */
    unsigned char *ref;         /* the one-shot pack */
    unsigned char *expect;      /* the typed bytes after unpacking ref into PATTERN bytes */
    unsigned char *back;        /* a typed buffer to unpack into */
} Stream;

/* Typed-buffer addresses in integer arithmetic: the origin buf may lie far outside the allocation
 * (its data starts at buf + lo, and lo may be huge). */
static char *at(const char *base, MPI_Aint off)
{
    return (char *) ((uintptr_t) base + (uintptr_t) off);
}

static uint64_t next_random(Stream *st)
{
    st->seed = st->seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return st->seed >> 11;
}

static MPI_Count min_count(MPI_Count a, MPI_Count b) { return a < b ? a : b; }

/* ---- buffers ---- */

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

/* The typed buffer `back` refilled with the pattern; its origin, for a segment or MPI_Unpack. */
static char *fresh_back(Stream *st)
{
    memset(st->back, PATTERN, (size_t) st->span + 1);
    return (char *) ((uintptr_t) st->back - (uintptr_t) st->lo);
}

static void seg_init(const Stream *st, MPID_Segment *seg, char *origin)
{
    CHECK(MPID_Segment_init(seg, origin, st->count, st->type) == MPI_SUCCESS, "MPID_Segment_init failed");
    CHECK(seg->size == st->S, "segment size %lld, expected %lld", (long long) seg->size, (long long) st->S);
}

/* ---- element boundaries ---- */

/* The largest element boundary at or below pos (pos in [0, S]). */
static MPI_Count floor_bound(const Stream *st, MPI_Count pos)
{
    while (pos > 0 && !st->bound[pos])
        pos--;
    return pos;
}

/* The smallest element boundary above pos (pos < S). */
static MPI_Count next_bound(const Stream *st, MPI_Count pos)
{
    while (pos < st->S && !st->bound[++pos])
        ;
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

/* ---- segment calls that check the range contract ---- */

/* One pack or unpack call; checks the contract on *last and returns the error class. */
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
        /* a start where the last call stopped is a continuation, anything else a seek */
        CHECK(rc == MPI_ERR_ARG, "segment first=%lld inside a basic element gave %d", (long long) first, rc);
        return rc;
    }
    CHECK(rc == MPI_SUCCESS, "segment %s [%lld, %lld) failed with %d", pack ? "pack" : "unpack",
          (long long) first, (long long) want, rc);
    MPI_Count expect = want <= first ? first : floor_bound(st, min_count(want, st->S));
    if (expect < first)
        expect = first;
    CHECK(*last == expect, "segment [%lld, %lld) of %lld stopped at %lld, expected %lld", (long long) first,
          (long long) want, (long long) st->S, (long long) *last, (long long) expect);
    return rc;
}

/* Packs [first, *last) into a guarded buffer and compares with the reference stream. */
static void pack_range(const Stream *st, MPID_Segment *seg, MPI_Count first, MPI_Count *last)
{
    MPI_Count want = *last;
    bool inside = first >= 0 && first <= st->S;
    MPI_Count room = inside && want > first ? min_count(want, st->S) - first : 0;
    unsigned char *out = guarded(room);
    if (seg_call(st, seg, true, first, last, out) == MPI_SUCCESS)
        CHECK(memcmp(out, st->ref + first, (size_t) (*last - first)) == 0,
              "segment pack [%lld, %lld) differs from the one-shot pack", (long long) first, (long long) *last);
    else
        CHECK(untouched(out, room), "a refused segment pack wrote to its buffer");
    check_guards(out, room, "segment pack");
    unguard(out);
}

/* ---- 1. the runs ---- */

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
    st->runs[st->nruns].off = (MPI_Aint) ((uintptr_t) addr - (uintptr_t) st->buf);
    st->runs[st->nruns].len = n * el;
    st->runs[st->nruns].el_type = el_type;
    st->nruns++;
    /* narrower in external32: long in 4 bytes, wchar_t in 2 */
    MPI_Count ext = el_type == MPI_LONG || el_type == MPI_UNSIGNED_LONG ? 4 : el_type == MPI_WCHAR ? 2 : el;
    st->ext32 += n * ext;
    st->has_narrowed |= ext < el;
    st->lossless &= is_lossless(el_type);
    return MPI_SUCCESS;
}

static void check_runs(Stream *st)
{
    MPID_Segment seg;
    seg_init(st, &seg, st->buf);
    MPI_Count last = st->S;
    CHECK(MPID_Segment_for_each_run(&seg, 0, &last, collect_run, st) == MPI_SUCCESS && last == st->S,
          "MPID_Segment_for_each_run stopped at %lld of %lld", (long long) last, (long long) st->S);
    MPID_Segment_free(&seg);

    MPI_Count pos = 0, run_lo = INT64_MAX, run_hi = INT64_MIN;
    st->bound[0] = 1;
    for (MPI_Count r = 0; r < st->nruns; r++) {
        const Run *R = &st->runs[r];
        MPI_Count el = MPID_Datatype_get(R->el_type)->size;
        CHECK(R->off >= st->lo && R->off + R->len <= st->hi,
              "run [%ld, %ld) lies outside the true bounds [%ld, %ld) of %lld instances", (long) R->off,
              (long) (R->off + R->len), (long) st->lo, (long) st->hi, (long long) st->count);
        for (MPI_Count e = el; e <= R->len; e += el)
            st->bound[pos + e] = 1;
        pos += R->len;
        run_lo = R->off < run_lo ? R->off : run_lo;
        run_hi = R->off + R->len > run_hi ? R->off + R->len : run_hi;
    }
    CHECK(pos == st->S, "the runs hold %lld bytes, the stream %lld", (long long) pos, (long long) st->S);
    if (st->count == 1 && st->S > 0)
        CHECK(run_lo == st->tlb && run_hi == st->tub, "the data lies in [%lld, %lld) but the true bounds say "
              "[%lld, %lld)", (long long) run_lo, (long long) run_hi, (long long) st->tlb, (long long) st->tub);
}

/* The runs hold the elements of the reference model, in its order. */
static void check_model(const Stream *st)
{
    Elems model = { malloc(sizeof(int64_t) * (size_t) (st->S + 1)), malloc(sizeof(int32_t) * (size_t) (st->S + 1)),
                    0, st->S + 1 };
    CHECK(model.off && model.size, "out of memory in the fuzzer");
    bool known = true;
    for (MPI_Count i = 0; i < st->count && known; i++)
        known = model_expand(st->P, st->type, i * st->extent, &model);
    TRACE("reference model: %s\n", known ? "compared" : "not modelled (too big, or an unknown pair type)");
    if (known) {
        MPI_Count k = 0;
        for (MPI_Count r = 0; r < st->nruns; r++) {
            int32_t el = (int32_t) MPID_Datatype_get(st->runs[r].el_type)->size;
            for (MPI_Count b = 0; b < st->runs[r].len; b += el, k++)
                CHECK(k < model.n && model.off[k] == st->runs[r].off + b && model.size[k] == el,
                      "element %lld: the engine has (offset %lld, %d bytes), the type map (offset %lld, %d bytes)",
                      (long long) k, (long long) (st->runs[r].off + b), el,
                      (long long) (k < model.n ? model.off[k] : -1), k < model.n ? model.size[k] : -1);
        }
        CHECK(k == model.n, "the engine has %lld elements, the type map %lld", (long long) k, (long long) model.n);
    }
    free(model.off);
    free(model.size);
}

/* ---- 2-6. packing ---- */

static void check_one_shot(Stream *st)
{
    MPID_Segment seg;
    st->ref = guarded(st->S);
    seg_init(st, &seg, st->buf);
    MPI_Count last = st->S + (st->knobs & 1);   /* asking past the end must clamp */
    seg_call(st, &seg, true, 0, &last, st->ref);
    MPID_Segment_free(&seg);
    check_guards(st->ref, st->S, "one-shot segment pack");
    MPI_Count pos = 0;
    for (MPI_Count r = 0; r < st->nruns; r++) {
        CHECK(memcmp(st->ref + pos, at(st->buf, st->runs[r].off), (size_t) st->runs[r].len) == 0,
              "the packed bytes of run %lld differ from the typed buffer", (long long) r);
        pos += st->runs[r].len;
    }
}

static void check_pieces(Stream *st)
{
    MPID_Segment seg;
    seg_init(st, &seg, st->buf);
    MPI_Count l1 = st->split, l2 = st->S;
    pack_range(st, &seg, 0, &l1);
    pack_range(st, &seg, l1, &l2);
    CHECK(l2 == st->S, "the second piece stopped at %lld of %lld", (long long) l2, (long long) st->S);
    MPID_Segment_free(&seg);

    seg_init(st, &seg, st->buf);    /* the second piece first: a seek, then a seek back to 0 */
    l2 = st->S;
    pack_range(st, &seg, l1, &l2);
    MPI_Count l0 = l1;
    pack_range(st, &seg, 0, &l0);
    MPID_Segment_free(&seg);
}

static void check_seeks(Stream *st)
{
    MPID_Segment seg;
    MPI_Count S = st->S, first = st->rfirst, last = st->rlast;
    if (st->knobs & 2) {    /* inside the stream; otherwise mostly outside */
        first = S ? (first < 0 ? -first : first) % (S + 1) : 0;
        last = S ? (last < 0 ? -last : last) % (S + 2) : 0;
    }
    seg_init(st, &seg, st->buf);
    pack_range(st, &seg, first, &last);
    /* a second start on the same segment, then continuing from where it stopped */
    MPI_Count f2 = S ? (MPI_Count) (next_random(st) % (uint64_t) (S + 1)) : 0;
    if (f2 != seg.pos) {
        MPI_Count l3 = f2 + (MPI_Count) (st->knobs >> 2);
        pack_range(st, &seg, f2, &l3);
        if (st->bound[f2]) {
            MPI_Count l4 = S;
            pack_range(st, &seg, l3, &l4);
        }
    }
    MPID_Segment_free(&seg);
}

static void check_chunks(Stream *st)
{
    MPID_Segment seg;
    seg_init(st, &seg, st->buf);
    for (MPI_Count p = 0, k = 1 + (MPI_Count) (next_random(st) % 7); p < st->S;) {
        MPI_Count l = p + k;
        pack_range(st, &seg, p, &l);
        if (l == p) {   /* too short for the next element */
            k *= 2;
            continue;
        }
        p = l;
        k = 1 + (MPI_Count) (next_random(st) % 32);
    }
    MPID_Segment_free(&seg);
}

/* The iov entries hold stream bytes [first, last). */
static void check_iov_entries(const Stream *st, const MPID_Iov *iov, MPI_Count n, MPI_Count first, MPI_Count last)
{
    MPI_Count q = first;
    for (MPI_Count i = 0; i < n; i++) {
        CHECK(iov[i].len > 0 && q + iov[i].len <= last, "bad iov entry %lld", (long long) i);
        CHECK(memcmp(iov[i].base, st->ref + q, (size_t) iov[i].len) == 0,
              "iov entry %lld does not hold stream bytes [%lld, ...)", (long long) i, (long long) q);
        q += iov[i].len;
    }
    CHECK(q == last, "the iov holds %lld bytes, the range %lld", (long long) (q - first),
          (long long) (last - first));
}

static void check_iov_builder(Stream *st)
{
    MPID_Segment seg;
    MPID_Iov iov[4];
    MPI_Count max_iov = 1 + (st->knobs >> 5) % 4;
    seg_init(st, &seg, st->buf);
    for (MPI_Count p = 0; p < st->S;) {
        MPI_Count l = st->S, n = 0;
        CHECK(MPID_Segment_to_iov(&seg, p, &l, iov, max_iov, &n) == MPI_SUCCESS, "MPID_Segment_to_iov failed");
        CHECK(l > p && n > 0 && n <= max_iov, "MPID_Segment_to_iov made no progress at %lld (n=%lld, last=%lld)",
              (long long) p, (long long) n, (long long) l);
        CHECK(st->bound[l], "MPID_Segment_to_iov stopped inside an element at %lld", (long long) l);
        check_iov_entries(st, iov, n, p, l);
        p = l;
    }
    MPID_Segment_free(&seg);
    if (st->S == 0)
        return;
    /* from an element boundary reached by a seek */
    MPI_Count f = floor_bound(st, (MPI_Count) (next_random(st) % (uint64_t) st->S)), l = st->S, n = 0;
    seg_init(st, &seg, st->buf);
    CHECK(MPID_Segment_to_iov(&seg, f, &l, iov, max_iov, &n) == MPI_SUCCESS && l > f && n > 0,
          "MPID_Segment_to_iov from %lld failed or made no progress", (long long) f);
    check_iov_entries(st, iov, n, f, l);
    MPID_Segment_free(&seg);
}

/* ---- 7. unpacking ---- */

static void check_unpack(Stream *st)
{
    /* what unpack must leave: the covered bytes of buf, the pattern elsewhere */
    memset(st->expect, PATTERN, (size_t) st->span + 1);
    for (MPI_Count r = 0; r < st->nruns; r++)
        memcpy(st->expect + (st->runs[r].off - st->lo), at(st->buf, st->runs[r].off), (size_t) st->runs[r].len);

    MPID_Segment seg;
    seg_init(st, &seg, fresh_back(st));
    MPI_Count l1 = st->split, l2 = st->S;
    seg_call(st, &seg, false, 0, &l1, st->ref);
    seg_call(st, &seg, false, l1, &l2, st->ref + l1);
    MPID_Segment_free(&seg);
    CHECK(memcmp(st->back, st->expect, (size_t) st->span + 1) == 0,
          "unpack(pack(x)) differs from x on the covered bytes or wrote elsewhere");

    /* random chunks taken in reverse order: every call a seek */
    MPI_Count *cuts = malloc(sizeof *cuts * (size_t) (st->S + 2)), ncuts = 0;
    CHECK(cuts, "out of memory in the fuzzer");
    cuts[ncuts++] = 0;
    for (MPI_Count p = 0; p < st->S;) {
        MPI_Count next = floor_bound(st, min_count(st->S, p + 1 + (MPI_Count) (next_random(st) % 64)));
        while (next <= p)
            next = next_bound(st, next);
        cuts[ncuts++] = p = next;
    }
    seg_init(st, &seg, fresh_back(st));
    for (MPI_Count i = ncuts - 1; i > 0; i--) {
        MPI_Count l = cuts[i];
        seg_call(st, &seg, false, cuts[i - 1], &l, st->ref + cuts[i - 1]);
        CHECK(l == cuts[i], "unpack [%lld, %lld) stopped at %lld", (long long) cuts[i - 1], (long long) cuts[i],
              (long long) l);
    }
    MPID_Segment_free(&seg);
    free(cuts);
    CHECK(memcmp(st->back, st->expect, (size_t) st->span + 1) == 0, "unpack in reverse chunks differs from x");
}

/* ---- 8-11. the MPI functions ---- */

static void check_mpi_pack(Stream *st)
{
    MPI_Count S = st->S;
    int count = (int) st->count, position = 0;
    unsigned char *out;
    /* twice: as usual, then with every stream taken to be beyond the last-level cache, copied with
     * streaming stores (copy_kernels.h) */
    size_t stream_min = MPID_Stream_min;
    for (int streaming = 0; streaming < 2; streaming++) {
        MPID_Stream_min = streaming ? 0 : stream_min;
        out = guarded(S);
        position = 0;
        CHECK(MPI_Pack(st->buf, count, st->type, out, (int) S, &position, MPI_COMM_WORLD) == MPI_SUCCESS
              && position == S, "MPI_Pack failed or moved position to %d of %lld", position, (long long) S);
        CHECK(memcmp(out, st->ref, (size_t) S) == 0, "MPI_Pack differs from the segment pack (streaming %d)",
              streaming);
        check_guards(out, S, "MPI_Pack");
        position = 0;
        CHECK(MPI_Unpack(out, (int) S, &position, fresh_back(st), count, st->type, MPI_COMM_WORLD) == MPI_SUCCESS
              && position == S, "MPI_Unpack failed");
        CHECK(memcmp(st->back, st->expect, (size_t) st->span + 1) == 0,
              "MPI_Unpack(MPI_Pack(x)) differs from x (streaming %d)", streaming);
        unguard(out);
    }
    MPID_Stream_min = stream_min;

    if (S > 0) {
        out = guarded(S);
        position = 0;
        int rc = MPI_Pack(st->buf, count, st->type, out, (int) S - 1, &position, MPI_COMM_WORLD);
        CHECK(fuzz_err_class(rc) == MPI_ERR_TRUNCATE && position == 0,
              "MPI_Pack into a short buffer gave class %d", fuzz_err_class(rc));
        CHECK(untouched(out, S), "MPI_Pack into a short buffer wrote to it");
        check_guards(out, S, "MPI_Pack (short)");
        unguard(out);
    }
    MPI_Count psize = -1;
    CHECK(MPI_Pack_size_c(st->count, st->type, MPI_COMM_WORLD, &psize) == MPI_SUCCESS && psize >= S,
          "MPI_Pack_size_c says %lld for %lld bytes", (long long) psize, (long long) S);
}

static void check_element_counts(Stream *st)
{
    MPI_Count S = st->S, size = st->size, total = elements_before(st, S);
    MPID_Segment seg;
    seg_init(st, &seg, st->buf);
    for (int i = 0; i < 3; i++) {
        /* nb bytes: whole elements, or the data ends inside one (MPI_UNDEFINED) */
        MPI_Count nb = S ? (MPI_Count) (next_random(st) % (uint64_t) (S + 1)) : 0;
        MPI_Count n = MPID_Segment_count_elements(&seg, nb), want = elements_before(st, nb);
        CHECK(n == want, "MPID_Segment_count_elements(%lld) = %lld, expected %lld", (long long) nb, (long long) n,
              (long long) want);
        MPI_Status status;
        MPI_Count got = -1;
        CHECK(MPI_Status_set_elements_x(&status, MPI_BYTE, nb) == MPI_SUCCESS, "set_elements(MPI_BYTE) failed");
        CHECK(MPI_Get_elements_x(&status, st->type, &got) == MPI_SUCCESS, "MPI_Get_elements_x failed");
        want = size == 0 ? (nb == 0 ? 0 : MPI_UNDEFINED) : st->bound[nb] ? want : MPI_UNDEFINED;
        CHECK(got == want, "MPI_Get_elements_x of %lld bytes = %lld, expected %lld", (long long) nb,
              (long long) got, (long long) want);
        CHECK(MPI_Get_count_c(&status, st->type, &got) == MPI_SUCCESS, "MPI_Get_count_c failed");
        want = size == 0 ? (nb == 0 ? 0 : MPI_UNDEFINED) : nb % size == 0 ? nb / size : MPI_UNDEFINED;
        CHECK(got == want, "MPI_Get_count_c of %lld bytes = %lld, expected %lld", (long long) nb, (long long) got,
              (long long) want);

        /* and back: k elements are the bytes up to the k-th boundary */
        MPI_Count k = total ? (MPI_Count) (next_random(st) % (uint64_t) (total + 1)) : 0, p = 0;
        CHECK(MPI_Status_set_elements_x(&status, st->type, k) == MPI_SUCCESS, "MPI_Status_set_elements_x(%lld) "
              "failed", (long long) k);
        CHECK(MPI_Get_elements_x(&status, MPI_BYTE, &got) == MPI_SUCCESS, "MPI_Get_elements_x(MPI_BYTE) failed");
        for (MPI_Count m = k; m > 0;)
            m -= st->bound[++p];
        CHECK(got == p, "MPI_Status_set_elements_x(%lld elements) set %lld bytes, expected %lld", (long long) k,
              (long long) got, (long long) p);
        CHECK(MPI_Get_elements_x(&status, st->type, &got) == MPI_SUCCESS && got == k,
              "set_elements(%lld) then get_elements gave %lld", (long long) k, (long long) got);
    }
    MPID_Segment_free(&seg);
}

/* The pieces of one instance, relative to address 0. */
static void check_type_iov(Stream *st)
{
    MPI_Count niov = -1, iov_bytes = -1, got = -1, size = st->size;
    CHECK(MPIX_Type_iov_len(st->type, INT64_MAX, &niov, &iov_bytes) == MPI_SUCCESS, "MPIX_Type_iov_len failed");
    CHECK(iov_bytes == size, "MPIX_Type_iov_len covers %lld bytes of %lld", (long long) iov_bytes,
          (long long) size);
    if (niov > MAX_IOV)
        return;
    MPIX_Iov *iov = malloc(sizeof *iov * (size_t) (niov + 1));
    CHECK(iov && MPIX_Type_iov(st->type, 0, iov, niov, &got) == MPI_SUCCESS && got == niov,
          "MPIX_Type_iov returned %lld pieces of %lld", (long long) got, (long long) niov);
    MPI_Count q = 0;
    for (MPI_Count i = 0; i < niov; i++) {
        MPI_Aint off = (MPI_Aint) (intptr_t) iov[i].iov_base, len = (MPI_Aint) iov[i].iov_len;
        CHECK(len > 0, "empty iov piece");
        CHECK(i == 0 || (MPI_Aint) (intptr_t) iov[i - 1].iov_base + (MPI_Aint) iov[i - 1].iov_len != off,
              "iov pieces %lld and %lld touch but were not merged", (long long) i - 1, (long long) i);
        CHECK(off >= st->lo && off + len <= st->hi, "iov piece outside the true bounds");
        CHECK(memcmp(at(st->buf, off), st->ref + q, (size_t) len) == 0, "iov piece %lld differs from the pack",
              (long long) i);
        q += len;
    }
    CHECK(q == size, "the iov pieces hold %lld bytes of %lld", (long long) q, (long long) size);

    /* a window of the list */
    MPI_Count off = (MPI_Count) (next_random(st) % (uint64_t) (niov + 1)), max = 1 + (st->knobs & 3);
    MPIX_Iov win[4];
    CHECK(MPIX_Type_iov(st->type, off, win, max, &got) == MPI_SUCCESS, "MPIX_Type_iov(offset) failed");
    CHECK(got == min_count(niov - off, max), "MPIX_Type_iov(offset %lld, max %lld) gave %lld pieces",
          (long long) off, (long long) max, (long long) got);
    for (MPI_Count i = 0; i < got; i++)
        CHECK(win[i].iov_base == iov[off + i].iov_base && win[i].iov_len == iov[off + i].iov_len,
              "MPIX_Type_iov(offset %lld) piece %lld differs", (long long) off, (long long) i);

    /* a byte limit: the whole pieces that fit */
    MPI_Count limit = size ? (MPI_Count) (next_random(st) % (uint64_t) (size + 1)) : 0, n = 0, bytes = 0;
    while (n < niov && bytes + (MPI_Count) iov[n].iov_len <= limit)
        bytes += (MPI_Count) iov[n++].iov_len;
    CHECK(MPIX_Type_iov_len(st->type, limit, &niov, &iov_bytes) == MPI_SUCCESS && niov == n && iov_bytes == bytes,
          "MPIX_Type_iov_len(%lld) = (%lld, %lld), expected (%lld, %lld)", (long long) limit, (long long) niov,
          (long long) iov_bytes, (long long) n, (long long) bytes);
    free(iov);
}

static void check_external32(Stream *st)
{
    int count = (int) st->count;
    MPI_Aint esize = -1, position = 0;
    CHECK(MPI_Pack_external_size("external32", count, st->type, &esize) == MPI_SUCCESS && esize == st->ext32,
          "MPI_Pack_external_size = %ld, the runs say %lld", (long) esize, (long long) st->ext32);
    unsigned char *ext = guarded(esize);
    int rc = MPI_Pack_external("external32", st->buf, count, st->type, ext, esize, &position);
    check_guards(ext, esize, "MPI_Pack_external");
    if (rc == MPI_SUCCESS) {
        CHECK(position == esize, "MPI_Pack_external stopped at %ld of %ld", (long) position, (long) esize);
        position = 0;
        CHECK(MPI_Unpack_external("external32", ext, esize, &position, fresh_back(st), count, st->type)
              == MPI_SUCCESS && position == esize, "MPI_Unpack_external failed");
        if (st->lossless)
            CHECK(memcmp(st->back, st->expect, (size_t) st->span + 1) == 0,
                  "external32 round trip changed the data");
    } else {
        /* a long or wchar_t whose value does not fit its external32 bytes */
        CHECK(st->has_narrowed && fuzz_err_class(rc) == MPI_ERR_CONVERSION,
              "MPI_Pack_external failed with class %d", fuzz_err_class(rc));
    }
    position = 0;
    rc = MPI_Pack_external("external64", st->buf, count, st->type, ext, esize, &position);
    CHECK(fuzz_err_class(rc) == MPI_ERR_UNSUPPORTED_DATAREP, "an unknown datarep gave class %d",
          fuzz_err_class(rc));
    unguard(ext);
}

/* ---- types whose data is too far apart to allocate ---- */

/* MPIX_Type_iov needs no buffer: its pieces of one instance are the model's elements, merged where
 * they touch. Runs for every type small enough, however far apart its data lies. */
static void check_addresses(const Prog *P, MPI_Datatype type, MPI_Count size)
{
    Elems model = { malloc(sizeof(int64_t) * (size_t) (size + 1)), malloc(sizeof(int32_t) * (size_t) (size + 1)),
                    0, size + 1 };
    CHECK(model.off && model.size, "out of memory in the fuzzer");
    MPI_Count niov = -1, bytes = -1, got = -1, n = 0;
    if (!model_expand(P, type, 0, &model))
        goto done;
    for (int64_t i = 0; i < model.n; i++)    /* merge in place */
        if (n > 0 && model.off[n - 1] + model.size[n - 1] == model.off[i])
            model.size[n - 1] += model.size[i];
        else {
            model.off[n] = model.off[i];
            model.size[n++] = model.size[i];
        }
    CHECK(MPIX_Type_iov_len(type, INT64_MAX, &niov, &bytes) == MPI_SUCCESS && niov == n && bytes == size,
          "MPIX_Type_iov_len = (%lld pieces, %lld bytes), the type map has (%lld, %lld)", (long long) niov,
          (long long) bytes, (long long) n, (long long) size);
    if (n > MAX_IOV)
        goto done;
    MPIX_Iov *iov = malloc(sizeof *iov * (size_t) (n + 1));
    CHECK(iov && MPIX_Type_iov(type, 0, iov, n, &got) == MPI_SUCCESS && got == n, "MPIX_Type_iov failed");
    for (MPI_Count i = 0; i < n; i++)
        CHECK((int64_t) (intptr_t) iov[i].iov_base == model.off[i] && (int64_t) iov[i].iov_len == model.size[i],
              "MPIX_Type_iov piece %lld is (%lld, %lld), the type map has (%lld, %lld)", (long long) i,
              (long long) (intptr_t) iov[i].iov_base, (long long) iov[i].iov_len, (long long) model.off[i],
              (long long) model.size[i]);
    free(iov);
  done:
    free(model.off);
    free(model.size);
}

/* ---- the whole sequence ---- */

/* Where count instances put their data; false when it does not fit the limits. */
static bool layout(Stream *st)
{
    MPI_Count a, b, hi;
    if (__builtin_mul_overflow(st->count, st->size, &st->S) || st->S > MAX_STREAM
        || __builtin_mul_overflow(st->count - 1, st->extent, &a) || __builtin_add_overflow(st->tlb, a, &b)
        || __builtin_add_overflow(st->tub, a, &hi))
        return false;
    st->lo = min_count(st->tlb, b);
    st->hi = hi > st->tub ? hi : st->tub;
    if (st->size == 0)
        st->lo = st->hi = 0;
    return !__builtin_sub_overflow(st->hi, st->lo, &st->span) && st->span <= MAX_SPAN;
}

void check_stream(const Prog *P, MPI_Datatype type, MPI_Count count, Input *in)
{
    Stream st = { .P = P, .type = type, .count = count, .lossless = true };
    MPI_Count lb, textent;
    MPI_Type_size_x(type, &st.size);
    MPI_Type_get_extent_x(type, &lb, &st.extent);
    MPI_Type_get_true_extent_x(type, &st.tlb, &textent);
    st.tub = st.tlb + textent;
    st.seed = fuzz_u32(in);
    st.split = fuzz_u32(in);
    st.rfirst = (int32_t) fuzz_u32(in);
    st.rlast = (int32_t) fuzz_u32(in);
    st.knobs = fuzz_u8(in);
    TRACE("size %lld, lb %lld, extent %lld, true lb %lld, true extent %lld\n", (long long) st.size,
          (long long) lb, (long long) st.extent, (long long) st.tlb, (long long) textent);
    check_addresses(P, type, st.size);
    if (!layout(&st))
        return;
    st.split = st.S ? st.split % (st.S + 1) : 0;

    unsigned char *mem = malloc((size_t) st.span + 1);
    st.expect = malloc((size_t) st.span + 1);
    st.back = malloc((size_t) st.span + 1);
    st.bound = calloc((size_t) st.S + 1, 1);
    CHECK(mem && st.expect && st.back && st.bound, "out of memory in the fuzzer");
    for (MPI_Aint i = 0; i <= st.span; i++)
        mem[i] = (unsigned char) next_random(&st);
    st.buf = (char *) ((uintptr_t) mem - (uintptr_t) st.lo);     /* see at() */

    check_runs(&st);
    check_model(&st);
    check_one_shot(&st);
    check_pieces(&st);
    check_seeks(&st);
    check_chunks(&st);
    check_iov_builder(&st);
    check_unpack(&st);
    if (st.S <= INT_MAX)
        check_mpi_pack(&st);
    check_element_counts(&st);
    check_type_iov(&st);
    check_external32(&st);

    unguard(st.ref);
    free(st.runs);
    free(st.bound);
    free(st.expect);
    free(st.back);
    free(mem);
}

void check_big(MPI_Datatype type, MPI_Count count)
{
    MPI_Count size, S, ps = -1, got;
    MPI_Type_size_x(type, &size);
    int rc = MPI_Pack_size_c(count, type, MPI_COMM_WORLD, &ps);
    bool overflows = __builtin_mul_overflow(count, size, &S);
    if (overflows)
        CHECK(rc != MPI_SUCCESS, "MPI_Pack_size_c of an overflowing stream succeeded (%lld)", (long long) ps);
    else
        CHECK(rc == MPI_SUCCESS && ps >= S, "MPI_Pack_size_c = %lld for %lld bytes", (long long) ps,
              (long long) S);

    unsigned char in[16] = { 0 }, out[16];
    if (overflows || S > (MPI_Count) sizeof out) {
        MPI_Count position = 0;
        memset(out, PATTERN, sizeof out);
        rc = MPI_Pack_c(in, count, type, out, sizeof out, &position, MPI_COMM_WORLD);
        CHECK(rc != MPI_SUCCESS && position == 0 && untouched(out, sizeof out),
              "MPI_Pack_c of a huge stream into 16 bytes did not fail cleanly");
    }
    /* element counts must not walk the whole type */
    MPI_Status status;
    MPI_Status_set_elements_x(&status, MPI_BYTE, 1000);
    MPI_Get_elements_x(&status, type, &got);
    if (MPI_Status_set_elements_x(&status, type, 3) == MPI_SUCCESS)
        MPI_Get_elements_x(&status, type, &got);
}
