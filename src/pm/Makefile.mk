bin_PROGRAMS += src/pm/mpiexec/mpiexec
src_pm_mpiexec_mpiexec_SOURCES = src/pm/mpiexec/mpiexec.c
