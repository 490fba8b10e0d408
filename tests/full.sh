#!/usr/bin/env bash
# The full tier: every test the fast tier (`cargo test --release`, the
# README's command) leaves out, on a fresh machine, installing what it needs
# itself. tests/README.md says which tier holds what.
#
#   bash tests/full.sh            # everything, then every fuzz target for 10 s
#   bash tests/full.sh --no-fuzz  # everything but the fuzz smoke run
#
# It needs, and installs when missing (as root, through apt-get):
#   - util-linux (prlimit, unshare, setpriv) and coreutils (mkfifo), for the
#     stress binary's memory caps, user namespaces and FIFOs;
#   - nginx (Debian's, with its WebDAV module), started by the remote-cache
#     test on a free port of 127.0.0.1;
#   - Node.js 20 or newer and node-llama-cpp 3.21.1 (llama.cpp's CPU build,
#     pinned by tests/oracles/npm/package-lock.json) in target/full-tier/npm,
#     for the llama.cpp tests (KILN_LLAMA_CPP points at it);
#   - Python 3 with venv, for the oracles: gguf-py, numpy, safetensors,
#     Pillow, DracoPy, ml_dtypes and protobuf at the versions pinned in tests/oracles/requirements.txt,
#     in a virtual environment of its own under target/full-tier/venv (made
#     on first use, and again when the pins change); its python3 comes first
#     on the PATH of the tests;
#   - Chromium (Debian's package), headless, for the tests of `kiln view`'s
#     page; and three.js and esbuild from the npm registry (pinned by
#     compiler/describe/view/bundle), to check the committed three.js bundle;
#   - cargo-fuzz, for the fuzz smoke run.
# When something cannot be had it stops, saying what and why: it never skips.
set -euo pipefail
cd "$(dirname "$0")/.."

fuzz=1
for arg in "$@"; do
    case $arg in
        --no-fuzz) fuzz=0 ;;
        *) echo "usage: bash tests/full.sh [--no-fuzz]" >&2; exit 2 ;;
    esac
done

fail() {
    echo "full tier: $*" >&2
    exit 1
}

apt_install() {
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
        fail "$1 is missing, and only root on Debian can install it here: install the packages $2"
    fi
    echo "installing $2 (for $1)"
    { apt-get update -qq && apt-get install -y -qq $2 >/dev/null; } \
        || fail "apt-get could not install $2 (for $1)"
}

echo "== tools the stress binary drives"
for tool in prlimit unshare setpriv; do
    command -v $tool >/dev/null || apt_install $tool util-linux
done
command -v mkfifo >/dev/null || apt_install mkfifo coreutils
unshare --user --map-root-user --mount true \
    || fail "user namespaces are not available (tests/stress/faults.rs makes a tmpfs and a read-only mount in one): run where unprivileged user namespaces are allowed"
prlimit --version | head -1

echo "== nginx (Debian's, its WebDAV module serving the remote-cache protocol)"
export PATH="$PATH:/usr/sbin"
command -v nginx >/dev/null || apt_install nginx nginx
nginx -V 2>&1 | grep -q http_dav_module \
    || fail "this nginx lacks its WebDAV module (http_dav_module), which the remote-cache tests use: install Debian's nginx"
nginx -v 2>&1

echo "== the Python oracles (pinned, in target/full-tier/venv)"
command -v python3 >/dev/null || apt_install python3 "python3 python3-venv"
venv=target/full-tier/venv
pins=tests/oracles/requirements.txt
nodeps=tests/oracles/requirements-nodeps.txt
if ! cat "$pins" "$nodeps" | cmp -s - "$venv/pins.txt"; then
    rm -rf "$venv"
    python3 -m venv "$venv" 2>/dev/null || {
        apt_install "python3 -m venv" python3-venv
        python3 -m venv "$venv" || fail "python3 -m venv failed"
    }
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$pins" \
        || fail "pip could not install $pins into $venv (it needs the Python package registry)"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps -r "$nodeps" \
        || fail "pip could not install $nodeps into $venv (it needs the Python package registry)"
    cat "$pins" "$nodeps" > "$venv/pins.txt"
fi
export PATH="$PWD/$venv/bin:$PATH"
python3 -c "import gguf, numpy, safetensors, PIL, DracoPy, ml_dtypes, google.protobuf, sentencepiece, tokenizers, sys; print(sys.executable, '| numpy', numpy.__version__, '| Pillow', PIL.__version__)"

echo "== Chromium (Debian's, headless, for kiln view's page)"
command -v chromium >/dev/null || apt_install chromium chromium
chromium --version 2>/dev/null | head -1

echo "== llama.cpp (node-llama-cpp's CPU build, pinned by tests/oracles/npm, in target/full-tier/npm)"
command -v node >/dev/null && command -v npm >/dev/null || apt_install node "nodejs npm"
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' \
    || fail "node $(node --version) is older than 20, which node-llama-cpp 3.21.1 needs: install Node.js 20 or newer"
npm_dir=target/full-tier/npm
if ! cmp -s tests/oracles/npm/package-lock.json "$npm_dir/package-lock.json" || [ ! -d "$npm_dir/node_modules/node-llama-cpp" ]; then
    rm -rf "$npm_dir"
    mkdir -p "$npm_dir"
    cp tests/oracles/npm/package.json tests/oracles/npm/package-lock.json "$npm_dir/"
    (cd "$npm_dir" && npm ci --no-audit --no-fund --omit=optional >/dev/null) \
        || fail "npm could not install node-llama-cpp 3.21.1 into $npm_dir (it needs the npm registry)"
fi
export KILN_LLAMA_CPP="$PWD/$npm_dir"
node -e 'console.log("node", process.version)'

echo "== kiln view's three.js: the committed bundle is what the pinned packages make"
bash compiler/describe/view/bundle/bundle.sh --check \
    || fail "compiler/describe/view/three.js differs from what bundle.sh makes from the pinned three.js and esbuild"

if [ $fuzz = 1 ]; then
    echo "== cargo-fuzz"
    cargo fuzz --version >/dev/null 2>&1 || cargo install --locked cargo-fuzz@0.13.2 \
        || fail "cargo install cargo-fuzz failed"
    cargo fuzz --version
fi

echo "== the fast tier's full-tier tests (#[ignore = \"full tier: ...\"])"
cargo test --release --locked -- --ignored

echo "== the recorded oracle answers against the oracle itself"
KILN_ORACLES=live cargo test --release --locked --test formats kchr::

echo "== the stress binary: hostile sweeps, kills, faults, boundaries"
cargo test --release --locked --test stress

if [ $fuzz = 1 ]; then
    echo "== fuzz: every target a short run (fuzz/run.sh; the long runs are in RELIABILITY.md)"
    bash fuzz/seed.sh
    bash fuzz/run.sh 10
fi
echo "full tier: passed"
