noinst_HEADERS += src/include/mpir_coll.h src/mpi/coll/coll_util.h src/mpi/coll/coll_sched.h \
    src/mpi/coll/coll_inter.h
libmpi_la_SOURCES += \
    src/mpi/coll/coll_util.c \
    src/mpi/coll/coll_sched.c \
    src/mpi/coll/localcopy.c \
    src/mpi/coll/barrier.c \
    src/mpi/coll/bcast.c \
    src/mpi/coll/reduce.c \
    src/mpi/coll/allreduce.c \
    src/mpi/coll/gather.c \
    src/mpi/coll/scatter.c \
    src/mpi/coll/allgather.c \
    src/mpi/coll/alltoall.c \
    src/mpi/coll/reduce_scatter.c \
    src/mpi/coll/scan.c \
    src/mpi/coll/neighbor.c \
    src/mpi/coll/persistent_coll.c \
    src/mpi/coll/coll_inter.c
