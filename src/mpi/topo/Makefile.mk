noinst_HEADERS += src/mpi/topo/topo.h
libmpi_la_SOURCES += \
    src/mpi/topo/topo_object.c \
    src/mpi/topo/cart.c \
    src/mpi/topo/graph.c \
    src/mpi/topo/dist_graph.c \
    src/mpi/topo/dims_create.c
