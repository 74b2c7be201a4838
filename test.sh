#!/usr/bin/env bash
# The one test command (README): formatting, lints with warnings denied, every test.
set -euo pipefail
cd "$(dirname "$0")"
echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy (warnings denied)"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== cargo test"
cargo test --workspace --locked
