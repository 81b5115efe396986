#!/bin/sh
# run.sh: build bench/ddtbench and one plugin per library (Loom MPI, Debian's MPICH and Open MPI),
# run them pinned to one core, and print pack/unpack throughput and Loom's ratios
# (bench/README.md explains them).
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
# Needs: taskset, a C compiler, and `apt-get install -y libmpich-dev libopenmpi-dev openmpi-bin`.
# Each pattern runs in a fresh process that holds every library (see ddtbench.c): they pack the
# same arrays and their measurements take turns. A pattern that crashes or hangs that process is
# run again with each library alone, so the failure is put down to the library that has it, and
# the others' numbers come from those runs; the run goes on.
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
${CC:-cc} -O2 -o "$out/ddtbench" "$here/ddtbench.c" "$here/util.c" -ldl || { echo "building ddtbench failed" >&2; exit 1; }
bench_build --plugin ddtlib "$here/ddtlib.c" "$here/patterns.c" "$here/util.c" || exit 1
# Open MPI first: the driver loads the first plugin into the main namespace, where it must be.
plugins=
for lib in openmpi $built; do
    case " $plugins " in *" $lib="*) continue ;; esac
    case " $built " in *" $lib "*) plugins="$plugins $lib=$out/ddtlib-$lib.so" ;; esac
done

# shellcheck disable=SC2086
list=$(taskset -c 0 "$out/ddtbench" $quick --list $plugins $filters) || { echo "ddtbench --list failed" >&2; exit 1; }
n=$(echo "$list" | grep -c .)

# One pattern with the given plugins in one process, its lines in $out/one.tsv; 0 if it ended
# normally.
run_one() {
    idx=$1; shift
    # shellcheck disable=SC2086
    timeout 900 taskset -c 0 "$out/ddtbench" $quick --only "$idx" "$@" > "$out/one.tsv" 2>> "$out/stderr.txt"
}

r=1
while [ "$r" -le "$rounds" ]; do
    k=0
    echo "$list" | while IFS="$(printf '\t')" read -r idx name; do
        k=$((k + 1))
        [ -t 2 ] && printf '\rround %s/%s, pattern %s/%s %-24s' "$r" "$rounds" "$k" "$n" "$name" >&2
        # shellcheck disable=SC2086
        if run_one "$idx" $plugins; then
            grep -v '^B' "$out/one.tsv" >> "$out/results.tsv"
            continue
        fi
        # Which library fails: each alone.
        for p in $plugins; do
            run_one "$idx" "$p"
            rc=$?
            grep -v '^B' "$out/one.tsv" >> "$out/results.tsv"
            [ $rc -eq 0 ] && continue
            lib=${p%%=*}
            printf 'F\t%s\t%s\tcrashed or hung (exit status %s)\n' "$lib" "$name" "$rc" >> "$out/results.tsv"
            echo "$lib: $name crashed or hung (exit status $rc; see $out/stderr.txt)" >&2
        done
    done
    r=$((r + 1))
done
[ -t 2 ] && printf '\r%60s\r' '' >&2

awk -f "$here/table.awk" "$out/results.tsv"
echo
echo "$(( $(date +%s) - start )) s; libraries:$built; rounds: $rounds; load average $load0 at the start, $(cut -d' ' -f1 /proc/loadavg) at the end"
echo "machine-readable results: $out/results.tsv"
