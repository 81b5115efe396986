/*
 * random_pack.c with the unpack store throttle of copy_kernels.c (scratch_stores) turned off
 * whatever the processor (the testlist line sets LOOM_STORE_THROTTLE=0), the path that AMD
 * processors do not take by default. The same source, under a name of its own for the runner.
 */
#include "random_pack.c"
