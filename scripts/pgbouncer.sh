#!/usr/bin/env bash
# PgBouncer (Debian's package) in transaction pooling mode in front of a
# project-local cluster run by scripts/pg.sh.
#
#   scripts/pgbouncer.sh start  [CLUSTER_DIR]   start (reuse if running with the same config)
#   scripts/pgbouncer.sh stop   [CLUSTER_DIR]   stop (no-op when not running)
#   scripts/pgbouncer.sh url    [CLUSTER_DIR]   print postgres://postgres:<password>@127.0.0.1:<port>/postgres
#   scripts/pgbouncer.sh status [CLUSTER_DIR]   exit 0 when running, 1 otherwise
#
# CLUSTER_DIR defaults to <repo>/.data/pg-test and must hold a cluster that
# scripts/pg.sh has started (start it first). Files, in CLUSTER_DIR/pgbouncer/:
#   pgbouncer.ini   written at every start; do not edit
#   userlist.txt    auth_file: only postgres, with its SCRAM secret (copied
#                   from the cluster at every start; mode 0600)
#   port            the TCP port (127.0.0.1 only; no unix socket)
#   pgbouncer.pid, pgbouncer.log, .lock (flock(1) serialising calls)
#
# What a caller does with `url`: keep host and port, swap in the user, its
# password and the database:
#   postgres://<role>:<password>@127.0.0.1:<port>/<database>
# Every database of the cluster is reachable (a `*` fallback entry, so
# databases created later by tests work too), and every LOGIN role with a
# SCRAM password, including roles created after PgBouncer started: PgBouncer
# looks the role's SCRAM secret up in pg_shadow (auth_user = postgres), checks
# the client's password against it, then logs into PostgreSQL as that role by
# SCRAM pass-through. No plaintext password is written anywhere.
#   postgres, too, gives its password (the cluster's, from DIR/password of
#   scripts/pg.sh: `url` prints it); it is the admin: `SHOW POOLS` etc. on
#   the database `pgbouncer` (the admin console) of the same URL. Its SCRAM
#   secret is in userlist.txt, read from the cluster at every start.
#   PgBouncer reaches the cluster through its unix socket, which only the
#   cluster's OS user can open (PgBouncer runs as that user): there postgres
#   logs in by peer authentication, so the auth_query connection needs no
#   password, and every other role by SCRAM pass-through.
#
# Transaction pooling: a client's server connection is its own only for the
# length of a transaction. Session state (SET, session-level prepared
# statements, advisory locks, LISTEN) does not survive it; after every
# transaction `DEALLOCATE ALL` is run on the server connection, so a named
# prepared statement never leaks into another client's transaction. Hence
# sqlx's extended-protocol queries (`query(..).fetch_*`) work only inside an
# explicit transaction: outside one, sqlx prepares (Parse/Describe/Sync) and
# executes (Bind/Execute/Sync) in two server transactions, and the second
# fails with `prepared statement "sqlx_s_N" does not exist`. Simple-protocol
# statements (`raw_sql`) work anywhere.
# Startup parameters PgBouncer cannot track are refused, except
# extra_float_digits (sent by sqlx; ignored: on PostgreSQL >= 12 any value > 0
# means the same shortest-exact float output as the default of 1). `options`
# (e.g. `-c role=...`) and `search_path` are refused on purpose: ignoring them
# would silently run the session with other settings than asked for.
#
# Only errors are printed (stderr), except for `url`.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
  echo "usage: $0 {start|stop|url|status} [CLUSTER_DIR]" >&2
  exit 2
}

if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage; fi
cmd="$1"
cluster="$(absolute_dir "${2:-$ROOT/.data/pg-test}")"
dir="$cluster/pgbouncer"
ini="$dir/pgbouncer.ini"
userlist="$dir/userlist.txt"
hba="$dir/hba.conf"
pidfile="$dir/pgbouncer.pid"
logfile="$dir/pgbouncer.log"
portfile="$dir/port"
PGBOUNCER=/usr/sbin/pgbouncer

# PgBouncer refuses to run as root: when we are root, run it as the
# `postgres` system user. fd 9 (the flock) is closed for it, or the daemon
# would hold the lock for as long as it runs.
if [ "$(id -u)" -eq 0 ]; then
  OS_USER=postgres
else
  OS_USER="$(id -un)"
fi
as_bouncer_user() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@" 9>&-
  else
    "$@" 9>&-
  fi
}

ensure_pgbouncer() {
  [ -x "$PGBOUNCER" ] || apt_install pgbouncer
  [ -x "$PGBOUNCER" ] || die "$PGBOUNCER still missing after installing Debian's pgbouncer"
}

saved_port() {
  [ -s "$portfile" ] && tr -dc '0-9' <"$portfile"
}

cluster_port() {
  [ -s "$cluster/port" ] && tr -dc '0-9' <"$cluster/port"
}

# The pid of the PgBouncer running with this directory's ini, or status 1.
running_pid() {
  local pid
  [ -f "$pidfile" ] || return 1
  pid="$(head -n1 "$pidfile" | tr -dc '0-9')"
  [ -n "$pid" ] || return 1
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = pgbouncer ] || return 1
  tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | grep -qxF "$ini" || return 1
  echo "$pid"
}

# The cluster's superuser URL (scripts/pg.sh url), with its password.
cluster_url() {
  "$ROOT/scripts/pg.sh" url "$cluster"
}

# PgBouncer's URL for DATABASE: the cluster's, with PgBouncer's port (the
# password is percent-encoded, so the last `@` starts the host).
bouncer_url() {
  local port="$1" database="$2" url
  url="$(cluster_url)" || return 1
  echo "${url%@*}@127.0.0.1:$port/$database"
}

# Status 0 when PgBouncer answers on the saved port (admin console, as
# postgres, with its password).
is_ready() {
  local port url
  port="$(saved_port)" || return 1
  [ -n "$port" ] || return 1
  url="$(bouncer_url "$port" pgbouncer)" || return 1
  PGCONNECT_TIMEOUT=3 PGPASSFILE=/nonexistent/.pgpass psql -X -q -w -tA "$url" \
    -c 'SHOW VERSION' >/dev/null 2>&1 </dev/null
}

# postgres's SCRAM secret in the cluster (what userlist.txt holds).
postgres_secret() {
  local secret
  secret="$(PGPASSFILE=/nonexistent/.pgpass psql -X -q -w -tA "$(cluster_url)" -v ON_ERROR_STOP=1 \
    -c "SELECT rolpassword FROM pg_catalog.pg_authid WHERE rolname = 'postgres'" </dev/null)" ||
    die "could not read the SCRAM secret of postgres from the cluster in $cluster"
  case "$secret" in
    SCRAM-SHA-256\$*) echo "$secret" ;;
    *) die "postgres has no SCRAM password in the cluster in $cluster (run: scripts/pg.sh start $cluster)" ;;
  esac
}

lock() {
  mkdir -p "$dir"
  exec 9>"$dir/.lock"
  flock -w 300 9 || die "timed out waiting for lock $dir/.lock"
}

# gen_ini PORT CLUSTER_PORT : the configuration, on stdout.
gen_ini() {
  local port="$1" cport="$2"
  cat <<INI
; Written by scripts/pgbouncer.sh at every start; do not edit.
[databases]
; Fallback entry: every database of the cluster, under its own name, through
; the cluster's unix socket (its directory is open to this OS user only).
* = host=$cluster/run port=$cport

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
pidfile = $pidfile
logfile = $logfile
log_connections = 0
log_disconnections = 0

; Client authentication: every role gives its SCRAM password, postgres
; included (its secret is in userlist.txt). Roles not in userlist.txt are
; looked up with auth_query, run as auth_user in the database the client asks
; for (over the socket, where the cluster lets postgres in by peer
; authentication); PgBouncer then logs into PostgreSQL as the client's role by
; SCRAM pass-through.
auth_type = scram-sha-256
auth_file = $userlist
auth_user = postgres
auth_query = SELECT usename, passwd FROM pg_catalog.pg_shadow WHERE usename = \$1
admin_users = postgres

pool_mode = transaction
server_reset_query = DEALLOCATE ALL
server_reset_query_always = 1
ignore_startup_parameters = extra_float_digits

max_client_conn = 500
default_pool_size = 5
; Test databases come and go by the hundred: give idle server connections
; back to PostgreSQL soon (default 600 s), or they add up to max_connections.
server_idle_timeout = 10
INI
}

# gen_userlist : the auth_file, on stdout.
gen_userlist() {
  printf '"postgres" "%s"\n' "$(postgres_secret)"
}

# write_files PORT CLUSTER_PORT
write_files() {
  gen_ini "$1" "$2" >"$ini"
  (umask 077 && gen_userlist >"$userlist")
  rm -f "$hba"
  chown "$OS_USER" "$ini" "$userlist"
  chmod 600 "$ini" "$userlist"
}

# Status 0 while PID exists and is not a zombie (the daemon's parent is
# PID 1, which may reap it late or never).
pid_alive() {
  local state
  state="$(sed -n 's/^[0-9]* (.*) \([A-Za-z]\).*/\1/p' "/proc/$1/stat" 2>/dev/null)" || return 1
  [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

stop_pid() {
  local pid="$1"
  # SIGTERM: immediate shutdown (SIGINT would wait for clients to finish).
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do
    pid_alive "$pid" || break
    sleep 0.1
  done
  if pid_alive "$pid"; then
    kill -KILL "$pid" 2>/dev/null || true
    sleep 0.2
  fi
  ! pid_alive "$pid" || die "could not stop PgBouncer (pid $pid)"
  rm -f "$pidfile"
}

start_bouncer() {
  local cport="$1" port attempt
  port="$(saved_port || true)"
  for attempt in 1 2 3; do
    if [ -z "$port" ] || ! port_is_free "$port"; then
      port="$(free_port)"
    fi
    echo "$port" >"$portfile"
    write_files "$port" "$cport"
    rm -f "$pidfile"
    if as_bouncer_user "$PGBOUNCER" -d -q "$ini" >>"$logfile" 2>&1; then
      for _ in $(seq 1 100); do
        is_ready && return 0
        running_pid >/dev/null || break
        sleep 0.1
      done
    fi
    if pid="$(running_pid)"; then stop_pid "$pid"; fi
    if [ "$attempt" -eq 3 ]; then
      tail -n 20 "$logfile" >&2 || true
      die "could not start PgBouncer for $cluster (log: $logfile)"
    fi
    port=""
  done
}

cmd_start() {
  ensure_pgbouncer
  if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
    die "system user 'postgres' is missing (it comes with Debian's postgresql package)"
  fi
  "$ROOT/scripts/pg.sh" status "$cluster" ||
    die "no running cluster in $cluster: run scripts/pg.sh start $cluster first"
  local cport pid
  cport="$(cluster_port)" || die "no cluster port recorded in $cluster/port"
  lock
  chown "$OS_USER" "$dir"
  touch "$logfile"
  chown "$OS_USER" "$logfile"

  if pid="$(running_pid)"; then
    # Running: reuse it when it runs the configuration we would write now
    # (same cluster port, same secret of postgres); else restart it.
    if [ "$(gen_ini "$(saved_port)" "$cport")" = "$(cat "$ini" 2>/dev/null)" ] &&
      [ "$(gen_userlist)" = "$(cat "$userlist" 2>/dev/null)" ] && is_ready; then
      return 0
    fi
    stop_pid "$pid"
  fi
  rm -f "$pidfile"
  start_bouncer "$cport"
}

cmd_stop() {
  [ -d "$dir" ] || return 0
  lock
  local pid
  if pid="$(running_pid)"; then
    stop_pid "$pid"
  fi
  rm -f "$pidfile"
}

cmd_url() {
  local port
  port="$(saved_port)" || die "no PgBouncer port recorded in $portfile (run: scripts/pgbouncer.sh start $cluster)"
  [ -n "$port" ] || die "empty port file $portfile"
  bouncer_url "$port" postgres
}

cmd_status() {
  running_pid >/dev/null && is_ready
}

case "$cmd" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  url) cmd_url ;;
  status) cmd_status ;;
  *) usage ;;
esac
