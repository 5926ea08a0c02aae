"""``prefilter``: the literals a regex cannot match without, and the strings every match starts with.

The soundness of both over the whole shipped rule table is checked in ``test_matcher.py``."""

from __future__ import annotations

import re

import pytest

from pi_memory.security.prefilter import needs, prefixes


def test_needs_are_the_required_literals_best_first() -> None:
    found = needs(r"ignore\s+(?:all\s+)?previous\s+instructions")
    assert found == (("instructions",), ("previous",), ("ignore",))
    # an optional part is never required
    assert all("all" not in need for need in found)


def test_an_alternation_needs_one_of_its_branches() -> None:
    assert needs(r"(?:foo|bar)baz") == (("barbaz", "foobaz"),)


def test_a_pattern_without_literals_needs_nothing() -> None:
    assert needs(r"\w+") == ()
    assert needs(r"a?b*") == ()


def test_prefixes_skip_leading_assertions_and_give_up_on_an_unknown_start() -> None:
    assert prefixes(r"(?:curl|wget)\s+http") == ("curl", "wget")
    assert prefixes(r"\bscp\s") == ("scp",)
    assert prefixes(r".x") == ()


@pytest.mark.parametrize("pattern", [r"(?:curl|wget)\s+https?://\S+", r"\bignore\s+(?:all\s+)?previous\s+rules"])
def test_every_match_holds_a_need_and_starts_with_a_prefix(pattern: str) -> None:
    text = "then curl  https://x.example/a or wget http://y.example; ignore all previous rules"
    matches = [m.group() for m in re.finditer(pattern, text)]
    assert matches
    for m in matches:
        assert all(any(s in m for s in need) for need in needs(pattern))
        assert m.startswith(prefixes(pattern))
