#!/usr/bin/env bash
# Reading CGeo, one run: a 100-snapshot, 100,000-vertex sequence
# (examples/synth_cgeo.rs), uncompressed and zlib, read by kiln as a job
# reads it (every snapshot decoded one at a time: examples/cgeo_read.rs)
# and by `kiln verify`, against reading the same bytes from disk with
# `cat > /dev/null` (files in the page cache); then the peak memory of
# `kiln verify` and of a pose cache job over each file.
#
#   bash benches/cgeo.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(dirname "$HERE")"
W="$HERE/work/cgeo"
RUNS="${BENCH_CGEO_RUNS:-5}"
command -v hyperfine >/dev/null 2>&1 || apt-get install -y -qq hyperfine >/dev/null
(cd "$REPO" && cargo build --release --quiet --example synth_cgeo --example cgeo_read && cargo build --profile dist --quiet --bin kiln)
mkdir -p "$W"
"$REPO/target/release/examples/synth_cgeo" "$W" 100 100000
git -C "$REPO" rev-parse --short HEAD
ls -l "$W"/*.cgeo
for f in seq.cgeo seq.zlib.cgeo; do
    cat "$W/$f" > /dev/null
    hyperfine -N --warmup 1 --runs "$RUNS" --export-json "$W/$f.json" \
        -n "cat $f" "bash -c 'cat $W/$f > /dev/null'" \
        -n "kiln verify $f" "$REPO/target/dist/kiln verify $W/$f" >/dev/null
done
RUNS="$RUNS" "$REPO/target/release/examples/cgeo_read" "$W/seq.cgeo" "$W/seq.zlib.cgeo"
# Peak memory: `kiln verify`, and a pose cache job over each file (the
# grid's wave is not rigid: the tolerance is set past it, so the job reads
# and fits every snapshot).
for f in seq.cgeo seq.zlib.cgeo; do
    /usr/bin/time -f "kiln verify $f: %e s, peak RSS %M KiB" "$REPO/target/dist/kiln" verify "$W/$f" >/dev/null
    P="$W/project-$f"
    rm -rf "$P" && mkdir -p "$P/manifests" "$P/sources"
    cp "$W/$f" "$P/sources/$f"
    printf 'pose_caches:\n  - id: grid\n    source: sources/%s\n    rigid_tolerance_m: 1000000000\n' "$f" > "$P/manifests/p.yaml"
    /usr/bin/time -f "kiln build (pose cache of $f): %e s, peak RSS %M KiB" "$REPO/target/dist/kiln" build -j 1 --quiet --root "$P"
done
python3 - "$W" <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    for r in json.load(open(f))["results"]:
        print(f"{r['command']:32s} {r['median']*1e3:9.1f} ms  (min {r['min']*1e3:.1f})")
PY
