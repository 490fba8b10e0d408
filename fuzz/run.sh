#!/usr/bin/env bash
# Runs kiln's fuzz targets, one after another, each for SECONDS.
#
#   bash fuzz/run.sh SECONDS [TARGET...]     # every target when none named
#
# The targets are built once with cargo-fuzz (AddressSanitizer, debug
# assertions on, so an arithmetic overflow is a crash) on the stable
# toolchain: RUSTC_BOOTSTRAP=1 lets it take the sanitizer flags. That is
# for this recipe only; the product build never sets it.
# libFuzzer's limits: one input may run 20 s (-timeout, a hang beyond is a
# crash), ask for 16 GiB at once (-malloc_limit_mb), and the process may
# hold 2 GiB (-rss_limit_mb: memory really used). The one-request limit is
# above the largest memory probe kiln makes before draco-core decodes
# (`memory::probe`, asked and given back untouched: up to 40 bytes a value
# of the asset's 2^28-value budget, about 10.7 GB, for a small file whose
# accessors claim the most the budget allows); at 1 GiB libFuzzer called
# that probe an out-of-memory. What is really used is still held to 2 GiB.
# Corpora are seeded by fuzz/seed.sh first.
# Each run's statistics go to fuzz/logs/TARGET.log; a crash leaves its
# input in fuzz/artifacts/TARGET/ and this script exits non-zero.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(RUSTC_BOOTSTRAP=1 cargo fuzz list)
fi
export RUSTC_BOOTSTRAP=1
mkdir -p logs
cargo fuzz build --debug-assertions >logs/build.log 2>&1 || { tail -30 logs/build.log >&2; exit 1; }
bin=${CARGO_TARGET_DIR:-target}/$(rustc -vV | sed -n 's/^host: //p')/release
for t in "${targets[@]}"; do
    [ -x "$bin/$t" ] || { echo "fuzz target $t did not build" >&2; exit 1; }
done
failed=()
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    dict=()
    case $t in glb_decode|gltf_import|characters_compile|atlas_stage|meshopt_views) dict=(-dict=gltf.dict) ;; esac
    start=$(date +%s)
    if "$bin/$t" "corpus/$t" -artifact_prefix="artifacts/$t/" \
        -max_total_time="$seconds" -timeout=20 -malloc_limit_mb=16384 -rss_limit_mb=2048 \
        -print_final_stats=1 "${dict[@]}" >"logs/$t.log" 2>&1; then
        status=ok
    else
        status=FAILED
        failed+=("$t")
    fi
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "logs/$t.log" | grep -o '[0-9]*$' || echo '?')
    echo "$t: $status, $runs runs in $(($(date +%s) - start)) s (corpus $(ls "corpus/$t" | wc -l) files)"
done
if [ ${#failed[@]} -ne 0 ]; then
    echo "fuzzing found problems in: ${failed[*]} (see fuzz/logs/ and fuzz/artifacts/)" >&2
    exit 1
fi
