/*
 * random_pack.c with the copy kernels' rules for Zen 5 (copy_kernels.c: zen5_host; string moves
 * of blocks of 2112 bytes or more in both directions) whatever the processor: the testlist line
 * sets LOOM_RULES=zen5, so that a CI machine of another make runs those loops too. The same
 * source, under a name of its own for the runner; 1000 types from seed 2001 (the testlist line),
 * other types than random_pack's.
 */
#include "random_pack.c"
