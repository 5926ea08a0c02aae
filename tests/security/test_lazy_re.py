"""``compile_lazily``: a module-level regex compiled on first use matches as ``re.compile``'s."""

from __future__ import annotations

import re

from pi_memory.security.lazy_re import compile_lazily


def test_a_lazily_compiled_pattern_matches_as_the_compiled_one() -> None:
    source = r"[\u3040-\u30ff\u3400-\u9fff]+|\b\w+ed\b"
    lazy, eager = compile_lazily(source), re.compile(source)
    assert lazy.pattern == source
    for text in ("日本語のテキスト and a finished line", "nothing here", "ゆっくり moved"):
        found = lazy.search(text)
        assert (found and found.span()) == ((m := eager.search(text)) and m.span())
        assert lazy.findall(text) == eager.findall(text)
        assert lazy.sub("_", text) == eager.sub("_", text)
