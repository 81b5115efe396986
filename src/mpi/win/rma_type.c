/*
 * A target datatype on the wire: the origin describes the type it names for the target's memory,
 * and the target rebuilds it, since handles of derived types mean nothing in another process.
 *
 * The description is the type's constructor tree, written from the stored contents (the arguments
 * the user gave), as a preorder list of 64-bit words:
 *   predefined type          NAMED, handle (the same in every process of the job)
 *   derived type, first time combiner, nvals, ntypes, vals..., then its ntypes children
 *   derived type, again      AGAIN, its number (derived types are numbered in order of appearance)
 * so a type whose children share a child (a struct of the same vector twice, nested) takes space
 * linear in its distinct parts, not in the paths through them. Subarray, darray and f90 types are
 * described by the tree that implements them (impl_type), which is made of the other combiners.
 *
 * The target rebuilds through the MPI layer's own constructors, so the rebuilt type has the
 * layout the origin's has by construction, and commits it.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"
#include "rma.h"

enum { NAMED = -1, AGAIN = -2 };

typedef struct {
    int64_t *w;
    size_t n, cap;
} Words;

static bool put(Words *out, int64_t v)
{
    int64_t *w = MPIR_Array_reserve(out->w, &out->cap, out->n, sizeof *w);
    if (!w)
        return false;
    out->w = w;
    out->w[out->n++] = v;
    return true;
}

/* A node still to describe, and its depth in the tree. */
typedef struct {
    const MPID_Datatype *dt;
    int depth;
} Node;

/* Preorder without recursion: a constructor tree may nest as deep as the user likes (a chain of
 * resized types nests deeper than the engine's depth counts), and the stack of nodes still to
 * describe lives on the heap. */
static bool describe(const MPID_Datatype *root, Words *out, int *max_depth)
{
    Node *todo = NULL;
    const MPID_Datatype **seen = NULL;      /* derived types described so far, by number */
    size_t ntodo = 0, captodo = 0, nseen = 0, capseen = 0;
    bool ok = (todo = MPIR_Array_reserve(NULL, &captodo, 0, sizeof *todo)) != NULL;
    if (ok)
        todo[ntodo++] = (Node) { root, 1 };
    *max_depth = 1;
    while (ok && ntodo) {
        Node node = todo[--ntodo];
        const MPID_Datatype *dt = node.dt;
        while (dt->impl_type)       /* subarray, darray, f90: the tree that implements them */
            dt = dt->impl_type;
        if (node.depth > *max_depth)
            *max_depth = node.depth;
        MPI_Datatype h = MPID_Datatype_handle(dt);
        if (MPID_Datatype_is_builtin(h)) {
            ok = put(out, NAMED) && put(out, h);
            continue;
        }
        size_t k = 0;
        while (k < nseen && seen[k] != dt)     /* linear: descriptions are small */
            k++;
        if (k < nseen) {
            ok = put(out, AGAIN) && put(out, (int64_t) k);
            continue;
        }
        const MPID_Datatype **s = MPIR_Array_reserve(seen, &capseen, nseen, sizeof *s);
        if (!(ok = s != NULL))
            break;
        seen = s;
        seen[nseen++] = dt;
        const int64_t *vals;
        const MPI_Datatype *types;
        int nvals, ntypes;
        int combiner = MPID_Contents_get(dt, &vals, &nvals, &types, &ntypes);
        ok = put(out, combiner) && put(out, nvals) && put(out, ntypes);
        for (int i = 0; ok && i < nvals; i++)
            ok = put(out, vals[i]);
        /* the children in reverse, so that the first comes off the stack first */
        for (int i = ntypes - 1; ok && i >= 0; i--) {
            Node *t = MPIR_Array_reserve(todo, &captodo, ntodo, sizeof *t);
            if (!(ok = t != NULL))
                break;
            todo = t;
            todo[ntodo++] = (Node) { MPID_Datatype_get(types[i]), node.depth + 1 };
        }
    }
    free(todo);
    free(seen);
    return ok;
}

int MPIR_Rma_type_describe(MPI_Datatype type, int64_t **words, size_t *nwords, int *depth)
{
    Words out = { 0 };
    if (!describe(MPID_Datatype_get(type), &out, depth)) {
        free(out.w);
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory describing the target datatype");
    }
    *words = out.w;
    *nwords = out.n;
    return MPI_SUCCESS;
}

/* ---- rebuilding ---- */

typedef struct {
    const int64_t *w;
    size_t n, pos;
    MPI_Datatype *built;            /* derived types rebuilt so far, by number (ours to free) */
    size_t nbuilt, capbuilt;
    int max_depth;                  /* the depth the origin gave: the stack is sized for it */
} Reader;

static int bad(void)
{
    return MPIR_Err(MPI_ERR_INTERN, "a one-sided operation carried a malformed datatype description");
}

/* The constructor call for one combiner, from its stored arguments (in the _c form, which takes
 * every count as MPI_Count). */
static int construct(int combiner, const int64_t *v, int nvals, const MPI_Datatype *kids, int nkids,
                     MPI_Datatype *out)
{
    MPI_Count n = nvals > 0 ? v[0] : 0;
    const MPI_Count *c = (const MPI_Count *) v;
    const MPI_Aint *a = (const MPI_Aint *) v;
    _Static_assert(sizeof(MPI_Count) == sizeof(int64_t) && sizeof(MPI_Aint) == sizeof(int64_t),
                   "contents are read in place as counts and addresses");
    /* the stored arguments' lengths, as the contents table has them */
    int need = -1, nt = 1;
    switch (combiner) {
    case MPI_COMBINER_DUP: need = 0; break;
    case MPI_COMBINER_CONTIGUOUS: need = 1; break;
    case MPI_COMBINER_VECTOR: case MPI_COMBINER_HVECTOR: need = 3; break;
    case MPI_COMBINER_INDEXED: case MPI_COMBINER_HINDEXED: need = n >= 0 && n < INT_MAX / 2 ? 1 + 2 * (int) n : -1; break;
    case MPI_COMBINER_INDEXED_BLOCK: case MPI_COMBINER_HINDEXED_BLOCK: need = n >= 0 && n < INT_MAX / 2 ? 2 + (int) n : -1; break;
    case MPI_COMBINER_STRUCT: need = n >= 0 && n < INT_MAX / 2 ? 1 + 2 * (int) n : -1; nt = (int) n; break;
    case MPI_COMBINER_RESIZED: need = 2; break;
    default: break;
    }
    if (need < 0 || nvals != need || nkids != nt)
        return bad();
    switch (combiner) {
    case MPI_COMBINER_DUP:
        return MPIR_Type_dup_impl(kids[0], out);
    case MPI_COMBINER_CONTIGUOUS:
        return MPIR_Type_contiguous_impl(v[0], kids[0], out, true);
    case MPI_COMBINER_VECTOR:
        return MPIR_Type_vector_impl(v[0], v[1], v[2], kids[0], out, true);
    case MPI_COMBINER_HVECTOR:
        return MPIR_Type_create_hvector_impl(v[0], v[1], a[2], kids[0], out, true);
    case MPI_COMBINER_INDEXED:
        return MPIR_Type_indexed_impl(n, (MPIR_Count_array) { .counts = c + 1 },
                                      (MPIR_Count_array) { .counts = c + 1 + n }, kids[0], out, true);
    case MPI_COMBINER_HINDEXED:
        return MPIR_Type_create_hindexed_impl(n, (MPIR_Count_array) { .counts = c + 1 }, a + 1 + n, kids[0], out,
                                              true);
    case MPI_COMBINER_INDEXED_BLOCK:
        return MPIR_Type_create_indexed_block_impl(n, v[1], (MPIR_Count_array) { .counts = c + 2 }, kids[0], out,
                                                   true);
    case MPI_COMBINER_HINDEXED_BLOCK:
        return MPIR_Type_create_hindexed_block_impl(n, v[1], a + 2, kids[0], out, true);
    case MPI_COMBINER_STRUCT:
        return MPIR_Type_create_struct_impl(n, (MPIR_Count_array) { .counts = c + 1 }, a + 1 + n, kids, out, true);
    default:    /* MPI_COMBINER_RESIZED */
        return MPIR_Type_create_resized_impl(kids[0], a[0], a[1], out, true);
    }
}

static int rebuild(Reader *rd, MPI_Datatype *out, int depth)
{
    if (depth > rd->max_depth || rd->n - rd->pos < 2)
        return bad();
    int64_t tag = rd->w[rd->pos++];
    if (tag == NAMED) {
        *out = (MPI_Datatype) rd->w[rd->pos++];
        return MPID_Datatype_is_builtin(*out) && MPID_Datatype_get(*out) ? MPI_SUCCESS : bad();
    }
    if (tag == AGAIN) {
        int64_t k = rd->w[rd->pos++];
        if (k < 0 || (size_t) k >= rd->nbuilt)
            return bad();
        *out = rd->built[k];
        return MPI_SUCCESS;
    }
    if (rd->n - rd->pos < 2)
        return bad();
    int64_t nvals = rd->w[rd->pos++], ntypes = rd->w[rd->pos++];
    if (nvals < 0 || ntypes < 0 || nvals > INT_MAX || ntypes > INT_MAX || (size_t) nvals > rd->n - rd->pos)
        return bad();
    /* its number is taken now, in preorder as the origin gave it; the slot is filled below */
    MPI_Datatype *built = MPIR_Array_reserve(rd->built, &rd->capbuilt, rd->nbuilt, sizeof *built);
    if (!built)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory rebuilding a target datatype");
    rd->built = built;
    size_t me = rd->nbuilt++;
    rd->built[me] = MPI_DATATYPE_NULL;
    const int64_t *vals = rd->w + rd->pos;
    rd->pos += (size_t) nvals;
    MPI_Datatype *kids = malloc(((size_t) ntypes + 1) * sizeof *kids);
    if (!kids)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory rebuilding a target datatype");
    int err = MPI_SUCCESS;
    for (int64_t i = 0; i < ntypes && err == MPI_SUCCESS; i++)
        err = rebuild(rd, &kids[i], depth + 1);
    if (err == MPI_SUCCESS)
        err = construct((int) tag, vals, (int) nvals, kids, (int) ntypes, &rd->built[me]);
    free(kids);
    *out = rd->built[me];
    return err;
}

typedef struct {
    Reader rd;
    MPI_Datatype t;
    int err;
} Rebuild_call;

static void rebuild_call(void *p)
{
    Rebuild_call *c = p;
    c->err = rebuild(&c->rd, &c->t, 1);
}

int MPIR_Rma_type_rebuild(const int64_t *words, size_t nwords, int depth, MPI_Datatype *type)
{
    Rebuild_call c = { .rd = { .w = words, .n = nwords, .max_depth = depth }, .t = MPI_DATATYPE_NULL };
    int err = depth < 1 ? bad() : MPIR_Run_deep(depth, rebuild_call, &c);
    Reader *rd = &c.rd;
    if (err == MPI_SUCCESS)
        err = c.err;
    if (err == MPI_SUCCESS && rd->pos != nwords)
        err = bad();
    /* a derived result is the first type rebuilt: it keeps what it needs of the others */
    bool derived = err == MPI_SUCCESS && !MPID_Datatype_is_builtin(c.t);
    if (derived && (err = MPIR_Type_commit_impl(&rd->built[0])) == MPI_SUCCESS)
        c.t = rd->built[0];
    for (size_t k = err == MPI_SUCCESS && derived ? 1 : 0; k < rd->nbuilt; k++)
        if (rd->built[k] != MPI_DATATYPE_NULL)
            MPIR_Type_free_impl(&rd->built[k]);
    free(rd->built);
    *type = err == MPI_SUCCESS ? c.t : MPI_DATATYPE_NULL;
    return err;
}
