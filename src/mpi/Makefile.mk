libmpi_la_SOURCES += \
    src/mpi/errhan/errutil.c \
    src/mpi/errhan/errhan_impl.c \
    src/mpi/init/init_impl.c \
    src/mpi/comm/comm_impl.c \
    src/mpi/attr/attr.c \
    src/mpi/datatype/type_create.c \
    src/mpi/datatype/type_subarray.c \
    src/mpi/datatype/type_darray.c \
    src/mpi/datatype/type_query.c \
    src/mpi/datatype/type_contents.c \
    src/mpi/datatype/type_commit_free.c \
    src/mpi/datatype/type_name.c \
    src/mpi/datatype/type_attr.c \
    src/mpi/datatype/type_f90.c
libmpi_la_SOURCES += \
    src/mpi/datatype/pack.c \
    src/mpi/datatype/elements.c \
    src/mpi/datatype/type_iov.c
