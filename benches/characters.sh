#!/usr/bin/env bash
# Compiled characters against gltfpack, side by side, one run:
#
#   bash benches/characters.sh
#
# 1. installs the peers if missing: Debian's native `gltfpack` (0.18) and
#    the npm registry's `gltfpack@1.3.0` (WASM, under benches/work/npm);
# 2. for each corpus character (CesiumMan, Fox, RobotExpressive,
#    RiggedSimple, SimpleSkin, MorphStressTest): a project of one level
#    with that model and a bank of its clips; times with hyperfine
#    (BENCH_CHAR_RUNS runs after warm-ups, sources in the page cache)
#    `kiln build --force` against `gltfpack -cc` of the same file, native
#    and WASM;
# 3. the whole demo level set (manifests/levels.yaml: 2 levels, 6 models)
#    against gltfpack -cc over the same six files in one shell loop;
# 4. where kiln's time goes, per phase (examples/character_phases.rs).
# 5. kiln and native gltfpack once more, run by run interleaved
#    (benches/characters_interleaved.py; OLD_KILN=path adds an older kiln
#    binary, BENCH_CHAR_ROUNDS the rounds, default 40).
#
# kiln builds one level as one job on one thread, like gltfpack on one
# file. `kiln build` is a whole process: manifest, plan, hashing, the job,
# the commit; gltfpack's time is its whole process too.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(dirname "$HERE")"
W="$HERE/work/characters"
RUNS="${BENCH_CHAR_RUNS:-20}"
say() { printf '\n== %s\n' "$*" >&2; }
command -v hyperfine >/dev/null 2>&1 || apt-get install -y -qq hyperfine >/dev/null
command -v gltfpack >/dev/null 2>&1 || apt-get install -y -qq gltfpack >/dev/null
NPM="$HERE/work/npm"
if [ ! -x "$NPM/node_modules/.bin/gltfpack" ]; then
    mkdir -p "$NPM"
    (cd "$NPM" && npm install --silent --no-audit --no-fund gltfpack@1.3.0)
fi
WASM="$NPM/node_modules/.bin/gltfpack"
say "versions"
gltfpack -v 2>&1 | head -1
"$WASM" -v 2>&1 | head -1
# kiln as it ships: the dist profile (thin LTO); the phases example is a
# release build (it times phases inside one process).
(cd "$REPO" && cargo build --profile dist --quiet --bin kiln && cargo build --release --quiet --example character_phases)
KILN="$REPO/target/dist/kiln"
git -C "$REPO" rev-parse --short HEAD

rm -rf "$W" && mkdir -p "$W/out"
C="$REPO/tests/corpus/glb"
for name in CesiumMan-blender Fox RobotExpressive RiggedSimple-blender SimpleSkin MorphStressTest; do
    P="$W/$name"
    mkdir -p "$P/manifests" "$P/sources"
    cp "$C/$name.glb" "$P/sources/"
    # Each model plays a bank of its own file's clips (every file here
    # has at least one animation).
    cat > "$P/manifests/level.yaml" <<EOF
characters:
  - level: bench
    banks:
      - id: clips
        clips:
          - source: sources/$name.glb
    models:
      - id: model
        source: sources/$name.glb
        bank: clips
EOF
    (cd "$P" && "$KILN" build --quiet 2>/dev/null)
done

say "one character: kiln build --force vs gltfpack -cc (native, WASM)"
for name in CesiumMan-blender Fox RobotExpressive RiggedSimple-blender SimpleSkin MorphStressTest; do
    P="$W/$name"
    hyperfine -N --warmup 3 --runs "$RUNS" --export-json "$W/$name.json" \
        -n "kiln $name" "$KILN build --root $P --force --quiet" \
        -n "gltfpack $name" "gltfpack -i $C/$name.glb -o $W/out/$name.glb -cc" \
        -n "gltfpack-wasm $name" "$WASM -i $C/$name.glb -o $W/out/$name.wasm.glb -cc" \
        >/dev/null
done

say "the demo levels (2 levels, 6 models) vs gltfpack -cc on their six files"
D="$W/demo"
mkdir -p "$D/manifests"
cp -r "$REPO/sources" "$D/"
cp "$REPO/manifests/levels.yaml" "$D/manifests/"
(cd "$D" && "$KILN" build --quiet 2>/dev/null)
S="$REPO/sources/characters"
LIST="$S/Fox.glb $S/CesiumMan-blender.glb $S/RobotExpressive.glb $S/RobotExpressive.cc.glb $S/SimpleSkin.glb $S/RiggedSimple-blender.glb"
hyperfine -N --warmup 2 --runs "$RUNS" --export-json "$W/demo.json" \
    -n "kiln demo levels -j 1" "$KILN build --root $D --force --quiet -j 1" \
    -n "kiln demo levels -j 2" "$KILN build --root $D --force --quiet -j 2" \
    -n "gltfpack six files" "bash -c 'for f in $LIST; do gltfpack -i \$f -o $W/out/x.glb -cc >/dev/null; done'" \
    -n "gltfpack-wasm six files" "bash -c 'for f in $LIST; do $WASM -i \$f -o $W/out/x.glb -cc >/dev/null; done'" \
    >/dev/null

say "where kiln's time goes (median ms per phase)"
"$REPO/target/release/examples/character_phases" \
    "$C/CesiumMan-blender.glb" "$C/Fox.glb" "$C/RobotExpressive.glb" \
    "$C/RiggedSimple-blender.glb" "$C/MorphStressTest.glb"

say "medians (ms)"
python3 - "$W" <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    for r in json.load(open(f))["results"]:
        print(f"{r['command']:40s} {r['median']*1e3:9.2f} ms  (min {r['min']*1e3:.2f})")
PY

say "kiln and native gltfpack interleaved, round by round (\$OLD_KILN beside them when set)"
python3 "$HERE/characters_interleaved.py" "$KILN" ${OLD_KILN:+"$OLD_KILN"} "${BENCH_CHAR_ROUNDS:-40}" 2>/dev/null
