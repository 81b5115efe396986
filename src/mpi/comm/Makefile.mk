libmpi_la_SOURCES += \
    src/mpi/comm/comm_object.c \
    src/mpi/comm/comm_context.c \
    src/mpi/comm/comm_p2p.c \
    src/mpi/comm/comm_create.c \
    src/mpi/comm/comm_idup.c \
    src/mpi/comm/comm_inter.c \
    src/mpi/comm/comm_query.c \
    src/mpi/comm/comm_name.c \
    src/mpi/comm/comm_attr.c \
    src/mpi/comm/comm_info.c
noinst_HEADERS += src/mpi/comm/comm.h
