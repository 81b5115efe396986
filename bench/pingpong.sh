#!/bin/sh
# pingpong.sh: build bench/pingpong against Loom MPI, Debian's MPICH and Open MPI, run each as its
# own `mpiexec -n 2` job with the ranks bound to cores, and print the one-way bandwidth of every
# pattern and Loom's ratios (bench/README.md, section "Ping-pong", explains them).
#
#   bench/pingpong.sh [--quick] [--loom DIR] [--libs "loom mpich openmpi"] [--rounds N] [--out DIR] [FILTER...]
#   bench/pingpong.sh --table FILE      reprint the table of a results file
#     --quick     9 repetitions instead of 31, no pattern larger than the caches
#     --loom DIR  a Loom MPI build tree (has src/env/mpicc-uninstalled and src/pm/mpiexec/mpiexec)
#                 or install prefix (bin/mpicc, bin/mpiexec); default $LOOM_MPI, else this checkout
#                 if it was built in place
#     --libs      which libraries to run
#     --rounds N  run every library N times, in turns, and show the medians (default 1)
#     --out DIR   where binaries and results go (default /tmp/loom-pingpong)
#     FILTER      only the cases whose names contain one of these strings (e.g. vec_ face_)
#
# Needs: `apt-get install -y libmpich-dev mpich libopenmpi-dev openmpi-bin`.
# A job that crashes or hangs (timeout: 300 s) fails the case it was in, and the library's run
# goes on with the next case in a new job. Raw results: DIR/results.tsv (format in pingpong.c).
set -u

here=$(cd "$(dirname "$0")" && pwd)
out=/tmp/loom-pingpong
. "$here/common.sh"

# The table: per case, the median over the rounds of each library's bandwidth; Loom's ratios.
print_table() {
    awk -F '\t' '
    function med(s,   a, n, i, j, t) {
        n = split(s, a, " ")
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    function size(b) {
        return b >= 1048576 ? sprintf("%.1fM", b / 1048576) : b >= 1024 ? sprintf("%.1fK", b / 1024) : b
    }
    $1 == "I" { if (!($2 in ver)) { ver[$2] = $3; libs[++nlib] = $2 } }
    $1 == "R" || $1 == "F" { if (!(($3) in seen)) { seen[$3] = 1; names[++nname] = $3 } }
    $1 == "R" { t[$2, $3] = t[$2, $3] " " $5; bytes[$3] = $4 }
    $1 == "F" { fail[$2, $3] = $4 }
    END {
        for (i = 1; i <= nlib; i++) printf "    %-8s %s\n", libs[i], ver[libs[i]]
        print ""
        print "    Ping-pong between 2 ranks, one way: GB/s of packed data (latency: microseconds); ratios are Loom'"'"'s speed over the others'"'"'"
        printf "    %-18s %8s |", "pattern", "bytes"
        for (i = 1; i <= nlib; i++) printf " %8s", libs[i]
        printf " |"
        for (i = 1; i <= nlib; i++) if (libs[i] != "loom") printf " %7s", "/" (libs[i] == "openmpi" ? "ompi" : libs[i])
        print ""
        for (k = 1; k <= nname; k++) {
            n = names[k]; lat = (n ~ /^latency/)
            printf "    %-18s %8s |", n, size(bytes[n])
            best = 0; have = 0
            for (i = 1; i <= nlib; i++) {
                l = libs[i]
                if ((l, n) in t) {
                    rt = med(t[l, n])
                    v[l] = lat ? rt / 2 * 1e6 : 2 * bytes[n] / rt / 1e9
                    s[l] = lat ? 2 / rt : 1 / rt          # speed, for the ratios
                    printf " %8.2f", v[l]
                    if (l != "loom" && s[l] > best) best = s[l]
                    if (l != "loom") have++
                } else {
                    s[l] = 0
                    printf " %8s", "failed"
                }
            }
            printf " |"
            for (i = 1; i <= nlib; i++) {
                l = libs[i]
                if (l == "loom") continue
                if (s["loom"] > 0 && s[l] > 0) printf " %7.2f", s["loom"] / s[l]
                else printf " %7s", "-"
            }
            mark = ""
            if (s["loom"] > 0 && best > 0 && s["loom"] < best) {
                mark = s["loom"] < 0.97 * best ? " <lib" : " ~lib"
                if (mark == " <lib") miss++; else near++
            }
            if (s["loom"] > 0 && have) rows++
            print mark
        }
        for (key in fail) { split(key, kk, SUBSEP); printf "    failed: %s %s: %s\n", kk[1], kk[2], fail[key] }
        if (rows) printf "\n    Loom slower than the faster of the others: %d of %d rows (%d more by less than 3%%)\n", miss, rows, near
    }' "$1"
}

bench_options "$@"
if [ -n "$table" ]; then print_table "$table"; exit; fi
mkdir -p "$out" || exit 1
: > "$out/results.tsv"

start=$(date +%s)
load0=$(cut -d' ' -f1 /proc/loadavg)
bench_build pingpong "$here/pingpong.c" "$here/patterns.c" "$here/util.c" || exit 1
# shellcheck disable=SC2086
set -- $built

# One library's run; after a crash or a hang, the case it was in fails and a new job goes on
# from the next case.
run_lib() {
    lib=$1 from=0
    while :; do
        # shellcheck disable=SC2046,SC2086
        timeout 300 $(cat "$out/launch-$lib") -n 2 "$out/pingpong-$lib" --lib "$lib" $quick \
            --from "$from" $filters > "$out/one.tsv" 2>> "$out/stderr-$lib.txt"
        rc=$?
        grep -v '^B' "$out/one.tsv" >> "$out/results.tsv"
        [ $rc -eq 0 ] && break
        # The last case begun and not finished (none: the job failed outside the cases).
        last=$(awk -F '\t' '$1 == "B" { i = $3; n = $4 } $1 == "R" || $1 == "F" { i = "" }
                             END { if (i != "") print i "\t" n }' "$out/one.tsv")
        idx=${last%%"$(printf '\t')"*} name=${last#*"$(printf '\t')"}
        if [ -z "$idx" ]; then
            echo "$lib: the job failed outside the cases (exit status $rc; see $out/stderr-$lib.txt)" >&2
            break
        fi
        printf 'F\t%s\t%s\tcrashed or hung (exit status %s)\n' "$lib" "$name" "$rc" >> "$out/results.tsv"
        echo "$lib: $name crashed or hung (exit status $rc; see $out/stderr-$lib.txt)" >&2
        from=$((idx + 1))
    done
}

r=1
while [ "$r" -le "$rounds" ]; do
    i=0
    while [ $i -lt $# ]; do
        # Rotate the order of the libraries from one round to the next.
        j=$(( (i + r - 1) % $# + 1 ))
        eval "lib=\${$j}"
        [ -t 2 ] && printf '\rround %s/%s: %-8s' "$r" "$rounds" "$lib" >&2
        run_lib "$lib"
        i=$((i + 1))
    done
    r=$((r + 1))
done
[ -t 2 ] && printf '\r%40s\r' '' >&2

print_table "$out/results.tsv"
echo
echo "$(( $(date +%s) - start )) s; libraries:$built; rounds: $rounds; load average $load0 at the start, $(cut -d' ' -f1 /proc/loadavg) at the end"
echo "machine-readable results: $out/results.tsv (bench/pingpong.sh --table FILE reprints the table)"
