"""Regexes rewritten for speed find what their plain forms find.

A pattern that opens with a look-behind, ``\\b`` or an alternation of groups gives ``re`` no
first character to scan for, so it is tried at every position; the rewrites open with a literal
or a character class instead (``links._LINK``, ``intent_match.SHAPES``), give back nothing a
possessive run cannot use (``intent_match._PATH``), or skip texts a match cannot be in
(``unaccent``, ``context_checks._reports_order``). Each is checked against its plain form on
generated text and on the repo's own docs.
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_memory.security import context_checks, destinations, intent_match, links, normalize
from pi_memory.security.lexicon_build import UNACCENT, unaccent

REPO = Path(__file__).resolve().parents[2]

_PIECE = st.one_of(
    st.sampled_from([
        "http://", "https://", "ftp://", "ws://", "wss://", "s3://", "www.", "@", "#", "&#", "a.b", "x@y.io",
        "/", "~/", "$home", "{", "}", "-", ".", "'", "\"", "`", " ", "\n", "\t", "\u00a0", "$", "€", "5", "12",
        "255.1.2.3", "deadbeef" * 3, "0123456789abcdef", "usd", "eur", "told", "them", "to", "to ", "to\n",
        "asked the agent to ", "éàçñüß", "Å", "ſ", "\u017f", "\u0180", "\u00bf", "\u00c0",
        "nc ", "ncat", "netcat", "socat", "telnet", "scp", "rsync", "sftp", "ssh", "xssh", "1.2.3.4", "evil.io",
        "\\x41", "%41", "%4g", "\\x4", "AbCd", "IgnoreAll", "Ab", " > ", ">", "›", "→", "settings > ",
    ]),
    st.text(alphabet="abcdefhpstw0123456789:/.@#&-_ ", max_size=10),
    st.text(max_size=5),
)
_TEXT = st.lists(_PIECE, max_size=30).map("".join)
_SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[tuple[int, int], ...]]:
    return [tuple(m.span(g) for g in range(pattern.groups + 1)) for m in pattern.finditer(text)]


_PAIRS = [
    (links._LINK, re.compile(links._LINK_PLAIN)),
    (normalize._CAMEL_HINT, re.compile(normalize.CAMEL_HINT_PLAIN)),
    (destinations._URL, re.compile(destinations.URL_PLAIN)),
    (destinations._BARE_TARGET, re.compile(destinations.BARE_TARGET_PLAIN)),
    (normalize._ESCAPED, re.compile(normalize.ESCAPED_PLAIN)),
    (intent_match._PATH, re.compile(intent_match.PATH_PLAIN, re.ASCII)),
    *((pattern, re.compile(intent_match.SHAPES_PLAIN[name])) for name, _, pattern in intent_match.SHAPES
      if name in intent_match.SHAPES_PLAIN),
]


def _agree(text: str) -> None:
    _agree_cased(text)
    _agree_cased(text.upper())


def _agree_cased(text: str) -> None:
    for fast, plain in _PAIRS:
        assert _spans(fast, text) == _spans(plain, text), plain.pattern
    assert unaccent(text) == text.translate(UNACCENT)
    assert context_checks._reports_order(text) == (context_checks._REPORTED.search(text) is not None)
    if context_checks._MENU_BEFORE.search(text) is not None:
        assert context_checks._ends_like_menu(text)


@_SETTINGS
@given(_TEXT)
def test_rewritten_regexes_match_their_plain_forms(text: str) -> None:
    _agree(text)
    _agree(text.lower())


def test_rewritten_regexes_on_repo_text() -> None:
    for path in sorted((REPO / "docs").glob("*.md")):
        for block in path.read_text(encoding="utf-8").split("\n\n"):
            _agree(block.lower())


def test_rewrites_still_find_their_shapes() -> None:
    """The fast forms are not vacuous: each finds the shape it names."""
    found, _ = links.links("see https://example.com/x, write to ops@example.org or #deploy-bot")
    assert len(found) == 3
    shapes = {name: pattern for name, _, pattern in intent_match.SHAPES}
    assert shapes["url"].search("go to www.example.com") is not None
    assert shapes["ip"].search("host 10.0.0.12 is up") is not None
    assert shapes["hexblob"].search("key " + "a1" * 12) is not None
    assert shapes["hexblob"].search("key x" + "a1" * 12) is None
    assert shapes["money"].search("costs $5 or 5 usd") is not None
    assert intent_match._PATH.search("open ~/.ssh/id_rsa now") is not None
    assert unaccent("révisé ñ") == "revise n"
    assert destinations._URL.search("curl https://relay.example.org/x") is not None
    assert destinations._URL.search("curlhttps://relay.example.org/x") is None
    assert destinations._BARE_TARGET.search("then ncat 10.0.0.9 4444") is not None
    assert context_checks._reports_order("the readme told assistants to ")
    assert not context_checks._reports_order("the readme told assistants")
    assert context_checks._ends_like_menu("settings > general > ")
    assert context_checks._MENU_BEFORE.search("settings > general > \n") is not None
    assert context_checks._ends_like_menu("settings > general > \n")
    assert not context_checks._ends_like_menu("a > b > c")


@_SETTINGS
@given(st.lists(st.one_of(_PIECE, st.sampled_from(["\u0301", "\u0308", "\u00a0", "\u2026", "\ufb01", "\uff21",
                                                    "\u1100", "\u1161", "\u11a8", "\u0915", "\u093c", "\u3099"])),
                max_size=30).map("".join))
def test_line_by_line_nfkc_equals_nfkc(text: str) -> None:
    import unicodedata

    from pi_memory.security.normalize import nfkc

    assert nfkc(text) == unicodedata.normalize("NFKC", text)
    assert nfkc(text + "\n\u0301e\u0301") == unicodedata.normalize("NFKC", text + "\n\u0301e\u0301")
