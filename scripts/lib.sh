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
