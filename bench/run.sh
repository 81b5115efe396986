#!/bin/sh
# run.sh: build bench/ddtbench against Loom MPI, Debian's MPICH and Open MPI, run them pinned to
# one core, and print pack/unpack throughput and Loom's ratios (bench/README.md explains them).
#
#   bench/run.sh [--quick] [--loom DIR] [--libs "loom mpich openmpi"] [--rounds N] [--out DIR] [FILTER...]
#     --quick     3 short repetitions instead of 7, no pattern larger than the caches (about 1 min)
#     --loom DIR  a Loom MPI build tree (has src/env/mpicc-uninstalled) or install prefix (has
#                 bin/mpicc); default $LOOM_MPI, else this checkout if it was built in place
#     --libs      which libraries to run
#     --rounds N  run everything N times and show the medians (default 1)
#     --out DIR   where binaries and results go (default /tmp/loom-bench)
#     FILTER      only the patterns whose names contain one of these strings (e.g. vec_ face_)
#
# Needs: taskset, and `apt-get install -y libmpich-dev libopenmpi-dev openmpi-bin`.
# Each pattern runs in a fresh process of each library in turn (one library after another, the
# order rotating from pattern to pattern), so the libraries see the machine in the same state;
# a pattern that crashes or hangs a library is reported as failed and the run goes on.
# The raw results (one line per measurement, described in ddtbench.c) are left in
# DIR/results.tsv; bench/table.awk prints the tables from them.
set -u

here=$(cd "$(dirname "$0")" && pwd)
out=/tmp/loom-bench
. "$here/common.sh"
bench_options "$@"
mkdir -p "$out" || exit 1
: > "$out/results.tsv"

start=$(date +%s)
load0=$(cut -d' ' -f1 /proc/loadavg)
bench_build ddtbench "$here/ddtbench.c" "$here/patterns.c" || exit 1
# shellcheck disable=SC2086
set -- $built

# shellcheck disable=SC2086
list=$(taskset -c 0 "$out/ddtbench-$1" $quick --list $filters) || { echo "ddtbench --list failed" >&2; exit 1; }
n=$(echo "$list" | grep -c .)

# One pattern of one library in its own process; a crash or a hang becomes a failure line.
run_one() {
    lib=$1 idx=$2 name=$3
    # shellcheck disable=SC2086
    timeout 900 taskset -c 0 "$out/ddtbench-$lib" --lib "$lib" $quick --only "$idx" > "$out/one.tsv" 2>> "$out/stderr-$lib.txt"
    rc=$?
    grep -v '^B' "$out/one.tsv" >> "$out/results.tsv"
    if [ $rc -ne 0 ]; then
        printf 'F\t%s\t%s\tcrashed or hung (exit status %s)\n' "$lib" "$name" "$rc" >> "$out/results.tsv"
        echo "$lib: $name crashed or hung (exit status $rc; see $out/stderr-$lib.txt)" >&2
    fi
}

r=1
while [ "$r" -le "$rounds" ]; do
    k=0
    echo "$list" | while IFS="$(printf '\t')" read -r idx name; do
        k=$((k + 1))
        [ -t 2 ] && printf '\rround %s/%s, pattern %s/%s %-24s' "$r" "$rounds" "$k" "$n" "$name" >&2
        # Rotate the order of the libraries from one pattern to the next.
        i=0
        while [ $i -lt $# ]; do
            j=$(( (i + k) % $# + 1 ))
            eval "lib=\${$j}"
            run_one "$lib" "$idx" "$name"
            i=$((i + 1))
        done
    done
    r=$((r + 1))
done
[ -t 2 ] && printf '\r%60s\r' '' >&2

awk -f "$here/table.awk" "$out/results.tsv"
echo
echo "$(( $(date +%s) - start )) s; libraries:$built; rounds: $rounds; load average $load0 at the start, $(cut -d' ' -f1 /proc/loadavg) at the end"
echo "machine-readable results: $out/results.tsv"
