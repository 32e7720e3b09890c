#!/usr/bin/env bash
# Project-local PostgreSQL cluster.
#
#   scripts/pg.sh start  [DIR]   create (first time) and start; reuse if running
#   scripts/pg.sh stop   [DIR]   stop (no-op when not running)
#   scripts/pg.sh url    [DIR]   print postgres://postgres:<password>@127.0.0.1:<port>/postgres
#   scripts/pg.sh status [DIR]   exit 0 when running, 1 otherwise
#
# DIR defaults to <repo>/.data/pg. Layout inside DIR:
#   data/     the cluster (PGDATA), owned by the postgres user; its
#             pg_hba.conf, pg_ident.conf and brandops.conf are written by
#             this script
#   run/      unix socket directory, mode 0700, owned by the server's OS user
#   port      the TCP port (127.0.0.1 only)
#   password  the superuser's password (random, made once per cluster; mode
#             0600, owned by whoever ran the first `start`)
#   log     server log
#   .lock   flock(1) lock serialising calls on the same DIR
#
# Env:
#   PG_FAST=1            fsync=off, synchronous_commit=off, full_page_writes=off
#                        (for throw-away test clusters only; applied at each start,
#                        also to a cluster that is already running)
#   PGDATABASE_CREATE=x  on start, create database x when it does not exist
#
# Authentication (pg_hba.conf and pg_ident.conf, rewritten at every `start`
# and reloaded into a cluster that is already running). Nothing is trusted:
#   unix socket (DIR/run), postgres   peer: only the server's OS user (the
#                                     `postgres` system user when run as
#                                     root), for this script and PgBouncer
#   unix socket, any other role       scram-sha-256
#   TCP 127.0.0.1, every role         scram-sha-256, postgres included: the
#                                     password is in DIR/password and in the
#                                     URL `url` prints
# The socket directory is mode 0700 and owned by the server's OS user, so no
# other local user can even reach the socket. A cluster made by an older
# version of this script (which trusted every local connection) is brought to
# these rules at its next `start`: the password is made and set, the new
# pg_hba.conf loaded. password_encryption = scram-sha-256, so `CREATE ROLE r
# LOGIN PASSWORD 'x'` stores a SCRAM secret (what scripts/pgbouncer.sh passes
# through). The password never appears on a command line or in a log.
#
# Only errors are printed (stderr), except for `url`.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
  echo "usage: $0 {start|stop|url|status} [DIR]" >&2
  exit 2
}

if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage; fi
cmd="$1"
dir="$(absolute_dir "${2:-$ROOT/.data/pg}")"
data="$dir/data"
sock="$dir/run"
portfile="$dir/port"
logfile="$dir/log"
pwfile="$dir/password"

# The server refuses to run as root: when we are root, run server-side
# commands as the `postgres` system user.
if [ "$(id -u)" -eq 0 ]; then
  PGUSER_OS=postgres
else
  PGUSER_OS="$(id -un)"
fi
# fd 9 (the flock) is closed for these commands: a server started with it
# open would hold the lock for as long as it runs.
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@" 9>&-
  else
    "$@" 9>&-
  fi
}

bindir() {
  # Prefer the binaries matching an existing cluster's major version.
  if [ -f "$data/PG_VERSION" ]; then
    local v
    v="$(cat "$data/PG_VERSION")"
    if [ -x "/usr/lib/postgresql/$v/bin/initdb" ]; then
      echo "/usr/lib/postgresql/$v/bin"
      return
    fi
    local newest
    newest="$(pg_bindir_newest)" || die "no PostgreSQL server binaries found (run scripts/deps.sh)"
    die "cluster in $data is PostgreSQL $v but only $newest is installed; remove $dir (or run 'make clean-data')"
  fi
  pg_bindir_newest || die "no PostgreSQL server binaries found (run scripts/deps.sh)"
}

saved_port() {
  [ -s "$portfile" ] && tr -dc '0-9' <"$portfile"
}

# Status 0 when a server answers on the saved port / socket.
is_ready() {
  local port bin
  port="$(saved_port)" || return 1
  [ -n "$port" ] || return 1
  bin="$(bindir)"
  "$bin/pg_isready" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -t 3
}

# Status 0 when the postmaster recorded in postmaster.pid is alive.
postmaster_alive() {
  local pidfile="$data/postmaster.pid" pid
  [ -f "$pidfile" ] || return 1
  pid="$(head -n1 "$pidfile" | tr -dc '0-9')"
  [ -n "$pid" ] || return 1
  [ -r "/proc/$pid/comm" ] || return 1
  case "$(cat "/proc/$pid/comm" 2>/dev/null)" in
    postgres | postmaster) ;;
    *) return 1 ;;
  esac
  # Make sure it is *this* cluster's postmaster.
  [ "$(readlink -f "/proc/$pid/cwd" 2>/dev/null)" = "$(readlink -f "$data")" ]
}

# A previous machine/session died without stopping the server: remove its
# lock files so that a recycled PID cannot make the new postmaster refuse.
clear_stale_locks() {
  if [ -f "$data/postmaster.pid" ] && ! postmaster_alive; then
    rm -f "$data/postmaster.pid"
    rm -f "$sock"/.s.PGSQL.*
  fi
}

lock() {
  mkdir -p "$dir"
  exec 9>"$dir/.lock"
  flock -w 300 9 || die "timed out waiting for lock $dir/.lock"
}

# Make every ancestor of DIR traversable by the postgres user (adds only the
# search bit, and only where it is missing).
ensure_traversable() {
  [ "$(id -u)" -eq 0 ] || return 0
  local d="$dir"
  while :; do
    d="$(dirname "$d")"
    if ! runuser -u postgres -- test -x "$d"; then
      note "pg.sh: adding o+x to $d so the postgres user can reach $dir"
      chmod o+x "$d"
    fi
    [ "$d" = / ] && break
  done
}

write_conf() {
  local port="$1" fast=off
  [ "${PG_FAST:-0}" = 1 ] && fast=on
  {
    echo "# Written by scripts/pg.sh at every start; do not edit."
    echo "listen_addresses = '127.0.0.1'"
    echo "port = $port"
    echo "unix_socket_directories = '$sock'"
    echo "unix_socket_permissions = 0700"
    echo "max_connections = 200"
    echo "password_encryption = 'scram-sha-256'"
    echo "shared_buffers = 128MB"
    echo "logging_collector = off"
    echo "log_min_messages = warning"
    if [ "$fast" = on ]; then
      echo "fsync = off"
      echo "synchronous_commit = off"
      echo "full_page_writes = off"
    else
      echo "fsync = on"
      echo "synchronous_commit = on"
      echo "full_page_writes = on"
    fi
  } >"$data/brandops.conf"
  chown "$PGUSER_OS" "$data/brandops.conf"
}

# Nothing is trusted. postgres logs in over the socket by peer
# authentication, mapped (pg_ident.conf, map `brandops`) from the server's OS
# user only; everything else, and everyone on TCP, gives a SCRAM password.
write_hba() {
  cat >"$data/pg_hba.conf" <<'HBA'
# Written by scripts/pg.sh at every start; do not edit.
# TYPE  DATABASE      USER      ADDRESS        METHOD
local   all           postgres                 peer map=brandops
local   all           all                      scram-sha-256
host    all           all       127.0.0.1/32   scram-sha-256
host    all           all       ::1/128        scram-sha-256
local   replication   postgres                 peer map=brandops
host    replication   all       127.0.0.1/32   scram-sha-256
HBA
  {
    echo "# Written by scripts/pg.sh at every start; do not edit."
    echo "# MAPNAME   SYSTEM-USERNAME   PG-USERNAME"
    echo "brandops    $PGUSER_OS    postgres"
  } >"$data/pg_ident.conf"
  chown "$PGUSER_OS" "$data/pg_hba.conf" "$data/pg_ident.conf"
  chmod 600 "$data/pg_hba.conf" "$data/pg_ident.conf"
}

# psql as postgres over the unix socket, as the server's OS user (peer
# authentication; trust on a cluster made by an older version of this script).
psql_local() {
  local bin="$1" port
  shift
  port="$(saved_port)"
  as_pg "$bin/psql" -X -q -tA -w -h "$sock" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 "$@"
}

# The socket directory: the server's OS user only.
secure_socket_dir() {
  mkdir -p "$sock"
  chown "$PGUSER_OS" "$sock"
  chmod 700 "$sock"
}

# The superuser's password: random, made once per cluster, in DIR/password
# (mode 0600, owned by the invoking user). Only characters that need no
# quoting in psql are accepted, in case the file was edited by hand.
ensure_pwfile() {
  if [ ! -s "$pwfile" ]; then
    (umask 077 && random_hex 32 >"$pwfile.tmp" && mv "$pwfile.tmp" "$pwfile")
  fi
  chmod 600 "$pwfile"
  case "$(read_password)" in
    "" | *[\'\\]* | *[![:graph:]]*)
      die "$pwfile must hold one line of printable characters, without quotes or backslashes"
      ;;
  esac
}

read_password() {
  tr -d '[:space:]' <"$pwfile"
}

# Status 0 when postgres can log in over TCP with DIR/password.
password_works() {
  local bin="$1"
  PGPASSWORD="$(read_password)" PGPASSFILE=/nonexistent/.pgpass PGCONNECT_TIMEOUT=5 \
    "$bin/psql" -X -q -tA -w -h 127.0.0.1 -p "$(saved_port)" -U postgres -d postgres \
    -c 'SELECT 1' >/dev/null 2>&1 </dev/null
}

# Gives postgres the password of DIR/password unless it already has it (a new
# cluster, or one made by an older version of this script that trusted
# postgres and never set one). The password reaches psql on stdin, never on a
# command line, and this session neither logs statements nor the statement of
# an error.
set_password() {
  local bin="$1"
  password_works "$bin" && return 0
  printf '%s\n' \
    "SET log_statement = 'none';" \
    "SET log_min_error_statement = 'panic';" \
    "\\set pw '$(read_password)'" \
    "ALTER ROLE postgres PASSWORD :'pw';" |
    psql_local "$bin" >/dev/null || die "could not set the password of postgres in $data"
  password_works "$bin" || die "postgres cannot log in over TCP with $pwfile after setting it (log: $logfile)"
}

# A running cluster gets the freshly written pg_hba.conf and brandops.conf:
# SIGHUP, then wait until new sessions see the reload (the postmaster handles
# the signal asynchronously), so that the next connection is checked against
# the new rules.
reload_conf() {
  local bin="$1" before after errors
  before="$(psql_local "$bin" -c 'SELECT pg_conf_load_time()')" ||
    die "could not query the running cluster in $data"
  as_pg "$bin/pg_ctl" -D "$data" reload >/dev/null || die "pg_ctl reload failed for $data"
  for _ in $(seq 1 100); do
    after="$(psql_local "$bin" -c 'SELECT pg_conf_load_time()')" || after="$before"
    [ "$after" != "$before" ] && break
    sleep 0.1
  done
  [ "$after" != "$before" ] || die "PostgreSQL in $data did not reload its configuration (log: $logfile)"
  errors="$(psql_local "$bin" -c "SELECT string_agg(line_number || ': ' || error, '; ') FROM pg_hba_file_rules WHERE error IS NOT NULL")" || errors=""
  [ -z "$errors" ] || die "pg_hba.conf in $data has errors: $errors"
}

init_cluster() {
  local bin="$1" tmplog
  mkdir -p "$data"
  chown "$PGUSER_OS" "$dir" "$data"
  chmod 700 "$data"
  secure_socket_dir
  tmplog="$dir/initdb.log"
  if ! as_pg "$bin/initdb" -D "$data" -U postgres -E UTF8 --locale=C.UTF-8 \
    --auth-local=peer --auth-host=scram-sha-256 >"$tmplog" 2>&1; then
    # Fall back to the C locale where C.UTF-8 is not available.
    rm -rf "${data:?}"/* 2>/dev/null || true
    if ! as_pg "$bin/initdb" -D "$data" -U postgres -E UTF8 --no-locale \
      --auth-local=peer --auth-host=scram-sha-256 >"$tmplog" 2>&1; then
      cat "$tmplog" >&2
      die "initdb failed in $data"
    fi
  fi
  write_hba
  echo "include_if_exists = 'brandops.conf'" >>"$data/postgresql.conf"
}

start_server() {
  local bin="$1" port attempt
  port="$(saved_port || true)"
  for attempt in 1 2 3; do
    if [ -z "$port" ] || ! port_is_free "$port"; then
      port="$(free_port)"
    fi
    echo "$port" >"$portfile"
    write_conf "$port"
    if as_pg "$bin/pg_ctl" -D "$data" -l "$logfile" -w -t 60 start >/dev/null 2>&1; then
      break
    fi
    if [ "$attempt" -eq 3 ]; then
      tail -n 40 "$logfile" >&2 || true
      die "could not start PostgreSQL in $data (log: $logfile)"
    fi
    clear_stale_locks
    port=""
  done
  for _ in $(seq 1 120); do
    "$bin/pg_isready" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -t 2 && return 0
    sleep 0.5
  done
  tail -n 40 "$logfile" >&2 || true
  die "PostgreSQL in $data did not become ready on port $port"
}

create_database() {
  local bin="$1" name="$2"
  printf '%s\n' \
    "SELECT format('CREATE DATABASE %I', :'db') WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = :'db')" \
    '\gexec' |
    psql_local "$bin" -v db="$name" >/dev/null || die "could not create database $name"
}

cmd_start() {
  ensure_postgres
  if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
    die "system user 'postgres' is missing (it comes with Debian's postgresql package: apt-get install postgresql)"
  fi
  lock
  ensure_traversable
  ensure_pwfile
  local bin
  bin="$(bindir)"
  if [ ! -f "$data/PG_VERSION" ]; then
    if [ -d "$data" ] && [ -n "$(ls -A "$data" 2>/dev/null)" ]; then
      die "$data exists but is not a PostgreSQL cluster; remove it"
    fi
    init_cluster "$bin"
  fi
  # A cluster copied/restored from another machine may have another owner uid.
  if [ "$(stat -c %U "$data")" != "$PGUSER_OS" ]; then
    chown -R "$PGUSER_OS" "$data" "$sock"
  fi
  chown "$PGUSER_OS" "$dir"
  secure_socket_dir
  touch "$logfile"
  chown "$PGUSER_OS" "$logfile"

  if postmaster_alive && is_ready; then
    # Already running: reuse it, with this script's current configuration
    # (same port, so everything in it can be reloaded).
    write_conf "$(saved_port)"
    write_hba
    reload_conf "$bin"
  else
    write_hba
    if postmaster_alive; then
      # Running but not answering on the saved port (e.g. port file lost):
      # restart it cleanly.
      as_pg "$bin/pg_ctl" -D "$data" -m fast -w -t 60 stop >/dev/null 2>&1 || true
    fi
    clear_stale_locks
    start_server "$bin"
  fi
  set_password "$bin"

  if [ -n "${PGDATABASE_CREATE:-}" ]; then
    create_database "$bin" "$PGDATABASE_CREATE"
  fi
}

cmd_stop() {
  [ -d "$data" ] || return 0
  [ -f "$data/PG_VERSION" ] || return 0
  lock
  local bin
  bin="$(bindir)"
  if postmaster_alive; then
    as_pg "$bin/pg_ctl" -D "$data" -m fast -w -t 60 stop >/dev/null ||
      die "could not stop PostgreSQL in $data"
  fi
  clear_stale_locks
}

cmd_url() {
  local port
  port="$(saved_port)" || die "no cluster port recorded in $portfile (run: scripts/pg.sh start $dir)"
  [ -n "$port" ] || die "empty port file $portfile"
  [ -s "$pwfile" ] || die "no password in $pwfile (run: scripts/pg.sh start $dir)"
  [ -r "$pwfile" ] || die "$pwfile is not readable by $(id -un) (it belongs to whoever started the cluster)"
  echo "postgres://postgres:$(percent_encode "$(read_password)")@127.0.0.1:$port/postgres"
}

cmd_status() {
  [ -f "$data/PG_VERSION" ] || return 1
  postmaster_alive && is_ready
}

case "$cmd" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  url) cmd_url ;;
  status) cmd_status ;;
  *) usage ;;
esac
