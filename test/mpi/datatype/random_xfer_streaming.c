/*
 * random_xfer.c with every receive written through the streaming stores of buffers beyond the
 * last-level cache (copy_kernels.h): the testlist line sets LOOM_STREAM_MIN=0, so that the device's
 * unpacks of these small messages, contiguous or not, take that path. The same source, under a
 * name of its own for the runner.
 */
#include "random_xfer.c"
