/*
 * Runs the decoder of examples/typetree.c on its example type and on a type that uses the other
 * combiners, and compares the printed trees with the ones worked out by hand from the standard's
 * decoding tables (MPI 4.1, "Decoding a Datatype").
 */
#define _GNU_SOURCE     /* open_memstream */
#define main typetree_example_main
#include "../../../examples/typetree.c"
#undef main
#include "mtest.h"

#include <stdlib.h>

/* print(out, type) into a string; the caller frees it. */
static char *capture(void (*print)(FILE *, MPI_Datatype, int), MPI_Datatype type)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (out == NULL) {
        MTEST_FAIL("open_memstream failed");
        return NULL;
    }
    print(out, type, 0);
    fclose(out);
    return text;
}

static void print_bounds_depth(FILE *out, MPI_Datatype type, int depth)
{
    (void) depth;
    print_bounds(out, type);
}

static void check_text(const char *what, const char *got, const char *want)
{
    if (got == NULL || strcmp(got, want) != 0)
        MTEST_FAIL("%s: got\n%s\nexpected\n%s", what, got ? got : "(nothing)", want);
}

/* The example's type: its bounds follow from its markers (see build_example_type); MPICH 4.0
 * ignores the markers here and answers lb 0, extent 328. */
static void check_example(void)
{
    MPI_Datatype block = build_example_type();
    char *text = capture(print_bounds_depth, block);
    check_text("example bounds", text,
               "size 96, lb 8, extent 288, true lb 0, true extent 328\n");
    free(text);

    text = capture(print_type_tree, block);
    check_text("example tree", text,
               "STRUCT count=3 blocklengths=[2,1,1] displacements=[0,200,300] name=\"block\"\n"
               "  STRUCT count=2 blocklengths=[1,1] displacements=[0,8]\n"
               "    MPI_INT\n"
               "    VECTOR count=3 blocklength=1 stride=2\n"
               "      RESIZED lb=0 extent=16\n"
               "        MPI_DOUBLE\n"
               "  SUBARRAY ndims=2 sizes=[4,6] subsizes=[2,3] starts=[1,2] order=C\n"
               "    MPI_FLOAT\n"
               "  HINDEXED count=2 blocklengths=[1,3] displacements=[0,16]\n"
               "    CONTIGUOUS count=2\n"
               "      MPI_SHORT\n");
    free(text);
    MPI_Type_free(&block);
}

/* DUP, HVECTOR, INDEXED, INDEXED_BLOCK, HINDEXED_BLOCK and DARRAY, freed before decoding. */
static void check_other_combiners(void)
{
    MPI_Datatype idx, hvec, iblk, hblk, darr, mix, dup;

    CHECK_MPI(MPI_Type_indexed(2, (int[]) {1, 2}, (int[]) {0, 3}, MPI_INT, &idx));
    CHECK_MPI(MPI_Type_create_hvector(2, 1, 24, idx, &hvec));
    CHECK_MPI(MPI_Type_create_indexed_block(2, 2, (int[]) {0, 5}, MPI_INT, &iblk));
    CHECK_MPI(MPI_Type_create_hindexed_block(2, 1, (MPI_Aint[]) {0, 16}, MPI_DOUBLE, &hblk));
    CHECK_MPI(MPI_Type_create_darray(4, 1, 1, (int[]) {8}, (int[]) {MPI_DISTRIBUTE_BLOCK},
                                     (int[]) {MPI_DISTRIBUTE_DFLT_DARG}, (int[]) {4},
                                     MPI_ORDER_C, MPI_CHAR, &darr));
    CHECK_MPI(MPI_Type_create_struct(4, (int[]) {1, 1, 1, 1}, (MPI_Aint[]) {0, 64, 128, 192},
                                     (MPI_Datatype[]) {hvec, iblk, hblk, darr}, &mix));
    CHECK_MPI(MPI_Type_dup(mix, &dup));
    MPI_Datatype parts[] = {idx, hvec, iblk, hblk, darr, mix};
    for (int k = 0; k < 6; k++)
        CHECK_MPI(MPI_Type_free(&parts[k]));

    char *text = capture(print_type_tree, dup);
    check_text("tree of the other combiners", text,
               "DUP\n"
               "  STRUCT count=4 blocklengths=[1,1,1,1] displacements=[0,64,128,192]\n"
               "    HVECTOR count=2 blocklength=1 stride=24\n"
               "      INDEXED count=2 blocklengths=[1,2] displacements=[0,3]\n"
               "        MPI_INT\n"
               "    INDEXED_BLOCK count=2 blocklength=2 displacements=[0,5]\n"
               "      MPI_INT\n"
               "    HINDEXED_BLOCK count=2 blocklength=1 displacements=[0,16]\n"
               "      MPI_DOUBLE\n"
               "    DARRAY size=4 rank=1 ndims=1 gsizes=[8] distribs=[BLOCK] dargs=[DFLT] psizes=[4] order=C\n"
               "      MPI_CHAR\n");
    free(text);
    CHECK_MPI(MPI_Type_free(&dup));
}

/* The F90 types are predefined (never freed) but decode to their (p, r) arguments. */
static void check_f90(void)
{
    MPI_Datatype real, integer;
    const char *want_real = "F90_REAL p=6 r=30", *want_int = "F90_INTEGER r=4";

    CHECK_MPI(MPI_Type_create_f90_real(6, 30, &real));
    CHECK_MPI(MPI_Type_create_f90_integer(4, &integer));
    CHECK(is_predefined(real) && is_predefined(integer), "f90 types must decode as predefined");
    char *text = capture(print_type_tree, real);
    CHECK(text && strncmp(text, want_real, strlen(want_real)) == 0, "got %s", text);
    free(text);
    text = capture(print_type_tree, integer);
    CHECK(text && strncmp(text, want_int, strlen(want_int)) == 0, "got %s", text);
    free(text);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    check_example();
    check_other_combiners();
    check_f90();
    return MTest_Finalize();
}
