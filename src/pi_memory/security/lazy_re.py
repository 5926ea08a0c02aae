"""Regexes compiled on first use, as drop-in stand-ins for ``re.compile`` at module level.

Why: ``re`` compiles in Python, and a character class over a wide range of code points (all
of CJK, say) costs milliseconds to compile, a real share of what importing the scanner costs.
Patterns that only a rare text reaches (a flagged line's mood, a script a note seldom uses)
should not be paid for by a process that scans one English note. The stand-in keeps the call
sites as they are: after the first call its pattern methods are plain attributes, so later calls
cost no more than a compiled pattern's. Every deferred regex of the scanner uses it.
"""

from __future__ import annotations

import re
from typing import Any, cast

__all__ = ["compile_lazily"]

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner")


class _OnFirstUse:
    """Compiles ``source`` when a pattern attribute is first asked for, then keeps the methods."""

    def __init__(self, source: str, flags: int) -> None:
        self.pattern = source  # read without compiling (``_RUN = compile_lazily(_ONE.pattern + "+")``)
        self._flags = flags

    def __getattr__(self, name: str) -> Any:  # only called for attributes not set yet
        compiled = re.compile(self.pattern, self._flags)
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        self.flags, self.groups, self.groupindex = compiled.flags, compiled.groups, compiled.groupindex
        return getattr(compiled, name)


def compile_lazily(source: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(source, flags)``, deferred to the first search, match or sub."""
    return cast(re.Pattern[str], _OnFirstUse(source, flags))
