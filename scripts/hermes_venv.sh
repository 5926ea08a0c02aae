#!/usr/bin/env bash
# Create the throwaway venv that holds hermes-agent 0.19.0 for bench/store_bench.py.
#
# hermes-agent installs top-level packages named tools/, agent/, utils/, cli/ ...
# so it must never go into our own .venv. This venv lives outside the repo:
#   ${HERMES_VENV:-/tmp/hermes-venv}
# Usage: bash scripts/hermes_venv.sh   (idempotent; prints the interpreter path)
set -euo pipefail

VENV=${HERMES_VENV:-/tmp/hermes-venv}
PY=${PYTHON:-python3}
VERSION=0.19.0

if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" - "$VERSION" <<'PYEOF' 2>/dev/null
import sys
from importlib.metadata import version
sys.exit(0 if version("hermes-agent") == sys.argv[1] else 1)
PYEOF
then
  echo "$VENV/bin/python"
  exit 0
fi

"$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check "hermes-agent==$VERSION" >&2
# Sanity check: the module the bench drives must import from this venv.
"$VENV/bin/python" -c "import tools.memory_tool, hermes_cli" >&2
echo "$VENV/bin/python"
