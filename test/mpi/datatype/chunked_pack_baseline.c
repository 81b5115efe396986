/*
 * chunked_pack.c with the engine's baseline code paths: the testlist line sets LOOM_KERNELS=base (no AVX2
 * copy kernels) and LOOM_NO_WINDOWS=1 (no AVX-512 window kernels), which the processors CI runs on
 * would otherwise never take. The same source, under a name of its own for the runner.
 */
#include "chunked_pack.c"
