#!/usr/bin/env bash
# The whole suite (or the mocha arguments given) with each file's wall time: the slowest files first, then the run's
# total and the load average before and after. Usage: scripts/file-times.sh [mocha args...] (default: npm test's glob).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp /tmp/snippets-file-times.XXXXXX)
[ $# -gt 0 ] || set -- 'test/**/*.test.ts'
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date +%s)
start_ms=$(date +%s%3N)
status=0
FILE_TIMES=$out npx mocha --require tsx/cjs --require test/support/file-times.ts "$@" || status=$?
end=$(date +%s)
echo
echo "slowest files (s, wall time with hooks; two at a time under --parallel):"
sort -rn "$out" | head -"${TOP:-15}"
echo "files: $(wc -l <"$out"), sum of file times $(awk '{s+=$1} END {printf "%.0f", s}' "$out") s"
# Each worker's timeline (from the run's start): its first file's start, its last file's end, and the seconds it ran
# files; what is left of the run is mocha's start, the workers' loading of test/setup.ts, and a worker waiting for the other.
echo "workers (s from the run's start): first file, last file's end, busy"
awk -v t0="$start_ms" '{ s = ($3 - t0) / 1000; e = s + $1; if (!($4 in first) || s < first[$4]) first[$4] = s;
  if (e > last[$4]) last[$4] = e; busy[$4] += $1 }
  END { for (p in first) printf "  pid %s: %.1f, %.1f, %.1f\n", p, first[p], last[p], busy[p] }' "$out"
[ -z "${FILE_TIMES_KEEP:-}" ] || cp "$out" "$FILE_TIMES_KEEP"
echo "whole run: $((end - start)) s, exit $status; load average before $load_before, after $(cut -d' ' -f1-3 /proc/loadavg)"
rm -f "$out"
exit $status
