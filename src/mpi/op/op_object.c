/*
 * MPI_Op objects: the predefined operations (static records indexed by the low byte of their
 * handle) and user operations (a pool), with MPI_Op_create/free/commutative.
 */
#include <stdio.h>
#include "mpiimpl.h"
#include "mpir_impl_proto.h"

#define N_BUILTIN_OPS 15    /* index 0 unused; MPI_MAX is 1, MPI_NO_OP 14 */

#define BUILTIN(h) [MPIR_BUILTIN_INDEX(h)] = { .obj = { .handle = (h), .ref_count = 1 }, .commutative = true }
static MPIR_Op builtin_ops[N_BUILTIN_OPS] = {
    BUILTIN(MPI_MAX), BUILTIN(MPI_MIN), BUILTIN(MPI_SUM), BUILTIN(MPI_PROD), BUILTIN(MPI_LAND),
    BUILTIN(MPI_BAND), BUILTIN(MPI_LOR), BUILTIN(MPI_BOR), BUILTIN(MPI_LXOR), BUILTIN(MPI_BXOR),
    BUILTIN(MPI_MINLOC), BUILTIN(MPI_MAXLOC), BUILTIN(MPI_REPLACE), BUILTIN(MPI_NO_OP),
};

#define NAME(h) [MPIR_BUILTIN_INDEX(h)] = #h
static const char *const builtin_names[N_BUILTIN_OPS] = {
    NAME(MPI_MAX), NAME(MPI_MIN), NAME(MPI_SUM), NAME(MPI_PROD), NAME(MPI_LAND), NAME(MPI_BAND),
    NAME(MPI_LOR), NAME(MPI_BOR), NAME(MPI_LXOR), NAME(MPI_BXOR), NAME(MPI_MINLOC), NAME(MPI_MAXLOC),
    NAME(MPI_REPLACE), NAME(MPI_NO_OP),
};

static MPIR_Pool op_pool = MPIR_POOL_INITIALIZER(MPIR_CLASS_OP, MPIR_Op, "operation", NULL);

MPIR_Op *MPIR_Op_lookup(MPI_Op op)
{
    if (MPIR_HANDLE_KIND(op) == MPIR_KIND_BUILTIN) {
        int i = MPIR_BUILTIN_INDEX(op);
        bool ok = MPIR_HANDLE_CLASS(op) == MPIR_CLASS_OP && i > 0 && i < N_BUILTIN_OPS
            && builtin_ops[i].obj.handle == op;
        return ok ? &builtin_ops[i] : NULL;
    }
    return MPIR_Pool_lookup(&op_pool, op);
}

const char *MPIR_Op_str(MPI_Op op, char *buf)
{
    if (op == MPI_OP_NULL)
        return "MPI_OP_NULL";
    if (MPIR_Op_is_builtin(op) && MPIR_Op_lookup(op))
        return builtin_names[MPIR_BUILTIN_INDEX(op)];
    snprintf(buf, MPIR_HANDLE_STR_MAX, "operation 0x%08x", (unsigned) op);
    return buf;
}

static int create(MPI_User_function *fn, MPI_User_function_c *fn_c, int commute, MPI_Op *op)
{
    if (!fn && !fn_c)
        return MPIR_Err(MPI_ERR_ARG, "user_fn is NULL");
    MPIR_Op *rec = MPIR_Pool_alloc(&op_pool);
    if (!rec)
        return MPIR_Err(MPI_ERR_NO_MEM, "out of memory for a new operation");
    rec->fn = fn;
    rec->fn_c = fn_c;
    rec->commutative = commute != 0;
    *op = MPIR_Object_handle(rec);
    return MPI_SUCCESS;
}

int MPIR_Op_create_impl(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    return create(user_fn, NULL, commute, op);
}

int MPIR_Op_create_c_impl(MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
    return create(NULL, user_fn, commute, op);
}

int MPIR_Op_free_impl(MPI_Op *op)
{
    if (MPIR_Op_is_builtin(*op))
        return MPIR_Err(MPI_ERR_OP, "cannot free the predefined operation %s",
                        builtin_names[MPIR_BUILTIN_INDEX(*op)]);
    /* collectives complete before they return, so nothing else can hold the record */
    MPIR_Pool_free(&op_pool, MPIR_Op_lookup(*op));
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

int MPIR_Op_commutative_impl(MPI_Op op, int *commute)
{
    *commute = MPIR_Op_lookup(op)->commutative;
    return MPI_SUCCESS;
}

static void report_leak(void *obj, void *arg)
{
    int *count = arg;
    fprintf(stderr, "Loom MPI: operation 0x%08x was never freed\n", (unsigned) MPIR_Object_handle(obj));
    ++*count;
}

void MPIR_Op_finalize(void)
{
    /* LOOM_REPORT_LEAKS=1 lists the user operations the program never freed */
    const char *report = getenv("LOOM_REPORT_LEAKS");
    if (report && *report && *report != '0') {
        int count = 0;
        MPIR_Pool_foreach(&op_pool, report_leak, &count);
    }
}
