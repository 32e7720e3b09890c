#!/usr/bin/env bash
# Installs what `make run` / `make test` / `make bench` need; idempotent and
# quick when everything is present.
#
#   scripts/deps.sh             PostgreSQL server, PgBouncer (+ curl, openssl, python3-venv), frontend node_modules
#   scripts/deps.sh --browser   also Debian's chromium (/usr/bin/chromium) for e2e tests
#
# Never downloads a Playwright/Puppeteer browser.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

browser=0
for arg in "$@"; do
  case "$arg" in
    --browser) browser=1 ;;
    -h | --help)
      sed -n '2,8p' "$0"
      exit 0
      ;;
    *) die "unknown argument: $arg (usage: $0 [--browser])" ;;
  esac
done

export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export PUPPETEER_SKIP_DOWNLOAD=1

# --- toolchains (never installed here) -------------------------------------
cargo_on_path
command -v cargo >/dev/null 2>&1 ||
  die "cargo not found: install the Rust toolchain (rustup) and make sure cargo is on PATH"
command -v node >/dev/null 2>&1 || die "node not found: install Node.js 20+ (with npm)"
if [ -f "$ROOT/frontend/package.json" ]; then
  command -v npm >/dev/null 2>&1 || die "npm not found: install npm alongside Node.js"
fi

# --- Debian packages ---------------------------------------------------------
pkgs=()
pg_bindir_newest >/dev/null || pkgs+=(postgresql)
# Debian's pgbouncer lives in /usr/sbin (not on a non-root PATH).
have_pgbouncer() { [ -x /usr/sbin/pgbouncer ] || command -v pgbouncer >/dev/null 2>&1; }
have_pgbouncer || pkgs+=(pgbouncer)
command -v curl >/dev/null 2>&1 || pkgs+=(curl)
command -v openssl >/dev/null 2>&1 || pkgs+=(openssl)
command -v flock >/dev/null 2>&1 || pkgs+=(util-linux)
# The label tests render PDFs to images (pdftoppm) and text (pdftotext).
command -v pdftoppm >/dev/null 2>&1 || pkgs+=(poppler-utils)
# scripts/schemathesis.sh makes a virtualenv (Debian splits venv and pip off).
if ! command -v python3 >/dev/null 2>&1; then
  pkgs+=(python3 python3-venv)
elif ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  pkgs+=(python3-venv)
fi
if [ "$browser" = 1 ] && [ ! -x /usr/bin/chromium ]; then
  pkgs+=(chromium)
fi
if [ "${#pkgs[@]}" -gt 0 ]; then
  apt_install "${pkgs[@]}"
fi
pg_bindir_newest >/dev/null || die "PostgreSQL server binaries missing under /usr/lib/postgresql/*/bin"
have_pgbouncer || die "pgbouncer missing (/usr/sbin/pgbouncer) after installing Debian's pgbouncer"
if [ "$browser" = 1 ] && [ ! -x /usr/bin/chromium ]; then
  die "/usr/bin/chromium missing after installing Debian's chromium"
fi

# --- frontend node_modules ---------------------------------------------------
fe="$ROOT/frontend"
if [ -f "$fe/package.json" ]; then
  need=0
  if [ ! -d "$fe/node_modules" ]; then
    need=1
  elif [ -f "$fe/package-lock.json" ]; then
    if [ "$fe/package-lock.json" -nt "$fe/node_modules" ]; then need=1; fi
  elif [ "$fe/package.json" -nt "$fe/node_modules" ]; then
    need=1
  fi
  if [ "$need" = 1 ]; then
    if [ -f "$fe/package-lock.json" ]; then
      note "deps: npm ci in frontend/"
      (cd "$fe" && npm ci --no-audit --no-fund >&2) || die "npm ci failed in frontend/"
    else
      note "deps: npm install in frontend/ (no package-lock.json)"
      (cd "$fe" && npm install --no-audit --no-fund >&2) || die "npm install failed in frontend/"
    fi
    # npm may leave the directory's own mtime alone; mark it up to date.
    touch "$fe/node_modules"
  fi
fi
