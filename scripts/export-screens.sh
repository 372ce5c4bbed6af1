#!/usr/bin/env bash
# Screenshots of the HTML export of pi 0.73.1's large test session (1,018 entries), ours and
# pi 0.73.1's, for a person to compare side by side: each page at 1400x1000 as it opens and
# at 1400x3000 (more of the conversation). Headless Chromium draws them through the DevTools
# protocol (tests/browser/cdp.py) with the network unreachable.
#
# Usage: scripts/export-screens.sh [OUT_DIR]     (default: target/export-screens)
# Environment: PI (our binary; default: built with cargo), PI_REFERENCE_CLI (pi 0.73.1's
# dist/cli.js; default: the copy scripts/bench.py installs, else /work/oracle's). Without
# the reference, its screenshots are skipped with a message.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${1:-"${CARGO_TARGET_DIR:-target}/export-screens"}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

pi=${PI:-}
if [ -z "$pi" ]; then
    cargo build --quiet --locked --bin pi
    pi="${CARGO_TARGET_DIR:-target}/debug/pi"
fi

shoot() { # page name [--wait-ready]
    for size in 1000 3000; do
        echo "[{\"sleep_ms\": 300}, {\"screenshot\": \"$out/$2-1400x$size.png\"}]" |
            python3 "$root/tests/browser/cdp.py" "file://$1" --height "$size" ${3:-} >/dev/null
    done
    echo "  $out/$2-1400x1000.png, $out/$2-1400x3000.png"
}

fixture="$root/tests/fixtures/conformance/large-session.jsonl"
echo "ours:"
cp "$fixture" "$work/ours.jsonl"
"$pi" --export "$work/ours.jsonl" "$work/ours.html" >/dev/null
shoot "$work/ours.html" ours --wait-ready

reference=${PI_REFERENCE_CLI:-}
for candidate in "$root/target/bench-reference/node_modules/@mariozechner/pi-coding-agent/dist/cli.js" \
    /work/oracle/node_modules/@mariozechner/pi-coding-agent/dist/cli.js; do
    if [ -z "$reference" ] && [ -f "$candidate" ]; then reference=$candidate; fi
done
if [ -z "$reference" ] || ! command -v node >/dev/null 2>&1; then
    echo "pi 0.73.1: skipped (not installed; set PI_REFERENCE_CLI to its dist/cli.js, or run scripts/bench.py once)"
    exit 0
fi
echo "pi 0.73.1:"
# A copy: pi 0.73.1 rewrites an old-format session file in place.
cp "$fixture" "$work/reference.jsonl"
node "$reference" --export "$work/reference.jsonl" "$work/reference.html" >/dev/null 2>&1
shoot "$work/reference.html" reference
