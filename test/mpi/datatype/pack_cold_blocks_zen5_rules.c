/*
 * pack_cold_blocks.c with the copy kernels' rules for Zen 5 whatever the processor (the testlist
 * line sets LOOM_RULES=zen5): packed blocks of 2112 bytes and more with a gap of 256 bytes or more
 * go to 64-byte moves when a call holds more than the L2 keeps (copy_kernels.c: zen5_cold_pack),
 * the others to string moves or memcpy. The same source, under a name of its own for the runner.
 */
#include "pack_cold_blocks.c"
