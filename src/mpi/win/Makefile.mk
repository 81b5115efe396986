noinst_HEADERS += src/include/mpir_win.h src/mpi/win/rma.h
libmpi_la_SOURCES += \
    src/mpi/win/win_create.c \
    src/mpi/win/win_attr.c \
    src/mpi/win/win_name.c \
    src/mpi/win/rma_type.c \
    src/mpi/win/rma_ops.c \
    src/mpi/win/rma_target.c \
    src/mpi/win/rma_sync.c \
    src/mpi/win/win_shared.c
