#!/bin/bash
#
# Builds the libFuzzer target (test/fuzz/*.c) together with the library's sources,
# everything instrumented with libFuzzer, AddressSanitizer (with LeakSanitizer) and UBSan.
#
#   test/fuzz/build.sh [BUILD_DIR]
#
# BUILD_DIR is a configured build tree (it supplies src/include/loom_config.h and mpi.h). Without
# it: the source tree itself if it is configured in place, else a configure run in a scratch
# directory ($LOOM_FUZZ_DIR, default /tmp/loom-fuzz). The bindings are generated from maint/api
# into that scratch directory too, so the source tree is never written to (except by ./autogen.sh
# when a fresh checkout has no configure script yet).
# Prints the path of the fuzzer binary on its last line.
#
# LOOM_FUZZ_CFLAGS adds compiler flags (e.g. -fno-sanitize=pointer-overflow to look past one
# known finding while it is being fixed).
# Needs clang and the libFuzzer runtime: apt-get install -y clang libclang-rt-14-dev
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
work=${LOOM_FUZZ_DIR:-/tmp/loom-fuzz}
mkdir -p "$work"
CC=${CC:-clang}

if [ $# -ge 1 ]; then
    build=$(cd "$1" && pwd)
elif [ -f "$top/config.status" ] && [ -f "$top/src/include/mpi.h" ]; then
    build=$top      # configured in place: a VPATH configure would refuse to run
else
    build=$work/config
    if [ ! -f "$build/src/include/mpi.h" ] || [ "$top/configure" -nt "$build/config.status" ] \
        || [ "$top/src/include/mpi.h.in" -nt "$build/src/include/mpi.h" ]; then
        [ -x "$top/configure" ] || (cd "$top" && ./autogen.sh)
        mkdir -p "$build"
        (cd "$build" && "$top/configure" >configure.log 2>&1) || {
            tail -20 "$build/configure.log"
            echo "build.sh: configure failed (log: $build/configure.log)" >&2
            exit 1
        }
    fi
fi
for h in loom_config.h mpi.h; do
    [ -f "$build/src/include/$h" ] || { echo "build.sh: $build/src/include/$h is missing" >&2; exit 1; }
done

# The bindings, fresh from the API descriptions.
gen=$work/binding
mkdir -p "$gen"
python3 "$top/maint/gen_binding.py" "$top/maint/api" "$gen" >/dev/null

# The library's sources are those the Makefile fragments list for libmpi (the generated
# bindings replaced by ours).
mapfile -t sources < <(python3 - "$top" <<'EOF'
import glob, os, re, sys
top = sys.argv[1]
for mk in sorted(glob.glob(os.path.join(top, 'src', '**', 'Makefile.mk'), recursive=True)):
    text = open(mk).read().replace('\\\n', ' ')
    for m in re.finditer(r'^libmpi_la_SOURCES\s*\+?=(.*)$', text, re.M):
        for word in m.group(1).split():
            if word.endswith('.c') and not word.startswith('src/binding/'):
                print(os.path.join(top, word))
EOF
)
sources+=("$gen"/binding_*.c)

flags=(-g -O1 -std=gnu11 -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined
       -fno-sanitize-recover=undefined -DHAVE_CONFIG_H
       -I"$gen" -I"$top/src/include" -I"$build/src/include" -I"$top/src/mpid/datatype"
       $(pkg-config --cflags hwloc 2>/dev/null || true) ${LOOM_FUZZ_CFLAGS:-})

# Objects are rebuilt when their source is newer; all of them when a header or the flags changed
# (a stamp holds the checksum of both, written once the build succeeded).
obj=$work/obj
mkdir -p "$obj"
stamp=$( (echo "$CC ${flags[*]}"; find "$top/src" "$top/test/fuzz" "$gen" "$build/src/include" -name '*.h' \
          -exec cat {} +) | sha1sum | cut -c1-40)
if [ "$(cat "$obj/stamp" 2>/dev/null)" != "$stamp" ]; then
    rm -f "$obj"/*.o "$obj/stamp"
fi
compile() {   # compile SRC OBJ
    local src=$1 o=$2
    [ -f "$o" ] && [ "$o" -nt "$src" ] && return 0
    "$CC" "${flags[@]}" -c "$src" -o "$o"
}
objects=()
pids=()
for src in "${sources[@]}" "$top"/test/fuzz/*.c; do
    o=$obj/$(echo "${src#"$top"/}" | tr '/' '_' | sed 's/\.c$/.o/')
    objects+=("$o")
    compile "$src" "$o" &
    pids+=($!)
    # two compilers at a time
    if [ ${#pids[@]} -ge 2 ]; then
        wait "${pids[0]}"
        pids=("${pids[@]:1}")
    fi
done
for p in "${pids[@]}"; do wait "$p"; done

out=$work/fuzz_datatype
# --wrap: the target sees where the datatype pool is, to count live records (leak check)
"$CC" -g -fsanitize=fuzzer,address,undefined ${LOOM_FUZZ_CFLAGS:-} -Wl,--wrap=MPIR_Pool_alloc \
    "${objects[@]}" -o "$out" \
    $(pkg-config --libs hwloc 2>/dev/null || echo -lhwloc) -lpthread -lm
echo "$stamp" >"$obj/stamp"
echo "$out"
