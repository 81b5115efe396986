include src/include/Makefile.mk
include src/binding/Makefile.mk
include src/mpi/Makefile.mk
include src/mpid/Makefile.mk
include src/pm/Makefile.mk
include src/env/Makefile.mk
