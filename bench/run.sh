#!/bin/sh
# run.sh: build bench/ddtbench against Loom MPI, Debian's MPICH and Open MPI, run the three one
# after another pinned to one core, and print pack/unpack throughput and Loom's ratios.
#
#   bench/run.sh [--quick] [--loom DIR] [--libs "loom mpich openmpi"] [--out DIR] [FILTER...]
#     --quick    3 short repetitions instead of 7, no pattern larger than the caches (about 1 min)
#     --loom DIR a Loom MPI build tree (has src/env/mpicc-uninstalled) or install prefix (has
#                bin/mpicc); default $LOOM_MPI, else this checkout if it was built in place
#     --libs     which libraries to run, in this order
#     --out DIR  where binaries and results go (default /tmp/loom-bench)
#     FILTER     only the patterns whose names contain one of these strings (e.g. vec_ face_)
#
# Needs: taskset, and `apt-get install -y libmpich-dev libopenmpi-dev openmpi-bin`.
# The raw results (one line per measurement, described in ddtbench.c) are left in
# DIR/results.tsv; the tables are printed from them by bench/table.awk.
set -u

here=$(cd "$(dirname "$0")" && pwd)
out=/tmp/loom-bench
libs="loom mpich openmpi"
loom=${LOOM_MPI:-}
quick=
filters=
while [ $# -gt 0 ]; do
    case $1 in
        --quick) quick=--quick ;;
        --loom) loom=$2; shift ;;
        --libs) libs=$2; shift ;;
        --out) out=$2; shift ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        *) filters="$filters $1" ;;
    esac
    shift
done
[ -z "$loom" ] && [ -x "$here/../src/env/mpicc-uninstalled" ] && loom=$here/..
mkdir -p "$out" || exit 1
: > "$out/results.tsv"

# The compiler wrapper of a library, or nothing (with a note) when it is not there.
wrapper() {
    case $1 in
        loom)
            if [ -z "$loom" ]; then echo "loom: no Loom MPI build: pass --loom BUILD_DIR_OR_PREFIX" >&2
            elif [ -x "$loom/src/env/mpicc-uninstalled" ]; then echo "$loom/src/env/mpicc-uninstalled"
            elif [ -x "$loom/bin/mpicc" ]; then echo "$loom/bin/mpicc"
            else echo "loom: no Loom MPI build: pass --loom BUILD_DIR_OR_PREFIX" >&2; fi ;;
        mpich|openmpi)
            if command -v "mpicc.$1" > /dev/null; then echo "mpicc.$1"
            else echo "$1: mpicc.$1 not found (apt-get install lib$1-dev)" >&2; fi ;;
        *) echo "$1: unknown library" >&2 ;;
    esac
}

# Run one library's binary; when a pattern crashes or hangs it, note the failure and go on
# with the next pattern.
run_lib() {
    lib=$1 bin=$2 from=0 raw=$out/raw-$1.tsv
    : > "$raw"
    while :; do
        # shellcheck disable=SC2086
        timeout 900 taskset -c 0 "$bin" --lib "$lib" $quick --from "$from" $filters >> "$raw" 2> "$out/stderr-$lib.txt"
        rc=$?
        [ $rc -eq 0 ] && break
        last=$(tail -n 1 "$raw")
        case $last in
            B*) ;;
            *) echo "$lib: exited with status $rc outside a pattern (see $out/stderr-$lib.txt)" >&2; break ;;
        esac
        idx=$(echo "$last" | cut -f3) name=$(echo "$last" | cut -f4)
        printf 'F\t%s\t%s\tcrashed or hung (status %s)\n' "$lib" "$name" "$rc" >> "$raw"
        echo "$lib: $name crashed or hung (status $rc); going on" >&2
        from=$((idx + 1))
    done
    grep -v '^B' "$raw" >> "$out/results.tsv"
}

start=$(date +%s)
ran=
for lib in $libs; do
    cc=$(wrapper "$lib")
    [ -n "$cc" ] || continue
    bin=$out/ddtbench-$lib
    # -O3 for the hand loops; the same baseline ISA as the distributions' libraries.
    if ! $cc -O3 -o "$bin" "$here/ddtbench.c" "$here/patterns.c"; then
        echo "$lib: build failed" >&2
        continue
    fi
    echo "running $lib ..." >&2
    run_lib "$lib" "$bin"
    ran="$ran $lib"
done
[ -n "$ran" ] || { echo "no library could be built" >&2; exit 1; }

awk -f "$here/table.awk" "$out/results.tsv"
echo
echo "$(date +%s | awk -v s="$start" '{print $1 - s}') s; libraries:$ran; machine-readable results: $out/results.tsv"
