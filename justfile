# kiln's recipes. `just` lists them.

default:
    @just --list

# Build kiln (release).
build:
    cargo build --release

# The demo: build every manifest in manifests/ into out/.
demo:
    cargo run --release -- build

# The fast tier: the README's test command (Rust only, about 15 s once built).
test:
    cargo test --release

# The full tier: oracles in a pinned venv, the stress binary, a fuzz smoke run.
test-full:
    bash tests/full.sh

# What CI runs: lint, the fast tier with no python3 on the PATH, the full tier.
ci:
    CI=true bash .ci/run

# Format and lint, as CI expects them.
lint:
    cargo fmt --all -- --check
    cargo clippy --all-targets -- -D warnings
    cargo clippy --test stress -- -D warnings

# Benchmarks: kiln beside ninja on a generated 1,000-job project (see BENCHMARKS.md).
bench:
    bash benches/run.sh

# Fuzz: seed every target's corpus, then run the named targets (every one
# when none) for `seconds` each (needs cargo-fuzz; see fuzz/run.sh).
fuzz seconds="60" *targets="":
    bash fuzz/seed.sh
    bash fuzz/run.sh {{seconds}} {{targets}}

# Remove build outputs.
clean:
    cargo run --release -- clean
