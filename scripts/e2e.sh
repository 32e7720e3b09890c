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
#      (steps 1, 2 and 4 are scripts/lib.sh's server_* functions)
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
export FRONTEND_DIR="${FRONTEND_DIR:-$ROOT/frontend/dist}"
export TENANTS_DIR="${TENANTS_DIR:-$ROOT/tenants}"
export CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"

[ -x "$BIN" ] || die "$BIN is not built: cargo build --manifest-path backend/Cargo.toml --bin brandops (or set BRANDOPS_BIN)"
[ -f "$FRONTEND_DIR/index.html" ] || die "$FRONTEND_DIR has no built web app: npm --prefix frontend run build"
[ -d "$ROOT/frontend/node_modules" ] || die "frontend/node_modules is missing: scripts/deps.sh"
[ -x "$CHROMIUM_PATH" ] || die "$CHROMIUM_PATH is missing: scripts/deps.sh --browser"

cleanup() {
  local rc=$?
  server_cleanup "$rc" e2e
  print_summary "e2e summary" "$rc"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

note "e2e: server $BIN"
server_init e2e
run_step "e2e: database $SERVER_DB + brandops setup" server_seed
run_step "e2e: brandops serve on 127.0.0.1:$SERVER_PORT (GET /api/ready = 200)" server_start
run_step "npm run e2e (BASE_URL=$SERVER_URL)" npm_script e2e \
  BASE_URL="$SERVER_URL" CHROMIUM_PATH="$CHROMIUM_PATH" -- "$@"
server_stop
