/*
 * mpiexec -bind-to LEVEL binds rank i to the (i mod n)-th of the n objects of that level, so on
 * this machine, whatever its size, each rank's binding is exactly the cpuset hwloc gives for that
 * object; -bind-to none (the default) leaves the binding mpiexec had.
 */
#include "pmtest.h"

#include <hwloc.h>

static int child(char **argv)
{
    const char *level = argv[0];
    int rank = pm_rank();
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0)
        return 98;
    hwloc_bitmap_t got = hwloc_bitmap_alloc(), want = hwloc_bitmap_alloc();
    if (hwloc_get_cpubind(topo, got, HWLOC_CPUBIND_PROCESS) != 0)
        return 97;
    if (!strcmp(level, "none")) {
        hwloc_bitmap_sscanf(want, argv[1]);
    } else {
        hwloc_obj_type_t type = !strcmp(level, "core") ? HWLOC_OBJ_CORE : HWLOC_OBJ_NUMANODE;
        int n = hwloc_get_nbobjs_by_type(topo, type);
        hwloc_obj_t obj = n > 0 ? hwloc_get_obj_by_type(topo, type, (unsigned) (rank % n)) : NULL;
        if (obj)
            hwloc_bitmap_copy(want, obj->cpuset);
    }
    char *g, *w;
    hwloc_bitmap_asprintf(&g, got);
    hwloc_bitmap_asprintf(&w, want);
    if (hwloc_bitmap_isequal(got, want))
        printf("bind %d ok\n", rank);
    else
        printf("bind %d got %s want %s\n", rank, g, w);
    free(g);
    free(w);
    hwloc_bitmap_free(got);
    hwloc_bitmap_free(want);
    hwloc_topology_destroy(topo);
    return 0;
}

static void expect(const char *level, int nprocs, const char *mine)
{
    char n[8];
    snprintf(n, sizeof n, "%d", nprocs);
    struct pm_job job;
    if (!strcmp(level, "none"))     /* the default */
        pm_run(&job, (const char *[]) { "-n", n, pm_self, "child", level, mine, NULL }, NULL, NULL, 60);
    else
        pm_run(&job, (const char *[]) { "-bind-to", level, "-n", n, pm_self, "child", level, mine, NULL }, NULL,
               NULL, 60);
    int before = mtest_errs;
    CHECK_EQ(pm_exit_code(&job), 0);
    for (int r = 0; r < nprocs; r++) {
        char want[32];
        snprintf(want, sizeof want, "bind %d ok\n", r);
        CHECK(strstr(job.outbuf, want), "-bind-to %s: rank %d is not bound as it should be", level, r);
    }
    CHECK(!strstr(job.errbuf, "warning"), "-bind-to %s: mpiexec warned", level);
    pm_done(&job, before);
}

static void driver(void)
{
    hwloc_topology_t topo;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    char *mine = NULL;
    if (hwloc_topology_init(&topo) == 0 && hwloc_topology_load(topo) == 0 &&
        hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0 && hwloc_bitmap_asprintf(&mine, set) >= 0) {
        int ncores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
        expect("core", ncores + 2 < 8 ? ncores + 2 : 8, mine);     /* wraps round when possible */
        expect("numa", 2, mine);
        expect("none", 2, mine);
        hwloc_topology_destroy(topo);
    } else {
        MTEST_FAIL("hwloc cannot read this machine");
    }
    free(mine);
    hwloc_bitmap_free(set);
}

int main(int argc, char **argv)
{
    return pm_main(argc, argv, child, driver);
}
