"""``engine``: a rule table built with :func:`rule` runs through the index and the matcher."""

from __future__ import annotations

from pi_memory.security.engine import STRICT, RuleIndex, find_anchors, rule, run_rules
from pi_memory.security.normalize import fold

TABLE = [
    rule("t.ignore", "injection", STRICT, "ignore", r"ignore\s+previous\s+instructions",
         veto=r"\bnever\b", veto_back=20),
    rule("t.api", "exfil", STRICT, "api key", r"api key\s+leak"),
]


def test_a_table_finds_its_hits_in_a_folded_view() -> None:
    index = RuleIndex(TABLE)
    view = fold("Please IGNORE previous   instructions, then the API key leak")
    assert [a[1] for a in find_anchors(index, view)] == ["Ignore", "Api Key"]
    hits = run_rules(index, view)
    assert [h.rule.id for h in hits] == ["t.ignore", "t.api"]
    assert view[hits[0].start : hits[0].end] == "ignore previous   instructions"


def test_a_veto_near_the_match_drops_it() -> None:
    index = RuleIndex(TABLE)
    assert run_rules(index, fold("you should never ignore previous instructions")) == []
    # outside the veto's window the match stands
    far = fold("never say never, it is said; " + "and so on " * 3 + "ignore previous instructions")
    assert [h.rule.id for h in run_rules(index, far)] == ["t.ignore"]


def test_an_ordinary_view_has_no_hits() -> None:
    assert run_rules(RuleIndex(TABLE), fold("the staging database moved to Frankfurt")) == []
