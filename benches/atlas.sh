#!/usr/bin/env bash
# QOI and atlas benchmark, one run:
#
#   bash benches/atlas.sh
#
# builds benches/qoi_peer twice (the `qoi` crate's default encoder, then its
# `reference` encoder) and runs each on CesiumMan, MorphStressTest and Fox:
#   - the material stage's phases, median of RUNS (default 15): import
#     (container, JSON, meshes, materials), image decode, layout (resolve,
#     group, size, pack), paint (render, remap), QOI encode;
#   - kiln's QOI encoder and strict decoder against the `qoi` crate's on the
#     atlas, median throughput in MB/s of RGBA; the reference build checks
#     that the reference encoder writes kiln's bytes;
#   - a third build with zune-jpeg's SIMD paths compiled in (which kiln
#     leaves out, see ARCHITECTURE.md), for what the scalar JPEG costs.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(dirname "$HERE")"
C="$REPO/tests/corpus/glb"
FILES=("$C/CesiumMan-blender.glb" "$C/MorphStressTest.glb" "$C/Fox.glb")
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HERE/work/qoi_peer-target}"
for feature in default reference simd-jpeg; do
    args=()
    [[ $feature != default ]] && args=(--features "$feature")
    printf '\n== build: %s\n' "$feature" >&2
    cargo build --release --quiet --manifest-path "$HERE/qoi_peer/Cargo.toml" "${args[@]}"
    "$CARGO_TARGET_DIR/release/qoi-peer" "${FILES[@]}"
done
