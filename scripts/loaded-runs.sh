#!/usr/bin/env bash
# Issue 32's flake check: `npm test` RUNS times in a row (default 5), each with a second `npm test` started beside it
# at the same moment, so that every run shares the 2 cores with a whole second suite. Both are on in-memory SQLite
# (each mocha worker its own database) and pick free ports, so they share nothing but the machine and dist/ (built
# here first when stale, so neither suite rebuilds it). Prints, per run, the exit status, passing/failing counts
# and wall time of each, and the load average; exits 1 if any run failed. Logs: $LOGDIR (default a new /tmp dir).
# Usage: scripts/loaded-runs.sh [RUNS]   (mocha arguments: MOCHA_ARGS, default npm test's glob)
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
logdir=${LOGDIR:-$(mktemp -d /tmp/snippets-loaded-runs.XXXXXX)}
mkdir -p "$logdir"
# dist/ built here when a source is newer (as the suite's global set-up would, but once, not by both suites at once).
node --require tsx/cjs -e "require('./test/support/dist').ensureBuilt()" || exit 1

# `npm test` with its output in $1, then a line "<exit> <seconds>" in $1.rc.
suite() {
  local log=$1 start=$SECONDS status=0
  # shellcheck disable=SC2086 # MOCHA_ARGS is a list of words
  npx mocha ${MOCHA_ARGS:-'test/**/*.test.ts'} >"$log" 2>&1 || status=$?
  echo "$status $((SECONDS - start))" >"$log.rc"
}
counts() { # "N passing, M failing, P pending" from a mocha log
  local p f
  p=$(grep -Eo '^ +[0-9]+ passing' "$1" | grep -Eo '[0-9]+' | tail -1)
  f=$(grep -Eo '^ +[0-9]+ failing' "$1" | grep -Eo '[0-9]+' | tail -1)
  echo "${p:-0} passing, ${f:-0} failing"
}

failed=0
printf '%-4s %-8s %-6s %-32s %-6s %-32s %s\n' run suite exit counts s 'beside: exit, counts' 's  load (start → end)'
for i in $(seq 1 "$runs"); do
  load_start=$(cut -d' ' -f1 /proc/loadavg)
  suite "$logdir/run$i.log" &
  main_pid=$!
  suite "$logdir/beside$i.log" &
  beside_pid=$!
  wait "$main_pid" "$beside_pid"
  read -r m_status m_s <"$logdir/run$i.log.rc"
  read -r b_status b_s <"$logdir/beside$i.log.rc"
  printf '%-4s %-8s %-6s %-32s %-6s %-32s %s\n' "$i" main "$m_status" "$(counts "$logdir/run$i.log")" "$m_s" \
    "$b_status, $(counts "$logdir/beside$i.log")" "$b_s  $load_start → $(cut -d' ' -f1 /proc/loadavg)"
  [ "$m_status" = 0 ] && [ "$b_status" = 0 ] || failed=1
  for log in "$logdir/run$i.log" "$logdir/beside$i.log"; do
    grep -Eq '^ +[0-9]+ failing' "$log" && sed -En '/^ +[0-9]+ failing/,$p' "$log" | head -40
  done
done
echo "logs: $logdir"
exit $failed
