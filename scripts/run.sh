#!/usr/bin/env bash
# `make run`: build everything and serve the app on http://127.0.0.1:${PORT:-8080}.
#
# Env (all optional):
#   DATABASE_URL   use this database instead of the local cluster at .data/pg
#                  (default: postgres://postgres:<password>@127.0.0.1:<port>/brandops,
#                  the password being .data/pg/password, made by scripts/pg.sh)
#   COOKIE_SECRET  default: the contents of .data/cookie-secret (created once)
#   DB_ROLE_SECRET default: the contents of .data/db-role-secret (created once)
#   PORT           default 8080 (HOST is left to the binary: 127.0.0.1)
#   FRONTEND_DIR   default <repo>/frontend/dist
#   TENANTS_DIR    default <repo>/tenants
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

"$ROOT/scripts/deps.sh"
cargo_on_path

if [ -f frontend/package.json ]; then
  note "run: building frontend"
  npm --prefix frontend run build
fi

note "run: building backend (release)"
cargo build --release --manifest-path backend/Cargo.toml

if [ -z "${DATABASE_URL:-}" ]; then
  PGDATABASE_CREATE=brandops "$ROOT/scripts/pg.sh" start "$ROOT/.data/pg"
  url="$("$ROOT/scripts/pg.sh" url "$ROOT/.data/pg")"
  DATABASE_URL="${url%/postgres}/brandops"
fi
export DATABASE_URL

# A secret kept in .data/<name> (made once, readable by us only).
kept_secret() {
  local secret_file="$ROOT/.data/$1"
  if [ ! -s "$secret_file" ]; then
    mkdir -p "$ROOT/.data"
    (umask 077 && random_hex 64 >"$secret_file.tmp" && mv "$secret_file.tmp" "$secret_file")
  fi
  tr -d '[:space:]' <"$secret_file"
}
COOKIE_SECRET="${COOKIE_SECRET:-$(kept_secret cookie-secret)}"
DB_ROLE_SECRET="${DB_ROLE_SECRET:-$(kept_secret db-role-secret)}"
export COOKIE_SECRET DB_ROLE_SECRET

export PORT="${PORT:-8080}"
export LOG_FORMAT="${LOG_FORMAT:-pretty}"
export FRONTEND_DIR="${FRONTEND_DIR:-$ROOT/frontend/dist}"
export TENANTS_DIR="${TENANTS_DIR:-$ROOT/tenants}"
export DATA_DIR="${DATA_DIR:-$ROOT/.data/files}"

bin="${CARGO_TARGET_DIR:-$ROOT/backend/target}/release/brandops"
note "run: $bin setup"
"$bin" setup
note "run: serving on http://127.0.0.1:$PORT"
exec "$bin" serve
