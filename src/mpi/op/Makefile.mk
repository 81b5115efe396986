noinst_HEADERS += src/include/mpir_op.h src/mpi/op/op_kernels.h
libmpi_la_SOURCES += \
    src/mpi/op/op_object.c \
    src/mpi/op/op_kernels.c \
    src/mpi/op/op_apply.c
