noinst_HEADERS += src/include/mpir_info.h src/mpi/info/info_internal.h
libmpi_la_SOURCES += \
    src/mpi/info/info.c \
    src/mpi/info/info_env.c
