/*
 * type_mismatch.c with the signature check switched off: the testlist line sets
 * LOOM_TYPE_CHECK=0, and the program then expects every receive to succeed. The same source,
 * under a name of its own for the runner.
 */
#define TYPE_MISMATCH_NOCHECK 1
#include "type_mismatch.c"
