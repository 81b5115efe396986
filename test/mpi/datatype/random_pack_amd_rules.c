/*
 * random_pack.c with the copy kernels' rules for AMD processors (copy_kernels.c: amd_host; the
 * store throttle, the lead prefetch of long packed blocks) whatever the processor: the testlist
 * line sets LOOM_RULES=zen4, so that a CI machine of another make runs those loops too. The same
 * source, under a name of its own for the runner.
 */
#include "random_pack.c"
