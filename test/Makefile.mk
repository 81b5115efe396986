# The test suite is run by test/runtests through mpiexec (make check).
