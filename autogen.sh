#!/bin/sh
# Regenerates the generated sources (the MPI_/PMPI_ bindings) and the autotools files.
set -e
cd "$(dirname "$0")"
python3 maint/gen_binding.py maint/api src/binding
autoreconf -fi
