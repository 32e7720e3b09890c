#!/usr/bin/env bash
# `make clean-data`: stop every project-local cluster (and the PgBouncer in
# front of it) under .data and remove .data.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

[ -d .data ] || exit 0
for d in .data/*/; do
  d="${d%/}"
  if [ -f "$d/pgbouncer/pgbouncer.ini" ]; then
    "$ROOT/scripts/pgbouncer.sh" stop "$ROOT/$d" || die "could not stop the PgBouncer in $d/pgbouncer; not removing .data"
  fi
  if [ -f "$d/data/PG_VERSION" ]; then
    "$ROOT/scripts/pg.sh" stop "$ROOT/$d" || die "could not stop the cluster in $d; not removing .data"
  fi
done
rm -rf .data
