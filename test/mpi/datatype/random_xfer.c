/*
 * Random nested datatypes (randtype.h: every constructor, markers, pair types, negative strides,
 * overlapping copies) sent around a ring of ranks and received with a struct of the same
 * signature but another layout: one block per basic element of the send map, the elements packed
 * back to back in REVERSE memory order. The receiver checks every byte of its buffer against the
 * reference model (reftype.h): the sender's buffer rebuilt from its seed, packed by the send map,
 * unpacked by the struct's map. Every 8th type is sent often enough to make the message about
 * 200 KB, so the pipelined protocol sees random layouts too.
 *
 * REFTYPE_ITERS (default 200) sets the number of types, REFTYPE_SEED (default 1) the first seed.
 */
#include <stdlib.h>
#include "mtest.h"
#include "randtype.h"
#include "reftype.h"

static const rt_limits limits = { 5, 2048, 16384 };

/* The struct that receives map's elements in reverse memory order, packed: element j of the
 * signature at (total - end of j in the stream). */
static MPI_Datatype reverse_struct(const ref_map *map)
{
    size_t n = map->n;
    int *bl = malloc((n + 1) * sizeof *bl);
    MPI_Aint *disp = malloc((n + 1) * sizeof *disp);
    MPI_Datatype *types = malloc((n + 1) * sizeof *types), t = MPI_DATATYPE_NULL;
    if (!bl || !disp || !types) {
        MTEST_FAIL("out of memory");
        exit(1);
    }
    MPI_Aint pos = 0;
    for (size_t j = 0; j < n; j++) {
        pos += map->e[j].size;
        bl[j] = 1;
        disp[j] = (MPI_Aint) map->size - pos;
        types[j] = map->e[j].type;
    }
    if (n > 0)
        CHECK_MPI(MPI_Type_create_struct((int) n, bl, disp, types, &t));
    else    /* an empty struct is a predefined type in MPICH: use an empty contiguous instead */
        CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    free(bl);
    free(disp);
    free(types);
    return t;
}

/* MPICH 4.0.2 answers some simple constructors with a predefined type, which cannot be freed. */
static void free_derived(MPI_Datatype *t)
{
    MPI_Count ni, na, nc, nd;
    int comb;
    MPI_Type_get_envelope_c(*t, &ni, &na, &nc, &nd, &comb);
    if (comb != MPI_COMBINER_NAMED)
        CHECK_MPI(MPI_Type_free(t));
}

static uint64_t seed_of(int rank, unsigned long long type_seed)
{
    return type_seed * 7919u + (uint64_t) rank;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int prev = (rank + size - 1) % size, next = (rank + 1) % size;
    long long iters = rt_env("REFTYPE_ITERS", 200);
    unsigned long long seed0 = (unsigned long long) rt_env("REFTYPE_SEED", 1);
    char desc[1024];

    for (long long i = 0; i < iters; i++) {
        unsigned long long seed = seed0 + (unsigned long long) i;
        rt_rng r;
        rt_seed(&r, seed);
        MPI_Datatype send = rt_random_type(&r, &limits);
        CHECK_MPI(MPI_Type_commit(&send));
        MPI_Count tsize = 0;
        MPI_Type_size_c(send, &tsize);
        int count = (int) rt_range(&r, 1, 3);
        if (i % 8 == 7 && tsize > 0)
            count = (int) (200000 / tsize + 1);

        ref_map smap, rmap;
        if (ref_map_build(send, count, &smap)) {
            MTEST_FAIL("seed %llu: no reference map", seed);
            MPI_Type_free(&send);
            continue;
        }
        MPI_Datatype recv = reverse_struct(&smap);
        if (ref_map_build(recv, 1, &rmap)) {
            MTEST_FAIL("seed %llu: no reference map of the receive struct", seed);
            exit(1);
        }
        ref_buf mine, theirs, got, want;
        unsigned char *stream = malloc((size_t) smap.size + 1);
        if (!stream || ref_buf_alloc(&mine, &smap, seed_of(rank, seed))
            || ref_buf_alloc(&theirs, &smap, seed_of(prev, seed))
            || ref_buf_alloc(&got, &rmap, ~seed) || ref_buf_clone(&want, &got)) {
            MTEST_FAIL("out of memory");
            exit(1);
        }
        ref_pack(&smap, theirs.base, stream);
        ref_unpack(&rmap, stream, want.base);

        MPI_Request req;
        MPI_Status st;
        int tag = (int) (i % 30000);
        CHECK_MPI(MPI_Isend(mine.base, count, send, next, tag, MPI_COMM_WORLD, &req));
        CHECK_MPI(MPI_Recv(got.base, 1, recv, prev, tag, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        /* a count of 0 for a type of size 0 (MPI 4.1, 3.2.5) */
        int n = -1, want_n = smap.size > 0;
        CHECK_MPI(MPI_Get_count(&st, recv, &n));
        if (n != want_n || ref_cmp_buf(&rmap, &want, &got, NULL, "received")) {
            MTEST_FAIL("seed %llu, count %d: %s: wrong data or count (MPI_Get_count = %d, expected %d)",
                       seed, count, ref_describe(send, desc, sizeof desc), n, want_n);
        }

        free(stream);
        ref_buf_free(&mine);
        ref_buf_free(&theirs);
        ref_buf_free(&got);
        ref_buf_free(&want);
        ref_map_free(&smap);
        ref_map_free(&rmap);
        free_derived(&send);
        free_derived(&recv);
    }
    return MTest_Finalize();
}
