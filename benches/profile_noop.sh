#!/usr/bin/env bash
# Where a kiln no-op build spends its time, beside ninja's no-op.
#
#   bash benches/profile_noop.sh          (after benches/run.sh)
#   BENCH_NICE=-19 bash benches/profile_noop.sh   (at a higher CPU priority)
#
# Uses the project and kiln binary benches/run.sh left (benches/work/project,
# target/release/kiln, or $KILN) and writes into benches/work/profile/:
#   strace-kiln.txt, strace-ninja.txt   syscall counts of one no-op each
#                                       (`strace -c -f`; installs strace if missing)
#   phases.md                           kiln's no-op CPU samples by build
#                                       phase (`perf record --call-graph dwarf`
#                                       over $PROFILE_RUNS no-ops, default 30,
#                                       folded by benches/perf_phases.py);
#                                       skipped when perf is not usable here
#   perf-flat.txt                       the flat profile (top symbols)
#   steps.txt, callgrind-*.out          instructions of one no-op each,
#                                       kiln's split by build function
#                                       (valgrind --tool=callgrind)
#   scaling.md                          no-op time at 100, 1000 and 4000
#                                       jobs: the cost per job and the
#                                       fixed cost, kiln beside ninja
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(dirname "$HERE")"
W="$HERE/work/project"
P="$HERE/work/profile"
KILN="$(realpath "${KILN:-${CARGO_TARGET_DIR:-$REPO/target}/release/kiln}")"
RUNS="${PROFILE_RUNS:-30}"
[[ -d "$W/out/.kiln" ]] || { echo "run benches/run.sh first" >&2; exit 2; }
mkdir -p "$P"
# BENCH_NICE=-19: measure at a higher priority, as benches/run.sh does.
if [[ -n "${BENCH_NICE:-}" && -w /proc/self/autogroup ]]; then
    old_group_nice="$(sed -n 's/.* nice //p' /proc/$$/autogroup)"
    trap 'echo "${old_group_nice:-0}" >/proc/$$/autogroup' EXIT
    echo "$BENCH_NICE" >/proc/$$/autogroup
fi

command -v strace >/dev/null 2>&1 || apt-get install -y strace >/dev/null
kiln_noop=("$KILN" build --root "$W" --out "$W/out" --quiet)
"${kiln_noop[@]}"
ninja -C "$W" >/dev/null

strace -f -c -o "$P/strace-kiln.txt" "${kiln_noop[@]}"
strace -f -c -o "$P/strace-ninja.txt" ninja -C "$W" >/dev/null
for t in kiln ninja; do
    echo "== $t no-op: syscalls (strace -c -f)"
    # The table's rows by call count, and its total line.
    awk 'NR > 2 && $1 !~ /^-/ && $NF != "total"' "$P/strace-$t.txt" |
        sort -k4,4nr | awk 'NR <= 8'
    grep ' total$' "$P/strace-$t.txt"
done

if perf record -o /dev/null -q -- true >/dev/null 2>&1; then
    perf record -q -F 10000 --call-graph dwarf,65528 -o "$P/perf.data" -- \
        bash -c "for i in \$(seq $RUNS); do ${kiln_noop[*]}; done" >/dev/null 2>&1
    perf script -i "$P/perf.data" --comms kiln -F comm,ip,sym 2>/dev/null |
        python3 "$HERE/perf_phases.py" >"$P/phases.md"
    perf report -i "$P/perf.data" --comms kiln --percentage relative --no-children \
        -g none --sort dso,symbol --stdio 2>/dev/null >"$P/perf-report.txt" || true
    grep '%' "$P/perf-report.txt" | sed -e 's/ *$//' -e 's/ *- *- *$//' | cut -c1-150 |
        awk 'NR <= 40' >"$P/perf-flat.txt"
    echo "== kiln no-op: CPU samples by phase ($RUNS runs)"
    cat "$P/phases.md"
else
    echo "perf is not usable here; skipped the phase profile" >&2
fi

# How the no-op grows with the job count: the slope is the cost per job, the
# intercept the fixed cost (process start, opening the state, ...).
SCALES="${PROFILE_SCALES:-100 1000 4000}"
echo "== no-op time against the job count ($SCALES)"
rows=()
for n in $SCALES; do
    d="$HERE/work/scale-$n"
    python3 "$HERE/gen_project.py" --jobs "$n" --out "$d" >/dev/null
    [[ -d "$d/out/.kiln" ]] || sleep 3  # fresh sources: see run.sh
    "$KILN" build --root "$d" --out "$d/out" --quiet
    "$KILN" build --root "$d" --out "$d/out" --quiet
    ninja -C "$d" >/dev/null
    hyperfine -N --warmup 3 --runs 20 --export-json "$P/scale-$n.json" \
        -n "kiln no-op $n" "$KILN build --root $d --out $d/out --quiet" \
        -n "ninja no-op $n" "ninja -C $d" >/dev/null
    rows+=("$P/scale-$n.json")
done
python3 - "${rows[@]}" <<'PY' | tee "$P/scaling.md"
import json, sys
pts = {}
for f in sys.argv[1:]:
    for r in json.load(open(f))["results"]:
        tool, _, n = r["command"].rpartition(" ")
        cpu = (r["user"] + r["system"]) * 1e3
        pts.setdefault(tool, []).append((int(n), r["mean"] * 1e3, cpu))
print("| tool | jobs | wall mean (ms) | CPU user + sys (ms) |")
print("|---|---|---|---|")
for tool, p in pts.items():
    for n, wall, cpu in sorted(p):
        print(f"| {tool} | {n} | {wall:.1f} | {cpu:.1f} |")
print()
print("| tool | per job, wall (µs) | fixed, wall (ms) | per job, CPU (µs) | fixed, CPU (ms) |")
print("|---|---|---|---|---|")
for tool, p in pts.items():
    p.sort()
    def fit(k):
        xs = [q[0] for q in p]; ys = [q[k] for q in p]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        return b * 1e3, my - b * mx
    (sw, iw), (sc, ic) = fit(1), fit(2)
    print(f"| {tool} | {sw:.1f} | {iw:.1f} | {sc:.1f} | {ic:.1f} |")
PY

# Instructions by function: valgrind's callgrind counts instructions, not
# seconds, so the split is the same whatever else the machine is doing.
echo "== kiln no-op and ninja no-op: instructions (callgrind)"
if command -v valgrind >/dev/null; then
    (cd "$W" && valgrind --tool=callgrind --callgrind-out-file="$P/callgrind-kiln.out" "$KILN" build --quiet) 2>&1 | grep Collected | sed 's/^==[0-9]*== /kiln:  /'
    (cd "$W" && valgrind --tool=callgrind --callgrind-out-file="$P/callgrind-ninja.out" ninja >/dev/null) 2>&1 | grep Collected | sed 's/^==[0-9]*== /ninja: /'
    callgrind_annotate --inclusive=yes "$P/callgrind-kiln.out" 2>/dev/null \
        | grep -E 'kiln::pipeline::[a-z_]+::[A-Za-z_:]+ \[|malloc.c:(malloc|free)' | head -20 | tee "$P/steps.txt"
else
    echo "valgrind not found; skipped" >&2
fi
