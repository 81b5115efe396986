# mpicc and the pkg-config file (see src/env/README in the helper's notes)
