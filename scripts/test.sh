#!/usr/bin/env bash
# Set up everything the test-suite needs (idempotent), then run it.
# Usage: bash scripts/test.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev,chroma,integrations]'

# The Chroma server for the recall index suite (chroma:// backend). chromadb (the server) pulls in
# far more than our client needs, so it lives in its own venv; the tests start `chroma run` from it
# on loopback. Idempotent: skipped when the binary is there.
CHROMA_VENV=${PI_MEMORY_CHROMA_VENV:-/tmp/pi-memory-chroma-venv}
if [ ! -x "$CHROMA_VENV/bin/chroma" ]; then
  "$PY" -m venv "$CHROMA_VENV"
  "$CHROMA_VENV/bin/python" -m pip install -q --disable-pip-version-check 'chromadb>=1.0'
fi
export PI_MEMORY_CHROMA_BIN="$CHROMA_VENV/bin/chroma"

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

# The UI's browser tests drive Debian's Chromium through playwright (never `playwright install`,
# which downloads a browser build).
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null
  else
    echo "the UI browser tests need Debian's chromium at /usr/bin/chromium: run 'sudo apt-get install chromium'" >&2
    exit 1
  fi
fi

# --maxschedchunk 8: tests go to the workers a few at a time, so the long ones, which
# tests/conftest.py puts first, spread over both workers and none is left alone at the end.
exec .venv/bin/python -m pytest -q -n 2 --maxschedchunk 8 "$@"
