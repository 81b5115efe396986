# mpicc and the pkg-config file.
#
# Both wrappers come from the one template src/env/mpicc.in, filled in by sed at make time rather
# than by configure, so that `make prefix=...` and `make install DESTDIR=...` see the right paths:
#   src/env/mpicc              installed; points at $(includedir) and $(libdir)
#   src/env/mpicc-uninstalled  not installed; points at the build and source trees, for the tests
# The include dirs of the uninstalled one: the generated mpi.h (build tree), and mpi_proto.h, which
# autogen.sh generates into the source tree's src/binding (the build tree's is listed too, for a
# tree where it was generated there).

bin_SCRIPTS += src/env/mpicc
noinst_SCRIPTS += src/env/mpicc-uninstalled
pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = src/env/loom-mpi.pc
EXTRA_DIST += src/env/mpicc.in src/env/loom-mpi.pc.in
CLEANFILES += src/env/mpicc src/env/mpicc-uninstalled src/env/loom-mpi.pc

env_sed = sed -e 's|@CC[@]|$(CC)|g' -e 's|@SANITIZER_FLAGS[@]|$(SANITIZER_FLAGS)|g' \
              -e 's|@MPI_STATIC_LIBS[@]|$(HWLOC_LIBS) $(LIBS) -lpthread|g'

src/env/mpicc: $(srcdir)/src/env/mpicc.in Makefile
	$(AM_V_GEN)$(MKDIR_P) src/env && $(env_sed) \
	    -e 's|@MPI_INCFLAGS[@]|-I$(includedir)|g' \
	    -e 's|@MPI_LIBDIR[@]|$(libdir)|g' \
	    $(srcdir)/src/env/mpicc.in > $@.tmp && chmod +x $@.tmp && mv -f $@.tmp $@

src/env/mpicc-uninstalled: $(srcdir)/src/env/mpicc.in Makefile
	$(AM_V_GEN)$(MKDIR_P) src/env && $(env_sed) \
	    -e 's|@MPI_INCFLAGS[@]|-I$(abs_top_builddir)/src/include -I$(abs_top_srcdir)/src/include -I$(abs_top_srcdir)/src/binding -I$(abs_top_builddir)/src/binding|g' \
	    -e 's|@MPI_LIBDIR[@]|$(abs_top_builddir)/.libs|g' \
	    $(srcdir)/src/env/mpicc.in > $@.tmp && chmod +x $@.tmp && mv -f $@.tmp $@

src/env/loom-mpi.pc: $(srcdir)/src/env/loom-mpi.pc.in Makefile
	$(AM_V_GEN)$(MKDIR_P) src/env && sed \
	    -e 's|@prefix[@]|$(prefix)|g' -e 's|@exec_prefix[@]|$(exec_prefix)|g' \
	    -e 's|@libdir[@]|$(libdir)|g' -e 's|@includedir[@]|$(includedir)|g' \
	    -e 's|@PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|g' \
	    $(srcdir)/src/env/loom-mpi.pc.in > $@.tmp && mv -f $@.tmp $@
