/*
 * A slow, obviously correct reference model of datatypes, for the engine tests.
 *
 * ref_map_build() expands a datatype into its explicit type map: the list of (byte displacement,
 * basic type) pairs of the standard (MPI 4.1, 5.1), in type-map order. It learns the type's
 * structure only through MPI_Type_get_envelope_c / MPI_Type_get_contents_c, applied recursively,
 * and follows the standard's definition of every combiner, so it shares nothing with the engine
 * (dataloops, segments, copy kernels). The only other things it asks the library are the extents
 * of the children (MPI_Type_get_extent: the foundation's bounds, checked by the bounds_* tests),
 * which say where consecutive copies of a child go, and the sizes of named types.
 *
 *   named      one entry; a pair type (MPI_FLOAT_INT, MPI_2INT, ...) two entries at the offsets of
 *              the C struct {value; int}; a type of size 0 (MPI_LB, MPI_UB) none
 *   dup, resized                    the map of the old type (markers only change the extent)
 *   contiguous, vector, hvector, indexed, hindexed, indexed_block, hindexed_block, struct
 *                                   copies of the children, block by block, copy by copy
 *   subarray, darray                the elements the brute-force reference of arrayref.h selects,
 *                                   by increasing linear index, copy k at k * extent(old)
 *
 * From the map, everything is a loop over entries: the packed stream is the entries' bytes in map
 * order (count instances, instance i displaced by i * extent).
 */
#ifndef REFTYPE_H_INCLUDED
#define REFTYPE_H_INCLUDED

#include <stddef.h>
#include <stdint.h>
#include <mpi.h>

typedef struct {
    MPI_Aint disp;          /* byte displacement from the buffer address */
    MPI_Datatype type;      /* the basic type (a member of a pair type: its own type) */
    int size;               /* bytes */
} ref_entry;

typedef struct {
    ref_entry *e;
    size_t n, cap;
    MPI_Count size;             /* sum of the entries' sizes: the packed bytes */
    MPI_Aint true_lb, true_ub;  /* min disp, max disp + size over entries (0, 0 if none) */
} ref_map;

/* The map of count instances of type (instance i at i * extent). Returns 0, or -1 with a message
 * on stderr if decoding failed or memory ran out. */
int ref_map_build(MPI_Datatype type, MPI_Count count, ref_map *map);
void ref_map_free(ref_map *map);

/* The packed stream: out receives map->size bytes. */
void ref_pack(const ref_map *map, const void *buf, void *out);
/* The inverse: the entries of buf receive the stream's bytes (later entries win on overlap). */
void ref_unpack(const ref_map *map, const void *in, void *buf);
/* Basic elements whose bytes lie entirely in the first nbytes of the stream. */
MPI_Count ref_elements(const ref_map *map, MPI_Count nbytes);
/* The largest element boundary of the stream at or below pos (0 <= pos). */
MPI_Count ref_floor_boundary(const ref_map *map, MPI_Count pos);
/* The entry holding stream byte pos and that byte's offset in it (for messages); -1 if none. */
long ref_entry_at(const ref_map *map, MPI_Count pos, int *offset_in_entry);

/* How many entries write each byte of the buffer span [lo, hi) (lo <= true_lb, hi >= true_ub):
 * writes[b - lo] for byte b, saturated at 255. Overlapping entries make unpack order-dependent. */
void ref_write_counts(const ref_map *map, MPI_Aint lo, MPI_Aint hi, unsigned char *writes);

/* A typed buffer for a map: covers the map's true bounds and REF_GUARD bytes on each side, every
 * byte filled from seed. base is the address of displacement 0 (16-byte aligned, so that aligned
 * displacements give aligned data); mem[k] is at displacement mem_disp + k. */
#define REF_GUARD 64
typedef struct {
    unsigned char *mem;
    size_t len;
    char *base;
    MPI_Aint mem_disp;
} ref_buf;
int ref_buf_alloc(ref_buf *b, const ref_map *map, uint64_t seed);
/* Same layout and contents as src. */
int ref_buf_clone(ref_buf *b, const ref_buf *src);
void ref_buf_free(ref_buf *b);
/* How many entries write each byte of b->mem (see ref_write_counts); NULL if out of memory. */
unsigned char *ref_buf_writes(const ref_map *map, const ref_buf *b);

/* Byte-by-byte comparisons that print the first difference on stderr, prefixed by what, with the
 * map entry that holds it, and return the number of differing bytes.
 *   ref_cmp_stream: packed bytes [first, first + n) of the stream;
 *   ref_cmp_buf:    two typed buffers of the same layout, skipping bytes that more than one
 *                   entry writes (writes from ref_buf_writes, or NULL to compare all). */
long ref_cmp_stream(const ref_map *map, MPI_Count first, MPI_Count n, const void *want,
                    const void *got, const char *what);
long ref_cmp_buf(const ref_map *map, const ref_buf *want, const ref_buf *got,
                 const unsigned char *writes, const char *what);
/* Fills n bytes from seed (splitmix64). */
void ref_fill(void *p, size_t n, uint64_t seed);

/* A one-line description of type from its decoding, e.g.
 * "vector(2,1,-3; MPI_INT)" or "struct(2; 1@0 MPI_LB, 3@8 resized(-4,16; MPI_DOUBLE))";
 * truncated to len - 1 characters with "...". Returns out. */
char *ref_describe(MPI_Datatype type, char *out, size_t len);

/* The name of a named type (for messages). */
const char *ref_type_name(MPI_Datatype type);

#endif
