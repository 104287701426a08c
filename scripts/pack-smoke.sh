#!/usr/bin/env bash
# The packed artifact serves without TypeScript: npm pack, the tarball unpacked in a temporary folder and its locked
# production tree installed there (npm ci --omit=dev), checked against the lockfile, then serve on a temporary SQLite file, create a user with the installed CLI,
# POST a snippet with Basic auth and GET it back. Exits non-zero with a message at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { printf 'pack-smoke: FAIL: %s\n' "$*" >&2; exit 1; }
step() { printf 'pack-smoke: %s\n' "$*"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/snippets-pack-smoke.XXXXXX")
pid=
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  [ -z "${shrinkwrap_ours:-}" ] || rm -f npm-shrinkwrap.json
  if [ -n "${PACK_SMOKE_KEEP:-}" ]; then echo "pack-smoke: kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

if [ -n "${PACK_SMOKE_PREBUILT:-}" ]; then
  # .ci/run: dist/ was built from these sources moments ago (npm run build); npm pack's prepare would build it again. Without
  # its scripts, prepack's and postpack's work (package.json) is done here.
  step "npm pack of the dist/ already built (PACK_SMOKE_PREBUILT)"
  [ -f dist/server/main.js ] || fail "PACK_SMOKE_PREBUILT is set but dist/ is not built"
  cp package-lock.json npm-shrinkwrap.json
  shrinkwrap_ours=1
  tarball=$(npm pack --silent --ignore-scripts --pack-destination "$work" | tail -n 1)
  rm -f npm-shrinkwrap.json
  shrinkwrap_ours=
else
  step "npm pack (its prepare step builds dist/)"
  tarball=$(npm pack --silent --pack-destination "$work" | tail -n 1)
fi
[ -f "$work/$tarball" ] || fail "npm pack did not write a tarball ($tarball)"
listing=$(tar tzf "$work/$tarball")
for f in package/package.json package/dist/server/main.js package/dist/server/cli.js package/dist/src/highlight/pygments-languages.json \
  package/dist/server/web/static/api.js package/dist/server/openapi/static/docs-init.js; do
  grep -qx "$f" <<<"$listing" || fail "$tarball lacks $f"
done
if grep -E '\.ts$' <<<"$listing" | grep -vq '\.d\.ts$'; then fail "$tarball holds TypeScript sources"; fi

step "production install of $tarball: unpacked, npm ci --omit=dev (its npm-shrinkwrap.json is the tested tree)"
app="$work/app"
mkdir -p "$app"
tar xzf "$work/$tarball" -C "$app" --strip-components=1
[ -f "$app/npm-shrinkwrap.json" ] || fail "$tarball lacks npm-shrinkwrap.json"
# sqlite3's install script (prebuild-install, else node-gyp) downloads a prebuilt addon, or compiles sqlite3.c where
# none is reachable: 1-2 min of one core (issue 32: most of this script's time). The checkout's npm ci ran that same
# script for the same locked version moments ago, so its addon is offered as a local prebuild, under the name
# prebuild-install asks for (prebuild-install/util.js localPrebuild: npm_config_sqlite3_local_prebuilds); the install
# script still runs, and unpacks and loads it. Without a built addon in the checkout, the install fetches or compiles.
addon=node_modules/sqlite3/build/Release/node_sqlite3.node
install_env=()
if [ -f "$addon" ] && [ "$(node -p "require('./node_modules/sqlite3/package.json').version")" = \
  "$(node -p "require('$app/npm-shrinkwrap.json').packages['node_modules/sqlite3'].version")" ]; then
  if prebuild=$(cd node_modules/sqlite3 && node -e "process.argv.push('-r', 'napi'); const pkg = require('./package.json');
    const opts = { ...require('prebuild-install/rc')(pkg), pkg };
    console.log(require('node:path').basename(require('prebuild-install/util').getDownloadUrl(opts)))"); then
    mkdir -p "$work/prebuilds"
    tar czf "$work/prebuilds/$prebuild" -C node_modules/sqlite3 build/Release/node_sqlite3.node
    install_env=(npm_config_sqlite3_local_prebuilds="$work/prebuilds")
    step "sqlite3's addon: the checkout's, offered as the local prebuild $prebuild"
  fi
fi
# --foreground-scripts: each install script that runs prints its command, so one that should not run shows.
(cd "$app" && env "${install_env[@]}" npm ci --omit=dev --foreground-scripts --no-audit --no-fund --loglevel=error \
  >"$work/install.log" 2>&1) || { cat "$work/install.log" >&2; fail "npm ci --omit=dev in the unpacked tarball failed"; }
[ -f "$app/node_modules/sqlite3/build/Release/node_sqlite3.node" ] || fail "the install has no sqlite3 addon"
if [ ${#install_env[@]} -gt 0 ] && grep -q 'CC(target)' "$work/install.log"; then
  step "note: sqlite3 was compiled all the same: the local prebuild was not taken"
fi
# swagger-ui-dist's @scarf/scarf reports each install to its server; allowScripts in package.json denies it (npm 11).
if grep -q 'report\.js' "$work/install.log"; then fail "@scarf/scarf's install-time telemetry script ran: $(cat "$work/install.log")"; fi
for dev in tsx mocha eslint; do
  [ ! -e "$app/node_modules/$dev" ] || fail "the production install holds the dev dependency $dev"
done
# The installed tree is the lockfile's production tree, name@version for name@version: nothing resolved afresh.
(cd "$app" && npm ls --omit=dev --all --json >"$work/ls.json" 2>/dev/null) || true
node - "$app/npm-shrinkwrap.json" "$work/ls.json" <<'NODE' || fail "the installed production tree is not the lockfile's"
const fs = require('node:fs');
const [lockPath, lsPath] = process.argv.slice(2);
const nameOf = (location) => location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);
const locked = new Set(Object.entries(JSON.parse(fs.readFileSync(lockPath, 'utf8')).packages)
  .filter(([location, entry]) => location && !entry.dev).map(([location, entry]) => `${nameOf(location)}@${entry.version}`));
const installed = new Set();
(function walk(node) {
  for (const [name, dep] of Object.entries(node.dependencies ?? {})) if (dep.version) installed.add(`${name}@${dep.version}`), walk(dep);
})(JSON.parse(fs.readFileSync(lsPath, 'utf8')));
const extra = [...installed].filter((p) => !locked.has(p));
const missing = [...locked].filter((p) => !installed.has(p));
if (extra.length || missing.length) {
  console.error(`installed, not locked: ${extra.join(' ') || 'none'}; locked, not installed: ${missing.join(' ') || 'none'}`);
  process.exit(1);
}
console.log(`pack-smoke: the installed production tree is the lockfile's: ${installed.size} packages`);
NODE
# typescript is there with --omit=dev: @trpc/server and @trpc/client declare it a peer dependency (for their types), and
# npm keeps it although it is also our devDependency. @types/node comes with sequelize (through wkx) and as mysql2's
# peer. Nothing runs either: they are deleted, with every @types package, to prove the service needs no TypeScript.
rm -rf "$app/node_modules/typescript" "$app/node_modules/@types" "$app/node_modules/.bin/tsc" "$app/node_modules/.bin/tsserver"
snippets() { node "$app/dist/server/cli.js" "$@"; }

port=$(node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })")
export DATABASE_URL="sqlite:$work/smoke.sqlite3"
# Nothing of anyone else's: .ci/run runs this beside its MariaDB pass, whose REDIS_URL holds the suite's throttle
# counters (the anonymous GETs below would count under its anon:127.0.0.1 key, as bench:faults' readers did).
unset REDIS_URL
export SECRET_KEY=pack-smoke-secret-key-of-at-least-32-characters
export PORT=$port HOST=127.0.0.1 LOG_LEVEL=warn PASSWORD_ITERATIONS=1000
base="http://127.0.0.1:$port"

step "serve from the install on $base"
started=$(date +%s%N)
(cd "$app" && exec node dist/server/main.js) >"$work/server.log" 2>&1 &
pid=$!
ready=
for _ in $(seq 1 150); do
  if curl -fsS "$base/readyz" >/dev/null 2>&1; then ready=1; break; fi
  kill -0 "$pid" 2>/dev/null || { cat "$work/server.log" >&2; fail "the server exited before /readyz answered"; }
  sleep 0.1
done
[ -n "$ready" ] || { cat "$work/server.log" >&2; fail "/readyz did not answer 200 within 15 s"; }
step "/readyz answered 200 after $(( ($(date +%s%N) - started) / 1000000 )) ms"

step "snippets createuser (the installed CLI)"
(cd "$app" && SNIPPETS_PASSWORD=smokepass snippets createuser smoke >/dev/null) || fail "snippets createuser failed"

step "POST /snippets/ then GET it"
created=$(curl -fsS -u smoke:smokepass -H 'Content-Type: application/json' -d '{"title":"smoke","code":"print(1)"}' "$base/snippets/") ||
  fail "POST /snippets/ failed"
id=$(node -e 'const s = JSON.parse(process.argv[1]); if (s.owner !== "smoke" || s.code !== "print(1)") process.exit(1); console.log(s.id)' "$created") ||
  fail "POST /snippets/ answered $created"
got=$(curl -fsS "$base/snippets/$id/") || fail "GET /snippets/$id/ failed"
[ "$got" = "$created" ] || fail "GET /snippets/$id/ answered $got, not the created $created"
curl -fsS "$base/snippets/$id/highlight/" | grep -q '<pre' || fail "GET /snippets/$id/highlight/ has no highlighted code"

step "OK: $tarball installs without TypeScript and serves"
