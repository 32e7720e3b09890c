#!/usr/bin/env bash
# Project-local PostgreSQL cluster.
#
#   scripts/pg.sh start  [DIR]   create (first time) and start; reuse if running
#   scripts/pg.sh stop   [DIR]   stop (no-op when not running)
#   scripts/pg.sh url    [DIR]   print postgres://postgres@127.0.0.1:<port>/postgres
#   scripts/pg.sh status [DIR]   exit 0 when running, 1 otherwise
#
# DIR defaults to <repo>/.data/pg. Layout inside DIR:
#   data/   the cluster (PGDATA), owned by the postgres user; its
#           pg_hba.conf and brandops.conf are written by this script
#   run/    unix socket directory
#   port    the TCP port (127.0.0.1 only)
#   log     server log
#   .lock   flock(1) lock serialising calls on the same DIR
#
# Env:
#   PG_FAST=1            fsync=off, synchronous_commit=off, full_page_writes=off
#                        (for throw-away test clusters only; applied at each start,
#                        also to a cluster that is already running)
#   PGDATABASE_CREATE=x  on start, create database x when it does not exist
#
# Authentication (pg_hba.conf, rewritten at every `start` and reloaded into a
# cluster that is already running):
#   unix socket (DIR/run)           every role: trust
#   TCP 127.0.0.1, role postgres    trust (the `url` above needs no password)
#   TCP 127.0.0.1, any other role   scram-sha-256: its password is checked
# password_encryption = scram-sha-256, so `CREATE ROLE r LOGIN PASSWORD 'x'`
# stores a SCRAM secret (what scripts/pgbouncer.sh passes through).
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

# Local socket: trust. Loopback TCP: trust for postgres (the owner URL printed
# by `url`), a SCRAM password for every other role. The first matching line
# wins, so the postgres lines come first.
write_hba() {
  cat >"$data/pg_hba.conf" <<'HBA'
# Written by scripts/pg.sh at every start; do not edit.
# TYPE  DATABASE      USER      ADDRESS        METHOD
local   all           all                      trust
host    all           postgres  127.0.0.1/32   trust
host    all           all       127.0.0.1/32   scram-sha-256
local   replication   all                      trust
host    replication   postgres  127.0.0.1/32   trust
host    replication   all       127.0.0.1/32   scram-sha-256
HBA
  chown "$PGUSER_OS" "$data/pg_hba.conf"
}

# psql as postgres over the unix socket (trusted whatever pg_hba.conf says
# about TCP).
psql_local() {
  local bin="$1" port
  shift
  port="$(saved_port)"
  "$bin/psql" -X -q -tA -h "$sock" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 "$@"
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
  mkdir -p "$data" "$sock"
  chown "$PGUSER_OS" "$dir" "$data" "$sock"
  chmod 700 "$data"
  tmplog="$dir/initdb.log"
  if ! as_pg "$bin/initdb" -D "$data" -U postgres -E UTF8 --locale=C.UTF-8 \
    --auth-local=trust --auth-host=trust >"$tmplog" 2>&1; then
    # Fall back to the C locale where C.UTF-8 is not available.
    rm -rf "${data:?}"/* 2>/dev/null || true
    if ! as_pg "$bin/initdb" -D "$data" -U postgres -E UTF8 --no-locale \
      --auth-local=trust --auth-host=trust >"$tmplog" 2>&1; then
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
  local bin="$1" name="$2" port exists
  port="$(saved_port)"
  exists="$(printf '%s\n' "SELECT 1 FROM pg_database WHERE datname = :'db'" |
    "$bin/psql" -X -q -tA -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -v db="$name")" ||
    die "could not query databases on port $port"
  if [ "$exists" != 1 ]; then
    "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres "$name" ||
      die "could not create database $name"
  fi
}

cmd_start() {
  ensure_postgres
  if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
    die "system user 'postgres' is missing (it comes with Debian's postgresql package: apt-get install postgresql)"
  fi
  lock
  ensure_traversable
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
  mkdir -p "$sock"
  chown "$PGUSER_OS" "$dir" "$sock"
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
  echo "postgres://postgres@127.0.0.1:$port/postgres"
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
