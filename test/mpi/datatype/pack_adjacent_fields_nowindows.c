/*
 * pack_adjacent_fields.c without the AVX-512 window kernels: the testlist line sets
 * LOOM_NO_WINDOWS=1, so the engine copies each struct as processors without AVX-512 do. The same
 * source, under a name of its own for the runner.
 */
#include "pack_adjacent_fields.c"
