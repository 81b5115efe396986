#!/bin/sh
# Regenerates the generated sources (the MPI_/PMPI_ bindings) and the autotools files.
set -e
cd "$(dirname "$0")"
command -v python3 >/dev/null || { echo "autogen.sh: python3 is needed to generate the bindings (Debian: apt-get install python3)" >&2; exit 1; }
mkdir -p confdb
python3 maint/gen_binding.py maint/api src/binding
autoreconf -fi
