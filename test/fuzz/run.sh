#!/bin/bash
#
# Builds the datatype fuzzer and runs it for a bounded time; exits non-zero on any crash, leak,
# timeout or invariant failure (libFuzzer prints the input and its stack; the input is saved in
# $LOOM_FUZZ_DIR/artifacts/).
#
#   test/fuzz/run.sh [SECONDS] [BUILD_DIR]      (default 60 seconds; BUILD_DIR: see build.sh)
#   test/fuzz/run.sh --update SECONDS           also merges what the run found into test/fuzz/corpus
#                                               (kept to at most 1000 files; commit the result)
#   test/fuzz/run.sh --replay FILES...          runs the given inputs once each (reproducers)
#
# The committed corpus (test/fuzz/corpus) is only read; new inputs go to a scratch directory,
# unless --update is given. Inputs that crashed go to test/fuzz/crashes/ by hand, with a note in
# the report; once fixed they belong in the corpus, where every run replays them first.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
work=${LOOM_FUZZ_DIR:-/tmp/loom-fuzz}
export LOOM_FUZZ_DIR=$work

update=0
if [ "${1:-}" = "--update" ]; then
    update=1
    shift
elif [ "${1:-}" = "--replay" ]; then
    shift
    fuzzer=$(bash "$here/build.sh" | tail -1)
    exec "$fuzzer" -rss_limit_mb=2048 -timeout=10 "$@"
fi
seconds=${1:-60}
fuzzer=$(bash "$here/build.sh" ${2:+"$2"} | tail -1)

scratch=$work/corpus
artifacts=$work/artifacts
mkdir -p "$scratch" "$artifacts"

# UBSan findings abort (the build uses -fno-sanitize-recover); print their stacks.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
status=0
"$fuzzer" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=512 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 "$scratch" "$here/corpus" || status=$?

if [ "$status" -ne 0 ]; then
    echo "run.sh: the fuzzer failed (status $status); reproducers in $artifacts:" >&2
    ls -t "$artifacts" | head -5 >&2
    exit "$status"
fi

if [ "$update" = 1 ]; then
    # the smallest set of inputs that covers what the corpus and this run reached
    merged=$work/merged
    rm -rf "$merged"
    mkdir -p "$merged"
    "$fuzzer" -merge=1 -use_counters=0 -rss_limit_mb=2048 -timeout=10 "$merged" "$here/corpus" "$scratch" \
        2>/dev/null
    # the hand-made seeds and the fixed crashes (regress-*) stay; the found inputs are replaced by
    # the merged set, smallest first
    find "$here/corpus" -type f -name 'found-*' -delete
    declare -A seed_sums=()
    for s in "$here"/corpus/seed-* "$here"/corpus/regress-*; do
        seed_sums[$(sha1sum <"$s" | cut -c1-40)]=1
    done
    n=$(find "$here/corpus" -type f | wc -l)
    for f in $(ls -S -r "$merged"); do
        [ -z "${seed_sums[$f]:-}" ] || continue     # merge names inputs by their SHA-1
        [ "$n" -lt 1000 ] || break
        cp "$merged/$f" "$here/corpus/found-$f"
        n=$((n + 1))
    done
    echo "run.sh: the corpus now holds $n files" >&2
fi
