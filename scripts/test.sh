#!/usr/bin/env bash
# `make test`: everything CI checks, stopping at the first failure.
#
#   1. scripts/deps.sh --browser
#   2. test cluster at .data/pg-test (PG_FAST=1), left running for reuse;
#      TEST_DATABASE_URL=postgres://postgres:<password>@127.0.0.1:<port>/postgres
#      is exported (the password from .data/pg-test/password; never printed);
#      PgBouncer in front of it (scripts/pgbouncer.sh); then
#      scripts/test-pg-trust.sh: another local user cannot log in to either
#   3. cargo fmt --check, cargo clippy -D warnings, the GS1 parser the tests
#      use (scripts/gs1-venv.sh: biip in .venv-gs1), then every Rust test with
#      the tenant connections going through PgBouncer in transaction mode, as
#      production runs (TEST_PGBOUNCER_URL); then the isolation tests once
#      more, straight to PostgreSQL
#   4. only if frontend/package.json exists: npm scripts lint, format:check,
#      typecheck, check:api, test, build, check:bundle (each must exist), then
#      the debug build of the server and the browser tests against it,
#      scripts/e2e.sh (a fresh database e2e_<random>, `brandops setup`,
#      `brandops serve` on a free port, `npm run e2e`), then schemathesis
#      against the same binary, scripts/schemathesis.sh (every operation, every
#      phase, --checks all, as an organisation admin and as the platform
#      admin, each on a fresh server; 0 failures).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

cargo_on_path
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export PUPPETEER_SKIP_DOWNLOAD=1
MANIFEST=backend/Cargo.toml

trap 'print_summary summary $?' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- step bodies -------------------------------------------------------------------
start_test_cluster() {
  PG_FAST=1 "$ROOT/scripts/pg.sh" start "$ROOT/.data/pg-test"
}

# --- the run -----------------------------------------------------------------------
run_step "deps (scripts/deps.sh --browser)" "$ROOT/scripts/deps.sh" --browser
run_step "test cluster .data/pg-test (PG_FAST=1)" start_test_cluster
TEST_DATABASE_URL="$("$ROOT/scripts/pg.sh" url "$ROOT/.data/pg-test")"
export TEST_DATABASE_URL
# The URL holds the cluster's superuser password: shown without it.
note "test: TEST_DATABASE_URL=$(printf '%s' "$TEST_DATABASE_URL" | sed 's#//postgres:[^@]*@#//postgres:***@#')"

start_pgbouncer() {
  "$ROOT/scripts/pgbouncer.sh" start "$ROOT/.data/pg-test"
}
run_step "pgbouncer for .data/pg-test (transaction mode)" start_pgbouncer
run_step "another local user cannot log in (scripts/test-pg-trust.sh)" \
  "$ROOT/scripts/test-pg-trust.sh" "$ROOT/.data/pg-test"

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
run_step "GS1 parser for the tests (scripts/gs1-venv.sh)" "$ROOT/scripts/gs1-venv.sh"
# Every Rust test with the tenant connections going through PgBouncer (Debian's
# package) in transaction mode, the way production runs (ADR 0010): every
# domain is covered without a hand-kept list. The isolation tests then run a
# second time straight to PostgreSQL, so that both paths are proven refused.
all_through_pgbouncer() {
  TEST_PGBOUNCER_URL="$("$ROOT/scripts/pgbouncer.sh" url "$ROOT/.data/pg-test")" \
    cargo test --manifest-path "$MANIFEST"
}
isolation_direct() {
  TEST_PGBOUNCER_URL="" cargo test --manifest-path "$MANIFEST" --test api -- isolation::
}
run_step "cargo test (tenant connections through PgBouncer)" all_through_pgbouncer
run_step "isolation tests straight to PostgreSQL" isolation_direct

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
# The server binary: `cargo test` built backend/target/debug/brandops for the
# integration tests, with the features the tests unify. `cargo build --bin`
# here would rebuild every dependency whose features differ (two minutes on
# CI) for the same server code; `--no-run` only checks that it is up to date.
run_step "debug binary for e2e (built by cargo test; --no-run checks it)" \
  cargo test --manifest-path "$MANIFEST" --no-run
run_step "e2e (scripts/e2e.sh)" "$ROOT/scripts/e2e.sh"
# The contract against the server: schemathesis, same debug binary.
run_step "schemathesis (scripts/schemathesis.sh)" "$ROOT/scripts/schemathesis.sh"
