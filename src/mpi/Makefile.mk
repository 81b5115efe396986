libmpi_la_SOURCES += \
    src/mpi/errhan/errutil.c \
    src/mpi/errhan/errhan_impl.c \
    src/mpi/init/init_impl.c \
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
include src/mpi/op/Makefile.mk
include src/mpi/coll/Makefile.mk
include src/mpi/pt2pt/Makefile.mk
include src/mpi/info/Makefile.mk
include src/mpi/win/Makefile.mk
include src/mpi/misc/Makefile.mk
include src/mpi/comm/Makefile.mk
include src/mpi/group/Makefile.mk
include src/mpi/topo/Makefile.mk
