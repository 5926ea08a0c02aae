"""``fragments``: the bounded regex pieces the rule tables are written with."""

from __future__ import annotations

import re

from pi_memory.security.fragments import alt, fill, sent


def test_fill_allows_at_most_n_filler_words() -> None:
    assert re.fullmatch(fill(2) + "x", "a b x")
    assert re.fullmatch(fill(2) + "x", "a, b x")  # a trailing comma is part of a word
    assert re.fullmatch(fill(2) + "x", "x")
    assert re.fullmatch(fill(2) + "x", "a b c x") is None


def test_sent_stays_inside_one_sentence() -> None:
    assert re.fullmatch("a" + sent(20) + "z", "a example.com z")  # a dot inside a token
    assert re.fullmatch("a" + sent(20) + "z", "a b\nc z")  # one line break
    assert re.fullmatch("a" + sent(20) + "z", "a b. c z") is None  # a sentence end
    assert re.fullmatch("a" + sent(20) + "z", "a b\n\nz") is None  # a blank line
    assert re.fullmatch("a" + sent(3) + "z", "a bcdefg z") is None  # the bound


def test_alt_is_a_non_capturing_alternation() -> None:
    assert alt("x", "y") == "(?:x|y)"
    match = re.fullmatch(alt("x", "y") + "z", "yz")
    assert match is not None and match.groups() == ()
