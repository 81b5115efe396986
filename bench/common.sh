# common.sh: what run.sh and pingpong.sh share (sourced, not run): their options, the compiler
# wrapper and launcher of each library, and building one program against every library.
# The caller sets here (this folder) and out (the default results folder) first.

libs="loom mpich openmpi"
loom=${LOOM_MPI:-}
quick=
rounds=1
filters=
table=

# Options of both scripts (--table is pingpong.sh's); other words are pattern filters.
bench_options() {
    while [ $# -gt 0 ]; do
        case $1 in
            --quick) quick=--quick ;;
            --loom) loom=$2; shift ;;
            --libs) libs=$2; shift ;;
            --rounds) rounds=$2; shift ;;
            --out) out=$2; shift ;;
            --table) table=$2; shift ;;
            -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
            *) filters="$filters $1" ;;
        esac
        shift
    done
    [ -z "$loom" ] && [ -x "$here/../src/env/mpicc-uninstalled" ] && loom=$here/..
    return 0
}

# "wrapper launcher..." of a library (every launcher binds rank i to core i), or nothing (with a
# note) when it is not there.
bench_tools() {
    case $1 in
        loom)
            if [ -z "$loom" ]; then echo "loom: no Loom MPI build: pass --loom BUILD_DIR_OR_PREFIX" >&2
            elif [ -x "$loom/src/env/mpicc-uninstalled" ]; then
                echo "$loom/src/env/mpicc-uninstalled $loom/src/pm/mpiexec/mpiexec -bind-to core"
            elif [ -x "$loom/bin/mpicc" ]; then echo "$loom/bin/mpicc $loom/bin/mpiexec -bind-to core"
            else echo "loom: $loom is neither a Loom MPI build tree nor an install prefix" >&2; fi ;;
        mpich)
            if command -v mpicc.mpich > /dev/null; then echo "mpicc.mpich mpiexec.mpich -bind-to core"
            else echo "mpich: mpicc.mpich not found (apt-get install libmpich-dev mpich)" >&2; fi ;;
        openmpi)
            root=; [ "$(id -u)" = 0 ] && root=--allow-run-as-root
            if command -v mpicc.openmpi > /dev/null; then echo "mpicc.openmpi mpiexec.openmpi $root --bind-to core"
            else echo "openmpi: mpicc.openmpi not found (apt-get install libopenmpi-dev openmpi-bin)" >&2; fi ;;
        *) echo "$1: unknown library" >&2 ;;
    esac
}

# Builds $out/NAME-LIB from the given sources against every library of $libs (-O3 for the hand
# loops; the same baseline ISA as the distributions' libraries) and keeps its launcher in
# $out/launch-LIB; with --plugin first, a shared object $out/NAME-LIB.so instead. Sets built to
# the libraries that built, and fails when none did.
bench_build() {
    so=; [ "$1" = --plugin ] && { so="-shared -fPIC"; shift; }
    name=$1; shift
    built=
    for lib in $libs; do
        t=$(bench_tools "$lib")
        [ -n "$t" ] || continue
        # shellcheck disable=SC2086
        if ${t%% *} -O3 $so -o "$out/$name-$lib${so:+.so}" "$@"; then
            built="$built $lib"
            echo "${t#* }" > "$out/launch-$lib"
        else
            echo "$lib: build failed" >&2
        fi
    done
    [ -n "$built" ] || { echo "no library could be built" >&2; return 1; }
    echo "libraries:$built" >&2
}
