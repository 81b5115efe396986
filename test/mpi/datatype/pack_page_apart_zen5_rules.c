/*
 * pack_page_apart.c with the copy kernels' rules for Zen 5 whatever the processor (the testlist
 * line sets LOOM_RULES=zen5), so that a CI machine of another make runs the joined loads and
 * stores Zen 5 uses for 8-byte blocks a page and a bit apart. The same source, under a name of its
 * own for the runner.
 */
#include "pack_page_apart.c"
