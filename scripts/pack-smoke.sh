#!/usr/bin/env bash
# The packed artifact serves without TypeScript: npm pack, a production install of the tarball in a
# temporary folder, then serve on a temporary SQLite file, create a user with the installed CLI,
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
  if [ -n "${PACK_SMOKE_KEEP:-}" ]; then echo "pack-smoke: kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

step "npm pack (its prepare step builds dist/)"
tarball=$(npm pack --silent --pack-destination "$work" | tail -n 1)
[ -f "$work/$tarball" ] || fail "npm pack did not write a tarball ($tarball)"
listing=$(tar tzf "$work/$tarball")
for f in package/package.json package/dist/server/main.js package/dist/server/cli.js package/dist/src/highlight/pygments-languages.json \
  package/dist/server/web/static/api.js package/dist/server/openapi/static/docs-init.js; do
  grep -qx "$f" <<<"$listing" || fail "$tarball lacks $f"
done
if grep -E '\.ts$' <<<"$listing" | grep -vq '\.d\.ts$'; then fail "$tarball holds TypeScript sources"; fi

step "production install of $tarball (npm install --omit=dev)"
app="$work/app"
mkdir -p "$app"
(cd "$app" && npm init -y >/dev/null && npm install --omit=dev --no-audit --no-fund --loglevel=error "$work/$tarball" >/dev/null) ||
  fail "npm install --omit=dev of the tarball failed"
for dev in tsx mocha eslint; do
  [ ! -e "$app/node_modules/$dev" ] || fail "the production install holds the dev dependency $dev"
done
# npm installs typescript even with --omit=dev: @trpc/server and @trpc/client declare it a peer dependency (for their
# types). @types/node comes with sequelize (through wkx) and as mysql2's peer. Nothing runs either: they are deleted,
# with every @types package, to prove the service needs no TypeScript.
if [ -e "$app/node_modules/typescript" ]; then
  other=$(cd "$app" && npm explain typescript 2>/dev/null | grep -E '^  [^ ]' | grep -vE '^  (node_modules/|peer typescript@.* from @trpc/)' || true)
  [ -z "$other" ] || fail "typescript is installed other than as tRPC's peer dependency: $other"
fi
rm -rf "$app/node_modules/typescript" "$app/node_modules/@types" "$app/node_modules/.bin/tsc" "$app/node_modules/.bin/tsserver"
snippets="$app/node_modules/.bin/snippets"
[ -x "$snippets" ] || fail "the bin entry snippets is not installed"

port=$(node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })")
export DATABASE_URL="sqlite:$work/smoke.sqlite3"
export SECRET_KEY=pack-smoke-secret-key-of-at-least-32-characters
export PORT=$port HOST=127.0.0.1 LOG_LEVEL=warn PASSWORD_ITERATIONS=1000
base="http://127.0.0.1:$port"

step "serve from the install on $base"
started=$(date +%s%N)
(cd "$app" && exec node node_modules/snippets/dist/server/main.js) >"$work/server.log" 2>&1 &
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
(cd "$app" && SNIPPETS_PASSWORD=smokepass "$snippets" createuser smoke >/dev/null) || fail "snippets createuser failed"

step "POST /snippets/ then GET it"
created=$(curl -fsS -u smoke:smokepass -H 'Content-Type: application/json' -d '{"title":"smoke","code":"print(1)"}' "$base/snippets/") ||
  fail "POST /snippets/ failed"
id=$(node -e 'const s = JSON.parse(process.argv[1]); if (s.owner !== "smoke" || s.code !== "print(1)") process.exit(1); console.log(s.id)' "$created") ||
  fail "POST /snippets/ answered $created"
got=$(curl -fsS "$base/snippets/$id/") || fail "GET /snippets/$id/ failed"
[ "$got" = "$created" ] || fail "GET /snippets/$id/ answered $got, not the created $created"
curl -fsS "$base/snippets/$id/highlight/" | grep -q '<pre' || fail "GET /snippets/$id/highlight/ has no highlighted code"

step "OK: $tarball installs without TypeScript and serves"
