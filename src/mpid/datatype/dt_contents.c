/*
 * Stored constructor arguments and their decoding (MPI_Type_get_envelope / get_contents).
 *
 * A type keeps its integer-like arguments as 64-bit values in the order of the standard's decoding
 * table, and its datatype arguments as referenced handles, in one allocation. One schema per
 * combiner says, field by field, how long the field is and in which output array it lands: the
 * classic decoders put counts in array_of_integers and byte displacements in array_of_addresses;
 * for a type made by a large-count (_c) constructor, the _c decoders put every count-like field in
 * array_of_large_counts instead. Envelope and contents both walk the same schema, so the numbers
 * one reports are the layout the other writes.
 */
#include "mpiimpl.h"

struct MPID_Contents {
    int combiner;
    bool is_large;
    int nvals, ntypes;
    int64_t *vals;
    MPI_Datatype *types;
};

enum { CLS_INT, CLS_ADDR, CLS_COUNT, NCLS };
#define SCALAR (-1)

typedef struct {
    signed char len_field;      /* SCALAR, or the index of the field holding this array's length */
    unsigned char cls, cls_large;
} Field;

typedef struct {
    int combiner;
    int nfields;
    Field f[8];
    signed char ntypes;         /* number of datatype arguments; SCALAR: the value of field 0 */
} Schema;

#define COUNTF { SCALAR, CLS_INT, CLS_COUNT }
#define INTF { SCALAR, CLS_INT, CLS_INT }
#define ARR(k, c, cl) { k, c, cl }

static const Schema schemas[] = {
    { MPI_COMBINER_DUP, 0, { { 0 } }, 1 },
    { MPI_COMBINER_CONTIGUOUS, 1, { COUNTF }, 1 },
    { MPI_COMBINER_VECTOR, 3, { COUNTF, COUNTF, COUNTF }, 1 },
    { MPI_COMBINER_HVECTOR, 3, { COUNTF, COUNTF, { SCALAR, CLS_ADDR, CLS_COUNT } }, 1 },
    { MPI_COMBINER_INDEXED, 3, { COUNTF, ARR(0, CLS_INT, CLS_COUNT), ARR(0, CLS_INT, CLS_COUNT) }, 1 },
    { MPI_COMBINER_HINDEXED, 3, { COUNTF, ARR(0, CLS_INT, CLS_COUNT), ARR(0, CLS_ADDR, CLS_COUNT) }, 1 },
    { MPI_COMBINER_INDEXED_BLOCK, 3, { COUNTF, COUNTF, ARR(0, CLS_INT, CLS_COUNT) }, 1 },
    { MPI_COMBINER_HINDEXED_BLOCK, 3, { COUNTF, COUNTF, ARR(0, CLS_ADDR, CLS_COUNT) }, 1 },
    { MPI_COMBINER_STRUCT, 3, { COUNTF, ARR(0, CLS_INT, CLS_COUNT), ARR(0, CLS_ADDR, CLS_COUNT) }, SCALAR },
    { MPI_COMBINER_SUBARRAY, 5, { INTF, ARR(0, CLS_INT, CLS_COUNT), ARR(0, CLS_INT, CLS_COUNT),
                                  ARR(0, CLS_INT, CLS_COUNT), INTF }, 1 },
    { MPI_COMBINER_DARRAY, 8, { INTF, INTF, INTF, ARR(2, CLS_INT, CLS_COUNT), ARR(2, CLS_INT, CLS_INT),
                                ARR(2, CLS_INT, CLS_INT), ARR(2, CLS_INT, CLS_INT), INTF }, 1 },
    { MPI_COMBINER_F90_REAL, 2, { INTF, INTF }, 0 },
    { MPI_COMBINER_F90_COMPLEX, 2, { INTF, INTF }, 0 },
    { MPI_COMBINER_F90_INTEGER, 1, { INTF }, 0 },
    { MPI_COMBINER_RESIZED, 2, { { SCALAR, CLS_ADDR, CLS_COUNT }, { SCALAR, CLS_ADDR, CLS_COUNT } }, 1 },
};

static const Schema *schema_of(int combiner)
{
    for (size_t i = 0; i < sizeof schemas / sizeof schemas[0]; i++)
        if (schemas[i].combiner == combiner)
            return &schemas[i];
    return NULL;
}

/* Walks the schema over vals: calls visit(cls, value) for every value in order. Returns the number of
 * values the schema describes, or -1 if vals is shorter than that (or a length is negative). */
typedef int (*Visit)(void *state, int cls, int64_t value);

static int64_t walk(const Schema *s, bool large, const int64_t *vals, int nvals, Visit visit, void *state)
{
    int64_t pos = 0, field_pos[8];
    for (int f = 0; f < s->nfields; f++) {
        const Field *fd = &s->f[f];
        int64_t len = 1;
        if (fd->len_field != SCALAR) {
            len = vals[field_pos[(int) fd->len_field]];
            if (len < 0)
                return -1;
        }
        field_pos[f] = pos;
        if (pos + len > nvals)
            return -1;
        for (int64_t k = 0; visit && k < len; k++) {
            int err = visit(state, large ? fd->cls_large : fd->cls, vals[pos + k]);
            if (err)
                return -(int64_t) err - 1;
        }
        pos += len;
    }
    return pos;
}

MPID_Contents *MPID_Contents_new(int nvals, int ntypes)
{
    MPID_Contents *c = malloc(sizeof *c + (size_t) nvals * sizeof(int64_t) + (size_t) ntypes * sizeof(MPI_Datatype));
    if (!c)
        return NULL;
    c->nvals = nvals;
    c->ntypes = ntypes;
    c->vals = (int64_t *) (c + 1);
    c->types = (MPI_Datatype *) (c->vals + nvals);
    return c;
}

int64_t *MPID_Contents_vals(MPID_Contents *c)
{
    return c->vals;
}

int MPID_Datatype_take_contents(MPID_Datatype *dt, MPID_Contents *c, int combiner, bool is_large,
                                const MPI_Datatype *types)
{
    MPIR_CHKMEM(c);
    const Schema *s = schema_of(combiner);
    if (!s || walk(s, false, c->vals, c->nvals, NULL, NULL) != c->nvals) {
        free(c);
        return MPIR_Err(MPI_ERR_INTERN, "contents of combiner %d do not match its schema", combiner);
    }
    c->combiner = combiner;
    c->is_large = is_large;
    for (int i = 0; i < c->ntypes; i++) {
        c->types[i] = types[i];
        if (!MPID_Datatype_is_builtin(types[i]))   /* a struct of a million basic entries looks up none */
            MPID_Datatype_add_ref(MPID_Datatype_get(types[i]));
    }
    dt->contents = c;
    return MPI_SUCCESS;
}

int MPID_Datatype_set_contents(MPID_Datatype *dt, int combiner, bool is_large, int nvals,
                               const int64_t *vals, int ntypes, const MPI_Datatype *types)
{
    MPID_Contents *c = MPID_Contents_new(nvals, ntypes);
    if (c && nvals)
        memcpy(c->vals, vals, (size_t) nvals * sizeof(int64_t));
    return MPID_Datatype_take_contents(dt, c, combiner, is_large, types);
}

void MPID_Contents_free_shallow(MPID_Contents *c)
{
    free(c);   /* the caller releases the children (MPID_Datatype_release) */
}

int MPID_Contents_get(const MPID_Datatype *dt, const int64_t **vals, int *nvals, const MPI_Datatype **types,
                      int *ntypes)
{
    const MPID_Contents *c = dt->contents;
    if (!c)
        return MPI_COMBINER_NAMED;
    *vals = c->vals;
    *nvals = c->nvals;
    *types = c->types;
    *ntypes = c->ntypes;
    return c->combiner;
}

int MPID_Datatype_combiner(const MPID_Datatype *dt)
{
    return dt->contents ? dt->contents->combiner : MPI_COMBINER_NAMED;
}

/* ---- decoding ---- */

typedef struct {
    int64_t n[NCLS];
    bool check_int;             /* the classic decoder on a large type: every int must fit */
    bool overflow;
} Count_state;

static int count_value(void *state, int cls, int64_t v)
{
    Count_state *st = state;
    st->n[cls]++;
    if (st->check_int && cls == CLS_INT && (v < INT_MIN || v > INT_MAX))
        st->overflow = true;
    return 0;
}

static int envelope(const MPID_Contents *c, bool caller_is_c, int64_t n[NCLS])
{
    const Schema *s = schema_of(c->combiner);
    Count_state st = { { 0 }, c->is_large && !caller_is_c, false };
    walk(s, caller_is_c && c->is_large, c->vals, c->nvals, count_value, &st);
    if (st.overflow)
        return MPIR_Err(MPI_ERR_TYPE, "the type was made by a large-count constructor and its arguments "
                        "do not fit an int: decode it with the _c functions");
    memcpy(n, st.n, sizeof st.n);
    return MPI_SUCCESS;
}

int MPID_Datatype_get_envelope(MPID_Datatype *dt, bool caller_is_c, MPI_Count *ni, MPI_Count *na,
                               MPI_Count *nc, MPI_Count *nd, int *combiner)
{
    int64_t n[NCLS] = { 0 };
    if (!dt->contents) {
        *ni = *na = *nc = *nd = 0;
        *combiner = MPI_COMBINER_NAMED;
        return MPI_SUCCESS;
    }
    int err = envelope(dt->contents, caller_is_c, n);
    if (err)
        return err;
    *ni = n[CLS_INT];
    *na = n[CLS_ADDR];
    *nc = n[CLS_COUNT];
    *nd = dt->contents->ntypes;
    *combiner = dt->contents->combiner;
    return MPI_SUCCESS;
}

typedef struct {
    int *ints;
    MPI_Aint *addrs;
    MPI_Count *counts;
    int64_t pos[NCLS];
} Write_state;

static int write_value(void *state, int cls, int64_t v)
{
    Write_state *st = state;
    int64_t k = st->pos[cls]++;
    if (cls == CLS_INT)
        st->ints[k] = (int) v;
    else if (cls == CLS_ADDR)
        st->addrs[k] = (MPI_Aint) v;
    else
        st->counts[k] = (MPI_Count) v;
    return 0;
}

int MPID_Datatype_get_contents(MPID_Datatype *dt, bool caller_is_c, MPI_Count max_i, MPI_Count max_a,
                               MPI_Count max_c, MPI_Count max_d, int *ints, MPI_Aint *addrs,
                               MPI_Count *counts, MPI_Datatype *types)
{
    const MPID_Contents *c = dt->contents;
    int64_t n[NCLS];
    if (!c)
        return MPIR_Err(MPI_ERR_TYPE, "a named predefined datatype has no contents");
    int err = envelope(c, caller_is_c, n);
    if (err)
        return err;
    if (n[CLS_INT] > max_i || n[CLS_ADDR] > max_a || n[CLS_COUNT] > max_c || c->ntypes > max_d)
        return MPIR_Err(MPI_ERR_ARG, "the arrays are too small: this type needs %lld integers, %lld "
                        "addresses, %lld large counts and %d datatypes", (long long) n[CLS_INT],
                        (long long) n[CLS_ADDR], (long long) n[CLS_COUNT], c->ntypes);
    if ((n[CLS_INT] && !ints) || (n[CLS_ADDR] && !addrs) || (n[CLS_COUNT] && !counts) || (c->ntypes && !types))
        return MPIR_Err(MPI_ERR_ARG, "an output array this type needs is NULL");
    Write_state st = { ints, addrs, counts, { 0 } };
    walk(schema_of(c->combiner), caller_is_c && c->is_large, c->vals, c->nvals, write_value, &st);
    /* each derived child is handed out as a handle the caller must free */
    for (int i = 0; i < c->ntypes; i++) {
        MPID_Datatype_add_user_ref(MPID_Datatype_get(c->types[i]));
        types[i] = c->types[i];
    }
    return MPI_SUCCESS;
}
