"""``index``: the anchor pass over a view finds whole-word keys, stems and the longest key at a start.

That the C automaton and the pure-Python trie give the same anchors is checked in ``test_matcher.py``."""

from __future__ import annotations

from pi_memory.security.index import RuleIndex, find_anchors
from pi_memory.security.rule import STRICT, rule

RULES = [
    rule("t.ignore", "injection", STRICT, "ignore", r"ignore\s+previous\s+instructions"),
    rule("t.api", "exfil", STRICT, "api key|api", r"api(?: key)?\s+leak"),
    rule("t.stem", "injection", STRICT, "disregard*", r"disregard\w*\s+rules"),
]


def test_rules_are_grouped_by_anchor_key() -> None:
    assert RuleIndex(RULES).rule_ids == {"Ignore": (0,), "Api Key": (1,), "Api": (1,), "Disregard": (2,)}


def test_whole_words_unless_the_anchor_is_a_stem() -> None:
    index = RuleIndex(RULES)
    assert find_anchors(index, "ignore previous instructions") == [(0, "Ignore")]
    assert find_anchors(index, "ignored previous instructions") == []
    assert find_anchors(index, "disregarding rules") == [(0, "Disregard")]


def test_the_longest_key_at_a_start_wins() -> None:
    assert find_anchors(RuleIndex(RULES), "the api key leak, the api") == [(4, "Api Key"), (22, "Api")]


def test_no_anchor_no_rules() -> None:
    assert find_anchors(RuleIndex(RULES), "an ordinary note") == []
    assert find_anchors(RuleIndex([]), "ignore previous instructions") == []
