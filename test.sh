#!/usr/bin/env bash
# The one test command (README): formatting, lints with warnings denied, every test, and
# the browser tests (Playwright driving Debian's Chromium) when Node and Chromium are here.
set -euo pipefail
cd "$(dirname "$0")"
echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy (warnings denied)"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== cargo test"
cargo test --workspace --locked
echo "== browser tests (tests/browser)"
chromium="${CHROMIUM:-/usr/bin/chromium}"
if command -v node >/dev/null && command -v npm >/dev/null && [ -x "$chromium" ]; then
    cargo build -p battlemat-cli --locked
    (cd tests/browser && { [ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund; } \
        && BATTLEMAT_BIN="${CARGO_TARGET_DIR:-$PWD/../../target}/debug/battlemat" CHROMIUM="$chromium" node --test)
else
    if [ "${CI:-}" = "true" ]; then
        echo "browser tests need node, npm and $chromium (.ci/run installs them)" >&2
        exit 1
    fi
    echo "SKIPPED the browser tests: node, npm or $chromium is missing here (apt-get install chromium nodejs npm)"
fi
