"""What a fresh process pays for its first scan: only what the text in front of it needs.

A one-shot CLI call imports the scanner and scans one note, so the scanner defers what such a
call does not need (modules only escaped text uses, regexes only a flagged line reads).
"""

from __future__ import annotations

import subprocess
import sys


def _fresh(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def test_importing_the_scanner_leaves_out_modules_a_plain_note_never_needs() -> None:
    out = _fresh(
        "import sys\n"
        "from pi_memory.security import scan\n"
        "scan('The deploy note says: rotate the logs weekly.')\n"
        "print(sorted(m for m in ('importlib.resources', 'urllib.parse', 'html', 'tempfile') if m in sys.modules))\n"
    )
    assert out == "[]"


def test_a_plain_note_compiles_none_of_the_link_and_destination_regexes() -> None:
    # citations and destinations are imported with the scanner; their regexes (the sink-host
    # alternation among them) are for text that names an address, and compile when one comes.
    out = _fresh(
        "from pi_memory.security import scan, citations, destinations\n"
        "scan('The deploy note says: rotate the logs weekly.')\n"
        "mods = (citations, destinations)\n"
        "lazy = [v for m in mods for v in vars(m).values() if type(v).__name__ == '_OnFirstUse']\n"
        "print(len(lazy), sum('search' in vars(v) for v in lazy))\n"
    )
    total, compiled = map(int, out.split())
    assert total >= 15 and compiled == 0
