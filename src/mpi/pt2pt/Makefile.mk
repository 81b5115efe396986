noinst_HEADERS += src/mpi/pt2pt/pt2pt.h
libmpi_la_SOURCES += \
    src/mpi/pt2pt/request.c \
    src/mpi/pt2pt/check.c \
    src/mpi/pt2pt/send_recv.c \
    src/mpi/pt2pt/sendrecv.c \
    src/mpi/pt2pt/probe.c \
    src/mpi/pt2pt/bsend.c \
    src/mpi/pt2pt/wait.c \
    src/mpi/pt2pt/waitset.c \
    src/mpi/pt2pt/request_ops.c \
    src/mpi/pt2pt/status.c \
    src/mpi/pt2pt/mprobe.c \
    src/mpi/pt2pt/persistent.c \
    src/mpi/pt2pt/grequest.c
