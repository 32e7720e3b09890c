# shellcheck shell=bash
# Shared helpers for the scripts in this directory. Source it; don't run it.

# Repository root (the parent of scripts/).
# shellcheck disable=SC2034 # used by the scripts that source this file
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

die() {
  printf 'error: %s\n' "$*" >&2
  exit 1
}

note() {
  printf '%s\n' "$*" >&2
}

# Puts rustup's cargo on PATH when it is installed but PATH does not have it
# (a fresh login shell on a machine set up with rustup).
cargo_on_path() {
  if ! command -v cargo >/dev/null 2>&1 && [ -x "$HOME/.cargo/bin/cargo" ]; then
    export PATH="$HOME/.cargo/bin:$PATH"
  fi
}

# Run a command as root: directly when we are root, else through sudo.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    die "need root to run: $* (and sudo is not available)"
  fi
}

# apt_install PKG... : installs Debian packages non-interactively.
apt_install() {
  command -v apt-get >/dev/null 2>&1 || die "apt-get not found; install these packages by hand: $*"
  note "deps: installing Debian packages: $*"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 ||
    die "apt-get update failed (needed to install: $*)"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2 ||
    die "apt-get install failed for: $*"
}

# Directory holding the newest installed PostgreSQL server binaries, or
# nothing (and status 1) when there are none.
pg_bindir_newest() {
  local best="" v
  for f in /usr/lib/postgresql/*/bin/initdb; do
    [ -x "$f" ] || continue
    v="$(basename "$(dirname "$(dirname "$f")")")"
    if [ -z "$best" ] || [ "$v" -gt "$best" ] 2>/dev/null; then best="$v"; fi
  done
  [ -n "$best" ] || return 1
  printf '/usr/lib/postgresql/%s/bin\n' "$best"
}

# Makes sure PostgreSQL server binaries are installed.
ensure_postgres() {
  pg_bindir_newest >/dev/null || apt_install postgresql
  pg_bindir_newest >/dev/null || die "PostgreSQL server binaries still missing after installing 'postgresql'"
}

# Prints a TCP port on 127.0.0.1 that is free right now.
free_port() {
  if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()' && return 0
  fi
  local p
  for p in $(seq 54320 54999); do
    if port_is_free "$p"; then
      echo "$p"
      return 0
    fi
  done
  die "no free TCP port found in 54320-54999"
}

# port_is_free PORT : status 0 when PORT on 127.0.0.1 can be bound.
port_is_free() {
  local port="$1"
  if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import socket, sys
s = socket.socket()
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(1)
finally:
    s.close()' "$port"
    return $?
  fi
  # Fallback: the port counts as taken when something accepts connections on it.
  ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null
}

# Prints N random bytes as hex (default 32).
random_hex() {
  local n="${1:-32}"
  if command -v openssl >/dev/null 2>&1; then
    openssl rand -hex "$n"
  else
    od -An -tx1 -N"$n" /dev/urandom | tr -d ' \n'
    echo
  fi
}

# --- steps with a summary (scripts/test.sh, scripts/e2e.sh) -------------------
# run_step NAME CMD... runs CMD in a subshell with `set -e` and records the
# outcome in SUMMARY; on failure it stops the whole run with CMD's exit status.
# print_summary (from an EXIT trap) lists the steps.
SUMMARY=()

now_ms() { echo $(($(date +%s%N) / 1000000)); }
fmt_ms() { printf '%d.%ds' $(($1 / 1000)) $((($1 % 1000) / 100)); }

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

# print_summary TITLE RC : the steps run so far, then the verdict.
print_summary() {
  local title="$1" rc="$2"
  if [ "${#SUMMARY[@]}" -gt 0 ]; then
    printf '\n==> %s\n' "$title" >&2
    printf '%s\n' "${SUMMARY[@]}" >&2
  fi
  if [ "$rc" -eq 0 ]; then
    printf '\nall checks passed\n' >&2
  else
    printf '\nFAILED (exit %d)\n' "$rc" >&2
  fi
}

# npm_script NAME [ENV=VALUE...] [-- ARG...] : runs the frontend's npm script
# NAME with that environment and arguments; fails loudly when
# frontend/package.json lacks the script.
npm_script() {
  local name="$1" value envs=()
  shift
  while [ $# -gt 0 ] && [ "$1" != -- ]; do
    envs+=("$1")
    shift
  done
  if [ $# -gt 0 ]; then shift; fi
  value="$(npm --prefix "$ROOT/frontend" pkg get "scripts.$name" 2>/dev/null)" || value=""
  case "$value" in
    \"*) ;;
    *)
      echo "error: frontend/package.json has no \"$name\" script (make test requires it)" >&2
      return 1
      ;;
  esac
  if [ $# -gt 0 ]; then set -- -- "$@"; fi
  env "${envs[@]}" npm --prefix "$ROOT/frontend" run "$name" "$@"
}

# --- a freshly seeded server (scripts/e2e.sh, scripts/schemathesis.sh) --------
# server_init PREFIX : picks a fresh database PREFIX_<random> in the test
# cluster at .data/pg-test (started or reused, PG_FAST=1), a free port, a
# cookie secret and a database role secret. Sets SERVER_DB, SERVER_PORT, SERVER_URL, SERVER_LOG,
# SERVER_PIDFILE and SERVER_ADMIN_URL (the cluster's), and exports
# DATABASE_URL, HOST, PORT, COOKIE_SECRET, DB_ROLE_SECRET and DATA_DIR for `brandops setup` and
# `brandops serve`. Call it outside run_step (its variables must outlive a
# subshell); server_seed and server_start then run as steps. BIN is the server
# binary. Every database made here is listed in SERVER_DBS for server_cleanup.
SERVER_DBS=()
SERVER_PIDFILES=()

server_init() {
  local prefix="$1"
  mkdir -p "$ROOT/.data"
  PG_FAST=1 "$ROOT/scripts/pg.sh" start "$ROOT/.data/pg-test"
  SERVER_ADMIN_URL="$("$ROOT/scripts/pg.sh" url "$ROOT/.data/pg-test")"
  SERVER_DB="${prefix}_$(random_hex 6)"
  SERVER_PIDFILE="$ROOT/.data/$SERVER_DB.pid"
  SERVER_LOG="$ROOT/.data/$SERVER_DB.log"
  SERVER_PORT="$(free_port)"
  SERVER_URL="http://127.0.0.1:$SERVER_PORT"
  SERVER_DBS+=("$SERVER_DB")
  SERVER_PIDFILES+=("$SERVER_PIDFILE")
  HOST=127.0.0.1
  PORT="$SERVER_PORT"
  COOKIE_SECRET="$(random_hex 64)"
  DB_ROLE_SECRET="$(random_hex 64)"
  DATABASE_URL="${SERVER_ADMIN_URL%/postgres}/$SERVER_DB"
  DATA_DIR="$ROOT/.data/$SERVER_DB.files"
  export HOST PORT COOKIE_SECRET DB_ROLE_SECRET DATABASE_URL DATA_DIR
}

# server_seed : creates the database and runs `brandops setup` (migrations and
# the demo tenants of tenants/demo).
server_seed() {
  PG_FAST=1 PGDATABASE_CREATE="$SERVER_DB" "$ROOT/scripts/pg.sh" start "$ROOT/.data/pg-test"
  "$BIN" setup
}

# server_start : `brandops serve` in the background until GET /api/ready
# answers 200 (at most 60 s); its log is SERVER_LOG.
server_start() {
  local pid deadline code=""
  : >"$SERVER_LOG"
  "$BIN" serve >"$SERVER_LOG" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$SERVER_PIDFILE"
  deadline=$((SECONDS + 60))
  while [ "$SECONDS" -lt "$deadline" ]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "error: brandops serve exited before it was ready; its log:" >&2
      cat "$SERVER_LOG" >&2
      return 1
    fi
    code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$SERVER_URL/api/ready" || true)"
    if [ "$code" = 200 ]; then
      return 0
    fi
    sleep 0.5
  done
  echo "error: GET $SERVER_URL/api/ready did not answer 200 within 60 s (last: $code); server log:" >&2
  cat "$SERVER_LOG" >&2
  return 1
}

# server_stop [PIDFILE] : stops the server of PIDFILE (default SERVER_PIDFILE):
# SIGTERM, then SIGKILL after 10 s.
server_stop() {
  local pidfile="${1:-${SERVER_PIDFILE:-}}" pid
  [ -n "$pidfile" ] && [ -f "$pidfile" ] || return 0
  pid="$(tr -dc '0-9' <"$pidfile")"
  rm -f "$pidfile"
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}

# server_cleanup RC NAME : stops every server started here; when RC is 0 drops
# their databases and deletes their logs, otherwise keeps them for inspection
# (so runs at the same time never meet).
server_cleanup() {
  local rc="$1" name="$2" f db
  for f in "${SERVER_PIDFILES[@]}"; do
    server_stop "$f"
  done
  [ -n "${SERVER_ADMIN_URL:-}" ] || return 0
  for db in "${SERVER_DBS[@]}"; do
    if [ "$rc" -eq 0 ]; then
      psql -X -q "$SERVER_ADMIN_URL" -c "DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)" >/dev/null 2>&1 || true
      rm -f "$ROOT/.data/$db.log"
      rm -rf "$ROOT/.data/$db.files"
    else
      note "$name: kept database $db for inspection (server log: $ROOT/.data/$db.log)"
    fi
  done
}

# percent_encode STRING : STRING with every byte but RFC 3986's unreserved
# characters percent-encoded (for a password in a URL's userinfo).
percent_encode() {
  local s="$1" out="" c i
  local LC_ALL=C
  for ((i = 0; i < ${#s}; i++)); do
    c="${s:i:1}"
    case "$c" in
      [A-Za-z0-9._~-]) out+="$c" ;;
      *) out+="$(printf '%%%02X' "'$c")" ;;
    esac
  done
  printf '%s\n' "$out"
}

# absolute_dir DIR : DIR made absolute (relative to $PWD), without a trailing /.
absolute_dir() {
  local d="$1"
  case "$d" in
    /*) ;;
    *) d="$PWD/$d" ;;
  esac
  echo "${d%/}"
}

# pinned_venv DIR REQUIREMENTS CHECK... : a virtualenv at DIR with exactly
# REQUIREMENTS (every package pinned, installed with --no-deps), made again
# when that file changes (its hash is kept in DIR) or when CHECK (a command
# run in it) fails.
pinned_venv() {
  local dir="$1" requirements="$2" want have=""
  shift 2
  want="$(sha256sum "$requirements" | cut -d' ' -f1)"
  [ -f "$dir/requirements.sha256" ] && have="$(cat "$dir/requirements.sha256")"
  if [ "$want" = "$have" ] && "$@" >/dev/null 2>&1; then
    note "reusing $dir"
    return 0
  fi
  rm -rf "$dir"
  python3 -m venv "$dir"
  "$dir/bin/python" -m pip install --quiet --disable-pip-version-check \
    --no-deps --requirement "$requirements"
  "$dir/bin/python" -m pip check --disable-pip-version-check
  echo "$want" >"$dir/requirements.sha256"
  "$@"
}
