/*
 * Reduction operations (MPI_Op): the predefined ones and those users create.
 *
 * Predefined operations are builtin handles (mpi.h: MPI_MAX .. MPI_NO_OP) with static records;
 * user operations live in a pool. Applying an operation always means inout = in op inout, element
 * by element, in that order (it matters for non-commutative user operations).
 *
 * A predefined operation is defined on a datatype when it is defined on the type's element type:
 * the predefined type itself, or for a derived type the one basic type it is made of (or, for
 * MPI_MINLOC/MPI_MAXLOC, the one pair type such as MPI_2INT it is made of). Derived buffers are
 * packed to that element type, reduced, and unpacked (src/mpi/op/op_apply.c).
 */
#ifndef MPIR_OP_H_INCLUDED
#define MPIR_OP_H_INCLUDED

#include <stdbool.h>
#include "mpi.h"
#include "mpir_object.h"

typedef struct MPIR_Op {
    MPIR_Object obj;
    bool commutative;
    MPI_User_function *fn;          /* user operations: one of the two is set */
    MPI_User_function_c *fn_c;
} MPIR_Op;

/* The record of a predefined or live user operation, else NULL (MPI_OP_NULL, freed, garbage). */
MPIR_Op *MPIR_Op_lookup(MPI_Op op);
/* A printable name for error messages: "MPI_SUM", "operation 0x94000001". */
const char *MPIR_Op_str(MPI_Op op, char *buf);

static inline bool MPIR_Op_is_builtin(MPI_Op op)
{
    return MPIR_HANDLE_KIND(op) == MPIR_KIND_BUILTIN;
}

/* MPI_SUCCESS when op may reduce count elements of type in a reduction (the binding has checked
 * op and type); MPI_ERR_OP with a reason when a predefined op is not defined on the type, or is
 * MPI_REPLACE/MPI_NO_OP (one-sided operations only). */
int MPIR_Op_check(MPI_Op op, MPI_Datatype type);

/* inout = in op inout for count elements of type (typed buffers, derived types allowed). The
 * caller has checked the pair with MPIR_Op_check, except that MPI_REPLACE and MPI_NO_OP are
 * accepted here (for accumulate). */
int MPIR_Op_apply(const void *in, void *inout, MPI_Count count, MPI_Datatype type, MPI_Op op);
/* The same with in the packed stream of (count, type), as a pack or an MPI_PACKED receive gives it
 * (the one-sided accumulates, whose data arrives packed). */
int MPIR_Op_apply_packed(const void *in, void *inout, MPI_Count count, MPI_Datatype type, MPI_Op op);

/* inout = in op inout with the user function of rec (a record that may be a copy, kept while the
 * handle could be freed); the int version is called on at most INT_MAX instances at a time. */
void MPIR_Op_apply_user(const MPIR_Op *rec, const void *in, void *inout, MPI_Count count, MPI_Datatype type);

/* Called by MPI_Finalize: frees the user operations (reporting leaks like the datatypes do). */
void MPIR_Op_finalize(void);

#endif
