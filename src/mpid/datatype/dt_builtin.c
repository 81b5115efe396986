/*
 * The predefined datatypes: one record each, indexed by the low byte of the handle (mpi.h).
 * Sizes come from the handles themselves; this table adds what the handle cannot hold:
 * the standard name, the alignment, and the layout of the pair types.
 */
#include <complex.h>
#include <stddef.h>
#include <stdio.h>
#include "mpiimpl.h"
#include "mpid_external32.h"

MPID_Datatype MPID_Builtin_types[MPID_BUILTIN_TYPE_MAX];

typedef struct {
    MPI_Datatype handle;
    const char *name;
    int align;
    /* pair types (value, index) laid out like the C struct { value; index; } */
    MPI_Datatype value_type, index_type;
    MPI_Aint index_offset, pair_extent;
} Builtin;

#define BASIC(h, ctype) { h, #h, _Alignof(ctype), 0, 0, 0, 0 }
#define PAIR(h, vtype, itype, vh, ih) \
    { h, #h, _Alignof(struct { vtype v; itype i; }), vh, ih, \
      offsetof(struct { vtype v; itype i; }, i), sizeof(struct { vtype v; itype i; }) }

/* Fortran types by the C types of the same size and alignment (gfortran's).
 * In mpi.h MPI_LONG_LONG shares the handle of MPI_LONG_LONG_INT, and MPI_C_COMPLEX that of
 * MPI_C_FLOAT_COMPLEX; a shared handle is named after the type listed first in MPI 4.1 Table 3.2
 * (MPICH's test suite expects "MPI_C_COMPLEX" too). */
static const Builtin builtins[] = {
    BASIC(MPI_CHAR, char), BASIC(MPI_SIGNED_CHAR, signed char), BASIC(MPI_UNSIGNED_CHAR, unsigned char),
    BASIC(MPI_BYTE, unsigned char), BASIC(MPI_WCHAR, wchar_t), BASIC(MPI_SHORT, short),
    BASIC(MPI_UNSIGNED_SHORT, unsigned short), BASIC(MPI_INT, int), BASIC(MPI_UNSIGNED, unsigned),
    BASIC(MPI_LONG, long), BASIC(MPI_UNSIGNED_LONG, unsigned long), BASIC(MPI_LONG_LONG_INT, long long),
    BASIC(MPI_UNSIGNED_LONG_LONG, unsigned long long), BASIC(MPI_FLOAT, float), BASIC(MPI_DOUBLE, double),
    BASIC(MPI_LONG_DOUBLE, long double), BASIC(MPI_C_BOOL, _Bool), BASIC(MPI_INT8_T, int8_t),
    BASIC(MPI_INT16_T, int16_t), BASIC(MPI_INT32_T, int32_t), BASIC(MPI_INT64_T, int64_t),
    BASIC(MPI_UINT8_T, uint8_t), BASIC(MPI_UINT16_T, uint16_t), BASIC(MPI_UINT32_T, uint32_t),
    BASIC(MPI_UINT64_T, uint64_t), BASIC(MPI_AINT, MPI_Aint), BASIC(MPI_COUNT, MPI_Count),
    BASIC(MPI_OFFSET, MPI_Offset), BASIC(MPI_C_COMPLEX, float _Complex),
    BASIC(MPI_C_DOUBLE_COMPLEX, double _Complex), BASIC(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex),
    BASIC(MPI_PACKED, unsigned char), BASIC(MPI_CXX_BOOL, _Bool),
    BASIC(MPI_CXX_FLOAT_COMPLEX, float _Complex), BASIC(MPI_CXX_DOUBLE_COMPLEX, double _Complex),
    BASIC(MPI_CXX_LONG_DOUBLE_COMPLEX, long double _Complex),
    BASIC(MPI_CHARACTER, char), BASIC(MPI_LOGICAL, int), BASIC(MPI_INTEGER, int), BASIC(MPI_REAL, float),
    BASIC(MPI_DOUBLE_PRECISION, double), BASIC(MPI_COMPLEX, float _Complex),
    BASIC(MPI_DOUBLE_COMPLEX, double _Complex), BASIC(MPI_INTEGER1, int8_t), BASIC(MPI_INTEGER2, int16_t),
    BASIC(MPI_INTEGER4, int32_t), BASIC(MPI_INTEGER8, int64_t), BASIC(MPI_INTEGER16, __int128),
    BASIC(MPI_REAL2, int16_t), BASIC(MPI_REAL4, float), BASIC(MPI_REAL8, double),
    BASIC(MPI_REAL16, long double), BASIC(MPI_COMPLEX4, int16_t), BASIC(MPI_COMPLEX8, float _Complex),
    BASIC(MPI_COMPLEX16, double _Complex), BASIC(MPI_COMPLEX32, long double _Complex),
    PAIR(MPI_FLOAT_INT, float, int, MPI_FLOAT, MPI_INT),
    PAIR(MPI_DOUBLE_INT, double, int, MPI_DOUBLE, MPI_INT),
    PAIR(MPI_LONG_INT, long, int, MPI_LONG, MPI_INT),
    PAIR(MPI_2INT, int, int, MPI_INT, MPI_INT),
    PAIR(MPI_SHORT_INT, short, int, MPI_SHORT, MPI_INT),
    PAIR(MPI_LONG_DOUBLE_INT, long double, int, MPI_LONG_DOUBLE, MPI_INT),
    PAIR(MPI_2REAL, float, float, MPI_REAL, MPI_REAL),
    PAIR(MPI_2DOUBLE_PRECISION, double, double, MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION),
    PAIR(MPI_2INTEGER, int, int, MPI_INTEGER, MPI_INTEGER),
    { MPI_LB, "MPI_LB", 0, 0, 0, 0, 0 },
    { MPI_UB, "MPI_UB", 0, 0, 0, 0, 0 },
};

static int type_size(MPI_Datatype h)
{
    return (int) (((unsigned) h >> 8) & 0xff);
}

/* The signature hash of one basic type: its handle, mixed (splitmix64's finaliser). */
static uint64_t basic_sig(MPI_Datatype h)
{
    uint64_t z = (uint64_t) (unsigned) h + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void init_record(const Builtin *b)
{
    MPID_Datatype *dt = &MPID_Builtin_types[MPIR_BUILTIN_INDEX(b->handle)];
    int size = type_size(b->handle);
    atomic_store(&dt->obj.handle, b->handle);
    atomic_store(&dt->obj.ref_count, 1);
    atomic_store(&dt->user_refs, 1);
    snprintf(dt->name, sizeof dt->name, "%s", b->name);
    dt->size = size;
    dt->align = b->align;
    dt->depth = 1;
    dt->is_permanent = 1;
    dt->is_committed = 1;
    dt->ext32_size = MPID_External32_basic_size(b->handle);
    if (b->handle == MPI_LB || b->handle == MPI_UB) {
        /* markers: no data, no extent, only a sticky bound */
        dt->has_sticky_lb = b->handle == MPI_LB;
        dt->has_sticky_ub = b->handle == MPI_UB;
        dt->basic_type = MPI_DATATYPE_NULL;
        dt->is_contig = 1;
        return;
    }
    if (b->value_type) {
        int vsize = type_size(b->value_type), isize = type_size(b->index_type);
        dt->n_elements = 2;
        dt->sig_hash = MPID_Sig_concat(basic_sig(b->value_type), basic_sig(b->index_type), 1);
        dt->basic_type = b->value_type == b->index_type ? b->value_type : MPI_DATATYPE_NULL;
        dt->ub = dt->extent = b->pair_extent;
        dt->true_ub = b->index_offset + isize;
        dt->is_contig = b->index_offset == vsize && dt->true_ub == dt->extent;
        return;
    }
    dt->n_elements = 1;
    dt->sig_hash = basic_sig(b->handle);
    dt->basic_type = b->handle;
    dt->ub = dt->extent = dt->true_ub = size;
    dt->is_contig = 1;
}

void MPID_Builtin_init(void)
{
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        init_record(&builtins[i]);
}

const char *MPID_Builtin_name(MPI_Datatype type)
{
    if (MPIR_HANDLE_KIND(type) != MPIR_KIND_BUILTIN || MPIR_HANDLE_CLASS(type) != MPIR_CLASS_DATATYPE)
        return NULL;
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (builtins[i].handle == type)
            return builtins[i].name;
    return NULL;
}

/* The predefined pair type made of (value, index), or MPI_DATATYPE_NULL. */
MPI_Datatype MPID_Builtin_pair(MPI_Datatype value_type, MPI_Datatype index_type)
{
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (builtins[i].value_type == value_type && builtins[i].index_type == index_type && value_type)
            return builtins[i].handle;
    return MPI_DATATYPE_NULL;
}

bool MPID_Builtin_pair_layout(MPI_Datatype type, MPI_Datatype *value_type, MPI_Datatype *index_type,
                              MPI_Aint *index_offset)
{
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (builtins[i].handle == type && builtins[i].value_type) {
            *value_type = builtins[i].value_type;
            *index_type = builtins[i].index_type;
            *index_offset = builtins[i].index_offset;
            return true;
        }
    return false;
}
