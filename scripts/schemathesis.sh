#!/usr/bin/env bash
# Schemathesis against a freshly seeded server: every operation of the
# contract (/api/openapi.yaml), every phase (examples, coverage, fuzzing,
# stateful) and every check (--checks all), signed in as an organisation
# admin; and the operations a platform admin may call (by the policy),
# signed in as the platform admin. Any failure fails the run. `make test`
# runs it after the browser tests; alone: `scripts/schemathesis.sh` (or
# `make schemathesis`). It builds nothing: build the server first
# (`cargo build --manifest-path backend/Cargo.toml --bin brandops`) or point
# BRANDOPS_BIN at a prebuilt one.
#
#   1. .venv-schemathesis/ gets exactly tools/schemathesis/requirements.txt
#      (made again whenever that file changes)
#   2. for each role: a fresh database in the test cluster .data/pg-test,
#      `brandops setup` (the demo tenants), `brandops serve` on a free port
#      (scripts/lib.sh's server_* functions, as scripts/e2e.sh), then `st run`
#      with tools/schemathesis/hooks.py signing in (the session cookie and the
#      CSRF header on every request, a spare session when one ends), then the
#      server is stopped. Databases and logs are removed when everything
#      passed and kept for inspection otherwise.
#
# Arguments go to every `st run` (e.g. `scripts/schemathesis.sh
# --include-operation-id login`).
#
# Env (all optional):
#   BRANDOPS_BIN      the server binary (default backend/target/debug/brandops,
#                     or $CARGO_TARGET_DIR/debug/brandops when that is set)
#   ST_MAX_EXAMPLES   test cases per operation and phase (default 50)
#   ST_SEED           the random seed (default 20250101: runs repeat)
#   ST_ROLES          which runs: "org platform" (default), or one of them
#   DEMO_PASSWORD     the demo accounts' password (default brandops-demo)
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

BIN="${BRANDOPS_BIN:-${CARGO_TARGET_DIR:-$ROOT/backend/target}/debug/brandops}"
export TENANTS_DIR="${TENANTS_DIR:-$ROOT/tenants}"
# The API is what is tested; the web app is not needed.
export FRONTEND_DIR="${FRONTEND_DIR:-$ROOT/frontend/dist}"
export DEMO_PASSWORD="${DEMO_PASSWORD:-brandops-demo}"
export LOG_FORMAT=json RUST_LOG="${RUST_LOG:-info}"
TOOLS="$ROOT/tools/schemathesis"
VENV="$ROOT/.venv-schemathesis"
MAX_EXAMPLES="${ST_MAX_EXAMPLES:-50}"
SEED="${ST_SEED:-20250101}"
ROLES="${ST_ROLES:-org platform}"

[ -x "$BIN" ] || die "$BIN is not built: cargo build --manifest-path backend/Cargo.toml --bin brandops (or set BRANDOPS_BIN)"
command -v python3 >/dev/null 2>&1 || die "python3 not found (scripts/deps.sh installs it)"

cleanup() {
  local rc=$?
  server_cleanup "$rc" schemathesis
  print_summary "schemathesis summary" "$rc"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

make_venv() {
  pinned_venv "$VENV" "$TOOLS/requirements.txt" "$VENV/bin/st" --version
}

# run_schemathesis EMAIL : every phase and check, signed in as EMAIL (every
# check is enabled in schemathesis.toml, not with --checks all, which would
# override the file's one per-operation exception).
run_schemathesis() {
  BRANDOPS_URL="$SERVER_URL" BRANDOPS_EMAIL="$1" BRANDOPS_PASSWORD="$DEMO_PASSWORD" \
    PYTHONPATH="$TOOLS" SCHEMATHESIS_HOOKS=hooks \
    "$VENV/bin/st" --config-file "$TOOLS/schemathesis.toml" \
    run "$SERVER_URL/api/openapi.yaml" \
    --url "$SERVER_URL" \
    --phases examples,coverage,fuzzing,stateful \
    --max-examples "$MAX_EXAMPLES" \
    --seed "$SEED" \
    --workers 1 \
    --no-color \
    --report junit --report-dir "$ROOT/.data/schemathesis-$2" \
    "${@:3}"
}

run_step "schemathesis: virtualenv $VENV" make_venv

# The operations the platform admin may call, from the policy (its own rows
# and those of the groups it is in): the platform run fuzzes these. Every
# other operation refuses a platform admin (403),
# which the access walk (backend/tests/api/access.rs) checks for every
# operation and role; the org run fuzzes those.
platform_operations() {
  awk -F', *' '$1 == "p" && $5 == "call" && ($2 == "platform_admin" || $2 == "authenticated" || $2 == "anyone") { ops = ops sep $4; sep = "|" }
    END { print "^(" ops ")$" }' "$TENANTS_DIR/access/policy.csv"
}

for role in $ROLES; do
  only=()
  case "$role" in
    org) email="admin@acme.test" ;;
    platform)
      email="platform@brandops.test"
      only=(--include-operation-id-regex "$(platform_operations)")
      ;;
    *) die "unknown role in ST_ROLES: $role (org or platform)" ;;
  esac
  server_init "st_$role"
  run_step "schemathesis ($role): database $SERVER_DB + brandops setup" server_seed
  run_step "schemathesis ($role): brandops serve on $SERVER_URL" server_start
  run_step "schemathesis ($role): st run as $email" run_schemathesis "$email" "$role" "${only[@]}" "$@"
  server_stop
done
