/*
 * pack_skewed.c with the rules for Zen 5 (string moves of blocks of 2112 bytes and more, but not
 * of skewed ones), whatever the processor (the testlist line sets LOOM_RULES=zen5). The same
 * source, under a name of its own for the runner.
 */
#include "pack_skewed.c"
