/*
 * Thousands of random nested datatypes (randtype.h) checked against the reference model
 * (reftype.h), which expands each type into its explicit type map by decoding it:
 *   - MPI_Type_size and the true bounds;
 *   - MPI_Pack of count 0..3 instances, at a nonzero starting position, byte for byte against the
 *     model's stream; nothing written outside it; the typed buffer left as it was;
 *   - MPI_Unpack of random bytes against the model's unpack over a randomly filled buffer: every
 *     byte of the allocation compared, so gap and guard bytes must keep their values (bytes that
 *     overlapping entries write twice depend on the order and are skipped);
 *   - MPI_Get_elements(_x, _c) and MPI_Get_count on random byte counts against the model's
 *     counts of basic elements (MPI_UNDEFINED if the bytes end inside one); MPI_Pack_size at
 *     least the packed size;
 *   - MPIX_Type_iov_len and MPIX_Type_iov against the model's contiguous pieces (Loom only).
 * Then the same checks on strided types in the shapes the copy kernels single out.
 * 2000 random types by default (typecheck.h: REFTYPE_ITERS, REFTYPE_SEED, REFTYPE_VERBOSE).
 */
#include <stdlib.h>
#include "mtest.h"
#include "randtype.h"
#include "reftype.h"
#include "typecheck.h"

/* Debian's MPICH 4.0.2, used to validate the model, has bugs the checks would trip over: it
 * divides by zero unpacking an empty type; when a message ends inside a basic element it answers
 * MPI_UNDEFINED for some types and a count for others; it fails an assertion or divides by zero
 * counting elements of derived types over pair types, markers or darrays, and miscounts structs
 * with empty entries; its true bounds include empty entries. (It also loses the padding bytes of
 * long double and misplaces copies of types with negative extents: see randtype.c.) */
#if defined(MPICH_VERSION)
#define MPICH_QUIRKS 1
#else
#define MPICH_QUIRKS 0
#endif

static int mpich_elements_bug(const char *description)
{
    if (strstr(description, "struct") || strstr(description, "darray"))
        return 1;
    static const char *names[] = { "MPI_FLOAT_INT", "MPI_DOUBLE_INT", "MPI_LONG_INT", "MPI_2INT",
                                   "MPI_SHORT_INT", "MPI_LONG_DOUBLE_INT", "MPI_LB", "MPI_UB" };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        for (const char *p = description; (p = strstr(p, names[k])) != NULL; p++) {
            char next = p[strlen(names[k])];
            if (!(next == '_' || (next >= 'A' && next <= 'Z') || (next >= '0' && next <= '9')))
                return 1;
        }
    return 0;
}

static void check_bounds(MPI_Datatype t, const ref_map *m)
{
    MPI_Count size = -1, tlb = -1, text = -1;
    if (!tc_mpi_ok(MPI_Type_size_c(t, &size), "MPI_Type_size_c")
        || !tc_mpi_ok(MPI_Type_get_true_extent_c(t, &tlb, &text), "MPI_Type_get_true_extent_c"))
        return;
    if (size != m->size)
        TFAIL("MPI_Type_size_c = %lld, model %lld", (long long) size, (long long) m->size);
    /* the empty type's true bounds are the bounds_* tests' business */
    if (m->size > 0 && !MPICH_QUIRKS && (tlb != m->true_lb || text != m->true_ub - m->true_lb))
        TFAIL("true lb/extent = %lld/%lld, model %ld/%ld", (long long) tlb, (long long) text, (long) m->true_lb,
              (long) (m->true_ub - m->true_lb));
}

/* MPI_Pack of count instances against the model. */
static void check_pack(MPI_Datatype t, int count, const ref_map *m, rt_rng *r)
{
    ref_buf in, in_copy;
    int p0 = (int) rt_range(r, 0, 7), outsize = p0 + (int) m->size;
    unsigned char *want = malloc((size_t) m->size + 1), *out = malloc((size_t) outsize + REF_GUARD);
    unsigned char *pristine = malloc((size_t) outsize + REF_GUARD);
    if (!want || !out || !pristine || ref_buf_alloc(&in, m, rt_next(r))) {
        TFAIL("out of memory");
        exit(1);
    }
    if (ref_buf_clone(&in_copy, &in))
        exit(1);
    ref_fill(out, (size_t) outsize + REF_GUARD, rt_next(r));
    memcpy(pristine, out, (size_t) outsize + REF_GUARD);
    ref_pack(m, in.base, want);

    int pos = p0;
    char what[64];
    snprintf(what, sizeof what, "MPI_Pack(count=%d)", count);
    if (tc_mpi_ok(MPI_Pack(in.base, count, t, out, outsize, &pos, MPI_COMM_SELF), what)) {
        if (pos != outsize)
            TFAIL("%s: position %d, expected %d", what, pos, outsize);
        if (ref_cmp_stream(m, 0, m->size, want, out + p0, what))
            TFAIL("%s: packed bytes differ from the model (count %d)", what, count);
        if (memcmp(out, pristine, (size_t) p0)
            || memcmp(out + outsize, pristine + outsize, REF_GUARD))
            TFAIL("%s wrote outside [position, position + size)", what);
        if (ref_cmp_buf(m, &in_copy, &in, NULL, what))
            TFAIL("%s changed its input buffer", what);
    }
    free(want);
    free(out);
    free(pristine);
    ref_buf_free(&in);
    ref_buf_free(&in_copy);
}

/* MPI_Unpack of count instances against the model. */
static void check_unpack(MPI_Datatype t, int count, const ref_map *m, rt_rng *r)
{
    ref_buf got, want;
    int p0 = (int) rt_range(r, 0, 7), insize = p0 + (int) m->size;
    unsigned char *in = malloc((size_t) insize + 1);
    if (!in || ref_buf_alloc(&got, m, rt_next(r)) || ref_buf_clone(&want, &got)) {
        TFAIL("out of memory");
        exit(1);
    }
    unsigned char *writes = ref_buf_writes(m, &want);
    if (!writes)
        exit(1);
    ref_fill(in, (size_t) insize, rt_next(r));
    ref_unpack(m, in + p0, want.base);

    int pos = p0;
    char what[64];
    snprintf(what, sizeof what, "MPI_Unpack(count=%d)", count);
    if (tc_mpi_ok(MPI_Unpack(in, insize, &pos, got.base, count, t, MPI_COMM_SELF), what)) {
        if (pos != insize)
            TFAIL("%s: position %d, expected %d", what, pos, insize);
        if (ref_cmp_buf(m, &want, &got, writes, what))
            TFAIL("%s: the buffer differs from the model's (count %d)", what, count);
    }
    free(writes);
    free(in);
    ref_buf_free(&got);
    ref_buf_free(&want);
}

/* MPI_Get_elements and MPI_Get_count for a message of nbytes (m: enough instances to hold it).
 * A message that ends inside a basic element cannot come from a matching send: the project
 * answers MPI_UNDEFINED for it, as MPICH does. */
static void check_elements(MPI_Datatype t, const ref_map *m, MPI_Count type_size, MPI_Count nbytes)
{
    MPI_Status st;
    if (MPICH_QUIRKS)
        nbytes = ref_floor_boundary(m, nbytes);
    MPI_Count want = ref_floor_boundary(m, nbytes) == nbytes ? ref_elements(m, nbytes) : MPI_UNDEFINED;
    MPI_Count got_x = -1, got_c = -1, count = -1;
    int got = -1, count_i = -1;
    if (!tc_mpi_ok(MPI_Status_set_elements_x(&st, MPI_BYTE, nbytes), "MPI_Status_set_elements_x"))
        return;
    if (tc_mpi_ok(MPI_Get_elements_x(&st, t, &got_x), "MPI_Get_elements_x") && got_x != want)
        TFAIL("MPI_Get_elements_x after %lld bytes = %lld, model %lld", (long long) nbytes,
              (long long) got_x, (long long) want);
    if (tc_mpi_ok(MPI_Get_elements_c(&st, t, &got_c), "MPI_Get_elements_c") && got_c != want)
        TFAIL("MPI_Get_elements_c after %lld bytes = %lld, model %lld", (long long) nbytes,
              (long long) got_c, (long long) want);
    if (tc_mpi_ok(MPI_Get_elements(&st, t, &got), "MPI_Get_elements") && got != want)
        TFAIL("MPI_Get_elements after %lld bytes = %d, model %lld", (long long) nbytes, got,
              (long long) want);
    if (type_size == 0)
        return;
    MPI_Count want_count = nbytes % type_size ? MPI_UNDEFINED : nbytes / type_size;
    if (tc_mpi_ok(MPI_Get_count_c(&st, t, &count), "MPI_Get_count_c") && count != want_count)
        TFAIL("MPI_Get_count_c after %lld bytes = %lld, expected %lld", (long long) nbytes,
              (long long) count, (long long) want_count);
    if (tc_mpi_ok(MPI_Get_count(&st, t, &count_i), "MPI_Get_count") && count_i != want_count)
        TFAIL("MPI_Get_count after %lld bytes = %d, expected %lld", (long long) nbytes, count_i,
              (long long) want_count);
}

#if defined(LOOM_MPI)
/* MPIX_Type_iov_len and MPIX_Type_iov (the MPICH extension, whose merging of touching pieces MPICH
 * 4.0.2 does not promise) against the model's pieces: the entries of one instance in map order,
 * each merged into the one before where it starts at that one's end. */
static void check_iov(MPI_Datatype t, const ref_map *m, rt_rng *r)
{
    MPIX_Iov *want = malloc((m->n + 1) * sizeof *want), *got = malloc((m->n + 1) * sizeof *got);
    if (!want || !got) {
        TFAIL("out of memory");
        exit(1);
    }
    MPI_Count n = 0, total = 0, len = -1, bytes = -1;
    for (size_t k = 0; k < m->n; k++) {
        /* integer arithmetic: the pieces are offsets from address 0 */
        uintptr_t base = (uintptr_t) m->e[k].disp;
        if (n > 0 && (uintptr_t) want[n - 1].iov_base + want[n - 1].iov_len == base)
            want[n - 1].iov_len += m->e[k].size;
        else
            want[n++] = (MPIX_Iov) { (void *) base, m->e[k].size };
        total += m->e[k].size;
    }
    if (tc_mpi_ok(MPIX_Type_iov_len(t, total, &len, &bytes), "MPIX_Type_iov_len") && (len != n || bytes != total))
        TFAIL("MPIX_Type_iov_len(all) = %lld pieces, %lld bytes; model %lld, %lld", (long long) len,
              (long long) bytes, (long long) n, (long long) total);
    /* a budget that ends inside a piece counts the pieces before it */
    MPI_Count budget = rt_range(r, 0, total), fit = 0, fit_bytes = 0;
    while (fit < n && fit_bytes + (MPI_Count) want[fit].iov_len <= budget)
        fit_bytes += (MPI_Count) want[fit++].iov_len;
    if (tc_mpi_ok(MPIX_Type_iov_len(t, budget, &len, &bytes), "MPIX_Type_iov_len") && (len != fit || bytes != fit_bytes))
        TFAIL("MPIX_Type_iov_len(%lld bytes) = %lld pieces, %lld bytes; model %lld, %lld", (long long) budget,
              (long long) len, (long long) bytes, (long long) fit, (long long) fit_bytes);
    MPI_Count off = rt_range(r, 0, n), max = rt_range(r, 0, n + 1), got_n = -1;
    if (tc_mpi_ok(MPIX_Type_iov(t, off, got, max, &got_n), "MPIX_Type_iov")) {
        MPI_Count expect = max < n - off ? max : n - off;
        if (got_n != expect)
            TFAIL("MPIX_Type_iov(offset %lld, max %lld) gave %lld pieces, model %lld", (long long) off,
                  (long long) max, (long long) got_n, (long long) expect);
        for (MPI_Count i = 0; i < got_n && i < expect; i++)
            if (got[i].iov_base != want[off + i].iov_base || got[i].iov_len != want[off + i].iov_len) {
                TFAIL("MPIX_Type_iov piece %lld is (%ld, %zu), model (%ld, %zu)", (long long) (off + i),
                      (long) (uintptr_t) got[i].iov_base, got[i].iov_len, (long) (uintptr_t) want[off + i].iov_base,
                      want[off + i].iov_len);
                break;
            }
    }
    free(want);
    free(got);
}
#endif

/* All the checks on t (freed at the end), random choices from seed. */
static void check_type(MPI_Datatype t, unsigned long long seed)
{
    rt_rng r;
    ref_map m1, m[4];
    rt_seed(&r, seed);
    tc_begin(t, seed);
    if (t == MPI_DATATYPE_NULL) {
        TFAIL("the generator could not build the type");
        return;
    }
    if (!tc_mpi_ok(MPI_Type_commit(&t), "MPI_Type_commit"))
        goto free_type;
    if (ref_map_build(t, 1, &m1)) {
        TFAIL("the model could not expand the type");
        goto free_type;
    }
    check_bounds(t, &m1);
#if defined(LOOM_MPI)
    check_iov(t, &m1, &r);
#endif

    for (int count = 0; count <= 3; count++) {
        if (ref_map_build(t, count, &m[count])) {
            TFAIL("the model could not expand %d instances", count);
            while (count--)
                ref_map_free(&m[count]);
            goto free_map;
        }
        check_pack(t, count, &m[count], &r);
        if (!(MPICH_QUIRKS && m1.size == 0))
            check_unpack(t, count, &m[count], &r);
        MPI_Count ps = -1;
        if (tc_mpi_ok(MPI_Pack_size_c(count, t, MPI_COMM_SELF, &ps), "MPI_Pack_size_c")
            && ps < m[count].size)
            TFAIL("MPI_Pack_size_c(count=%d) = %lld, below the packed size %lld", count, (long long) ps,
                  (long long) m[count].size);
    }

    /* whole messages, empty ones, and random prefixes (most of them partial) */
    MPI_Count max = m[3].size;
    if (MPICH_QUIRKS && mpich_elements_bug(ref_describe(t, tc.desc, sizeof tc.desc)))
        goto skip_elements;
    check_elements(t, &m[3], m1.size, 0);
    check_elements(t, &m[3], m1.size, max);
    check_elements(t, &m[3], m1.size, m1.size);
    for (int k = 0; k < 4 && max > 0; k++) {
        MPI_Count n = rt_range(&r, 0, max);
        check_elements(t, &m[3], m1.size, k % 2 ? n : ref_floor_boundary(&m[3], n));
    }
  skip_elements:

    for (int count = 0; count <= 3; count++)
        ref_map_free(&m[count]);
  free_map:
    ref_map_free(&m1);
  free_type:
    MPI_Type_free(&t);
}

/* Strided blocks in the shapes the copy kernels treat apart, which random strides seldom hit:
 * fixed block sizes, blocks cache lines and pages apart, and strides of a multiple of 512 bytes
 * (whose blocks share a few L1 sets; unpack throttles its stores there on AMD processors and
 * under random_pack_amd_rules, and moves 16 bytes at a time elsewhere), forward and backward;
 * blocks longer than the inline copies too. */
static void check_kernel_shapes(void)
{
    static const int sizes[] = { 1, 8, 12, 16, 24, 32, 40, 64, 100, 128, 129, 256, 300, 1024, 2056, 4100 };
    static const MPI_Aint strides[] = { 320, -320, 512, -512, 1024, 1040, 1536, 2048, 4096, -4096, 4128, -4128, 12288, 32768 };
    static const int counts[] = { 1, 6, 37 };
    unsigned long long seed = 1u << 20;
    for (size_t s = 0; s < sizeof strides / sizeof strides[0]; s++)
        for (size_t b = 0; b < sizeof sizes / sizeof sizes[0]; b++)
            for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
                MPI_Datatype t = MPI_DATATYPE_NULL;
                if (sizes[b] % 8 == 0)   /* blocks of doubles, as applications send them */
                    tc_mpi_ok(MPI_Type_create_hvector(counts[c], sizes[b] / 8, strides[s], MPI_DOUBLE, &t),
                           "MPI_Type_create_hvector");
                else
                    tc_mpi_ok(MPI_Type_create_hvector(counts[c], sizes[b], strides[s], MPI_BYTE, &t),
                           "MPI_Type_create_hvector");
                check_type(t, seed++);
            }
    /* Rows of 64 blocks, the rows 64 strides apart (a multiple of 4 KiB, so the lines of all rows
     * share the same cache sets): the x face of a 3-D array, whose unpack throttles by the lines
     * of all its rows. */
    for (size_t s = 0; s < sizeof strides / sizeof strides[0]; s++)
        for (size_t b = 0; b < sizeof sizes / sizeof sizes[0]; b++) {
            MPI_Aint stride = strides[s], row_step = 64 * (stride < 0 ? -stride : stride);
            MPI_Datatype row = MPI_DATATYPE_NULL, t = MPI_DATATYPE_NULL;
            if (row_step > 64 * 4096)
                continue;   /* the same shapes as at 4 KiB, in much more memory */
            tc_mpi_ok(MPI_Type_create_hvector(64, sizes[b], stride, MPI_BYTE, &row), "MPI_Type_create_hvector");
            tc_mpi_ok(MPI_Type_create_hvector(4, 1, row_step, row, &t), "MPI_Type_create_hvector");
            MPI_Type_free(&row);
            check_type(t, seed++);
        }
    /* Columns of a 2-D array of doubles: rows of 64 8-byte blocks a page apart, 70 rows 8 bytes
     * apart, 4480 blocks in all (too many to be taken as cached): the row loop that prefetches
     * blocks whole pages ahead, and the throttled unpack */
    for (int dir = 1; dir >= -1; dir -= 2) {
        MPI_Datatype row = MPI_DATATYPE_NULL, t = MPI_DATATYPE_NULL;
        tc_mpi_ok(MPI_Type_create_hvector(64, 1, dir * 4096, MPI_DOUBLE, &row), "MPI_Type_create_hvector");
        tc_mpi_ok(MPI_Type_create_hvector(70, 1, 8, row, &t), "MPI_Type_create_hvector");
        MPI_Type_free(&row);
        check_type(t, seed++);
    }
    /* An x face on more pages than the TLB maps (40 rows of 64 8-byte blocks a page apart, the
     * rows 64 pages apart: 2560 pages), which unpacks without the throttle */
    for (int dir = 1; dir >= -1; dir -= 2) {
        MPI_Datatype row = MPI_DATATYPE_NULL, t = MPI_DATATYPE_NULL;
        tc_mpi_ok(MPI_Type_create_hvector(64, 1, dir * 4096, MPI_DOUBLE, &row), "MPI_Type_create_hvector");
        tc_mpi_ok(MPI_Type_create_hvector(40, 1, dir * 64 * 4096, row, &t), "MPI_Type_create_hvector");
        MPI_Type_free(&row);
        check_type(t, seed++);
    }
    /* Long blocks lines apart, some straddling pages: the kernels that prefetch each block while
     * they copy the one before (pack and unpack), and the grouped copy of the others */
    static const int long_sizes[] = { 2048, 2049, 3000, 6144 };
    static const MPI_Aint long_strides[] = { 4128, -4128, 9000, 24576 };
    for (size_t s = 0; s < sizeof long_strides / sizeof long_strides[0]; s++)
        for (size_t b = 0; b < sizeof long_sizes / sizeof long_sizes[0]; b++)
            for (int count = 1; count <= 5; count += 2) {
                MPI_Datatype t = MPI_DATATYPE_NULL;
                tc_mpi_ok(MPI_Type_create_hvector(count, long_sizes[b], long_strides[s], MPI_BYTE, &t),
                       "MPI_Type_create_hvector");
                check_type(t, seed++);
            }
    /* Many small blocks pages apart: whose lines fit in half the L2 (and, for unpack, not in the
     * L1) take the kernels without the prefetch ahead; the rest, the ones with it */
    static const int many_counts[] = { 300, 1000, 5000 };
    for (size_t c = 0; c < sizeof many_counts / sizeof many_counts[0]; c++)
        for (int bs = 8; bs <= 40; bs += 32) {
            MPI_Datatype t = MPI_DATATYPE_NULL;
            tc_mpi_ok(MPI_Type_create_hvector(many_counts[c], bs / 8, 4128, MPI_DOUBLE, &t), "MPI_Type_create_hvector");
            check_type(t, seed++);
        }
    /* Many 8-byte blocks lines apart, not pages: whose lines fit in half the L2 unpack one move
     * per block; more of them (40000 lines are more than half of any L2 yet) take the loop that
     * prefetches for writing and joins the loads */
    static const int lines_counts[] = { 1000, 40000 };
    for (size_t c = 0; c < sizeof lines_counts / sizeof lines_counts[0]; c++)
        for (int dir = 1; dir >= -1; dir -= 2) {
            MPI_Datatype t = MPI_DATATYPE_NULL;
            tc_mpi_ok(MPI_Type_create_hvector(lines_counts[c], 1, dir * 1040, MPI_DOUBLE, &t), "MPI_Type_create_hvector");
            check_type(t, seed++);
        }
    /* Equal blocks at shuffled offsets (hindexed_block), in the sizes the block-indexed kernels
     * copy apart and in counts around their groups of four */
    static const int blk_sizes[] = { 1, 2, 4, 8, 12, 16, 24, 32, 40 };
    static const int blk_counts[] = { 1, 3, 4, 5, 8, 11, 243 };
    for (size_t b = 0; b < sizeof blk_sizes / sizeof blk_sizes[0]; b++)
        for (size_t c = 0; c < sizeof blk_counts / sizeof blk_counts[0]; c++) {
            int n = blk_counts[c], bs = blk_sizes[b];
            MPI_Aint displs[243];
            rt_rng r;
            rt_seed(&r, seed);
            for (int i = 0; i < n; i++)
                displs[i] = (MPI_Aint) i * (bs + 8);
            for (int i = n - 1; i > 0; i--) {   /* shuffle: blocks out of memory order */
                int j = (int) rt_range(&r, 0, i);
                MPI_Aint d = displs[i];
                displs[i] = displs[j];
                displs[j] = d;
            }
            MPI_Datatype t = MPI_DATATYPE_NULL;
            tc_mpi_ok(MPI_Type_create_hindexed_block(n, bs, displs, MPI_BYTE, &t), "MPI_Type_create_hindexed_block");
            check_type(t, seed++);
        }
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    tc_each_random_type(2000, check_type);
    check_kernel_shapes();
    tc_end();
    return MTest_Finalize();
}
