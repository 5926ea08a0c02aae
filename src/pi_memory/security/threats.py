"""The threat scanner that guards memory writes and system-prompt snapshots.

Pipeline (threats.md §5.2, docs/security.md):

1. Cut the text to :data:`MAX_SCAN_CHARS`; callers block longer snapshot entries outright.
2. Inspect raw code points (``unicode_rules``): smuggling carriers become
   ``invisible_unicode_U+XXXX`` findings and their hidden payloads become extra views.
3. Fold the text (ignorables stripped, NFKC, confusables, casefold) and derive the layout,
   leet and decoded-blob views only when the text shows the matching trick.
4. Run the anchored rule table (``engine``) over every view; the union of hits, de-duplicated
   by id, is the result.

Scopes nest: ``all`` ⊂ ``context`` ⊂ ``strict``. Memory writes and snapshots use ``strict``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from pi_memory.security import intent, normalize, unicode_rules
from pi_memory.security.engine import SCOPE_LEVELS, STRICT, Hit, Rule, RuleIndex, run_rules
from pi_memory.security.intent_match import forget_segments
from pi_memory.security.unicode_rules import INVISIBLE_CHARS

SCOPES = ("all", "context", "strict")
MAX_SCAN_CHARS = 65_536

__all__ = [
    "INVISIBLE_CHARS",
    "MAX_SCAN_CHARS",
    "SCOPES",
    "Finding",
    "first_threat_message",
    "rule_findings",
    "scan",
    "threat_ids",
]


@dataclass(frozen=True)
class Finding:
    """One reason to block.

    ``start``/``end`` index the scanned text when the match was made in a view that keeps
    offsets (raw code points, or case-folded ASCII); otherwise they span the whole scanned
    prefix. ``view`` names where the match was made (``text``, ``layout``, ``leet``,
    ``joined``, ``unescaped``, ``tag_payload``, ``vs_payload``, ``zw_payload``, ``base64``,
    ``hex``, ``escaped``, ``rot13``, ``raw`` for code-point findings, ``intent`` for the intent
    layer). ``sub_id`` is the taxonomy sub-category. ``evidence`` (intent findings only) names
    the concepts that carried the verdict; the rule id is the evidence of every other finding.
    Neither echoes the text.
    """

    id: str
    category: str
    start: int
    end: int
    sub_id: str = ""
    view: str = "text"
    evidence: tuple[str, ...] = ()


@cache
def _all_rules() -> tuple[Rule, ...]:
    from pi_memory.security import (
        rules_c2,
        rules_exfil,
        rules_exfil_ml,
        rules_injection,
        rules_persistence,
        rules_role,
    )

    return tuple(
        rules_injection.RULES + rules_role.RULES + rules_c2.RULES + rules_exfil.RULES + rules_persistence.RULES
        + rules_injection.ML_RULES + rules_role.ML_RULES + rules_exfil_ml.ML_RULES
    )


@cache
def _index(level: int, leet: bool) -> RuleIndex:
    rules = [r for r in _all_rules() if r.scope <= level and (r.leet or not leet)]
    return RuleIndex(rules)


@cache
def _leet_vocabulary() -> frozenset[str]:
    """Anchor words of the leet-enabled rules: the leet view is only worth building for these."""
    return frozenset(a.rstrip("*") for r in _all_rules() if r.leet for a in r.anchors)


def _level(scope: str) -> int:
    try:
        return SCOPE_LEVELS[scope]
    except (KeyError, TypeError):
        raise ValueError(f"unknown scope {scope!r}; use one of {SCOPES}") from None


def scan(text: str, scope: str = "strict") -> list[Finding]:
    """Findings for ``text`` at ``scope``: invisible-unicode ones first (one per distinct code
    point, or per smuggling run, in order of first appearance), then pattern findings in rule
    table order, each id at most once. Empty text gives ``[]``; an unknown scope raises."""
    return _scan(text, _level(scope), None)


def rule_findings(text: str, scope: str = "strict") -> list[Finding]:
    """:func:`scan` without the intent layer: the rule and unicode findings alone."""
    return _scan(text, _level(scope), None, with_intent=False)


def _scan(text: str, level: int, counter: list[int] | None, with_intent: bool = True) -> list[Finding]:
    if not text:
        return []
    forget_segments()  # the line readings memoised for one text, rule checks' included
    text = text[:MAX_SCAN_CHARS]
    findings: list[Finding] = []
    payloads: list[tuple[str, str]] = []
    stripped = True  # might the fold strip ignorables? (one pass over the text less when not)
    if not text.isascii() or normalize.has_control_chars(text):
        report = unicode_rules.inspect(text)
        findings.extend(
            Finding(f.id, "invisible_unicode", f.start, f.end, f.sub_id, "raw") for f in report.findings
        )
        payloads = report.payloads
        stripped = normalize.may_hold_ignorable(text, report.suspect)
    folded, plain = normalize.fold_both(text, ignorables=stripped)
    exact = len(folded) == len(text) and (text.isascii() or not (stripped and normalize.has_ignorable(text)))
    rule_hits = _rule_findings(text, folded, _views(text, folded, exact, payloads), level, counter)
    findings.extend(rule_hits)
    if with_intent and level >= STRICT and not rule_hits:
        found = _intent_finding(text, plain, exact)
        if found is not None:
            findings.append(found)
    return findings


def _views(
    text: str, folded: str, exact: bool, payloads: list[tuple[str, str]]
) -> list[tuple[str, str, bool]]:
    """``(name, view, keeps offsets)`` for every reading of the text the rules run over."""
    views: list[tuple[str, str, bool]] = [("text", folded, exact)]
    layout = normalize.layout_view(folded)
    if layout is not None:
        views.append(("layout", layout, False))
    for name, extra in (("joined", normalize.joined_view(text)), ("unescaped", normalize.unescaped_view(text))):
        if extra is not None and extra != folded:
            views.append((name, extra, False))
    views.extend((name, normalize.fold(payload), False) for name, payload in payloads)
    views.extend((name, normalize.fold(decoded), False) for name, decoded in normalize.decoded_views(text, folded))
    return views


def _rule_findings(
    text: str, folded: str, views: list[tuple[str, str, bool]], level: int, counter: list[int] | None
) -> list[Finding]:
    """Pattern findings in rule-table order, each id once (a rule's first hit over the views wins)."""
    index = _index(level, False)
    rules, shadowed = index.rules, index.shadowed
    hits: dict[int, tuple[Hit, str, bool]] = {}
    # A rule's first hit wins, and an id's first rule in table order wins over its later ones:
    # later views only evaluate the rules that could still change a finding.
    have: set[int] = set()
    for name, view, keeps_offsets in views:
        for hit in run_rules(index, view, counter, have):
            hits[id(hit.rule)] = (hit, name, keeps_offsets)
            have.add(id(hit.rule))
            have.update(id(rules[j]) for j in shadowed[index.order[id(hit.rule)]])
    leet = normalize.leet_view(folded, _leet_vocabulary())
    if leet is not None:
        for hit in run_rules(_index(level, True), leet, counter, have):
            hits[id(hit.rule)] = (hit, "leet", False)
    order = index.order
    seen: set[str] = set()
    out: list[Finding] = []
    for hit, name, keeps_offsets in sorted(hits.values(), key=lambda h: order[id(h[0].rule)]):
        r = hit.rule
        if r.id not in seen:
            seen.add(r.id)
            start, end = (hit.start, hit.end) if keeps_offsets else (0, len(text))
            out.append(Finding(r.id, r.category, start, end, r.sub_id, name))
    return out


def _intent_finding(text: str, plain: str, exact: bool) -> Finding | None:
    """The intent layer's verdict on ``plain``, the text folded keeping every script as written
    (no look-alike folding); its offsets index ``text`` only when that is ASCII."""
    found = intent.detect(plain)
    if found is None:
        return None
    start, end = (found.start, found.end) if exact and text.isascii() else (0, len(text))
    return Finding(f"intent_{found.intent}", found.intent, start, end, "intent", "intent", found.evidence)


def threat_ids(text: str, scope: str = "strict") -> list[str]:
    """De-duplicated finding ids of ``text`` in order."""
    return list(dict.fromkeys(f.id for f in scan(text, scope)))


def first_threat_message(text: str, scope: str = "strict") -> str | None:
    """A refusal message for the first finding, or ``None`` when clean. Never echoes the text."""
    findings = scan(text, scope)
    if not findings:
        return None
    first = findings[0]
    if first.category == "invisible_unicode":
        code_point = first.id.rsplit("_", 1)[-1]
        return f"Blocked: content contains invisible unicode character {code_point} (possible injection)."
    if first.view == "intent":
        carried = ", ".join(f"'{w}'" for w in first.evidence) or "the wording as a whole"
        return (
            f"Blocked: content reads as {_INTENT_WORDS.get(first.category, 'a dangerous instruction')} "
            f"('{first.id}', carried by {carried}). Content is injected into the system prompt and must not "
            "contain injection or exfiltration payloads."
        )
    return (
        f"Blocked: content matches threat pattern '{first.id}'. Content is injected into the system prompt "
        "and must not contain injection or exfiltration payloads."
    )


_INTENT_WORDS = {
    "prompt_injection": (
        "an instruction to override the agent's rules, skip confirmation or hide something from the user"
    ),
    "role_hijack": "an attempt to replace the agent's persona or role",
    "c2": "an instruction to take orders from a remote channel",
    "exfiltration": "an instruction to send data out",
    "persistence": "an instruction to make something re-run or persist",
}


def _scan_work(text: str, scope: str = "strict") -> int:
    """Characters examined by the rule engine for ``text`` (a deterministic cost measure for tests)."""
    counter = [0]
    _scan(text, _level(scope), counter)
    return counter[0]
