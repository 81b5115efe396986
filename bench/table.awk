# table.awk: prints run.sh's tables from ddtbench's result lines (the format is in ddtbench.c).
# Loom MPI ("loom") is compared with the others: its throughput over MPICH's, Open MPI's, the
# hand loop's and memcpy's. The hand loops are timed as compiled into every library's plugin; the
# table shows the median of those, and with several rounds every number is the median of the
# rounds. A row is marked where Loom misses a target of issue 3:
# slower than the faster of MPICH and Open MPI ("<lib"), or below 0.9x the hand loop ("<hand");
# a miss by less than 3%, within the noise of a shared machine, is marked "~lib" or "~hand".
BEGIN { FS = "\t"; nlibs = split("loom mpich openmpi", libs, " ") }

$1 == "I" { version[$2] = $3 }
$1 == "P" || $1 == "F" {
    if (!($3 in seen)) { seen[$3] = 1; order[++npat] = $3 }
    if ($1 == "F") { fail[$2, $3] = $4; next }
    bytes[$3] = $4
    v[$2, $3, "pack"] = v[$2, $3, "pack"] " " $5; v[$2, $3, "unpack"] = v[$2, $3, "unpack"] " " $6
    hand["pack", $3] = hand["pack", $3] " " $7; hand["unpack", $3] = hand["unpack", $3] " " $8
    mcpy[$3] = mcpy[$3] " " $9
}
$1 == "C" {
    if (!($3 in cseen)) { cseen[$3] = 1; corder[++ncom] = $3 }
    cre[$2, $3] = cre[$2, $3] " " $5; com[$2, $3] = com[$2, $3] " " $6; mem[$2, $3] = mem[$2, $3] " " $7
}

function median(list,    a, n, i, j, t) {
    n = split(list, a, " ")
    if (n == 0) return ""
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function size(b) {
    return b >= 1048576 ? sprintf("%.1fM", b / 1048576) : sprintf("%.1fK", b / 1024)
}
function cell(lib, name, what) {
    if ((lib, name) in fail) return "FAIL"
    if ((lib, name, what) in v) return sprintf("%.2f", median(v[lib, name, what]))
    return "-"
}
function ccell(lib, name) {
    if ((lib, name) in fail) return "FAIL"
    if (!((lib, name) in cre)) return "-"
    return sprintf("%6.1f %6.1f %5.0f", median(cre[lib, name]), median(com[lib, name]), median(mem[lib, name]))
}
function ratio(a, b) { return (a == "" || b == "" || b + 0 == 0) ? "-" : sprintf("%.2f", a / b) }

function table(what,    i, name, ours, mp, om, h, m, best, flag, noise) {
    printf "\n%s throughput, GB/s of packed data; ratios are Loom's\n", toupper(substr(what, 1, 1)) substr(what, 2)
    printf "%-20s %7s | %7s %7s %7s %7s %7s | %6s %6s %6s %6s\n", "pattern", "bytes", "loom", "mpich",
           "openmpi", "hand", "memcpy", "/mpich", "/ompi", "/hand", "/memcpy"
    for (i = 1; i <= npat; i++) {
        name = order[i]
        ours = (("loom", name) in fail || !(("loom", name, what) in v)) ? "" : median(v["loom", name, what])
        mp = (("mpich", name, what) in v) ? median(v["mpich", name, what]) : ""
        om = (("openmpi", name, what) in v) ? median(v["openmpi", name, what]) : ""
        h = median(hand[what, name]); m = median(mcpy[name])
        best = mp == "" ? om : om == "" ? mp : (mp + 0 > om + 0 ? mp : om)
        flag = ""; noise = 1
        if (ours != "" && best != "" && ours + 0 < best + 0) {
            flag = flag (ours < 0.97 * best ? " <lib" : " ~lib"); if (ours < 0.97 * best) noise = 0
        }
        if (ours != "" && h != "" && ours + 0 < 0.9 * h) {
            flag = flag (ours < 0.97 * 0.9 * h ? " <hand" : " ~hand"); if (ours < 0.97 * 0.9 * h) noise = 0
        }
        if (("loom", name) in fail) { flag = " FAILED"; noise = 0 }
        if (flag != "") { missed[what]++; if (noise) nearly[what]++ }
        if (ours != "" || ("loom", name) in fail) counted[what]++
        printf "%-20s %7s | %7s %7s %7s %7s %7s | %6s %6s %6s %6s%s\n", name, name in bytes ? size(bytes[name]) : "-",
               cell("loom", name, what), cell("mpich", name, what), cell("openmpi", name, what),
               h == "" ? "-" : sprintf("%.2f", h), m == "" ? "-" : sprintf("%.2f", m),
               ratio(ours, mp), ratio(ours, om), ratio(ours, h), ratio(ours, m), flag
    }
}

END {
    for (i = 1; i <= nlibs; i++) if (libs[i] in version) printf "%-8s %s\n", libs[i], version[libs[i]]
    table("pack")
    table("unpack")
    if (ncom) {
        printf "\nCreate + commit of a type with ~1M blocks: ns per block (create, commit), heap bytes held per block\n"
        printf "%-20s |", "type"
        for (j = 1; j <= nlibs; j++) printf " %-20s |", libs[j] " cre/com/mem"
        printf "\n"
        for (i = 1; i <= ncom; i++) {
            printf "%-20s |", corder[i]
            for (j = 1; j <= nlibs; j++) printf " %-20s |", ccell(libs[j], corder[i])
            printf "\n"
        }
    }
    nf = 0
    for (k in fail) { split(k, kk, SUBSEP); if (!nf++) printf "\nFailures:\n"; printf "  %s %s: %s\n", kk[1], kk[2], fail[k] }
    if (counted["pack"] + counted["unpack"] > 0)
        printf "\nTargets (>= the faster of MPICH and Open MPI, >= 0.9x hand) missed by Loom: pack %d of %d (%d by less than 3%%), unpack %d of %d (%d by less than 3%%)\n",
               missed["pack"], counted["pack"], nearly["pack"], missed["unpack"], counted["unpack"], nearly["unpack"]
}
