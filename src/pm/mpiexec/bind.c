/*
 * -bind-to LEVEL: rank i runs on the (i mod n)-th of the n objects of that level (cores, NUMA
 * nodes, ...), round robin as MPICH's hydra does by default. mpiexec reads the topology once; each
 * new rank binds itself between fork and exec, so the binding holds from the rank's first
 * instruction and its memory is first touched where it will run.
 *
 * Binding is a performance hint: when the topology cannot be read or a binding fails, mpiexec
 * says so and the ranks run unbound.
 */
#include "mpiexec.h"

#include <errno.h>
#include <hwloc.h>
#include <string.h>

static const struct {
    const char *name;
    hwloc_obj_type_t type;
} levels[] = {
    { "hwthread", HWLOC_OBJ_PU },
    { "core", HWLOC_OBJ_CORE },
    { "numa", HWLOC_OBJ_NUMANODE },
    { "socket", HWLOC_OBJ_PACKAGE },
};
#define NLEVELS (int) (sizeof levels / sizeof levels[0])

static hwloc_topology_t topology;
static int level = -1;          /* index in levels when binding, else -1 */
static int nobjs;

static int find_level(const char *name)
{
    for (int i = 0; i < NLEVELS; i++)
        if (!strcmp(name, levels[i].name))
            return i;
    return -1;
}

int mpx_bind_known(const char *name)
{
    return !strcmp(name, "none") || find_level(name) >= 0;
}

void mpx_bind_init(const char *name)
{
    int l = find_level(name);
    if (l < 0)
        return;
    if (hwloc_topology_init(&topology) != 0) {
        fprintf(stderr, "mpiexec: warning: hwloc cannot start (%s); ranks are not bound\n", strerror(errno));
        return;
    }
    if (hwloc_topology_load(topology) != 0) {
        fprintf(stderr, "mpiexec: warning: hwloc cannot read the topology (%s); ranks are not bound\n",
                strerror(errno));
        hwloc_topology_destroy(topology);
        return;
    }
    nobjs = hwloc_get_nbobjs_by_type(topology, levels[l].type);
    if (nobjs <= 0) {
        fprintf(stderr, "mpiexec: warning: hwloc finds no %s on this machine; ranks are not bound\n", name);
        hwloc_topology_destroy(topology);
        return;
    }
    level = l;
}

/* In the new rank, before exec. */
void mpx_bind_rank(int rank)
{
    if (level < 0)
        return;
    int i = rank % nobjs;
    hwloc_obj_t obj = hwloc_get_obj_by_type(topology, levels[level].type, (unsigned) i);
    int err = !obj || !obj->cpuset ? ENOENT : hwloc_set_cpubind(topology, obj->cpuset, 0) != 0 ? errno : 0;
    if (err)
        fprintf(stderr, "mpiexec: warning: rank %d cannot be bound to %s %d: %s\n", rank, levels[level].name, i,
                strerror(err));
}

void mpx_bind_finalize(void)
{
    if (level >= 0)
        hwloc_topology_destroy(topology);
    level = -1;
}
