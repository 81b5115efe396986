/*
 * pack_streaming.c with the copy kernels' rules for Zen 5 whatever the processor (the testlist
 * line sets LOOM_STREAM_MIN=65536 and LOOM_RULES=zen5): 1 KiB blocks streamed with 64-byte stores
 * where the processor has AVX-512, 40-byte blocks through the ordinary kernels. The same source,
 * under a name of its own for the runner.
 */
#include "pack_streaming.c"
