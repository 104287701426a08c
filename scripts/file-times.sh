#!/usr/bin/env bash
# The whole suite (or the mocha arguments given) with each file's wall time: the slowest files first, then the run's
# total and the load average before and after. Usage: scripts/file-times.sh [mocha args...] (default: npm test's glob).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp /tmp/snippets-file-times.XXXXXX)
[ $# -gt 0 ] || set -- 'test/**/*.test.ts'
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date +%s)
status=0
FILE_TIMES=$out npx mocha --require tsx/cjs --require test/support/file-times.ts "$@" || status=$?
end=$(date +%s)
echo
echo "slowest files (s, wall time with hooks; two at a time under --parallel):"
sort -rn "$out" | head -"${TOP:-15}"
echo "files: $(wc -l <"$out"), sum of file times $(awk '{s+=$1} END {printf "%.0f", s}' "$out") s"
echo "whole run: $((end - start)) s, exit $status; load average before $load_before, after $(cut -d' ' -f1-3 /proc/loadavg)"
rm -f "$out"
exit $status
