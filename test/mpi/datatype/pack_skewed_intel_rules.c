/*
 * pack_skewed.c with the Xeon host's rules (skewed copies keep glibc's memcpy and the string
 * moves), whatever the processor (the testlist line sets LOOM_RULES=intel). The same source, under
 * a name of its own for the runner.
 */
#include "pack_skewed.c"
