/*S
 * MPID_Datatype - the device's datatype object.
 *
 * One record per datatype, predefined or derived. Derived types live in a pool (handles of kind
 * "allocated"); predefined ones in a static table indexed by the low byte of their handle.
 *
 * Fields
 *   obj.handle, obj.ref_count  the handle and the total reference count. References are held by
 *                         the user's handles, by parent types (through their contents), and by
 *                         pending operations; the record is destroyed when the count reaches 0.
 *   user_refs             how many handles the user holds. MPI_Type_free drops one; at 0 the
 *                         handle is invalid to the user (MPI_ERR_TYPE) even if parents or pending
 *                         operations still keep the record alive. MPI_Type_get_contents hands out
 *                         a handle again, so it adds one.
 *   size                  bytes of data in one instance (MPI_Count: may exceed 2^31).
 *   lb, ub, extent        the bounds of the type map, markers and struct padding included.
 *   true_lb, true_ub      the bounds of the data alone (0, 0 when there is no data).
 *   has_sticky_lb/ub      the type map contains an explicit lower/upper bound marker (MPI_LB/MPI_UB,
 *                         or the markers MPI_Type_create_resized sets); such markers win over data
 *                         in a struct, as the standard's lb/ub definition says.
 *   is_contig             (buf, count, type) is one contiguous run of count*size bytes at buf+true_lb,
 *                         in type-map order, for every count.
 *   n_elements, basic_type  basic elements in one instance and their common type (MPI_DATATYPE_NULL
 *                         when mixed); pair types count 2.
 *   align                 the largest alignment of a basic type inside (pads struct extents).
 *   sig_hash              hash of the type signature (the sequence of basic types), composed
 *                         from the children's hashes: equal signatures give equal hashes however
 *                         the types were built (see MPID_Sig_* below).
 *   ext32_size            bytes of one instance in external32 (MPI_Pack_external_size), composed
 *                         from the children's like size; INT64_MAX if it does not fit below.
 *   depth                 nesting depth of the type tree (1 for predefined types).
 *   is_permanent          predefined, or returned by MPI_Type_create_f90_*: cannot be freed.
 *   is_committed          set by MPI_Type_commit.
 *   is_being_freed        its last user handle's attributes are being deleted (MPID_Datatype_user_free).
 *   contents              the constructor and its arguments exactly as the user gave them
 *                         (see dt_contents.c); children are referenced, not copied.
 *   impl_type             for types whose layout is defined by composition (subarray, darray,
 *                         f90): an internal equivalent type built from the basic constructors,
 *                         which the engine processes instead. NULL otherwise.
 *   dataloop              built at commit by the engine (engine issue).
 *   stream_trials         per direction ([1] packing): whether this type's copies beyond the
 *                         last-level cache run faster with streaming stores or without, as the
 *                         copies themselves measured it, whole unpacks and packs and the device's
 *                         chunked receives alike (copy_kernels.h, MPID_Stream_turn_begin).
 *   attributes, name      cached attributes; the name (empty for derived types until set).
 *   next_dead             links the records being destroyed (MPID_Datatype_release), so that
 *                         freeing needs no memory of its own.
 *
 * Alternatives considered
 *   The boolean fields could be packed in one word; they are bitfields here. Dup could share the
 *   engine representation of its parent instead of copying it; it keeps a reference to the parent
 *   through its contents, so the engine may do exactly that without extra bookkeeping.
 S*/
#ifndef MPID_DATATYPE_H_INCLUDED
#define MPID_DATATYPE_H_INCLUDED

#include <stdbool.h>
#include <stdint.h>
#include "mpi.h"
#include "mpir_object.h"

struct MPIR_Attribute;
struct MPID_Loop;

/* Streaming stores on trial for one type and direction: the first calls of every epoch take turns
 * with and without them (copy_kernels.c). Zero is a fresh trial. */
#define MPID_STREAM_TRIALS 4
typedef struct MPID_Stream_trial {
    _Atomic unsigned calls;
    _Atomic uint32_t ticks[MPID_STREAM_TRIALS];   /* per KiB, by call of the epoch */
    _Atomic bool plain;                           /* the epoch's verdict: ordinary stores */
} MPID_Stream_trial;
/* One copy's turn in its type's trial (copy_kernels.h): the ticks it spent copying, which for a
 * device receive are those of its chunks, not the waits between them. */
typedef struct MPID_Stream_turn {
    unsigned call;   /* of the epoch */
    bool timed;
    bool streams;    /* this copy's way (MPID_Stream_turn_begin's answer) */
    uint64_t start, spent;
} MPID_Stream_turn;
typedef struct MPID_Contents MPID_Contents;

typedef struct MPID_Datatype {
    MPIR_Object obj;
    _Atomic int user_refs;
    MPI_Count size;
    MPI_Aint lb, ub, extent;
    MPI_Aint true_lb, true_ub;
    MPI_Count n_elements;
    MPI_Count ext32_size;
    MPI_Datatype basic_type;
    int align;
    int depth;
    uint64_t sig_hash;
    unsigned is_contig : 1;
    unsigned has_sticky_lb : 1;
    unsigned has_sticky_ub : 1;
    unsigned is_permanent : 1;
    unsigned is_committed : 1;
    unsigned is_being_freed : 1;
    MPID_Contents *contents;
    struct MPID_Datatype *impl_type;
    _Atomic(struct MPID_Loop *) dataloop;
    MPID_Stream_trial stream_trials[2];
    struct MPIR_Attribute *attributes;
    char name[MPI_MAX_OBJECT_NAME];
    struct MPID_Datatype *next_dead;
} MPID_Datatype;

/* ---- objects (dt_object.c, dt_builtin.c) ---- */

#define MPID_BUILTIN_TYPE_MAX 0x44
extern MPID_Datatype MPID_Builtin_types[MPID_BUILTIN_TYPE_MAX];

extern MPIR_Pool MPID_Datatype_pool;   /* the derived types */

/* The record behind a handle the library holds a reference to (children in contents), even if the
 * user has freed it; NULL only for handles that never were or no longer are records. Inline: every
 * datatype argument of every call comes through here. */
static inline MPID_Datatype *MPID_Datatype_get(MPI_Datatype type)
{
    if (MPIR_HANDLE_KIND(type) == MPIR_KIND_BUILTIN) {
        /* a test, not a modulo by 0x44, whose multiply chain every lookup waited on (1M-entry
         * struct create: 13.6 instead of 15.6 ns per entry) */
        unsigned i = MPIR_BUILTIN_INDEX(type);
        if (i >= MPID_BUILTIN_TYPE_MAX)
            return NULL;
        MPID_Datatype *dt = &MPID_Builtin_types[i];
        return MPIR_Object_handle(dt) == type ? dt : NULL;
    }
    return (MPID_Datatype *) MPIR_Pool_lookup(&MPID_Datatype_pool, type);
}

/* The record behind a handle the user may use (predefined, or derived and not yet freed by the
 * user), else NULL. MPI_DATATYPE_NULL gives NULL. */
static inline MPID_Datatype *MPID_Datatype_lookup(MPI_Datatype type)
{
    MPID_Datatype *dt = MPID_Datatype_get(type);
    if (dt && atomic_load_explicit(&dt->user_refs, memory_order_acquire) <= 0)
        return NULL;
    return dt;
}

static inline MPI_Datatype MPID_Datatype_handle(const MPID_Datatype *dt)
{
    return MPIR_Object_handle(dt);
}

static inline bool MPID_Datatype_is_builtin(MPI_Datatype type)
{
    return MPIR_HANDLE_KIND(type) == MPIR_KIND_BUILTIN;
}

/* A type map with no entries at all: no data and no markers. It places nothing and bounds nothing. */
static inline bool MPID_Datatype_is_empty(const MPID_Datatype *dt)
{
    return dt->size == 0 && !dt->has_sticky_lb && !dt->has_sticky_ub;
}

/* A new derived record: ref_count 1, user_refs 1, every other field zero. NULL if out of memory. */
MPID_Datatype *MPID_Datatype_new(void);
/* Internal references (parents, contents, pending operations). Predefined records ignore them. */
void MPID_Datatype_add_ref(MPID_Datatype *dt);
void MPID_Datatype_release(MPID_Datatype *dt);
/* A user handle given out again (MPI_Type_get_contents). */
void MPID_Datatype_add_user_ref(MPID_Datatype *dt);
/* MPI_Type_free: runs the attribute delete callbacks, then drops the user's handle and its reference. */
int MPID_Datatype_user_free(MPID_Datatype *dt);

/* ---- constructors (dt_create.c): compute every field; contents are set by the caller ---- */

/* count blocks of blocklen copies of old, block k starting at k*stride bytes (hvector; contiguous
 * is one block of count copies). */
int MPID_Type_vector(MPI_Count count, MPI_Count blocklen, MPI_Aint stride_bytes, MPID_Datatype *old,
                     MPID_Datatype **newp);

/* The indexed family and struct: block i holds blocklens[i] (or blocklen) copies of types[i] (or
 * type) starting at disps[i] * disp_unit bytes. */
typedef struct MPID_Blocks {
    MPI_Count count;
    const int64_t *blocklens;       /* NULL: every block has blocklen elements */
    MPI_Count blocklen;
    const int64_t *disps;
    MPI_Aint disp_unit;             /* 1 for byte displacements, the old extent for indexed */
    const MPI_Datatype *types;      /* NULL: every block is of type */
    MPID_Datatype *type;
    bool is_struct;                 /* struct rules: sticky markers win, alignment padding */
} MPID_Blocks;
int MPID_Type_blocks(const MPID_Blocks *b, MPID_Datatype **newp);

int MPID_Type_resized(MPID_Datatype *old, MPI_Aint lb, MPI_Aint extent, MPID_Datatype **newp);
int MPID_Type_dup(MPID_Datatype *old, MPID_Datatype **newp);

/* A record that stands for impl (subarray, darray, f90): same layout, impl kept as impl_type. */
int MPID_Type_alias(MPID_Datatype *impl, MPID_Datatype **newp);

/* ---- type signatures (dt_create.c) ----
 * H(t1..tm) = sum of h(ti) * P^(m-i) mod 2^64, so the hash of a concatenation and of n repetitions
 * follow from the parts' hashes and lengths, in O(log n). */
uint64_t MPID_Sig_concat(uint64_t first, uint64_t second, MPI_Count second_len);
uint64_t MPID_Sig_repeat(uint64_t sig, MPI_Count len, MPI_Count n);
/* The signature hash of a message of count elements of dt. */
static inline uint64_t MPID_Datatype_signature(const MPID_Datatype *dt, MPI_Count count)
{
    return MPID_Sig_repeat(dt->sig_hash, dt->n_elements, count);
}

/* ---- contents (dt_contents.c) ---- */

/* Records the constructor's arguments. vals holds every integer-like argument in the order of the
 * standard's table (see dt_contents.c), widened to 64 bits; types the datatype arguments, which get
 * a reference each. is_large: made by a _c constructor. */
int MPID_Datatype_set_contents(MPID_Datatype *dt, int combiner, bool is_large, int nvals,
                               const int64_t *vals, int ntypes, const MPI_Datatype *types);
/* The same in two steps, for arguments of a million blocks, which are then written once: a record
 * for nvals values and ntypes handles (NULL if out of memory), whose values the caller fills in
 * (MPID_Contents_vals); then dt takes it (on failure it is freed; NULL gives MPI_ERR_NO_MEM). */
MPID_Contents *MPID_Contents_new(int nvals, int ntypes);
int64_t *MPID_Contents_vals(MPID_Contents *c);
int MPID_Datatype_take_contents(MPID_Datatype *dt, MPID_Contents *c, int combiner, bool is_large,
                                const MPI_Datatype *types);
/* Frees the record of arguments but not the children it references (released by the caller). */
void MPID_Contents_free_shallow(MPID_Contents *c);

/* Decoding, for the four MPI functions: caller_is_c selects the _c table; the non-_c call on a
 * type whose arguments do not fit an int fails with MPI_ERR_TYPE. */
int MPID_Datatype_get_envelope(MPID_Datatype *dt, bool caller_is_c, MPI_Count *ni, MPI_Count *na,
                               MPI_Count *nc, MPI_Count *nd, int *combiner);
int MPID_Datatype_get_contents(MPID_Datatype *dt, bool caller_is_c, MPI_Count max_i, MPI_Count max_a,
                               MPI_Count max_c, MPI_Count max_d, int *ints, MPI_Aint *addrs,
                               MPI_Count *counts, MPI_Datatype *types);
int MPID_Datatype_combiner(const MPID_Datatype *dt);
/* The stored arguments as set_contents received them (for the engine); returns the combiner. */
int MPID_Contents_get(const MPID_Datatype *dt, const int64_t **vals, int *nvals, const MPI_Datatype **types,
                      int *ntypes);

/* ---- predefined types (dt_builtin.c) ---- */
const char *MPID_Builtin_name(MPI_Datatype type);  /* NULL if not predefined */
void MPID_Builtin_init(void);
/* The predefined pair type (MPI_FLOAT_INT, ...) made of (value_type, index_type), or MPI_DATATYPE_NULL. */
MPI_Datatype MPID_Builtin_pair(MPI_Datatype value_type, MPI_Datatype index_type);
/* For a pair type: its value and index types and the byte offset of the index; false otherwise. */
bool MPID_Builtin_pair_layout(MPI_Datatype type, MPI_Datatype *value_type, MPI_Datatype *index_type,
                              MPI_Aint *index_offset);

#endif
