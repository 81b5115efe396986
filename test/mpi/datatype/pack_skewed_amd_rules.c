/*
 * pack_skewed.c with the rules for Zen 4 (the kernels' loop for skewed copies only, lined-up ones
 * by glibc's memcpy), whatever the processor (the testlist line sets LOOM_RULES=zen4). The same
 * source, under a name of its own for the runner.
 */
#include "pack_skewed.c"
