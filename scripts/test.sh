#!/usr/bin/env bash
# Build and run the whole test suite. Needs only a Rust toolchain.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked
cargo test --release --locked 2>&1
