# mpiexec, the process manager (see src/pm/mpiexec/mpiexec.h for what each file does).
bin_PROGRAMS += src/pm/mpiexec/mpiexec
src_pm_mpiexec_mpiexec_SOURCES = src/pm/mpiexec/mpiexec.h src/pm/mpiexec/main.c src/pm/mpiexec/args.c \
    src/pm/mpiexec/launch.c src/pm/mpiexec/bind.c src/pm/mpiexec/stdio.c src/pm/mpiexec/signals.c \
    src/pm/mpiexec/job.c
src_pm_mpiexec_mpiexec_LDADD = $(HWLOC_LIBS)
