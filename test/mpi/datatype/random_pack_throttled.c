/*
 * random_pack.c with the unpack store throttle of copy_kernels.c (scratch_stores) turned on
 * whatever the processor (the testlist line sets LOOM_STORE_THROTTLE=1): by default only AMD
 * processors throttle, so elsewhere those loops would go untested. The same source, under a name
 * of its own for the runner.
 */
#include "random_pack.c"
