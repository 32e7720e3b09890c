#!/usr/bin/env bash
# The independent GS1 parser the Rust tests check Digital Link URIs with
# (biip, pinned in tools/gs1/requirements.txt), in .venv-gs1/. `make test`
# runs it before `cargo test`; backend/tests/api/codes.rs finds the venv
# there (or at GS1_PYTHON).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
command -v python3 >/dev/null 2>&1 || die "python3 not found (scripts/deps.sh installs it)"
pinned_venv "$ROOT/.venv-gs1" "$ROOT/tools/gs1/requirements.txt" \
  "$ROOT/.venv-gs1/bin/python" -c 'import biip; print("biip", biip.__version__)'
