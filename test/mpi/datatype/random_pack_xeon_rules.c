/*
 * random_pack.c with the copy kernels' rules for other processors (copy_kernels.c: amd_host; the
 * 16-byte unpack of blocks whole pages apart, no lead prefetch when packing) whatever the
 * processor: the testlist line sets LOOM_RULES=intel, so that an AMD machine runs those loops too.
 * The same source, under a name of its own for the runner.
 */
#include "random_pack.c"
