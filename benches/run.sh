#!/usr/bin/env bash
# kiln's build benchmark: kiln and ninja side by side, in one run.
#
#   bash benches/run.sh
#
# 1. builds kiln in release (`cargo build --release --locked`);
# 2. installs ninja-build and hyperfine from the system packages if missing;
# 3. generates a project of $BENCH_JOBS pose-cache jobs (default 1000) and an
#    equivalent ninja graph under benches/work/project (benches/gen_project.py);
# 4. measures with hyperfine, exporting JSON and Markdown into benches/work/:
#      full.*   kiln full build -j 1 / -j 2, ninja full build -j 1 / -j 2,
#               each run from a clean output folder;
#      noop.*   kiln no-op and ninja no-op, back to back (plus `kiln --version`,
#               the cost of starting the process at all);
# 5. prints the ratios and kiln's own no-op time (--json totals.time_ms)
#    against the wall time, and exits 1 if the kiln no-op mean exceeds
#    $BENCH_NOOP_LIMIT_MS (default 50 ms).
#
# Knobs (environment): BENCH_JOBS, BENCH_MANIFESTS, BENCH_NOOP_RUNS (default 50),
# BENCH_FULL_RUNS (default 5), BENCH_NOOP_LIMIT_MS (50), BENCH_GOAL_RATIO (1.5),
# KILN (use this kiln binary instead of building one), CARGO_TARGET_DIR.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(dirname "$HERE")"
WORK="$HERE/work"
W="$WORK/project"
N_JOBS="${BENCH_JOBS:-1000}"
N_MANIFESTS="${BENCH_MANIFESTS:-10}"
NOOP_RUNS="${BENCH_NOOP_RUNS:-50}"
FULL_RUNS="${BENCH_FULL_RUNS:-5}"
NOOP_LIMIT_MS="${BENCH_NOOP_LIMIT_MS:-50}"
GOAL_RATIO="${BENCH_GOAL_RATIO:-1.5}"

say() { printf '\n== %s\n' "$*" >&2; }

# --- tools ------------------------------------------------------------------
need=()
command -v ninja >/dev/null 2>&1 || need+=(ninja-build)
command -v hyperfine >/dev/null 2>&1 || need+=(hyperfine)
if ((${#need[@]})); then
    say "installing ${need[*]}"
    if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
        echo "benches/run.sh needs ${need[*]} (apt-get install -y ${need[*]})" >&2
        exit 2
    fi
    apt-get install -y "${need[@]}" >/dev/null 2>&1 ||
        { apt-get update >/dev/null && apt-get install -y "${need[@]}" >/dev/null; }
fi

# --- kiln -------------------------------------------------------------------
if [[ -z "${KILN:-}" ]]; then
    say "cargo build --release --locked"
    (cd "$REPO" && cargo build --release --locked)
    KILN="${CARGO_TARGET_DIR:-$REPO/target}/release/kiln"
fi
KILN="$(realpath "$KILN")"
[[ -x "$KILN" ]] || { echo "no kiln binary at $KILN" >&2; exit 2; }

# --- project ----------------------------------------------------------------
say "generating $N_JOBS jobs under $W"
mkdir -p "$WORK"
python3 "$HERE/gen_project.py" --jobs "$N_JOBS" --manifests "$N_MANIFESTS" --out "$W"
# kiln's hash cache does not keep files modified in the last two seconds
# (see compiler/build/state.rs); let fresh sources age past that.
newest=$(find "$W/sources" -type f -printf '%T@\n' | sort -n | tail -1)
age=$(python3 -c "import time; print(time.time() - $newest)")
if python3 -c "import sys; sys.exit(0 if $age < 3 else 1)"; then sleep 3; fi

KOUT="$W/out"
kiln_build=("$KILN" build --root "$W" --out "$KOUT" --quiet)
ninja_clean="rm -rf $W/ninja-out $W/.ninja_log $W/.ninja_deps"

# --- machine ----------------------------------------------------------------
{
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "nproc: $(nproc)"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
    echo "kernel: $(uname -srm)"
    echo "kiln: $("$KILN" --version) ($(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$REPO" diff --quiet HEAD -- compiler Cargo.toml Cargo.lock 2>/dev/null || echo ', uncommitted changes'))"
    echo "ninja: $(ninja --version)"
    echo "hyperfine: $(hyperfine --version)"
    echo "jobs: $N_JOBS in $N_MANIFESTS manifests"
} | tee "$WORK/machine.txt" >&2

# --- sanity: kiln builds everything, and a no-op builds nothing --------------
say "checking a full build and a no-op"
rm -rf "$KOUT"
"$KILN" build --root "$W" --out "$KOUT" --json >"$WORK/check-full.json" ||
    { echo "kiln full build failed; see $WORK/check-full.json" >&2; exit 1; }
"$KILN" build --root "$W" --out "$KOUT" --json >"$WORK/check-noop.json"
touch "$WORK/.noop-marker"
sleep 0.05
"$KILN" build --root "$W" --out "$KOUT" --json >"$WORK/check-noop.json"
python3 - "$WORK" "$N_JOBS" <<'EOF'
import json, sys
work, n = sys.argv[1], int(sys.argv[2])
full = json.load(open(f"{work}/check-full.json"))["totals"]
noop = json.load(open(f"{work}/check-noop.json"))["totals"]
assert full["built"] == n and full["failed"] == 0, f"full build: {full}"
assert noop["fresh"] == n and noop["built"] == 0, f"no-op build: {noop}"
print(f"full build: {full['built']} built; no-op: {noop['fresh']} fresh", file=sys.stderr)
EOF
written=$(find "$KOUT" -newer "$WORK/.noop-marker" ! -name lock | wc -l)
if [[ $written -ne 0 ]]; then
    echo "warning: the no-op build wrote $written file(s):" >&2
    find "$KOUT" -newer "$WORK/.noop-marker" ! -name lock >&2
fi
"$KILN" verify "$KOUT/poses/job-$(printf '%04d' 1).ospc" "$W/sources/s$(printf '%04d' 1).glb" >&2
$ninja_clean
ninja -C "$W" >/dev/null
ninja -C "$W" | grep -q 'no work to do' || { echo "ninja no-op did work" >&2; exit 1; }

# --- full builds ------------------------------------------------------------
say "full builds ($FULL_RUNS runs each, from clean output folders)"
hyperfine -N --warmup 1 --runs "$FULL_RUNS" \
    --export-json "$WORK/full.json" --export-markdown "$WORK/full.md" \
    --prepare "rm -rf $KOUT" --prepare "rm -rf $KOUT" \
    --prepare "$ninja_clean" --prepare "$ninja_clean" \
    -n 'kiln full -j 1' "${kiln_build[*]} -j 1" \
    -n 'kiln full -j 2' "${kiln_build[*]} -j 2" \
    -n 'ninja full -j 1' "ninja -C $W -j 1" \
    -n 'ninja full -j 2' "ninja -C $W -j 2"

# --- no-op builds -----------------------------------------------------------
say "no-op builds ($NOOP_RUNS runs each, back to back)"
"${kiln_build[@]}"
ninja -C "$W" >/dev/null
hyperfine -N --warmup 5 --runs "$NOOP_RUNS" \
    --export-json "$WORK/noop.json" --export-markdown "$WORK/noop.md" \
    -n 'kiln no-op' "${kiln_build[*]}" \
    -n 'ninja no-op' "ninja -C $W" \
    -n 'kiln --version' "$KILN --version"

# kiln's own measure of a no-op (engine time, from the start of the build to
# the report, without process start, argument parsing or printing).
for _ in $(seq "$NOOP_RUNS"); do
    "$KILN" build --root "$W" --out "$KOUT" --json | python3 -c \
        'import json,sys; print(json.load(sys.stdin)["totals"]["time_ms"])'
done >"$WORK/noop-engine-ms.txt"

# --- summary ----------------------------------------------------------------
say "summary"
python3 - "$WORK" "$NOOP_LIMIT_MS" "$GOAL_RATIO" <<'EOF'
import json, statistics, sys
work, limit_ms, goal = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
res = {}
for f in ("full", "noop"):
    for r in json.load(open(f"{work}/{f}.json"))["results"]:
        res[r["command"]] = r
ms = lambda name: res[name]["mean"] * 1e3
sd = lambda name: res[name]["stddev"] * 1e3
engine = [float(x) for x in open(f"{work}/noop-engine-ms.txt").read().split()]
lines = ["| measurement | mean ± σ (ms) | min (ms) | runs |", "|---|---|---|---|"]
for name, r in res.items():
    lines.append(f"| {name} | {ms(name):.1f} ± {sd(name):.1f} | {r['min']*1e3:.1f} | {len(r['times'])} |")
lines.append(f"| kiln no-op, engine only (--json totals.time_ms) | "
             f"{statistics.mean(engine):.1f} ± {statistics.stdev(engine):.1f} | {min(engine):.1f} | {len(engine)} |")
ratio = ms("kiln no-op") / ms("ninja no-op")
ks = ms("kiln full -j 1") / ms("kiln full -j 2")
ns = ms("ninja full -j 1") / ms("ninja full -j 2")
lines += [
    "",
    "| ratio | value |", "|---|---|",
    f"| kiln no-op / ninja no-op | {ratio:.2f}× (goal ≤ {goal}×) |",
    f"| kiln full -j 1 / -j 2 (speed-up) | {ks:.2f}× |",
    f"| ninja full -j 1 / -j 2 (speed-up) | {ns:.2f}× |",
    f"| kiln full -j 2 / ninja full -j 2 | {ms('kiln full -j 2') / ms('ninja full -j 2'):.2f}× |",
    f"| kiln no-op: engine share of wall time | {statistics.mean(engine) / ms('kiln no-op') * 100:.0f} % |",
]
text = "\n".join(lines)
open(f"{work}/summary.md", "w").write(text + "\n")
print(text)
print()
ok_bound = ms("kiln no-op") <= limit_ms
print(f"kiln no-op {ms('kiln no-op'):.1f} ms: {'within' if ok_bound else 'OVER'} the {limit_ms:g} ms bound")
print(f"kiln no-op / ninja no-op {ratio:.2f}×: {'meets' if ratio <= goal else 'misses'} the {goal:g}× goal")
sys.exit(0 if ok_bound else 1)
EOF
