libmpi_la_SOURCES += \
    src/mpi/group/group_object.c \
    src/mpi/group/group_ops.c
noinst_HEADERS += src/mpi/group/group.h
