/*
 * typetree: builds a nested derived datatype, prints its size and bounds, then prints the tree of
 * constructor calls it was made from, recovered with MPI_Type_get_envelope/MPI_Type_get_contents.
 *
 *     mpicc typetree.c -o typetree && mpiexec -n 1 ./typetree
 *
 * The decoder knows every combiner of MPI 4.1 for types made by the int-count constructors (types
 * made by the MPI_Type_*_c constructors keep their counts in the large-count array, which only
 * MPI_Type_get_contents_c returns). Each datatype that MPI_Type_get_contents hands back is a new
 * handle the caller must free, unless it is predefined (named or made by MPI_Type_create_f90_*).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static const char *combiner_name(int combiner)
{
    switch (combiner) {
    case MPI_COMBINER_NAMED: return "NAMED";
    case MPI_COMBINER_DUP: return "DUP";
    case MPI_COMBINER_CONTIGUOUS: return "CONTIGUOUS";
    case MPI_COMBINER_VECTOR: return "VECTOR";
    case MPI_COMBINER_HVECTOR_INTEGER: return "HVECTOR_INTEGER";
    case MPI_COMBINER_HVECTOR: return "HVECTOR";
    case MPI_COMBINER_INDEXED: return "INDEXED";
    case MPI_COMBINER_HINDEXED_INTEGER: return "HINDEXED_INTEGER";
    case MPI_COMBINER_HINDEXED: return "HINDEXED";
    case MPI_COMBINER_INDEXED_BLOCK: return "INDEXED_BLOCK";
    case MPI_COMBINER_HINDEXED_BLOCK: return "HINDEXED_BLOCK";
    case MPI_COMBINER_STRUCT_INTEGER: return "STRUCT_INTEGER";
    case MPI_COMBINER_STRUCT: return "STRUCT";
    case MPI_COMBINER_SUBARRAY: return "SUBARRAY";
    case MPI_COMBINER_DARRAY: return "DARRAY";
    case MPI_COMBINER_F90_REAL: return "F90_REAL";
    case MPI_COMBINER_F90_COMPLEX: return "F90_COMPLEX";
    case MPI_COMBINER_F90_INTEGER: return "F90_INTEGER";
    case MPI_COMBINER_RESIZED: return "RESIZED";
#ifdef MPI_COMBINER_VALUE_INDEX   /* new in MPI 4.1 */
    case MPI_COMBINER_VALUE_INDEX: return "VALUE_INDEX";
#endif
    default: return "UNKNOWN";
    }
}

static void print_ints(FILE *out, const char *label, const int *v, int n)
{
    fprintf(out, " %s=[", label);
    for (int k = 0; k < n; k++)
        fprintf(out, "%s%d", k ? "," : "", v[k]);
    fputc(']', out);
}

static void print_addrs(FILE *out, const char *label, const MPI_Aint *v, int n)
{
    fprintf(out, " %s=[", label);
    for (int k = 0; k < n; k++)
        fprintf(out, "%s%ld", k ? "," : "", (long) v[k]);
    fputc(']', out);
}

static const char *order_name(int order)
{
    return order == MPI_ORDER_C ? "C" : order == MPI_ORDER_FORTRAN ? "FORTRAN" : "?";
}

static void print_darray_args(FILE *out, const int *i)
{
    int ndims = i[2];
    const int *distribs = i + 3 + ndims, *dargs = i + 3 + 2 * ndims;
    fprintf(out, " size=%d rank=%d ndims=%d", i[0], i[1], ndims);
    print_ints(out, "gsizes", i + 3, ndims);
    fprintf(out, " distribs=[");
    for (int k = 0; k < ndims; k++)
        fprintf(out, "%s%s", k ? "," : "", distribs[k] == MPI_DISTRIBUTE_BLOCK ? "BLOCK" :
                distribs[k] == MPI_DISTRIBUTE_CYCLIC ? "CYCLIC" : "NONE");
    fprintf(out, "] dargs=[");
    for (int k = 0; k < ndims; k++) {
        if (dargs[k] == MPI_DISTRIBUTE_DFLT_DARG)
            fprintf(out, "%sDFLT", k ? "," : "");
        else
            fprintf(out, "%s%d", k ? "," : "", dargs[k]);
    }
    fputc(']', out);
    print_ints(out, "psizes", i + 3 + 3 * ndims, ndims);
    fprintf(out, " order=%s", order_name(i[3 + 4 * ndims]));
}

/* The constructor's arguments, in the layout of the standard's table for this combiner. */
static void print_args(FILE *out, int combiner, const int *i, const MPI_Aint *a)
{
    switch (combiner) {
    case MPI_COMBINER_CONTIGUOUS:
        fprintf(out, " count=%d", i[0]);
        break;
    case MPI_COMBINER_VECTOR:
        fprintf(out, " count=%d blocklength=%d stride=%d", i[0], i[1], i[2]);
        break;
    case MPI_COMBINER_HVECTOR:
    case MPI_COMBINER_HVECTOR_INTEGER:
        fprintf(out, " count=%d blocklength=%d stride=%ld", i[0], i[1], (long) a[0]);
        break;
    case MPI_COMBINER_INDEXED:
        fprintf(out, " count=%d", i[0]);
        print_ints(out, "blocklengths", i + 1, i[0]);
        print_ints(out, "displacements", i + 1 + i[0], i[0]);
        break;
    case MPI_COMBINER_HINDEXED:
    case MPI_COMBINER_HINDEXED_INTEGER:
    case MPI_COMBINER_STRUCT:
    case MPI_COMBINER_STRUCT_INTEGER:
        fprintf(out, " count=%d", i[0]);
        print_ints(out, "blocklengths", i + 1, i[0]);
        print_addrs(out, "displacements", a, i[0]);
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        fprintf(out, " count=%d blocklength=%d", i[0], i[1]);
        print_ints(out, "displacements", i + 2, i[0]);
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        fprintf(out, " count=%d blocklength=%d", i[0], i[1]);
        print_addrs(out, "displacements", a, i[0]);
        break;
    case MPI_COMBINER_SUBARRAY:
        fprintf(out, " ndims=%d", i[0]);
        print_ints(out, "sizes", i + 1, i[0]);
        print_ints(out, "subsizes", i + 1 + i[0], i[0]);
        print_ints(out, "starts", i + 1 + 2 * i[0], i[0]);
        fprintf(out, " order=%s", order_name(i[1 + 3 * i[0]]));
        break;
    case MPI_COMBINER_DARRAY:
        print_darray_args(out, i);
        break;
    case MPI_COMBINER_F90_REAL:
    case MPI_COMBINER_F90_COMPLEX:
        fprintf(out, " p=%d r=%d", i[0], i[1]);
        break;
    case MPI_COMBINER_F90_INTEGER:
        fprintf(out, " r=%d", i[0]);
        break;
    case MPI_COMBINER_RESIZED:
        fprintf(out, " lb=%ld extent=%ld", (long) a[0], (long) a[1]);
        break;
    default:    /* DUP and VALUE_INDEX have only datatype arguments */
        break;
    }
}

static int is_predefined(MPI_Datatype type)
{
    int ni, na, nd, combiner;
    MPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
    return combiner == MPI_COMBINER_NAMED || combiner == MPI_COMBINER_F90_REAL ||
           combiner == MPI_COMBINER_F90_COMPLEX || combiner == MPI_COMBINER_F90_INTEGER;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n > 0 ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "typetree: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* Prints one line per constructor, children indented beneath their parent. */
static void print_type_tree(FILE *out, MPI_Datatype type, int depth)
{
    int ni, na, nd, combiner, len;
    char name[MPI_MAX_OBJECT_NAME];

    MPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
    MPI_Type_get_name(type, name, &len);
    fprintf(out, "%*s", 2 * depth, "");
    if (combiner == MPI_COMBINER_NAMED) {   /* a leaf: get_contents is erroneous here */
        fprintf(out, "%s\n", name);
        return;
    }

    int *ints = xmalloc(ni * sizeof(int));
    MPI_Aint *addrs = xmalloc(na * sizeof(MPI_Aint));
    MPI_Datatype *types = xmalloc(nd * sizeof(MPI_Datatype));
    MPI_Type_get_contents(type, ni, na, nd, ints, addrs, types);

    fprintf(out, "%s", combiner_name(combiner));
    print_args(out, combiner, ints, addrs);
    if (len > 0)
        fprintf(out, " name=\"%s\"", name);
    fputc('\n', out);
    for (int k = 0; k < nd; k++) {
        print_type_tree(out, types[k], depth + 1);
        if (!is_predefined(types[k]))
            MPI_Type_free(&types[k]);
    }
    free(ints);
    free(addrs);
    free(types);
}

/*
 * A block of two particle records, a 2x3 patch of a 4x6 float grid and some packed shorts:
 *   particle = { int id at 0; doubles at 8, 40, 72 (every other 16-byte slot) }
 * Resized types and subarrays carry explicit lower- and upper-bound markers, and where a type
 * map holds such markers its bounds come from them alone (MPI 4.1, "Lower-Bound and Upper-Bound
 * Markers"). So a particle spans [8, 88) (its slots; the int before them does not count), the
 * block spans [8, 296) (first slot to the end of the grid; the shorts beyond are outside), and
 * only the true extent, [0, 328), covers every byte of data.
 */
static MPI_Datatype build_example_type(void)
{
    MPI_Datatype padded, coords, particle, patch, pair, shorts, block;

    MPI_Type_create_resized(MPI_DOUBLE, 0, 16, &padded);          /* a double in a 16-byte slot */
    MPI_Type_vector(3, 1, 2, padded, &coords);                     /* slots 0, 2 and 4 */
    MPI_Type_create_struct(2, (int[]) {1, 1}, (MPI_Aint[]) {0, 8},
                           (MPI_Datatype[]) {MPI_INT, coords}, &particle);

    MPI_Type_create_subarray(2, (int[]) {4, 6}, (int[]) {2, 3}, (int[]) {1, 2},
                             MPI_ORDER_C, MPI_FLOAT, &patch);

    MPI_Type_contiguous(2, MPI_SHORT, &pair);
    MPI_Type_create_hindexed(2, (int[]) {1, 3}, (MPI_Aint[]) {0, 16}, pair, &shorts);

    MPI_Type_create_struct(3, (int[]) {2, 1, 1}, (MPI_Aint[]) {0, 200, 300},
                           (MPI_Datatype[]) {particle, patch, shorts}, &block);
    MPI_Type_set_name(block, "block");
    MPI_Type_commit(&block);

    /* The parts may be freed now: block keeps what it needs of them. */
    MPI_Datatype parts[] = {padded, coords, particle, patch, pair, shorts};
    for (int k = 0; k < 6; k++)
        MPI_Type_free(&parts[k]);
    return block;
}

static void print_bounds(FILE *out, MPI_Datatype type)
{
    int size;
    MPI_Aint lb, extent, true_lb, true_extent;

    MPI_Type_size(type, &size);
    MPI_Type_get_extent(type, &lb, &extent);
    MPI_Type_get_true_extent(type, &true_lb, &true_extent);
    fprintf(out, "size %d, lb %ld, extent %ld, true lb %ld, true extent %ld\n",
            size, (long) lb, (long) extent, (long) true_lb, (long) true_extent);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);

    MPI_Datatype block = build_example_type();
    print_bounds(stdout, block);
    print_type_tree(stdout, block, 0);
    MPI_Type_free(&block);

    MPI_Finalize();
    return 0;
}
