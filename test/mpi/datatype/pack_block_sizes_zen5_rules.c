/*
 * pack_block_sizes.c with the copy kernels' rules for Zen 5 whatever the processor (the testlist
 * line sets LOOM_RULES=zen5): blocks of 2112 bytes and more, packed and unpacked, go to string
 * moves (copy_kernels.c: string_blocks) unless the blocks fall in the same L2 sets. The same
 * source, under a name of its own for the runner.
 */
#include "pack_block_sizes.c"
