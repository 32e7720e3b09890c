#!/usr/bin/env bash
# `make test`: everything CI checks, stopping at the first failure.
#
#   1. scripts/deps.sh --browser
#   2. test cluster at .data/pg-test (PG_FAST=1), left running for reuse;
#      TEST_DATABASE_URL=postgres://postgres@127.0.0.1:<port>/postgres is exported
#   3. cargo fmt --check, cargo clippy -D warnings, cargo test
#   4. only if frontend/package.json exists: npm scripts lint, format:check,
#      typecheck, check:api, test, build, check:bundle (each must exist), then
#      the browser tests: a fresh database e2e_<random>, `brandops setup` and
#      `brandops serve` (debug build) on a free port, `npm run e2e` with
#      BASE_URL=http://127.0.0.1:<port>.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

if ! command -v cargo >/dev/null 2>&1 && [ -x "$HOME/.cargo/bin/cargo" ]; then
  export PATH="$HOME/.cargo/bin:$PATH"
fi
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export PUPPETEER_SKIP_DOWNLOAD=1
MANIFEST=backend/Cargo.toml

# --- step bookkeeping ---------------------------------------------------------
SUMMARY=()
now_ms() { echo $(($(date +%s%N) / 1000000)); }
fmt_ms() { printf '%d.%ds' $(($1 / 1000)) $((($1 % 1000) / 100)); }

# run_step NAME CMD... : runs CMD in a subshell with `set -e`; on failure
# stops the whole run with CMD's exit status.
run_step() {
  local name="$1" t0 rc dt
  shift
  printf '\n==> %s\n' "$name" >&2
  t0="$(now_ms)"
  set +e
  (
    set -e
    "$@"
  )
  rc=$?
  set -e
  dt=$(($(now_ms) - t0))
  if [ "$rc" -eq 0 ]; then
    SUMMARY+=("$(printf '  ok    %8s  %s' "$(fmt_ms "$dt")" "$name")")
  else
    SUMMARY+=("$(printf '  FAIL  %8s  %s (exit %d)' "$(fmt_ms "$dt")" "$name" "$rc")")
    exit "$rc"
  fi
}

skip_step() {
  SUMMARY+=("$(printf '  skip  %8s  %s' "-" "$1")")
}

# --- e2e server state (cleaned up on exit) -------------------------------------
E2E_DB=""
E2E_PIDFILE="$ROOT/.data/e2e-server.pid"
E2E_LOG="$ROOT/.data/e2e-server.log"

stop_e2e_server() {
  [ -f "$E2E_PIDFILE" ] || return 0
  local pid
  pid="$(tr -dc '0-9' <"$E2E_PIDFILE")"
  rm -f "$E2E_PIDFILE"
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
  stop_e2e_server
  if [ -n "$E2E_DB" ] && [ -n "${TEST_DATABASE_URL:-}" ]; then
    if [ "$rc" -eq 0 ]; then
      psql -X -q "$TEST_DATABASE_URL" -c "DROP DATABASE IF EXISTS \"$E2E_DB\" WITH (FORCE)" >/dev/null 2>&1 || true
    else
      note "test: kept database $E2E_DB for inspection (server log: $E2E_LOG)"
    fi
  fi
  if [ "${#SUMMARY[@]}" -gt 0 ]; then
    printf '\n==> summary\n' >&2
    printf '%s\n' "${SUMMARY[@]}" >&2
  fi
  if [ "$rc" -eq 0 ]; then
    printf '\nall checks passed\n' >&2
  else
    printf '\nFAILED (exit %d)\n' "$rc" >&2
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- step bodies -------------------------------------------------------------------
start_test_cluster() {
  PG_FAST=1 "$ROOT/scripts/pg.sh" start "$ROOT/.data/pg-test"
}

# npm_script NAME [ENV=VALUE...] : fails loudly when package.json lacks the script.
npm_script() {
  local name="$1" value
  shift
  value="$(npm --prefix frontend pkg get "scripts.$name" 2>/dev/null)" || value=""
  case "$value" in
    \"*) ;;
    *)
      echo "error: frontend/package.json has no \"$name\" script (make test requires it)" >&2
      return 1
      ;;
  esac
  env "$@" npm --prefix frontend run "$name"
}

e2e_setup() {
  PGDATABASE_CREATE="$E2E_DB" "$ROOT/scripts/pg.sh" start "$ROOT/.data/pg-test"
  "$ROOT/backend/target/debug/brandops" setup
}

e2e_start_server() {
  local bin="$ROOT/backend/target/debug/brandops" pid deadline code=""
  [ -x "$bin" ] || {
    echo "error: $bin not built" >&2
    return 1
  }
  : >"$E2E_LOG"
  "$bin" serve >"$E2E_LOG" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$E2E_PIDFILE"
  deadline=$((SECONDS + 60))
  while [ "$SECONDS" -lt "$deadline" ]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "error: brandops serve exited before it was ready; its log:" >&2
      cat "$E2E_LOG" >&2
      return 1
    fi
    code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$PORT/api/ready" || true)"
    if [ "$code" = 200 ]; then
      return 0
    fi
    sleep 0.5
  done
  echo "error: GET http://127.0.0.1:$PORT/api/ready did not answer 200 within 60 s (last: $code); server log:" >&2
  cat "$E2E_LOG" >&2
  return 1
}

# --- the run -----------------------------------------------------------------------
run_step "deps (scripts/deps.sh --browser)" "$ROOT/scripts/deps.sh" --browser
run_step "test cluster .data/pg-test (PG_FAST=1)" start_test_cluster
TEST_DATABASE_URL="$("$ROOT/scripts/pg.sh" url "$ROOT/.data/pg-test")"
export TEST_DATABASE_URL
note "test: TEST_DATABASE_URL=$TEST_DATABASE_URL"

# Databases and roles that earlier runs' Rust tests left behind (each test
# creates a database t_<random> and tenant roles t_<random>_<schema>).
drop_old_test_databases() {
  local db role
  for db in $(psql -X -Atq "$TEST_DATABASE_URL" -c "SELECT datname FROM pg_database WHERE datname ~ '^t_[0-9a-f]{12}$'"); do
    psql -X -q "$TEST_DATABASE_URL" -c "DROP DATABASE \"$db\" WITH (FORCE)" >/dev/null
  done
  for role in $(psql -X -Atq "$TEST_DATABASE_URL" -c "SELECT rolname FROM pg_roles WHERE rolname ~ '^t_[0-9a-f]{12}_'"); do
    psql -X -q "$TEST_DATABASE_URL" -c "DROP ROLE \"$role\"" >/dev/null
  done
}
run_step "drop old test databases" drop_old_test_databases

run_step "cargo fmt --check" cargo fmt --manifest-path "$MANIFEST" --all -- --check
run_step "cargo clippy -D warnings" cargo clippy --manifest-path "$MANIFEST" --all-targets -- -D warnings
run_step "cargo test" cargo test --manifest-path "$MANIFEST"

if [ ! -f frontend/package.json ]; then
  skip_step "frontend checks and e2e (no frontend/package.json)"
  exit 0
fi

run_step "npm run lint" npm_script lint
run_step "npm run format:check" npm_script format:check
run_step "npm run typecheck" npm_script typecheck
run_step "npm run check:api" npm_script check:api
# CI=true: vitest runs once instead of watching when stdin is a terminal.
run_step "npm run test (vitest)" npm_script test CI=true
run_step "npm run build" npm_script build
run_step "npm run check:bundle" npm_script check:bundle

# Browser tests against the debug binary and the built frontend.
run_step "cargo build (debug binary for e2e)" cargo build --manifest-path "$MANIFEST" --bin brandops
mkdir -p "$ROOT/.data"
E2E_DB="e2e_$(random_hex 6)"
E2E_PORT="$(free_port)"
export DATABASE_URL="${TEST_DATABASE_URL%/postgres}/$E2E_DB"
COOKIE_SECRET="$(random_hex 64)"
export COOKIE_SECRET
export HOST=127.0.0.1
export PORT="$E2E_PORT"
export FRONTEND_DIR="$ROOT/frontend/dist"
export TENANTS_DIR="$ROOT/tenants"
run_step "e2e: database $E2E_DB + brandops setup" e2e_setup
run_step "e2e: brandops serve on 127.0.0.1:$E2E_PORT (GET /api/ready = 200)" e2e_start_server
run_step "npm run e2e (BASE_URL=http://127.0.0.1:$E2E_PORT)" npm_script e2e \
  BASE_URL="http://127.0.0.1:$E2E_PORT" CHROMIUM_PATH=/usr/bin/chromium
stop_e2e_server
