#!/usr/bin/env bash
# Model conversion benchmark: kiln against its peers, side by side, one run.
#
#   bash benches/convert.sh
#
# 1. builds kiln in release and writes the full-size synthetic MotionBricks
#    extraction (examples/synth_motionbricks.rs, about 730 MB) under
#    benches/work/convert/;
# 2. times, with hyperfine (BENCH_CONVERT_RUNS runs each, after one warm-up,
#    the source files in the page cache):
#      cp       the four input files copied (the physical limit: every byte
#               read once and written once, inside the kernel),
#      cat      the same through user space (read into a buffer, written),
#      kiln     `kiln build --force` of the motionbricks-g1 bundle (pins:
#               record), which also hashes every input (SHA-256 and BLAKE3)
#               and every output,
#      gguf-py  benches/gguf_py_bundle.py, the same conversion with gguf-py's
#               GGUFWriter (what a user would write otherwise);
# 3. measures kiln's peak RSS with /usr/bin/time -v on the bundle and on a
#    2 GB generic checkpoint (one F32 tensor per 64 MiB, 32 of them);
# 4. prints the ratios; the JSON and Markdown go to benches/work/convert/.
#
# Needs python3 with gguf==0.19.0, numpy and safetensors (installed if
# missing), hyperfine and GNU time (apt-get, as benches/run.sh).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(dirname "$HERE")"
W="$HERE/work/convert"
RUNS="${BENCH_CONVERT_RUNS:-3}"
say() { printf '\n== %s\n' "$*" >&2; }

need=()
command -v hyperfine >/dev/null 2>&1 || need+=(hyperfine)
[[ -x /usr/bin/time ]] || need+=(time)
if ((${#need[@]})); then
    apt-get install -y "${need[@]}" >/dev/null 2>&1 ||
        { apt-get update >/dev/null && apt-get install -y "${need[@]}" >/dev/null; }
fi
python3 -c "import gguf, numpy, safetensors" 2>/dev/null ||
    python3 -m pip install -q gguf==0.19.0 numpy safetensors

say "cargo build --release --locked (kiln and the generator)"
(cd "$REPO" && cargo build --release --locked --example synth_motionbricks --bin kiln)
KILN="${CARGO_TARGET_DIR:-$REPO/target}/release/kiln"
SYNTH="${CARGO_TARGET_DIR:-$REPO/target}/release/examples/synth_motionbricks"

P="$W/project"
mkdir -p "$P/manifests" "$P/sources"
if [[ ! -f "$P/sources/weights/pose.safetensors" ]]; then
    say "writing the full-size synthetic extraction"
    "$SYNTH" "$P/sources/weights" --seed 1
fi
cat >"$P/manifests/bundle.yaml" <<'YAML'
model_bundles:
  - id: mb
    profile: motionbricks-g1
    sources: { pose: sources/weights/pose.safetensors, root: sources/weights/root.safetensors,
               vqvae: sources/weights/vqvae.safetensors, support: sources/weights/support.safetensors,
               manifest: sources/weights/manifest.json }
    pins: record
YAML
IN_BYTES=$(du -cb "$P"/sources/weights/*.safetensors | tail -1 | cut -f1)
{
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') x $(nproc)"
    echo "kiln: $("$KILN" --version) ($(git -C "$REPO" rev-parse --short HEAD))"
    echo "gguf-py: $(python3 -m pip show gguf 2>/dev/null | sed -n 's/^Version: //p')"
    echo "input: $IN_BYTES bytes in 4 safetensors files"
    echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$W/machine.txt" >&2

# Every run writes into an empty folder after a `sync`, so no run pays for
# the write-back of the one before (which otherwise makes the times swing
# by a second on this kind of disk).
fresh() { echo "sh -c 'rm -rf $1 && mkdir -p $1 && sync'"; }
SRC="$(echo "$P"/sources/weights/*.safetensors)"
say "hyperfine: cp, cat, kiln, gguf-py ($RUNS runs each)"
hyperfine -w 1 -r "$RUNS" -N \
    --export-json "$W/convert.json" --export-markdown "$W/convert.md" \
    --prepare "$(fresh "$W/cp-out")" -n cp "cp --reflink=never $SRC $W/cp-out/" \
    --prepare "$(fresh "$W/cat-out")" -n cat "sh -c 'for f in $SRC; do cat \$f > $W/cat-out/\$(basename \$f); done'" \
    --prepare "$(fresh "$P/out")" -n kiln "$KILN build --root $P --out $P/out --quiet" \
    --prepare "$(fresh "$W/py-out")" -n gguf-py "python3 $HERE/gguf_py_bundle.py $P/sources/weights $W/py-out"

say "peak RSS"
rss() { /usr/bin/time -v "$@" 2>&1 >/dev/null | sed -n 's/.*Maximum resident set size (kbytes): //p'; }
KILN_RSS=$(rss "$KILN" build --root "$P" --out "$P/out" --quiet --force)
rm -rf "$W/py-out" && mkdir -p "$W/py-out"
PY_RSS=$(rss python3 "$HERE/gguf_py_bundle.py" "$P/sources/weights" "$W/py-out")
G="$W/generic"
mkdir -p "$G/manifests" "$G/sources"
if [[ ! -f "$G/sources/big.safetensors" ]]; then
    python3 - "$G/sources/big.safetensors" <<'PY'
import json, struct, sys
n, count = 16 << 20, 32          # 32 F32 tensors of 64 MiB: 2 GiB
header = {f"layer.{i}.weight": {"dtype": "F32", "shape": [4096, n // 4096], "data_offsets": [i * 4 * n, (i + 1) * 4 * n]} for i in range(count)}
j = json.dumps(header).encode()
j += b" " * (-len(j) % 8)
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<Q", len(j)) + j)
    block = bytes(range(256)) * (1 << 14)  # 4 MiB
    for _ in range(count * 4 * n // len(block)):
        f.write(block)
PY
fi
printf 'model_bundles:\n  - id: big\n    profile: generic\n    source: sources/big.safetensors\n    architecture: test\n    type: f16\n' >"$G/manifests/m.yaml"
GEN_BYTES=$(stat -c %s "$G/sources/big.safetensors")
GEN_RSS=$(rss "$KILN" build --root "$G" --out "$G/out" --quiet --force)

python3 - "$W" "$KILN_RSS" "$PY_RSS" "$GEN_RSS" "$GEN_BYTES" <<'PY'
import json, sys
w, kiln_rss, py_rss, gen_rss, gen_bytes = sys.argv[1], *map(int, sys.argv[2:])
r = {x["command"]: x for x in json.load(open(f"{w}/convert.json"))["results"]}
cp, cat, kiln, py = r["cp"]["mean"], r["cat"]["mean"], r["kiln"]["mean"], r["gguf-py"]["mean"]
lines = [
    f"cp      {cp*1e3:8.0f} ms   (copy_file_range: the kernel copies, nothing reaches user space)",
    f"cat     {cat*1e3:8.0f} ms   (every byte read into user space and written back)",
    f"kiln    {kiln*1e3:8.0f} ms   {kiln/cp:.2f}x cp (goal <= 1.2x), {kiln/cat:.2f}x cat",
    f"gguf-py {py*1e3:8.0f} ms   kiln is {py/kiln:.1f}x faster (goal >= 5x)",
    f"peak RSS: kiln bundle {kiln_rss/1024:.1f} MiB, gguf-py bundle {py_rss/1024:.1f} MiB, "
    f"kiln generic {gen_bytes/2**30:.1f} GiB checkpoint {gen_rss/1024:.1f} MiB (goal < 128 MiB)",
]
print("\n".join(lines))
open(f"{w}/summary.txt", "w").write("\n".join(lines) + "\n")
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$W/machine.txt" >&2
