/*
 * Groups made from groups: MPI_Group_incl/excl, their range forms, union, intersection,
 * difference, and MPI_Group_translate_ranks.
 *
 * Every result keeps the order the standard prescribes (MPI 4.1, 7.3.2): incl follows the ranks
 * argument; excl, intersection and difference keep the order of the first group; union lists the
 * first group, then the members of the second that are not in the first, in their order.
 * Membership tests go through a world-sized table (MPIR_Group_rank_map), so each operation is
 * linear in the sizes involved.
 */
#include "mpiimpl.h"
#include "mpir_impl_proto.h"
#include "group.h"

/* Builds the group of the n world ranks in lpids and hands it to the user. */
static int publish(const int *lpids, int n, MPI_Group *newgroup)
{
    MPIR_Group *g;
    int err = MPIR_Group_make(lpids, n, &g);
    if (err == MPI_SUCCESS)
        *newgroup = MPIR_Group_publish(g);
    return err;
}

/* Checks that rank r (the what-th given) is a rank of g not seen before, and marks it seen. */
static int check_rank(const MPIR_Group *g, long long r, const char *what, long long index, bool *seen)
{
    if (r < 0 || r >= g->size)
        return MPIR_Err(MPI_ERR_RANK, "%s[%lld] = %lld is not a rank of the group (size %d)", what, index, r,
                        g->size);
    if (seen[r])
        return MPIR_Err(MPI_ERR_RANK, "%s[%lld] = %lld appears more than once", what, index, r);
    seen[r] = true;
    return MPI_SUCCESS;
}

/* Marks the n ranks (which must be valid and distinct) in a new table of g->size flags. */
static int mark_ranks(const MPIR_Group *g, int n, const int *ranks, bool **seenp)
{
    if (n < 0)
        return MPIR_Err(MPI_ERR_ARG, "invalid n = %d, must be non-negative", n);
    bool *seen = calloc((size_t) g->size + 1, sizeof *seen);
    MPIR_CHKMEM(seen);
    for (int i = 0; i < n; i++) {
        int err = check_rank(g, ranks[i], "ranks", i, seen);
        if (err) {
            free(seen);
            return err;
        }
    }
    *seenp = seen;
    return MPI_SUCCESS;
}

/* Expands (first, last, stride) triplets into the ranks they name, in order, into *out (at most
 * g->size of them, since they must be distinct), and marks them in *seenp. */
static int expand_ranges(const MPIR_Group *g, int n, const int ranges[][3], int **out, int *count, bool **seenp)
{
    if (n < 0)
        return MPIR_Err(MPI_ERR_ARG, "invalid n = %d, must be non-negative", n);
    if (n > 0 && ranges == NULL)
        return MPIR_Err(MPI_ERR_ARG, "ranges is NULL");
    bool *seen = calloc((size_t) g->size + 1, sizeof *seen);
    int *list = malloc(((size_t) g->size + 1) * sizeof *list);
    int err = MPI_SUCCESS, k = 0;
    if (seen == NULL || list == NULL)
        err = MPIR_Err(MPI_ERR_NO_MEM, "out of memory");
    for (int i = 0; i < n && err == MPI_SUCCESS; i++) {
        long long first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (stride == 0) {
            err = MPIR_Err(MPI_ERR_ARG, "ranges[%d] has stride 0", i);
        } else if ((stride > 0 && first > last) || (stride < 0 && first < last)) {
            err = MPIR_Err(MPI_ERR_ARG, "ranges[%d] = (%lld, %lld, %lld) runs against its stride", i, first, last,
                           stride);
        } else {
            /* 64-bit steps: first + stride may pass INT_MAX before the loop ends */
            for (long long r = first; (stride > 0 ? r <= last : r >= last) && err == MPI_SUCCESS; r += stride) {
                err = check_rank(g, r, "ranges", i, seen);
                if (err == MPI_SUCCESS)
                    list[k++] = (int) r;
            }
        }
    }
    if (err) {
        free(seen);
        free(list);
        return err;
    }
    *out = list;
    *count = k;
    *seenp = seen;
    return MPI_SUCCESS;
}

/* The members of g whose ranks are not marked, in order. */
static int publish_unmarked(const MPIR_Group *g, const bool *seen, MPI_Group *newgroup)
{
    int *lpids = malloc(((size_t) g->size + 1) * sizeof *lpids);
    MPIR_CHKMEM(lpids);
    int n = 0;
    for (int r = 0; r < g->size; r++)
        if (!seen[r])
            lpids[n++] = g->lpids[r];
    int err = publish(lpids, n, newgroup);
    free(lpids);
    return err;
}

/* The members of g at the n given ranks, in that order. */
static int publish_ranks(const MPIR_Group *g, const int *ranks, int n, MPI_Group *newgroup)
{
    int *lpids = malloc(((size_t) n + 1) * sizeof *lpids);
    MPIR_CHKMEM(lpids);
    for (int i = 0; i < n; i++)
        lpids[i] = g->lpids[ranks[i]];
    int err = publish(lpids, n, newgroup);
    free(lpids);
    return err;
}

/* MPI_Group_incl (incl) and MPI_Group_excl: the members at the given ranks, in their order, or all the
 * others, in group order. */
static int select_ranks(MPI_Group group, int n, const int *ranks, bool incl, MPI_Group *newgroup)
{
    MPIR_Group *g = MPIR_Group_lookup(group);
    bool *seen = NULL;      /* set on success; initialized for -Wmaybe-uninitialized */
    int err = mark_ranks(g, n, ranks, &seen);
    if (err)
        return err;
    err = incl ? publish_ranks(g, ranks, n, newgroup) : publish_unmarked(g, seen, newgroup);
    free(seen);
    return err;
}

/* Their range forms: the same with the ranks the triplets name. */
static int select_ranges(MPI_Group group, int n, int (*ranges)[3], bool incl, MPI_Group *newgroup)
{
    MPIR_Group *g = MPIR_Group_lookup(group);
    int *list = NULL, count = 0;
    bool *seen = NULL;      /* set on success; initialized for -Wmaybe-uninitialized */
    int err = expand_ranges(g, n, (const int (*)[3]) ranges, &list, &count, &seen);
    if (err)
        return err;
    err = incl ? publish_ranks(g, list, count, newgroup) : publish_unmarked(g, seen, newgroup);
    free(list);
    free(seen);
    return err;
}

int MPIR_Group_incl_impl(MPI_Group group, int n, const int *ranks, MPI_Group *newgroup)
{
    return select_ranks(group, n, ranks, true, newgroup);
}

int MPIR_Group_excl_impl(MPI_Group group, int n, const int *ranks, MPI_Group *newgroup)
{
    return select_ranks(group, n, ranks, false, newgroup);
}

int MPIR_Group_range_incl_impl(MPI_Group group, int n, int (*ranges)[3], MPI_Group *newgroup)
{
    return select_ranges(group, n, ranges, true, newgroup);
}

int MPIR_Group_range_excl_impl(MPI_Group group, int n, int (*ranges)[3], MPI_Group *newgroup)
{
    return select_ranges(group, n, ranges, false, newgroup);
}

enum set_op { UNION, INTERSECTION, DIFFERENCE };

static int set_operation(MPI_Group group1, MPI_Group group2, enum set_op op, MPI_Group *newgroup)
{
    MPIR_Group *a = MPIR_Group_lookup(group1), *b = MPIR_Group_lookup(group2);
    int *in_b, *lpids = malloc(((size_t) a->size + (size_t) b->size + 1) * sizeof *lpids);
    MPIR_CHKMEM(lpids);
    int err = MPIR_Group_rank_map(b, &in_b);
    if (err) {
        free(lpids);
        return err;
    }
    int n = 0;
    for (int r = 0; r < a->size; r++) {
        bool member = in_b[a->lpids[r]] >= 0;
        if (op == UNION || (op == INTERSECTION) == member)
            lpids[n++] = a->lpids[r];
        in_b[a->lpids[r]] = -2;     /* union: already listed */
    }
    if (op == UNION)
        for (int r = 0; r < b->size; r++)
            if (in_b[b->lpids[r]] != -2)
                lpids[n++] = b->lpids[r];
    free(in_b);
    err = publish(lpids, n, newgroup);
    free(lpids);
    return err;
}

int MPIR_Group_union_impl(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return set_operation(group1, group2, UNION, newgroup);
}

int MPIR_Group_intersection_impl(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return set_operation(group1, group2, INTERSECTION, newgroup);
}

int MPIR_Group_difference_impl(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return set_operation(group1, group2, DIFFERENCE, newgroup);
}

int MPIR_Group_translate_ranks_impl(MPI_Group group1, int n, const int *ranks1, MPI_Group group2, int *ranks2)
{
    MPIR_Group *a = MPIR_Group_lookup(group1), *b = MPIR_Group_lookup(group2);
    if (n < 0)
        return MPIR_Err(MPI_ERR_ARG, "invalid n = %d, must be non-negative", n);
    for (int i = 0; i < n; i++)
        if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= a->size))
            return MPIR_Err(MPI_ERR_RANK, "ranks1[%d] = %d is not a rank of group1 (size %d)", i, ranks1[i],
                            a->size);
    int *in_b;
    int err = MPIR_Group_rank_map(b, &in_b);
    if (err)
        return err;
    for (int i = 0; i < n; i++) {
        if (ranks1[i] == MPI_PROC_NULL) {
            ranks2[i] = MPI_PROC_NULL;
        } else {
            int r = in_b[a->lpids[ranks1[i]]];
            ranks2[i] = r >= 0 ? r : MPI_UNDEFINED;
        }
    }
    free(in_b);
    return MPI_SUCCESS;
}
