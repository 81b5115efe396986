/*
 * Predefined types chosen by their properties: the Fortran-90 parameterized types
 * (MPI_Type_create_f90_real/complex/integer), MPI_Type_match_size and MPI_Type_get_value_index.
 *
 * MPI_Type_create_f90_xxx(p, r) answers what SELECTED_REAL_KIND(p, r) / SELECTED_INT_KIND(r)
 * answer in Fortran: the smallest kind with at least p decimal digits of precision and a decimal
 * exponent range of at least r. The kinds we know are those of C's float, double and long double
 * (REAL4/8/16, COMPLEX8/16/32) and of the two's-complement integers (INTEGER1/2/4/8/16). Their
 * precision and range are what Fortran's PRECISION() and RANGE() give, derived from <float.h>.
 * No 2-byte real is offered: Fortran compilers' SELECTED_REAL_KIND does not select one.
 *
 * The standard makes the result a predefined (unnamed) datatype: it cannot be freed, matches only
 * types made by the same call with the same (p, r), and decodes as MPI_COMBINER_F90_xxx with
 * integers {p, r} or {r}. Applications call these functions often with the same arguments, so
 * each (combiner, p, r) gets one record, made on first use and kept until MPI_Finalize
 * (MPIR_Type_f90_finalize).
 */
#include <float.h>
#include "mpiimpl.h"
#include "mpir_impl_proto.h"

/* One candidate kind: its decimal precision and range, and the predefined type that holds it. */
typedef struct f90_kind {
    int precision, range;
    MPI_Datatype type;
} f90_kind;

/* Fortran's RANGE(x) = INT(MIN(LOG10(HUGE(x)), -LOG10(TINY(x)))). */
#define DECIMAL_RANGE(max10, min10) ((max10) < -(min10) ? (max10) : -(min10))
#define FLT_RANGE  DECIMAL_RANGE(FLT_MAX_10_EXP, FLT_MIN_10_EXP)     /* 37 */
#define DBL_RANGE  DECIMAL_RANGE(DBL_MAX_10_EXP, DBL_MIN_10_EXP)     /* 307 */
#define LDBL_RANGE DECIMAL_RANGE(LDBL_MAX_10_EXP, LDBL_MIN_10_EXP)   /* 4931 */

/* MPI_REAL16 and MPI_COMPLEX32 are long double (x87 extended or IEEE quad) where it is 16 bytes. */
#define HAVE_REAL16 (SIZEOF_LONG_DOUBLE == 16)

/* Each list in increasing size: the first kind that fits is the smallest. */
static const f90_kind real_kinds[] = {
    { FLT_DIG, FLT_RANGE, MPI_REAL4 },
    { DBL_DIG, DBL_RANGE, MPI_REAL8 },
#if HAVE_REAL16
    { LDBL_DIG, LDBL_RANGE, MPI_REAL16 },
#endif
};

/* A complex kind has the precision and range of its parts. */
static const f90_kind complex_kinds[] = {
    { FLT_DIG, FLT_RANGE, MPI_COMPLEX8 },
    { DBL_DIG, DBL_RANGE, MPI_COMPLEX16 },
#if HAVE_REAL16
    { LDBL_DIG, LDBL_RANGE, MPI_COMPLEX32 },
#endif
};

/* An n-byte integer's RANGE is INT(LOG10(2^(8n-1) - 1)). Precision does not apply. */
static const f90_kind integer_kinds[] = {
    { 0, 2, MPI_INTEGER1 },
    { 0, 4, MPI_INTEGER2 },
    { 0, 9, MPI_INTEGER4 },
    { 0, 18, MPI_INTEGER8 },
#ifdef __SIZEOF_INT128__
    { 0, 38, MPI_INTEGER16 },
#endif
};

#define NKINDS(a) ((int) (sizeof(a) / sizeof((a)[0])))

/* The smallest kind with at least precision p and range r (MPI_UNDEFINED: no requirement). */
static const f90_kind *smallest_kind(const f90_kind *kinds, int n, int p, int r)
{
    for (int i = 0; i < n; i++)
        if ((p == MPI_UNDEFINED || p <= kinds[i].precision) && (r == MPI_UNDEFINED || r <= kinds[i].range))
            return &kinds[i];
    return NULL;
}

/* ---- the cache of returned types: one record per (combiner, p, r) ---- */

typedef struct f90_entry {
    int combiner, p, r;
    MPID_Datatype *dt;
    struct f90_entry *next;
} f90_entry;

static pthread_mutex_t f90_lock = PTHREAD_MUTEX_INITIALIZER;
static f90_entry *f90_cache;

/* A new permanent record laid out as the predefined type impl, decoding as combiner with the
 * given integers. */
static int new_f90_type(int combiner, MPI_Datatype impl, int nvals, const int64_t *vals,
                        MPID_Datatype **dtp)
{
    MPID_Datatype *dt;
    int err = MPID_Type_alias(MPID_Datatype_get(impl), &dt);
    if (err != MPI_SUCCESS)
        return err;
    err = MPID_Datatype_set_contents(dt, combiner, false, nvals, vals, 0, NULL);
    if (err == MPI_SUCCESS) {
        /* Predefined types come committed; commit the usual way so the engine is ready. */
        MPI_Datatype handle = MPID_Datatype_handle(dt);
        err = MPIR_Type_commit_impl(&handle);
    }
    if (err != MPI_SUCCESS) {
        MPID_Datatype_user_free(dt);
        return err;
    }
    dt->is_permanent = 1;
    *dtp = dt;
    return MPI_SUCCESS;
}

/* The handle for (combiner, p, r), made on first use. p is ignored for F90_INTEGER. */
static int cached_f90_type(int combiner, int p, int r, MPI_Datatype impl, MPI_Datatype *newtype)
{
    int err = MPI_SUCCESS;
    pthread_mutex_lock(&f90_lock);

    f90_entry *e;
    for (e = f90_cache; e != NULL; e = e->next)
        if (e->combiner == combiner && e->p == p && e->r == r)
            break;

    if (e == NULL) {
        e = malloc(sizeof *e);
        if (e == NULL) {
            err = MPIR_Err(MPI_ERR_NO_MEM, "out of memory");
            goto fn_exit;
        }
        const int64_t vals[2] = { p, r };
        if (combiner == MPI_COMBINER_F90_INTEGER)
            err = new_f90_type(combiner, impl, 1, &vals[1], &e->dt);
        else
            err = new_f90_type(combiner, impl, 2, vals, &e->dt);
        if (err != MPI_SUCCESS) {
            free(e);
            goto fn_exit;
        }
        e->combiner = combiner;
        e->p = p;
        e->r = r;
        e->next = f90_cache;
        f90_cache = e;
    }
    *newtype = MPID_Datatype_handle(e->dt);

  fn_exit:
    pthread_mutex_unlock(&f90_lock);
    return err;
}

/* Called by MPI_Finalize after the attribute module's finalization (MPI_COMM_SELF's delete
 * callbacks may still use these types) and before the datatype module reports leaks. The records
 * are freed as a user's type would be, so attributes cached on them see their delete callbacks. */
void MPIR_Type_f90_finalize(void)
{
    pthread_mutex_lock(&f90_lock);
    f90_entry *list = f90_cache;
    f90_cache = NULL;
    pthread_mutex_unlock(&f90_lock);

    while (list != NULL) {
        f90_entry *next = list->next;
        list->dt->is_permanent = 0;         /* only now may it be freed */
        (void) MPID_Datatype_user_free(list->dt);   /* a failing callback leaves it to the OS */
        free(list);
        list = next;
    }
}

/* ---- the three constructors ---- */

/* Real and complex share the selection rule of SELECTED_REAL_KIND. */
static int create_f90_floating(int combiner, const f90_kind *kinds, int n, const char *what,
                               int p, int r, MPI_Datatype *newtype)
{
    if (p == MPI_UNDEFINED && r == MPI_UNDEFINED)
        return MPIR_Err(MPI_ERR_ARG, "p and r are both MPI_UNDEFINED; at least one must be given");
    const f90_kind *k = smallest_kind(kinds, n, p, r);
    if (k == NULL)
        return MPIR_Err(MPI_ERR_ARG, "no predefined %s type has precision p=%d and range r=%d "
                        "(largest: precision %d, range %d)", what, p, r,
                        kinds[n - 1].precision, kinds[n - 1].range);
    return cached_f90_type(combiner, p, r, k->type, newtype);
}

int MPIR_Type_create_f90_real_impl(int p, int r, MPI_Datatype *newtype)
{
    return create_f90_floating(MPI_COMBINER_F90_REAL, real_kinds, NKINDS(real_kinds), "real",
                               p, r, newtype);
}

int MPIR_Type_create_f90_complex_impl(int p, int r, MPI_Datatype *newtype)
{
    return create_f90_floating(MPI_COMBINER_F90_COMPLEX, complex_kinds, NKINDS(complex_kinds),
                               "complex", p, r, newtype);
}

int MPIR_Type_create_f90_integer_impl(int r, MPI_Datatype *newtype)
{
    /* SELECTED_INT_KIND has no optional argument: r is required. */
    if (r == MPI_UNDEFINED)
        return MPIR_Err(MPI_ERR_ARG, "r is MPI_UNDEFINED; an integer range must be given");
    const f90_kind *k = smallest_kind(integer_kinds, NKINDS(integer_kinds), MPI_UNDEFINED, r);
    if (k == NULL)
        return MPIR_Err(MPI_ERR_ARG, "no predefined integer type has range r=%d (largest: %d)",
                        r, integer_kinds[NKINDS(integer_kinds) - 1].range);
    return cached_f90_type(MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, r, k->type, newtype);
}

/* ---- MPI_Type_match_size: the predefined named type of a typeclass and a size in bytes ---- */

int MPIR_Type_match_size_impl(int typeclass, int size, MPI_Datatype *datatype)
{
    const f90_kind *kinds;
    int n;
    const char *what;
    switch (typeclass) {
    case MPI_TYPECLASS_REAL:
        kinds = real_kinds, n = NKINDS(real_kinds), what = "real";
        break;
    case MPI_TYPECLASS_INTEGER:
        kinds = integer_kinds, n = NKINDS(integer_kinds), what = "integer";
        break;
    case MPI_TYPECLASS_COMPLEX:
        kinds = complex_kinds, n = NKINDS(complex_kinds), what = "complex";
        break;
    default:
        return MPIR_Err(MPI_ERR_ARG, "invalid typeclass %d, must be MPI_TYPECLASS_REAL, "
                        "MPI_TYPECLASS_INTEGER or MPI_TYPECLASS_COMPLEX", typeclass);
    }
    for (int i = 0; i < n; i++) {
        if (MPID_Datatype_get(kinds[i].type)->size == size) {
            *datatype = kinds[i].type;
            return MPI_SUCCESS;
        }
    }
    return MPIR_Err(MPI_ERR_ARG, "no predefined %s type has size %d", what, size);
}

/* ---- MPI_Type_get_value_index: the predefined pair type for MPI_MINLOC/MPI_MAXLOC ---- */

int MPIR_Type_get_value_index_impl(MPI_Datatype value_type, MPI_Datatype index_type,
                                   MPI_Datatype *pair_type)
{
    /* The pair types know their parts (dt_builtin.c holds the standard's table). Any other
     * combination of valid types has no predefined pair: MPI_DATATYPE_NULL, not an error. */
    *pair_type = MPID_Builtin_pair(value_type, index_type);
    return MPI_SUCCESS;
}
