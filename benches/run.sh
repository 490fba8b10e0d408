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
#               each run from a clean output folder (the old one moved aside);
#      full-rmrf.*  with BENCH_RMRF=1: kiln full build -j 1 / -j 2, the output
#               folder deleted with rm -rf right before each run;
#      noop.*   kiln no-op and ninja no-op, back to back (plus `kiln --version`,
#               the cost of starting the process at all);
# 5. prints the ratios and kiln's own no-op time (--json totals.time_ms)
#    against the wall time, and exits 1 if the kiln no-op mean exceeds
#    $BENCH_NOOP_LIMIT_MS (default 50 ms).
#
# Knobs (environment):
#   BENCH_JOBS (1000), BENCH_MANIFESTS (10)   size of the generated project
#   BENCH_NOOP_RUNS (50), BENCH_FULL_RUNS (5; 0 skips the full builds)
#   BENCH_NOOP_LIMIT_MS (50), BENCH_GOAL_RATIO (1.5)
#   BENCH_NICE (e.g. -19)      measure at a higher CPU priority (see below)
#   BENCH_RMRF=1               also time kiln full builds right after rm -rf
#   BENCH_DELETE_TRASH=1       delete the set-aside output folders at the end
#   KILN                       use this kiln binary instead of building one
#   CARGO_TARGET_DIR           as cargo reads it
#
# The load average before and after goes into benches/work/machine.txt: on a
# shared machine compare the CPU columns (user + sys), which other work
# disturbs far less than the wall times.
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
# BENCH_NICE=-19 runs the measurements at a higher CPU priority, which cuts
# the noise when other work shares the machine (root only). Empty: as is.
# With the kernel's autogroups on (/proc/sys/kernel/sched_autogroup_enabled),
# a process's nice value only counts inside its own session's group, and the
# groups share the cores evenly: so this also sets the nice value of this
# session's group while measuring, and puts the old one back on exit.
NICE="${BENCH_NICE:+nice -n $BENCH_NICE}"
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
# (see compiler/pipeline/state.rs); let fresh sources age past that.
newest=$(find "$W/sources" -type f -printf '%T@\n' | sort -n | tail -1)
age=$(python3 -c "import time; print(time.time() - $newest)")
if python3 -c "import sys; sys.exit(0 if $age < 3 else 1)"; then sleep 3; fi

KOUT="$W/out"
kiln_build=("$KILN" build --root "$W" --out "$KOUT" --quiet)
# Clean output folders are made by moving the old ones into $TRASH, never by
# deleting them (see benches/set_aside.sh for why).
TRASH="$WORK/trash"
aside="bash $HERE/set_aside.sh $TRASH"
kiln_clean="$aside $KOUT"
ninja_clean="$aside $W/ninja-out $W/.ninja_log $W/.ninja_deps"

# --- machine ----------------------------------------------------------------
if [[ -n "$NICE" && -w /proc/self/autogroup ]]; then
    old_group_nice="$(sed -n 's/.* nice //p' /proc/$$/autogroup)"
    trap 'echo "${old_group_nice:-0}" >/proc/$$/autogroup' EXIT
    echo "$BENCH_NICE" >/proc/$$/autogroup
fi
{
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "nproc: $(nproc)"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
    echo "kernel: $(uname -srm)"
    if rev="$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null)"; then
        git -C "$REPO" diff --quiet HEAD -- compiler Cargo.toml Cargo.lock || rev="$rev + uncommitted changes"
    else
        rev="not a git checkout"
    fi
    echo "kiln: $("$KILN" --version) ($rev)"
    echo "ninja: $(ninja --version)"
    echo "hyperfine: $(hyperfine --version)"
    echo "jobs: $N_JOBS in $N_MANIFESTS manifests"
    echo "priority: ${NICE:-default}${NICE:+, session autogroup $(cat /proc/$$/autogroup 2>/dev/null)}"
    echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$WORK/machine.txt" >&2

# --- sanity: kiln builds everything, and a no-op builds nothing --------------
say "checking a full build and a no-op"
$kiln_clean
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
# BENCH_FULL_RUNS=0 skips them (a quick no-op comparison).
rm -f "$WORK/full.json" "$WORK/full.md"
if [[ "$FULL_RUNS" -gt 0 ]]; then
    say "full builds ($FULL_RUNS runs each, from clean output folders)"
    $NICE hyperfine -N --warmup 1 --runs "$FULL_RUNS" \
        --export-json "$WORK/full.json" --export-markdown "$WORK/full.md" \
        --prepare "$kiln_clean" --prepare "$kiln_clean" \
        --prepare "$ninja_clean" --prepare "$ninja_clean" \
        -n 'kiln full -j 1' "${kiln_build[*]} -j 1" \
        -n 'kiln full -j 2' "${kiln_build[*]} -j 2" \
        -n 'ninja full -j 1' "ninja -C $W -j 1" \
        -n 'ninja full -j 2' "ninja -C $W -j 2"
fi

# BENCH_RMRF=1: the same kiln builds, cleaning with `rm -rf` right before
# each run: what a user who just deleted the output folder sees on this file
# system. Off by default: the deletions slow every file creation on the
# file system for minutes after (benches/set_aside.sh), this run's no-op
# aside, and the next run's full builds.
if [[ -n "${BENCH_RMRF:-}" ]]; then
    say "kiln full builds after rm -rf ($FULL_RUNS runs each)"
    $NICE hyperfine -N --warmup 1 --runs "$FULL_RUNS" \
        --export-json "$WORK/full-rmrf.json" --export-markdown "$WORK/full-rmrf.md" \
        --prepare "rm -rf $KOUT" \
        -n 'kiln full -j 1, after rm -rf' "${kiln_build[*]} -j 1" \
        -n 'kiln full -j 2, after rm -rf' "${kiln_build[*]} -j 2"
else
    rm -f "$WORK/full-rmrf.json" "$WORK/full-rmrf.md"
fi

# --- no-op builds -----------------------------------------------------------
say "no-op builds ($NOOP_RUNS runs each, back to back)"
"${kiln_build[@]}"
ninja -C "$W" >/dev/null
$NICE hyperfine -N --warmup 5 --runs "$NOOP_RUNS" \
    --export-json "$WORK/noop.json" --export-markdown "$WORK/noop.md" \
    -n 'kiln no-op' "${kiln_build[*]}" \
    -n 'ninja no-op' "ninja -C $W" \
    -n 'kiln --version' "$KILN --version"

# kiln's own measure of a no-op (engine time, from the start of the build to
# the report, without process start, argument parsing or printing).
# Each report goes to a file first: a reader started beside kiln would
# compete with it for the cores.
rm -rf "$WORK/noop-json" && mkdir -p "$WORK/noop-json"
for i in $(seq "$NOOP_RUNS"); do
    $NICE "$KILN" build --root "$W" --out "$KOUT" --json >"$WORK/noop-json/$i.json"
done
python3 -c 'import json,sys; [print(json.load(open(f))["totals"]["time_ms"]) for f in sys.argv[1:]]' \
    "$WORK"/noop-json/*.json >"$WORK/noop-engine-ms.txt"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$WORK/machine.txt" >&2
# The set-aside output folders stay in $TRASH (about 200 MB a run): deleting
# them now would slow the next run's full builds (see set_aside.sh).
if [[ -n "${BENCH_DELETE_TRASH:-}" ]]; then
    rm -rf "$TRASH"
else
    echo "set-aside outputs kept in $TRASH ($(du -sh "$WORK" | cut -f1) in benches/work);" \
        "delete them at least 6 minutes before the next run" >&2
fi

# --- summary ----------------------------------------------------------------
say "summary"
python3 - "$WORK" "$NOOP_LIMIT_MS" "$GOAL_RATIO" <<'EOF'
import json, os, statistics, sys
work, limit_ms, goal = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
res = {}
for f in ("full", "full-rmrf", "noop"):
    if not os.path.exists(f"{work}/{f}.json"):
        continue
    for r in json.load(open(f"{work}/{f}.json"))["results"]:
        res[r["command"]] = r
ms = lambda name: res[name]["mean"] * 1e3
sd = lambda name: res[name]["stddev"] * 1e3
engine = [float(x) for x in open(f"{work}/noop-engine-ms.txt").read().split()]
cpu = lambda name: (res[name]["user"] + res[name]["system"]) * 1e3
lines = ["| measurement | wall mean ± σ (ms) | wall min (ms) | CPU user + sys (ms) | runs |",
         "|---|---|---|---|---|"]
for name, r in res.items():
    lines.append(f"| {name} | {ms(name):.1f} ± {sd(name):.1f} | {r['min']*1e3:.1f} | "
                 f"{r['user']*1e3:.1f} + {r['system']*1e3:.1f} = {cpu(name):.1f} | {len(r['times'])} |")
lines.append(f"| kiln no-op, engine only (--json totals.time_ms) | "
             f"{statistics.mean(engine):.1f} ± {statistics.stdev(engine):.1f} | {min(engine):.1f} | | {len(engine)} |")
ratio = ms("kiln no-op") / ms("ninja no-op")
lines += [
    "",
    "| ratio | value |", "|---|---|",
    f"| kiln no-op / ninja no-op, wall mean | {ratio:.2f}× (goal ≤ {goal}×) |",
    f"| kiln no-op / ninja no-op, wall min | {res['kiln no-op']['min'] / res['ninja no-op']['min']:.2f}× |",
    f"| kiln no-op / ninja no-op, CPU | {cpu('kiln no-op') / cpu('ninja no-op'):.2f}× |",
    f"| kiln no-op: engine share of wall time | {statistics.mean(engine) / ms('kiln no-op') * 100:.0f} % |",
]
if "kiln full -j 2" in res:
    lines += [
        f"| kiln full -j 1 / -j 2 (speed-up) | {ms('kiln full -j 1') / ms('kiln full -j 2'):.2f}× |",
        f"| ninja full -j 1 / -j 2 (speed-up) | {ms('ninja full -j 1') / ms('ninja full -j 2'):.2f}× |",
        f"| kiln full -j 2 / ninja full -j 2 | {ms('kiln full -j 2') / ms('ninja full -j 2'):.2f}× |",
    ]
if "kiln full -j 2, after rm -rf" in res:
    lines.append(f"| kiln full -j 1 / -j 2 (speed-up), after rm -rf | "
                 f"{ms('kiln full -j 1, after rm -rf') / ms('kiln full -j 2, after rm -rf'):.2f}× |")
text = "\n".join(lines)
open(f"{work}/summary.md", "w").write(text + "\n")
print(text)
print()
ok_bound = ms("kiln no-op") <= limit_ms
print(f"kiln no-op {ms('kiln no-op'):.1f} ms: {'within' if ok_bound else 'OVER'} the {limit_ms:g} ms bound")
print(f"kiln no-op / ninja no-op {ratio:.2f}×: {'meets' if ratio <= goal else 'misses'} the {goal:g}× goal")
sys.exit(0 if ok_bound else 1)
EOF
