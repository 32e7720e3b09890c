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
