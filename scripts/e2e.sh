#!/usr/bin/env bash
# The browser tests (Playwright, Debian's Chromium) against a freshly seeded
# server. `make test` runs it last; a developer can run it alone:
#
#   scripts/e2e.sh                      every spec in frontend/e2e
#   scripts/e2e.sh e2e/phone.spec.ts    arguments go to `playwright test`
#   BRANDOPS_BIN=/tmp/brandops scripts/e2e.sh   against a prebuilt server
#
# It builds nothing: build the server (`cargo build --manifest-path
# backend/Cargo.toml --bin brandops`) and the web app (`npm --prefix frontend
# run build`) first.
#
#   1. the test cluster at .data/pg-test (PG_FAST=1; started or reused) gets a
#      fresh database e2e_<random>; `brandops setup` migrates it and seeds the
#      demo tenants
#   2. `brandops serve` on a free port of 127.0.0.1, until GET /api/ready
#      answers 200 (at most 60 s); its log is .data/e2e_<random>.log
#   3. `npm run e2e` with BASE_URL=http://127.0.0.1:<port>
#   4. the server is stopped; the database and the log are removed when
#      everything passed and kept for inspection otherwise (so runs at the same
#      time do not meet)
#
# Env (all optional):
#   BRANDOPS_BIN   the server binary (default backend/target/debug/brandops, or
#                  $CARGO_TARGET_DIR/debug/brandops when that is set)
#   FRONTEND_DIR   the built web app the server serves (default frontend/dist)
#   TENANTS_DIR    access policy and demo tenants (default tenants)
#   CHROMIUM_PATH  the browser (default /usr/bin/chromium; scripts/deps.sh --browser installs it)
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

BIN="${BRANDOPS_BIN:-${CARGO_TARGET_DIR:-$ROOT/backend/target}/debug/brandops}"
CLUSTER="$ROOT/.data/pg-test"
export FRONTEND_DIR="${FRONTEND_DIR:-$ROOT/frontend/dist}"
export TENANTS_DIR="${TENANTS_DIR:-$ROOT/tenants}"
export CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"

[ -x "$BIN" ] || die "$BIN is not built: cargo build --manifest-path backend/Cargo.toml --bin brandops (or set BRANDOPS_BIN)"
[ -f "$FRONTEND_DIR/index.html" ] || die "$FRONTEND_DIR has no built web app: npm --prefix frontend run build"
[ -d "$ROOT/frontend/node_modules" ] || die "frontend/node_modules is missing: scripts/deps.sh"
[ -x "$CHROMIUM_PATH" ] || die "$CHROMIUM_PATH is missing: scripts/deps.sh --browser"

mkdir -p "$ROOT/.data"
DB="e2e_$(random_hex 6)"
PIDFILE="$ROOT/.data/$DB.pid"
LOG="$ROOT/.data/$DB.log"
PORT="$(free_port)"
export HOST=127.0.0.1 PORT
COOKIE_SECRET="$(random_hex 64)"
DB_ROLE_SECRET="$(random_hex 64)"
export COOKIE_SECRET DB_ROLE_SECRET
ADMIN_URL=""

stop_server() {
  [ -f "$PIDFILE" ] || return 0
  local pid
  pid="$(tr -dc '0-9' <"$PIDFILE")"
  rm -f "$PIDFILE"
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}

cleanup() {
  local rc=$?
  stop_server
  if [ -n "$ADMIN_URL" ]; then
    if [ "$rc" -eq 0 ]; then
      psql -X -q "$ADMIN_URL" -c "DROP DATABASE IF EXISTS \"$DB\" WITH (FORCE)" >/dev/null 2>&1 || true
      rm -f "$LOG"
    else
      note "e2e: kept database $DB for inspection (server log: $LOG)"
    fi
  fi
  print_summary "e2e summary" "$rc"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

create_and_seed() {
  PG_FAST=1 PGDATABASE_CREATE="$DB" "$ROOT/scripts/pg.sh" start "$CLUSTER"
  "$BIN" setup
}

start_server() {
  local pid deadline code=""
  : >"$LOG"
  "$BIN" serve >"$LOG" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$PIDFILE"
  deadline=$((SECONDS + 60))
  while [ "$SECONDS" -lt "$deadline" ]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "error: brandops serve exited before it was ready; its log:" >&2
      cat "$LOG" >&2
      return 1
    fi
    code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$PORT/api/ready" || true)"
    if [ "$code" = 200 ]; then
      return 0
    fi
    sleep 0.5
  done
  echo "error: GET http://127.0.0.1:$PORT/api/ready did not answer 200 within 60 s (last: $code); server log:" >&2
  cat "$LOG" >&2
  return 1
}

note "e2e: server $BIN"
# The cluster's URL is known once it runs; the database is created with it.
PG_FAST=1 "$ROOT/scripts/pg.sh" start "$CLUSTER"
ADMIN_URL="$("$ROOT/scripts/pg.sh" url "$CLUSTER")"
export DATABASE_URL="${ADMIN_URL%/postgres}/$DB"

run_step "e2e: database $DB + brandops setup" create_and_seed
run_step "e2e: brandops serve on 127.0.0.1:$PORT (GET /api/ready = 200)" start_server
run_step "npm run e2e (BASE_URL=http://127.0.0.1:$PORT)" npm_script e2e \
  BASE_URL="http://127.0.0.1:$PORT" CHROMIUM_PATH="$CHROMIUM_PATH" -- "$@"
stop_server
