/*
 * The shared region: layout, creation by rank 0, attachment by the others (see shm_impl.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "shm_impl.h"

Shm_state shm;

#define NCELLS 8                               /* a power of two: ring indices wrap by masking */
#define MAX_RINGS_BYTES ((size_t) 512 << 20)   /* all rings of a job together, at most */

/* The payload of a cell: a pipeline stage should stay in the L2 cache together with the next one
 * (the sender packs one while the receiver unpacks the previous), so about L2 / 16, between 4 KiB
 * and 64 KiB, and smaller when many ranks share the machine. */
static size_t choose_cell_payload(int nranks)
{
    size_t l2 = MPID_Cache_size(2);
    size_t payload = 64 << 10;
    while (payload > 4096 && (payload > l2 / 16
                              || (size_t) nranks * nranks * NCELLS * payload > MAX_RINGS_BYTES))
        payload /= 2;
    return payload;
}

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

/* The layout of a region of nranks ranks with the given cell payload. */
static void layout(Region_header *h, int nranks, size_t payload)
{
    h->nranks = nranks;
    h->ncells = NCELLS;
    h->cell_payload = payload;
    h->cell_size = round_up(sizeof(Cell) + payload, SHM_CACHE_LINE);
    h->ring_size = round_up(sizeof(Ring) + NCELLS * h->cell_size, 4096);
    h->ranks_offset = round_up(sizeof(Region_header), SHM_CACHE_LINE);
    h->rings_offset = round_up(h->ranks_offset + (size_t) nranks * sizeof(Rank_state), 4096);
}

static size_t region_bytes(const Region_header *h)
{
    return h->rings_offset + (size_t) h->nranks * h->nranks * h->ring_size;
}

static void bind_state(Region_header *h, size_t bytes)
{
    shm.region = h;
    shm.region_bytes = bytes;
    shm.nranks = h->nranks;
    shm.ranks = (Rank_state *) ((char *) h + h->ranks_offset);
    shm.rings = (char *) h + h->rings_offset;
}

static int singleton(void)
{
    Region_header h = { 0 };
    layout(&h, 1, choose_cell_payload(1));
    size_t bytes = region_bytes(&h);
    void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED)
        return MPIR_Err(MPI_ERR_NO_MEM, "cannot allocate %zu bytes for the message rings", bytes);
    memcpy(mem, &h, sizeof h);
    shm.shared = false;
    shm.rank = 0;
    bind_state(mem, bytes);
    return MPI_SUCCESS;
}

static void sleep_ms(int ms)
{
    struct timespec ts = { 0, ms * 1000000L };
    nanosleep(&ts, NULL);
}

int shm_region_attach(void)
{
    const char *name = getenv("LOOM_SHM"), *rank_s = getenv("LOOM_RANK"), *size_s = getenv("LOOM_SIZE");
    if (!name || !rank_s || !size_s)
        return singleton();
    int rank = atoi(rank_s), nranks = atoi(size_s);
    if (nranks < 1 || rank < 0 || rank >= nranks)
        return MPIR_Err(MPI_ERR_OTHER, "bad job description from mpiexec: LOOM_RANK=%s LOOM_SIZE=%s", rank_s, size_s);
    shm.shared = true;
    shm.rank = rank;

    int fd;
    if (rank == 0) {
        Region_header h = { 0 };
        layout(&h, nranks, choose_cell_payload(nranks));
        size_t bytes = region_bytes(&h);
        fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
        if (fd < 0 || ftruncate(fd, (off_t) bytes) != 0)
            return MPIR_Err(MPI_ERR_OTHER, "cannot create the job's shared memory %s (%zu bytes): %s", name, bytes,
                            strerror(errno));
        void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        close(fd);
        if (mem == MAP_FAILED)
            return MPIR_Err(MPI_ERR_NO_MEM, "cannot map the job's shared memory: %s", strerror(errno));
        memcpy(mem, &h, sizeof h);
        ((Region_header *) mem)->magic = SHM_MAGIC;
        bind_state(mem, bytes);
        atomic_store_explicit(&shm.region->ready, 1, memory_order_release);
    } else {
        /* wait for rank 0 to create and format the region (up to a minute: ranks start at will) */
        struct stat st;
        int waited = 0;
        while ((fd = shm_open(name, O_RDWR, 0600)) < 0 || fstat(fd, &st) != 0 || st.st_size == 0) {
            if (fd >= 0)
                close(fd);
            if (waited++ > 60000)
                return MPIR_Err(MPI_ERR_OTHER, "rank 0 never created the job's shared memory %s", name);
            sleep_ms(1);
        }
        void *mem = mmap(NULL, (size_t) st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        close(fd);
        if (mem == MAP_FAILED)
            return MPIR_Err(MPI_ERR_NO_MEM, "cannot map the job's shared memory: %s", strerror(errno));
        Region_header *h = mem;
        while (!atomic_load_explicit(&h->ready, memory_order_acquire))
            sleep_ms(1);
        if (h->magic != SHM_MAGIC || h->nranks != nranks || region_bytes(h) != (size_t) st.st_size)
            return MPIR_Err(MPI_ERR_OTHER, "the job's shared memory %s is not this job's", name);
        bind_state(h, (size_t) st.st_size);
    }
    atomic_store(&shm.ranks[rank].pid, (int) getpid());
    /* the last rank to attach removes the name: the memory lives on while mapped */
    if (atomic_fetch_add(&shm.region->attached, 1) + 1 == nranks)
        shm_unlink(name);
    return MPI_SUCCESS;
}

void shm_region_detach(void)
{
    if (shm.region)
        munmap(shm.region, shm.region_bytes);
    shm.region = NULL;
}
