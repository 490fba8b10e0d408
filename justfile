# kiln's recipes. `just` lists them.

default:
    @just --list

# Build kiln (release).
build:
    cargo build --release

# The demo: build every manifest in manifests/ into out/.
demo:
    cargo run --release -- build

# The whole test suite (what CI runs).
test:
    cargo test --release

# Format and lint, as CI expects them.
lint:
    cargo fmt --all -- --check
    cargo clippy --all-targets -- -D warnings

# Benchmarks: kiln beside ninja on a generated 1,000-job project (see BENCHMARKS.md).
bench:
    bash benches/run.sh

# Fuzz the pose cache decoder (needs cargo-fuzz and a nightly toolchain).
fuzz target="ospc_decode" seconds="60":
    cd fuzz && cargo +nightly fuzz run {{target}} -- -max_total_time={{seconds}}

# Remove build outputs.
clean:
    cargo run --release -- clean
