"""TEMPORARY minimal scanner: the real one is being written (see docs/security.md when done)."""

from __future__ import annotations

import re
from dataclasses import dataclass

SCOPES = ("all", "context", "strict")
MAX_SCAN_CHARS = 65_536
INVISIBLE_CHARS = frozenset("\u200b\u200c\u200d\u2060\u2062\u2063\u2064\ufeff\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


@dataclass(frozen=True)
class Finding:
    id: str
    category: str
    start: int
    end: int


_PATTERNS = [
    (re.compile(r"ignore\s+(?:\w+\s+){0,8}(previous|all|above|prior)\s+(?:\w+\s+){0,8}instructions", re.I),
     "prompt_injection", "prompt_injection", "all"),
]


def scan(text: str, scope: str = "strict") -> list[Finding]:
    if scope not in SCOPES:
        raise ValueError(f"unknown scope {scope!r}; use one of {SCOPES}")
    out: list[Finding] = []
    for i, ch in enumerate(text):
        if ch in INVISIBLE_CHARS:
            out.append(Finding(f"invisible_unicode_U+{ord(ch):04X}", "invisible_unicode", i, i + 1))
    for rx, pid, cat, _ in _PATTERNS:
        m = rx.search(text)
        if m:
            out.append(Finding(pid, cat, m.start(), m.end()))
    return out


def threat_ids(text: str, scope: str = "strict") -> list[str]:
    return list(dict.fromkeys(f.id for f in scan(text, scope)))


def first_threat_message(text: str, scope: str = "strict") -> str | None:
    findings = scan(text, scope)
    if not findings:
        return None
    f = findings[0]
    if f.category == "invisible_unicode":
        return f"Blocked: content contains invisible unicode character {f.id.split('_')[-1]} (possible injection)."
    return (f"Blocked: content matches threat pattern '{f.id}'. Content is injected into the system prompt "
            "and must not contain injection or exfiltration payloads.")
