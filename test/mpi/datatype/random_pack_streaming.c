/*
 * random_pack.c with every pack and unpack through the streaming stores of streams beyond the
 * last-level cache (copy_kernels.h): the testlist line sets LOOM_STREAM_MIN=0, so that the random
 * types, small as they are, take that path. The same source, under a name of its own for the runner.
 */
#include "random_pack.c"
