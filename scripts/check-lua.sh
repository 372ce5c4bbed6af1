#!/usr/bin/env bash
# Type-checks the Lua that ships with pi (runtime-lua/, extensions/) and every Lua block of
# the docs that is a whole extension (`return function(pi) ... end`) against the LuaLS
# annotations in runtime-lua/types/, with a LuaLS-compatible
# checker (emmylua_check, installed with cargo when missing). Fails on any error and on any
# `require` the checker cannot resolve; warnings are reported but do not fail.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v emmylua_check >/dev/null 2>&1; then
    cargo install emmylua_check --locked --version 0.25.1
fi
snippets=target/lua-doc-snippets
rm -rf "$snippets"
mkdir -p "$snippets"
for page in docs/*.md; do
    name=$(basename "$page" .md)
    awk -v dir="$snippets" -v name="$name" '
        /^```lua/ { inside = 1; block = ""; next }
        /^```/ && inside {
            inside = 0
            if (block ~ /return function\(pi\)/) {
                n++
                file = sprintf("%s/%s-%02d.lua", dir, name, n)
                printf "%s", block > file
                close(file)
            }
            next
        }
        inside { block = block $0 "\n" }
    ' "$page"
done
report=$(mktemp)
status=0
emmylua_check -c .emmyrc.json runtime-lua extensions "$snippets" >"$report" 2>&1 || status=$?
grep -E "^(error|warning)" "$report" | sed 's/.*\[\(.*\)\]$/\1/' | sort | uniq -c | sort -rn || true
if grep -q "unresolved-require" "$report"; then
    grep -A2 "unresolved-require" "$report"
    echo "check-lua: a require cannot be resolved" >&2
    exit 1
fi
if [ "$status" != 0 ] || grep -q "^error" "$report"; then
    grep -A6 "^error" "$report" || cat "$report"
    echo "check-lua: the Lua checker found errors" >&2
    exit 1
fi
echo "check-lua: no errors, no unresolved require"
