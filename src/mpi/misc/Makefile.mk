libmpi_la_SOURCES += \
    src/mpi/misc/alloc_mem.c \
    src/mpi/misc/processor_name.c \
    src/mpi/misc/pcontrol.c \
    src/mpi/misc/leaks.c \
    src/mpi/misc/object_name.c
