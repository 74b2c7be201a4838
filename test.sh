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
env -u BATTLEMAT_TEST_PG cargo test --workspace --locked
echo "== the server's tests on PostgreSQL"
# The same server tests again, each in a schema of its own (crates/server/tests/common).
pg="${BATTLEMAT_TEST_PG:-postgres://postgres@127.0.0.1:5432/test}"
if command -v pg_isready >/dev/null && pg_isready -q -d "$pg"; then
    # `--workspace`, as above, so the features are the same and nothing is built again
    # (`-p battlemat-server -p battlemat-cli` rebuilt both with other features: 88 s cold).
    BATTLEMAT_TEST_PG="$pg" cargo test --workspace --locked --test api --test limits \
        --test replay --test seats --test streams --test tokens --test serve --test nodes
else
    if [ "${CI:-}" = "true" ]; then
        echo "PostgreSQL is not reachable at $pg: CI runs the server's tests on it (.ci/run)" >&2
        exit 1
    fi
    echo "SKIPPED the PostgreSQL tests: no PostgreSQL answers at $pg (set BATTLEMAT_TEST_PG, or install postgresql)"
fi
echo "== browser tests (tests/browser)"
chromium="${CHROMIUM:-/usr/bin/chromium}"
if command -v node >/dev/null && command -v npm >/dev/null && [ -x "$chromium" ]; then
    # The binary `cargo test --workspace` built for the CLI's tests (target/debug/battlemat):
    # `cargo build -p battlemat-cli` would build it again with other features.
    cargo test --workspace --locked --no-run --quiet
    (cd tests/browser && { [ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund; } \
        && BATTLEMAT_BIN="${CARGO_TARGET_DIR:-$PWD/../../target}/debug/battlemat" CHROMIUM="$chromium" node --test)
else
    if [ "${CI:-}" = "true" ]; then
        echo "browser tests need node, npm and $chromium (.ci/run installs them)" >&2
        exit 1
    fi
    echo "SKIPPED the browser tests: node, npm or $chromium is missing here (apt-get install chromium nodejs npm)"
fi
