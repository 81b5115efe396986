/*
 * The data cache sizes of this machine, read once from hwloc (mpid_device.h). Thresholds that
 * depend on the caches (the device's cell size, the chunk of long copies) are set from these.
 */
#include <hwloc.h>
#include <pthread.h>
#include "mpiimpl.h"
#include "mpid_device.h"

/* Zen 4's sizes and associativities stand in where hwloc cannot tell. */
static size_t sizes[4] = { 0, 32 << 10, 1 << 20, 32 << 20 };
static size_t ways[4] = { 0, 8, 8, 16 };
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void read_sizes(void)
{
    static const hwloc_obj_type_t levels[4] = { 0, HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE };
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0)
        return;
    if (hwloc_topology_load(topo) == 0)
        for (int level = 1; level <= 3; level++) {
            hwloc_obj_t cache = hwloc_get_obj_by_type(topo, levels[level], 0);
            if (cache && cache->attr && cache->attr->cache.size) {
                sizes[level] = cache->attr->cache.size;
                /* 0 unknown, -1 fully associative: keep the stand-in */
                if (cache->attr->cache.associativity > 0)
                    ways[level] = (size_t) cache->attr->cache.associativity;
            }
        }
    hwloc_topology_destroy(topo);
}

size_t MPID_Cache_size(int level)
{
    pthread_once(&once, read_sizes);
    return level >= 1 && level <= 3 ? sizes[level] : 0;
}

size_t MPID_Cache_set_span(int level)
{
    pthread_once(&once, read_sizes);
    return level >= 1 && level <= 3 ? sizes[level] / ways[level] : 0;
}
