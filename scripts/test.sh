#!/usr/bin/env bash
# Set up everything the test-suite needs (idempotent), then run it.
# Usage: bash scripts/test.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]'

# The real Node peers (pi's SessionManager, proper-lockfile), pinned by the lock file.
if command -v npm >/dev/null 2>&1; then
  if [ ! -d tests/interop/node_modules ] || [ tests/interop/package-lock.json -nt tests/interop/node_modules ]; then
    npm ci --prefix tests/interop --no-audit --no-fund --loglevel=error
    touch tests/interop/node_modules
  fi
else
  echo "npm not found: interop tests need Node 20+ and npm" >&2
  exit 1
fi

exec .venv/bin/python -m pytest -q -n 2 "$@"
