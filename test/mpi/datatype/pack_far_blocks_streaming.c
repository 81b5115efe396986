/*
 * pack_far_blocks.c with every pack and unpack through the streaming stores of streams beyond the
 * last-level cache (copy_kernels.h): the testlist line sets LOOM_STREAM_MIN=0, so that these
 * blocks, the only ones whose offsets need 64 bits, take that path too. The same source, under a
 * name of its own for the runner.
 */
#include "pack_far_blocks.c"
