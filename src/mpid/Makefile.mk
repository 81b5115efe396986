noinst_HEADERS += src/mpid/datatype/mpid_datatype.h
libmpi_la_SOURCES += \
    src/mpid/common/object.c \
    src/mpid/common/deep_stack.c \
    src/mpid/common/cache_sizes.c \
    src/mpid/datatype/dt_builtin.c \
    src/mpid/datatype/dt_object.c \
    src/mpid/datatype/dt_create.c \
    src/mpid/datatype/dt_contents.c
noinst_HEADERS += src/mpid/datatype/mpid_dataloop.h src/mpid/datatype/copy_kernels.h \
    src/mpid/datatype/mpid_external32.h
libmpi_la_SOURCES += \
    src/mpid/datatype/dataloop_build.c \
    src/mpid/datatype/segment.c \
    src/mpid/datatype/copy_kernels.c \
    src/mpid/datatype/external32.c \
    src/mpid/datatype/plan.c
libmpi_la_SOURCES += src/mpid/shm/shm_region.c src/mpid/shm/shm_wait.c src/mpid/shm/shm_progress.c src/mpid/shm/shm_api.c
noinst_HEADERS += src/mpid/shm/shm_impl.h src/include/mpir_comm.h src/include/mpir_request.h src/include/mpid_device.h
