/*
 * random_pack_streaming.c with the copy kernels' rules for Zen 5 whatever the processor (the
 * testlist line sets LOOM_STREAM_MIN=0 and LOOM_RULES=zen5): Zen 5 streams fewer shapes, with
 * 64-byte streaming stores where the processor has AVX-512 (copy_kernels.c: zen5_streams,
 * stream_lines), and copies the rest with the ordinary kernels inside a streamed pack. The same
 * source, under a name of its own for the runner; 1000 types from seed 2001 (the testlist line),
 * other types than random_pack's.
 */
#include "random_pack.c"
