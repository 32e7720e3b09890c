#!/usr/bin/env bash
# The project's clusters trust nobody: another local user cannot log in.
#
#   scripts/test-pg-trust.sh [CLUSTER_DIR]   (default <repo>/.data/pg-test)
#
# CLUSTER_DIR must hold a running cluster of scripts/pg.sh (`make test` starts
# it first). As another local user (TEST_OTHER_USER, default `nobody`; run
# through runuser when we are root, else `sudo -n`), every one of these must
# be refused:
#   - the unix socket, as postgres and as a throwaway LOGIN role, without a
#     password and with the role's right password (the socket directory is
#     closed to other users);
#   - TCP 127.0.0.1, as postgres and as that role, without a password and
#     with a wrong one;
#   - PgBouncer (when scripts/pgbouncer.sh runs for CLUSTER_DIR), as postgres
#     without a password and with a wrong one.
# Controls, which must connect: the same user over TCP with the role's right
# password (so the refusals above are the server's, not a broken psql), and
# the URL `scripts/pg.sh url` prints (and `scripts/pgbouncer.sh url`).
# The throwaway role is dropped at the end. No password is printed.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

cluster="$(absolute_dir "${1:-$ROOT/.data/pg-test}")"
other="${TEST_OTHER_USER:-nobody}"
sock="$cluster/run"

"$ROOT/scripts/pg.sh" status "$cluster" ||
  die "no running cluster in $cluster: run scripts/pg.sh start $cluster first"
port="$(tr -dc '0-9' <"$cluster/port")"
admin_url="$("$ROOT/scripts/pg.sh" url "$cluster")"
export PGPASSFILE=/nonexistent/.pgpass PGCONNECT_TIMEOUT=5
unset PGPASSWORD PGUSER PGHOST PGPORT PGDATABASE PGSERVICE

id "$other" >/dev/null 2>&1 || die "no local user '$other' (set TEST_OTHER_USER)"
if [ "$(id -u)" -eq 0 ]; then
  as_other() { runuser -u "$other" -- "$@"; }
elif [ "$(id -un)" != "$other" ] && sudo -n -u "$other" true 2>/dev/null; then
  as_other() { sudo -n --preserve-env=PGPASSWORD,PGPASSFILE,PGCONNECT_TIMEOUT -u "$other" -- "$@"; }
else
  note "test-pg-trust: SKIPPED: cannot run commands as another local user (run as root, or allow sudo -n -u $other)"
  exit 0
fi
[ "$(as_other id -u)" != "$(id -u)" ] || die "'$other' is the user running this test; set TEST_OTHER_USER"

# A throwaway LOGIN role, as a tenant role is: its own SCRAM password.
role="trust_probe_$(random_hex 6)"
role_pw="$(random_hex 24)"
drop_role() {
  psql -X -q -w "$admin_url" -c "DROP ROLE IF EXISTS \"$role\"" >/dev/null 2>&1 || true
}
trap drop_role EXIT
# The password on stdin, not on a command line.
printf '%s\n' "\\set pw '$role_pw'" "CREATE ROLE \"$role\" LOGIN PASSWORD :'pw'" |
  psql -X -q -w -v ON_ERROR_STOP=1 "$admin_url" >/dev/null

failures=0
# refused WHAT PASSWORD PSQL-ARGS... : as the other user, psql must fail to
# connect (exit status 2: no session), whatever the reason the server or the
# socket gives; PASSWORD empty means none is offered.
refused() {
  local what="$1" pw="$2" rc out
  shift 2
  set +e
  if [ -n "$pw" ]; then
    out="$(PGPASSWORD="$pw" as_other psql -X -q -w -tA "$@" -c 'SELECT current_user' 2>&1 </dev/null)"
  else
    out="$(as_other psql -X -q -w -tA "$@" -c 'SELECT current_user' 2>&1 </dev/null)"
  fi
  rc=$?
  set -e
  if [ "$rc" -eq 2 ]; then
    printf '  ok    refused: %s (%s)\n' "$what" "$(printf '%s' "$out" | tr '\n' ' ' | sed 's/^.* failed: //; s/ *$//' | cut -c1-100)" >&2
  else
    printf '  FAIL  %s: psql exited %d, expected a refused connection (2): %s\n' "$what" "$rc" "$out" >&2
    failures=$((failures + 1))
  fi
}

# accepted WHAT WANT_USER PSQL-ARGS... : psql (as whoever runs it; the
# password comes from PGPASSWORD or the URL) connects as WANT_USER.
accepted() {
  local what="$1" want="$2" got
  shift 2
  if got="$("$@" -c 'SELECT current_user' 2>&1 </dev/null)" && [ "$got" = "$want" ]; then
    printf '  ok    connects: %s\n' "$what" >&2
  else
    printf '  FAIL  %s: expected to connect as %s, got: %s\n' "$what" "$want" "$got" >&2
    failures=$((failures + 1))
  fi
}

note "test-pg-trust: as local user '$other', against $cluster (port $port)"
note "  socket directory $sock: $(stat -c '%A %U' "$sock")"
refused "socket, postgres, no password" "" -h "$sock" -p "$port" -U postgres -d postgres
refused "socket, $role, no password" "" -h "$sock" -p "$port" -U "$role" -d postgres
refused "socket, $role, its right password" "$role_pw" -h "$sock" -p "$port" -U "$role" -d postgres
refused "TCP 127.0.0.1, postgres, no password" "" -h 127.0.0.1 -p "$port" -U postgres -d postgres
refused "TCP 127.0.0.1, postgres, wrong password" "wrong-$role_pw" -h 127.0.0.1 -p "$port" -U postgres -d postgres
refused "TCP 127.0.0.1, $role, no password" "" -h 127.0.0.1 -p "$port" -U "$role" -d postgres
refused "TCP 127.0.0.1, $role, wrong password" "wrong-$role_pw" -h 127.0.0.1 -p "$port" -U "$role" -d postgres
PGPASSWORD="$role_pw" accepted "as '$other', TCP 127.0.0.1, $role with its password (control)" "$role" \
  as_other psql -X -q -w -tA -h 127.0.0.1 -p "$port" -U "$role" -d postgres
accepted "scripts/pg.sh url" postgres psql -X -q -w -tA "$admin_url"

if "$ROOT/scripts/pgbouncer.sh" status "$cluster"; then
  bouncer_url="$("$ROOT/scripts/pgbouncer.sh" url "$cluster")"
  bport="$(tr -dc '0-9' <"$cluster/pgbouncer/port")"
  refused "PgBouncer, postgres, no password" "" -h 127.0.0.1 -p "$bport" -U postgres -d postgres
  refused "PgBouncer, postgres, wrong password" "wrong-$role_pw" -h 127.0.0.1 -p "$bport" -U postgres -d postgres
  refused "PgBouncer, $role, wrong password" "wrong-$role_pw" -h 127.0.0.1 -p "$bport" -U "$role" -d postgres
  PGPASSWORD="$role_pw" accepted "as '$other', PgBouncer, $role with its password (control)" "$role" \
    as_other psql -X -q -w -tA -h 127.0.0.1 -p "$bport" -U "$role" -d postgres
  accepted "scripts/pgbouncer.sh url" postgres psql -X -q -w -tA "$bouncer_url"
else
  note "  (no PgBouncer running for $cluster: its checks are skipped)"
fi

if [ "$failures" -gt 0 ]; then
  die "test-pg-trust: $failures check(s) failed: another local user can log in to $cluster"
fi
note "test-pg-trust: another local user cannot log in"
