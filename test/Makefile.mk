# The test suite: test/runtests compiles every program listed in test/mpi/*/testlist with the
# build tree's mpicc wrapper and runs it under the build tree's mpiexec (see the script's header).
# `make check` builds the library first (check depends on all), then runs the whole suite;
# `make check TESTS_ARGS=datatype` runs one area (or test names).
TESTS_ARGS =
check-local:
	bash $(top_srcdir)/test/runtests --srcdir $(top_srcdir) --builddir $(top_builddir) \
	    $(TESTS_ARGS)

# The runner's binaries and logs live in the build tree, apart from the sources.
clean-local:
	-rm -rf test/run

# Test sources, the runner, the example program and the CI entry point ship in the tarball.
EXTRA_DIST += test/runtests test/mpi examples .ci
