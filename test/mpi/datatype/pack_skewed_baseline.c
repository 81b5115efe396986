/*
 * pack_skewed.c with the baseline kernels (16-byte moves) and the rules for Zen 3 (every long copy
 * by the kernels' loop), whatever the processor (the testlist line sets LOOM_KERNELS=base and
 * LOOM_RULES=zen3). The same source, under a name of its own for the runner.
 */
#include "pack_skewed.c"
