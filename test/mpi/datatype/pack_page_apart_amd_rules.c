/*
 * pack_page_apart.c with the copy kernels' rules for AMD processors whatever the processor (the
 * testlist line sets LOOM_RULES=zen4), so that a CI machine of another make runs the paced pack
 * loop too. The same source, under a name of its own for the runner.
 */
#include "pack_page_apart.c"
