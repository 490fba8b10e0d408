#!/usr/bin/env bash
# Style benchmark: kiln against numpy + gguf-py (benches/styles_numpy.py),
# side by side, one run.
#
#   bash benches/styles.sh
#
# 1. builds kiln and examples/synth_styles.rs in release and writes, under
#    benches/work/styles/: a synthetic upstream clip file (15 clips of the
#    official shapes, 300 to 580 frames each) and a G1 rig walking for
#    100,000 frames (every joint's rotation and the pelvis's translation
#    keyed at 30 fps; 56 MB);
# 2. times with hyperfine (BENCH_STYLES_RUNS runs each after one warm-up,
#    sources in the page cache, each run into an empty folder):
#      official  the 15 official styles (`table: motionbricks-g1`) against
#                `styles_numpy.py official` (safetensors.numpy + GGUFWriter);
#      glb       one style from the 100,000-frame clip (forward kinematics,
#                30 fps) against `styles_numpy.py glb` (numpy einsum FK);
# 3. peak RSS of each with /usr/bin/time -v;
# 4. checks that the official styles are byte-identical between the two,
#    and prints the GLB style's largest difference.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(dirname "$HERE")"
W="$HERE/work/styles"
RUNS="${BENCH_STYLES_RUNS:-5}"
say() { printf '\n== %s\n' "$*" >&2; }
command -v hyperfine >/dev/null 2>&1 || apt-get install -y hyperfine >/dev/null
python3 -c "import gguf, numpy, safetensors" 2>/dev/null ||
    python3 -m pip install -q gguf==0.19.0 numpy safetensors

say "cargo build --release --locked (kiln and the generator)"
(cd "$REPO" && cargo build --release --locked --example synth_styles --bin kiln)
KILN="${CARGO_TARGET_DIR:-$REPO/target}/release/kiln"
SYNTH="${CARGO_TARGET_DIR:-$REPO/target}/release/examples/synth_styles"
for p in official glb; do mkdir -p "$W/$p/manifests" "$W/$p/sources"; done
[[ -f "$W/src/g1-walk.glb" ]] || "$SYNTH" "$W/src" 100000
cp --remove-destination "$W/src/clips.safetensors" "$W/official/sources/clips.safetensors"
cp --remove-destination "$W/src/g1-walk.glb" "$W/glb/sources/g1-walk.glb"
cat >"$W/official/manifests/styles.yaml" <<'YAML'
styles:
  - id: official
    source: sources/clips.safetensors
    table: motionbricks-g1
    pins: record
YAML
cat >"$W/glb/manifests/styles.yaml" <<'YAML'
styles:
  - id: long
    source: sources/g1-walk.glb
    animation: Walk
    name: walk_long
    tokens: [6, 12]
YAML
{
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') x $(nproc)"
    echo "kiln: $("$KILN" --version) ($(git -C "$REPO" rev-parse --short HEAD))"
    echo "numpy: $(python3 -c 'import numpy; print(numpy.__version__)'), gguf-py: $(python3 -m pip show gguf 2>/dev/null | sed -n 's/^Version: //p')"
} | tee "$W/machine.txt" >&2

fresh() { echo "sh -c 'rm -rf $1 && mkdir -p $1'"; }
say "hyperfine ($RUNS runs each)"
hyperfine -w 1 -r "$RUNS" -N --export-json "$W/styles.json" --export-markdown "$W/styles.md" \
    --prepare "$(fresh "$W/official/out")" -n "kiln official" \
    "$KILN build --root $W/official --out $W/official/out --quiet" \
    --prepare "$(fresh "$W/np-official")" -n "numpy official" \
    "python3 $HERE/styles_numpy.py official $W/src/clips.safetensors $W/np-official" \
    --prepare "$(fresh "$W/glb/out")" -n "kiln glb" \
    "$KILN build --root $W/glb --out $W/glb/out --quiet" \
    --prepare "$(fresh "$W/np-glb")" -n "numpy glb" \
    "python3 $HERE/styles_numpy.py glb $W/src/g1-walk.glb $W/np-glb"

say "peak RSS"
rss() { /usr/bin/time -v "$@" 2>&1 >/dev/null | sed -n 's/.*Maximum resident set size (kbytes): //p'; }
rm -rf "$W/official/out" "$W/glb/out"
echo "kiln official $(rss "$KILN" build --root "$W/official" --out "$W/official/out" --quiet) KiB" | tee "$W/rss.txt"
echo "numpy official $(rss python3 "$HERE/styles_numpy.py" official "$W/src/clips.safetensors" "$W/np-official") KiB" | tee -a "$W/rss.txt"
echo "kiln glb $(rss "$KILN" build --root "$W/glb" --out "$W/glb/out" --quiet) KiB" | tee -a "$W/rss.txt"
echo "numpy glb $(rss python3 "$HERE/styles_numpy.py" glb "$W/src/g1-walk.glb" "$W/np-glb") KiB" | tee -a "$W/rss.txt"

say "same bytes?"
for f in "$W"/np-official/*.mbstyle; do
    cmp -s "$f" "$W/official/out/styles/official/$(basename "$f")" || echo "differs: $(basename "$f")"
done
echo "official: every style compared"
python3 - "$W/np-glb/walk_long.mbstyle" "$W/glb/out/styles/long/walk_long.mbstyle" <<'PY'
import sys
import numpy as np
from gguf import GGUFReader
a, b = GGUFReader(sys.argv[1]), GGUFReader(sys.argv[2])
for ta, tb in zip(a.tensors, b.tensors):
    d = np.abs(np.asarray(ta.data, np.float64) - np.asarray(tb.data, np.float64)).max()
    print(f"glb: {ta.name} largest difference {d:.3g}")
PY
