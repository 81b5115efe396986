noinst_HEADERS += src/include/mpir_win.h
libmpi_la_SOURCES += \
    src/mpi/win/win_create.c \
    src/mpi/win/win_attr.c \
    src/mpi/win/win_name.c
