#!/usr/bin/env bash
# `make bench`: run the `platform`, `codes`, `scans`, `pharma`, `inventory`, `manufacturing` and `trace` benchmarks against a local cluster at
# .data/pg-bench (durable settings, not PG_FAST). The bench writes
# docs/benchmarks.md itself. The cluster is left running; `make clean-data`
# stops it.
#
# Env passed to cargo bench: BENCH_DATABASE_URL=postgres://postgres:<password>@127.0.0.1:<port>/postgres
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

"$ROOT/scripts/deps.sh"
cargo_on_path

unset PG_FAST
"$ROOT/scripts/pg.sh" start "$ROOT/.data/pg-bench"
BENCH_DATABASE_URL="$("$ROOT/scripts/pg.sh" url "$ROOT/.data/pg-bench")"
export BENCH_DATABASE_URL

cargo bench --manifest-path backend/Cargo.toml --bench platform
cargo bench --manifest-path backend/Cargo.toml --bench codes
cargo bench --manifest-path backend/Cargo.toml --bench scans
cargo bench --manifest-path backend/Cargo.toml --bench pharma
cargo bench --manifest-path backend/Cargo.toml --bench inventory
cargo bench --manifest-path backend/Cargo.toml --bench manufacturing
cargo bench --manifest-path backend/Cargo.toml --bench trace
