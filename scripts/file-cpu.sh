#!/usr/bin/env bash
# Each test file run alone (`mocha --no-parallel FILE`) under /usr/bin/time: its CPU seconds (user + sys, the processes
# it waited for included: spawned services, the CLI, Chromium, highlight workers), its wall seconds and its exit, the
# most CPU first, then the sum and the load average before and after. CPU, not wall time: on the shared 2-core machine
# wall time measures the neighbours (issue 32). Usage: scripts/file-cpu.sh [test files...] (default: every test file).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- $(find test -name '*.test.ts' | sort)
rows=$(mktemp /tmp/snippets-file-cpu.XXXXXX)
took=$(mktemp /tmp/snippets-file-cpu-time.XXXXXX)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for file in "$@"; do
  /usr/bin/time -o "$took" -f '%U %S %e %x' node_modules/.bin/mocha --no-parallel "$file" >"$took.log" 2>&1 || true
  read -r user sys wall code < <(tail -1 "$took")
  awk -v u="$user" -v s="$sys" -v w="$wall" -v c="$code" -v f="$file" \
    'BEGIN { printf "%7.1f %7.1f %4s  %s\n", u + s, w, c, f }' | tee -a "$rows"
  [ "$code" = 0 ] || tail -30 "$took.log" >&2
done
echo
echo "   cpu s  wall s exit  file (most CPU first)"
sort -rn "$rows" | head -"${TOP:-200}"
echo "files: $(wc -l <"$rows"), CPU $(awk '{s+=$1} END {printf "%.0f", s}' "$rows") s, top 20 CPU $(sort -rn "$rows" | head -20 | awk '{s+=$1} END {printf "%.0f", s}') s"
echo "load average before $load_before, after $(cut -d' ' -f1-3 /proc/loadavg)"
rm -f "$rows" "$took" "$took.log"
